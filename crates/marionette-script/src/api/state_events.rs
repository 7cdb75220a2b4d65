//! State events: `state_machine { ..., events = { jump = { {"enter", "takeoff"}, {0.3, "apex"},
//! {"exit", "landed"} } } }`. An event fires when a transition enters or leaves its state, or
//! when the time since the state was entered crosses its time (once per entry); it is reported
//! like a clip event (`Graph::events`, the bake's extras, `run --json`).

use mlua::{Lua, Table, Value};

use super::{
    err, locate, record,
    strict::{describe, did_you_mean, number},
};
use crate::spec::{NodeId, StateEventSpec, StateEventTime};
use crate::Location;

/// The index of state `name` among `states`; an unknown name is an error naming `what` and the
/// nearest state (or listing them). Shared with [`super::machine`], which reads transitions.
pub(crate) fn state_index(
    states: &[(String, NodeId)],
    name: &str,
    what: &str,
) -> mlua::Result<usize> {
    states.iter().position(|(n, _)| n == name).ok_or_else(|| {
        let names: Vec<&str> = states.iter().map(|(n, _)| n.as_str()).collect();
        let hint = match did_you_mean(name, names.iter().copied()) {
            h if h.is_empty() => format!(" (states: {})", names.join(", ")),
            h => h,
        };
        err(format!("{what}: unknown state '{name}'{hint}"))
    })
}

/// The line of entry `key` (the `n`-th table under `list = { }` when `n` is given) of the
/// table passed to the calling function, when the script's text shows it.
pub(crate) fn entry_at(
    source: &Option<(Location, std::rc::Rc<str>)>,
    list: &str,
    key: Option<&str>,
    n: usize,
) -> Option<Location> {
    let (loc, text) = source.as_ref()?;
    let line = match key {
        None => locate::nth_entry_line(text, loc.line, list, n)?,
        Some(k) => locate::key_line(text, locate::key_line(text, loc.line, list)?, k)?,
    };
    Some(Location {
        file: loc.file.clone(),
        line,
    })
}

/// The line of `key =` in the table passed to the calling function, when the text shows it.
pub(crate) fn key_at(source: &Option<(Location, std::rc::Rc<str>)>, key: &str) -> Option<Location> {
    let (loc, text) = source.as_ref()?;
    Some(Location {
        file: loc.file.clone(),
        line: locate::key_line(text, loc.line, key)?,
    })
}

/// `events = { state = { {"enter", "name"}, {0.3, "name"}, {"exit", "name"} } }`.
pub(crate) fn read_events(
    lua: &Lua,
    def: &Table,
    states: &[(String, NodeId)],
    source: &Option<(Location, std::rc::Rc<str>)>,
) -> mlua::Result<Vec<StateEventSpec>> {
    let mut out = Vec::new();
    let table = match def.get::<Value>("events")? {
        Value::Nil => return Ok(out),
        Value::Table(t) => t,
        other => {
            let e = err(format!(
                "state_machine: events must be {{ state = {{ {{\"enter\", \"name\"}}, {{seconds, \"name\"}}, ... }} }}, got {}",
                describe(&other)
            ));
            record(lua, key_at(source, "events"), e)?;
            return Ok(out);
        }
    };
    let mut entries = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let name = match &k {
            Value::String(s) => s.to_str()?.to_string(),
            other => format!("[{}]", describe(other)),
        };
        entries.push((name, v));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (state, v) in entries {
        let at = entry_at(source, "events", Some(&state), 0);
        if let Err(e) = state_events(&state, v, states, &mut out) {
            record(lua, at, e)?;
        }
    }
    Ok(out)
}

/// The events of one state (`{ {"enter", "takeoff"}, {0.3, "apex"} }`), added to `out`.
fn state_events(
    state: &str,
    v: Value,
    states: &[(String, NodeId)],
    out: &mut Vec<StateEventSpec>,
) -> mlua::Result<()> {
    let index = state_index(states, state, "events")?;
    let what = format!("events of state '{state}'");
    let Value::Table(list) = v else {
        return Err(err(format!(
            "{what}: write {{ {{\"enter\", \"name\"}}, {{seconds, \"name\"}}, {{\"exit\", \"name\"}} }}, got {}",
            describe(&v)
        )));
    };
    for (i, e) in list.sequence_values::<Value>().enumerate() {
        let Value::Table(e) = e? else {
            return Err(err(format!(
                "{what}: event {} must be {{ \"enter\" | \"exit\" | seconds, \"name\" }}",
                i + 1
            )));
        };
        let at = match e.get::<Value>(1)? {
            Value::String(s) => match s.to_str()?.as_ref() {
                "enter" => StateEventTime::Enter,
                "exit" => StateEventTime::Exit,
                other => {
                    return Err(err(format!(
                        "{what}: event {}: '{other}' must be \"enter\", \"exit\" or a time in seconds{}",
                        i + 1,
                        did_you_mean(other, ["enter", "exit"])
                    )))
                }
            },
            v => {
                let t = number(&v, &what)?;
                if t <= 0.0 {
                    return Err(err(format!(
                        "{what}: event {}: time {t} must be > 0 seconds after entering (use \"enter\" for the moment it is entered)",
                        i + 1
                    )));
                }
                StateEventTime::After(t)
            }
        };
        let name = match e.get::<Value>(2)? {
            Value::String(s) => s.to_str()?.to_string(),
            other => {
                return Err(err(format!(
                    "{what}: event {} needs a name string, got {}",
                    i + 1,
                    describe(&other)
                )))
            }
        };
        out.push(StateEventSpec {
            state: index,
            name,
            at,
        });
    }
    Ok(())
}
