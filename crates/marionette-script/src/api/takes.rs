//! Takes: named scenarios of parameter keys and triggers.
//!
//! ```lua
//! takes {
//!   walk_to_run = { duration = 4, fps = 60,
//!     speed = { {0, 0}, {1, 1.4}, {3, 4.0} },      -- float keys, linear (add step = true to hold)
//!     jump  = { 2.0 },                            -- trigger times
//!     look  = { {0, {0, 1.6, 2}}, {4, {1, 1.6, 2}} },
//!   },
//! }
//! ```
//!
//! Parameter keys may also go in `keys = { ... }` (needed for a parameter named like a take
//! option: `duration`, `fps`, `keys`, `markers`, `assert_motion`, `passes`). Before a parameter's first key its value is the
//! first key's value (held), after the last key the last one.

use mlua::{Lua, Table, Value};

use super::{
    err, locate,
    params::vec3_arg,
    record,
    strict::{describe, did_you_mean, number, opt_bool},
    with_builder,
};
use crate::Location;
use marionette_anim::graph::{KeyInterpolation, ParamValue, Take};

/// Keys of a take that are not parameters. A parameter with one of these names is keyed inside
/// `keys = { ... }`.
const TAKE_KEYS: [&str; 6] = [
    "duration",
    "fps",
    "keys",
    "markers",
    "assert_motion",
    "passes",
];

/// The rules every take's key times follow ([`Take::times_problem`], shared with the editor's
/// sidecar).
fn check_times(times: &[f32], what: &str, duration: f32) -> mlua::Result<()> {
    match Take::times_problem(times, duration) {
        Some(problem) => Err(err(format!("{what}: {problem}"))),
        None => Ok(()),
    }
}

/// `markers = { {0.5, "contact_l"}, {1.0, "contact_r"} }`: named times inside the take.
fn parse_markers(t: &Table, take: &str, duration: f32) -> mlua::Result<Vec<(f32, String)>> {
    let what = format!("take '{take}', markers");
    let mut list = Vec::new();
    for (i, m) in t.sequence_values::<Value>().enumerate() {
        let Value::Table(m) = m? else {
            return Err(err(format!(
                "{what}: marker {} must be {{ time, \"name\" }}",
                i + 1
            )));
        };
        let time = number(&m.get(1)?, &what)?;
        let name = match m.get::<Value>(2)? {
            Value::String(s) => s.to_str()?.to_string(),
            other => {
                return Err(err(format!(
                    "{what}: marker {} needs a name string, got {}",
                    i + 1,
                    describe(&other)
                )))
            }
        };
        if !(0.0..=duration).contains(&time) {
            return Err(err(format!(
                "{what}: time {time} is outside the take (0 to {duration} s)"
            )));
        }
        list.push((time, name));
    }
    list.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(list)
}

/// Parses one take definition: parameter tracks in the order of their names (each trigger's
/// times among the take's triggers in that order too), markers sorted by time.
fn parse_take(lua: &Lua, name: String, def: &Table) -> mlua::Result<Take> {
    let duration = match def.get::<Value>("duration")? {
        Value::Nil => return Err(err(format!("take '{name}': give duration = seconds"))),
        v => number(&v, &format!("take '{name}': duration"))?,
    };
    let fps = match def.get::<Value>("fps")? {
        Value::Nil => 60.0,
        v => number(&v, "fps")?,
    };
    // the rules every take's timing follows, shared with the editor's sidecar
    if let Some(problem) = Take::timing_problem(duration, fps) {
        return Err(err(format!("take '{name}': {problem}")));
    }
    let params = with_builder(lua, |b| Ok(b.spec.params.clone()))?;
    let known: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let mut take = Take::new(name.clone(), duration).fps(fps);
    let mut keys: Vec<(String, Table)> = Vec::new();
    let mut add_key = |k: String, v: Value, nested: bool| -> mlua::Result<()> {
        if !known.contains(&k.as_str()) {
            let mut names: Vec<&str> = known.clone();
            if !nested {
                names.extend(TAKE_KEYS);
            }
            return Err(err(format!(
                "take '{name}': '{k}' is neither a take option ({}) nor a declared parameter{}",
                TAKE_KEYS.join(", "),
                did_you_mean(&k, names.iter().copied())
            )));
        }
        let Value::Table(t) = v else {
            return Err(err(format!(
                "take '{name}': '{k}' must be a list of keys, got {}",
                describe(&v)
            )));
        };
        if keys.iter().any(|(n, _)| *n == k) {
            return Err(err(format!(
                "take '{name}': '{k}' is keyed twice (in keys = {{ }} and next to it)"
            )));
        }
        keys.push((k, t));
        Ok(())
    };
    if let Some(nested) = def.get::<Option<Table>>("keys")? {
        for pair in nested.pairs::<String, Value>() {
            let (k, v) = pair?;
            add_key(k, v, true)?;
        }
    }
    for pair in def.pairs::<String, Value>() {
        let (k, v) = pair?;
        if TAKE_KEYS.contains(&k.as_str()) {
            continue;
        }
        add_key(k, v, false)?;
    }
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    for (param, t) in keys {
        let what = format!("take '{name}', {param}");
        let Some(p) = params.iter().find(|p| p.name == param) else {
            return Err(err(format!("{what}: unknown parameter")));
        };
        let step = opt_bool(&t, "step", &what)?.unwrap_or(false);
        let interpolation = if step {
            KeyInterpolation::Step
        } else {
            KeyInterpolation::Linear
        };
        // the list: its keys, and `step` for what interpolates (strict like every options table)
        let interpolates = matches!(p.default, ParamValue::Float(_) | ParamValue::Vec3(_));
        let list_keys: &[&str] = if interpolates { &["step"] } else { &[] };
        super::strict::check_keys(&t, &what, list_keys, t.raw_len())?;
        // each key: its time and value, nothing else (`{ 0, 0, bogus = 12 }` is a mistake)
        let key_size = if matches!(p.default, ParamValue::Trigger(_)) {
            0
        } else {
            2
        };
        for k in t.sequence_values::<Value>() {
            if let (Value::Table(k), true) = (k?, key_size > 0) {
                let key = format!("{what}: a key {{ time, value }}");
                super::strict::check_keys(&k, &key, &[], key_size)?;
            }
        }
        take = match p.default {
            ParamValue::Trigger(_) => {
                let mut times = Vec::new();
                for v in t.sequence_values::<Value>() {
                    let v = v?;
                    if let Value::Table(_) = v {
                        return Err(err(format!(
                            "{what}: a trigger's keys are a list of times ({{ 0.5, 2 }}), got a table"
                        )));
                    }
                    times.push(number(&v, &what)?);
                }
                check_times(&times, &what, duration)?;
                times
                    .into_iter()
                    .fold(take, |take, time| take.trigger(param.clone(), time))
            }
            ParamValue::Float(_) => {
                let (min, max) = (p.min, p.max);
                let mut list = Vec::new();
                for k in t.sequence_values::<Table>() {
                    let k = k.map_err(|_| err(format!("{what}: each key is {{ time, value }}")))?;
                    let (time, v) = (number(&k.get(1)?, &what)?, number(&k.get(2)?, &what)?);
                    if v < min || v > max {
                        return Err(err(format!(
                            "{what}: value {v} at {time} s is outside the range [{min}, {max}]"
                        )));
                    }
                    list.push((time, ParamValue::Float(v)));
                }
                let times: Vec<f32> = list.iter().map(|k| k.0).collect();
                check_times(&times, &what, duration)?;
                take.track(param, interpolation, list)
            }
            ParamValue::Bool(_) => {
                let mut list = Vec::new();
                for k in t.sequence_values::<Table>() {
                    let k =
                        k.map_err(|_| err(format!("{what}: each key is {{ time, true/false }}")))?;
                    let v = match k.get::<Value>(2)? {
                        Value::Boolean(b) => b,
                        other => {
                            return Err(err(format!(
                                "{what}: a bool key's value must be true or false, got {}",
                                describe(&other)
                            )))
                        }
                    };
                    list.push((number(&k.get(1)?, &what)?, ParamValue::Bool(v)));
                }
                let times: Vec<f32> = list.iter().map(|k| k.0).collect();
                check_times(&times, &what, duration)?;
                // bools always step
                take.track(param, KeyInterpolation::Step, list)
            }
            ParamValue::Vec3(_) => {
                let mut list = Vec::new();
                for k in t.sequence_values::<Table>() {
                    let k =
                        k.map_err(|_| err(format!("{what}: each key is {{ time, {{x, y, z}} }}")))?;
                    let time = number(&k.get(1)?, &what)?;
                    list.push((time, ParamValue::Vec3(vec3_arg(&k.get(2)?, &what)?)));
                }
                let times: Vec<f32> = list.iter().map(|k| k.0).collect();
                check_times(&times, &what, duration)?;
                take.track(param, interpolation, list)
            }
        };
    }
    take.markers = match def.get::<Value>("markers")? {
        Value::Nil => Vec::new(),
        Value::Table(t) => parse_markers(&t, &name, duration)?,
        other => {
            return Err(err(format!(
                "take '{name}': markers must be a list of {{ time, \"name\" }}, got {}",
                describe(&other)
            )))
        }
    };
    match def.get::<Value>("assert_motion")? {
        Value::Nil => {}
        Value::Table(t) => {
            let what = format!("take '{name}': assert_motion");
            let asserts = super::motion::parse_for_rig(lua, &t, &what)?;
            with_builder(lua, |b| {
                b.spec.take_asserts.retain(|(n, _)| *n != name);
                b.spec.take_asserts.push((name.clone(), asserts));
                Ok(())
            })?;
        }
        other => {
            return Err(err(format!(
                "take '{name}': assert_motion must be a table, got {}",
                describe(&other)
            )))
        }
    }
    match def.get::<Value>("passes")? {
        Value::Nil => {}
        v => {
            let passes = super::passes::read_passes(lua, v, &format!("take '{name}': passes"))?;
            with_builder(lua, |b| {
                b.spec.take_passes.retain(|(n, _)| *n != name);
                b.spec.take_passes.push((name.clone(), passes));
                Ok(())
            })?;
        }
    }
    Ok(take)
}

/// Parses `{ name = { ... }, ... }` and adds the takes to the builder. A take with a mistake
/// is left out and the mistake recorded at the take's own line (see [`record`]).
pub(crate) fn add_takes(lua: &Lua, defs: &Table) -> mlua::Result<()> {
    let mut list = Vec::new();
    let source = locate::caller_source(lua);
    let mut errors: Vec<(Option<Location>, mlua::Error)> = Vec::new();
    for pair in defs.pairs::<Value, Value>() {
        let (name, def) = pair?;
        let (Value::String(name), Value::Table(def)) = (name, def) else {
            errors.push((None, err("takes { name = { duration = ..., ... } }")));
            continue;
        };
        let name = name.to_str()?.to_string();
        let at = source.as_ref().and_then(|(loc, text)| {
            Some(Location {
                file: loc.file.clone(),
                line: locate::key_line(text, loc.line, &name)?,
            })
        });
        match parse_take(lua, name, &def) {
            Ok(t) => list.push((t, at)),
            Err(e) => errors.push((at, e)),
        }
    }
    errors.sort_by_key(|(at, _)| at.as_ref().map_or(0, |l| l.line));
    for (at, e) in errors {
        record(lua, at, e)?;
    }
    list.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    for (t, at) in list {
        let twice = with_builder(lua, |b| {
            if b.spec.take(&t.name).is_some() {
                return Ok(Some(t.name));
            }
            b.spec.takes.push(t);
            b.spec.takes.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(None)
        })?;
        if let Some(name) = twice {
            record(lua, at, err(format!("take '{name}' is defined twice")))?;
        }
    }
    Ok(())
}

/// Registers the global `takes { ... }`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    lua.globals().set(
        "takes",
        super::function(lua, "takes { ... }", 1, |lua, defs: Table| {
            add_takes(lua, &defs)
        })?,
    )
}
