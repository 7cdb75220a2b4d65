//! Takes: named scenarios of parameter keys and triggers.
//!
//! ```lua
//! takes {
//!   walk_to_run = { duration = 4, fps = 60,
//!     speed = { {0, 0}, {1, 1.4}, {3, 4.0} },      -- float keys, linear (add step = true to hold)
//!     lean  = { {0, 0, ease = "flat"}, {2, 1, slope_in = 0.5, slope_out = 0} },  -- eased keys
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
use marionette_anim::graph::{Ease, KeyInterpolation, ParamValue, Take};

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
        // (floats may ease each key or give its slopes, vectors ease; bools always step)
        let key_options: &[&str] = match p.default {
            ParamValue::Float(_) => &["ease", "slope_in", "slope_out"],
            ParamValue::Vec3(_) => &["ease"],
            _ => &[],
        };
        for k in t.sequence_values::<Value>() {
            if let (Value::Table(k), true) = (k?, key_size > 0) {
                let key = format!("{what}: a key {{ time, value }}");
                let time = k.get::<Value>(1)?;
                let at = match &time {
                    Value::Number(n) => format!("the key at {n} s"),
                    Value::Integer(n) => format!("the key at {n} s"),
                    _ => "a key".to_string(),
                };
                if matches!(p.default, ParamValue::Vec3(_))
                    && (k.contains_key("slope_in")? || k.contains_key("slope_out")?)
                {
                    return Err(err(format!(
                        "{what}: {at} has slopes: explicit slopes (slope_in, slope_out) are \
                         for float parameters; give a vector key an ease ({})",
                        Ease::NAMES.join(", ")
                    )));
                }
                if matches!(p.default, ParamValue::Bool(_)) && k.contains_key("ease")? {
                    return Err(err(format!(
                        "{what}: {at} has an ease: a bool key takes none (bools always step: \
                         each value holds until the next key)"
                    )));
                }
                super::strict::check_keys(&k, &key, key_options, key_size)?;
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
                let mut eases = Vec::new();
                for k in t.sequence_values::<Table>() {
                    let k = k.map_err(|_| err(format!("{what}: each key is {{ time, value }}")))?;
                    let (time, v) = (number(&k.get(1)?, &what)?, number(&k.get(2)?, &what)?);
                    if v < min || v > max {
                        return Err(err(format!(
                            "{what}: value {v} at {time} s is outside the range [{min}, {max}]"
                        )));
                    }
                    list.push((time, ParamValue::Float(v)));
                    eases.push(key_ease(&k, &what, time, true)?);
                }
                let times: Vec<f32> = list.iter().map(|k| k.0).collect();
                check_times(&times, &what, duration)?;
                with_eases(take.track(param, interpolation, list), eases)
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
                let mut eases = Vec::new();
                for k in t.sequence_values::<Table>() {
                    let k =
                        k.map_err(|_| err(format!("{what}: each key is {{ time, {{x, y, z}} }}")))?;
                    let time = number(&k.get(1)?, &what)?;
                    list.push((time, ParamValue::Vec3(vec3_arg(&k.get(2)?, &what)?)));
                    eases.push(key_ease(&k, &what, time, false)?);
                }
                let times: Vec<f32> = list.iter().map(|k| k.0).collect();
                check_times(&times, &what, duration)?;
                with_eases(take.track(param, interpolation, list), eases)
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

/// A key's own ease: `ease = "flat"`, or `slope_in` / `slope_out` (floats; one alone is both
/// sides' slope); `None` when it gives none (the lane's `step` decides).
fn key_ease(k: &Table, what: &str, time: f32, slopes: bool) -> mlua::Result<Option<Ease>> {
    let ease = match k.get::<Value>("ease")? {
        Value::Nil => None,
        Value::String(s) => {
            let s = s.to_str()?;
            Some(Ease::from_name(&s).ok_or_else(|| {
                // the words other tools use for a smooth key
                let hint = match &*s.to_ascii_lowercase() {
                    "smooth" | "smoothstep" | "bezier" | "spline" | "auto_clamped" | "clamped" => {
                        " (for a smooth curve through the key use 'auto')".to_string()
                    }
                    "constant" | "hold" => " (to hold the value use 'step')".to_string(),
                    "free" | "broken" => {
                        " (give slope_in and slope_out for free or broken tangents)".to_string()
                    }
                    _ => did_you_mean(&s, Ease::NAMES),
                };
                err(format!(
                    "{what}: the key at {time} s has ease '{s}': expected one of {}{hint}",
                    Ease::NAMES.join(", "),
                ))
            })?)
        }
        other => {
            return Err(err(format!(
                "{what}: the key at {time} s: ease must be a name ({}), got {}",
                Ease::NAMES.join(", "),
                describe(&other)
            )))
        }
    };
    if !slopes {
        return Ok(ease);
    }
    let slope = |name: &str| -> mlua::Result<Option<f32>> {
        match k.get::<Value>(name)? {
            Value::Nil => Ok(None),
            v => Ok(Some(number(
                &v,
                &format!("{what}: the key at {time} s: {name}"),
            )?)),
        }
    };
    match (ease, slope("slope_in")?, slope("slope_out")?) {
        (Some(e), None, None) => Ok(Some(e)),
        (None, None, None) => Ok(None),
        (Some(_), _, _) => Err(err(format!(
            "{what}: the key at {time} s gives both an ease and slopes: give one or the other"
        ))),
        (None, a, b) => {
            let (slope_in, slope_out) = (a.or(b).unwrap_or(0.0), b.or(a).unwrap_or(0.0));
            if !(slope_in.is_finite() && slope_out.is_finite()) {
                return Err(err(format!(
                    "{what}: the key at {time} s has a slope that is not finite"
                )));
            }
            Ok(Some(Ease::Slopes {
                slope_in,
                slope_out,
            }))
        }
    }
}

/// `take` with the last track's keys eased by `eases` (one per key; a key without one follows
/// the track's `step`); unchanged when no key has one.
fn with_eases(mut take: Take, eases: Vec<Option<Ease>>) -> Take {
    if eases.iter().all(Option::is_none) {
        return take;
    }
    if let Some(track) = take.tracks.last_mut() {
        let default = Ease::of_track(track.interpolation);
        let eases: Vec<Ease> = eases.into_iter().map(|e| e.unwrap_or(default)).collect();
        // (every key as the track says anyway: none, so the take equals the one without them)
        if eases.iter().any(|&e| e != default) {
            track.eases = eases;
        }
    }
    take
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
            b.spec.sources.takes.push((t.name.clone(), at.clone()));
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
