//! `state_machine { start = "move", states = { move = ..., jump = ... }, transitions = { ... } }`.
//!
//! The older form with states next to `start` and `transitions` (`state_machine { start =
//! "move", move = ..., transitions = ... }`) still loads while no state takes a reserved name
//! (`states`, `start`, `transitions`); one that does is an error pointing at `states = { }`.
//!
//! A transition is `{ from, to, on = trigger, when = condition, at_end = true, exit_time = 0.8,
//! blend = seconds, curve = name | {x1, y1, x2, y2} | function(t), source = "frozen" | "live",
//! mode = "crossfade" | "inertial" }` (an inertial one takes neither curve nor source);
//! `from` may be `"*"` (any state); `events = { state = { ... } }` ([`super::state_events`]).
//! `when` is a string (`"speed > 2 and not crouch"`), a table
//! (`{ speed = { ">", 2 }, crouch = false }`) or a Lua predicate `function(p) return ... end`.

use mlua::{Function, Lua, Table, Value};

use super::{
    check_param, err, locate,
    nodes::Node,
    record,
    state_events::{entry_at, key_at, read_events, state_index},
    strict::{check_keys, describe, did_you_mean, number, opt_bool},
    with_builder,
};
use crate::spec::{
    CompareOp, Condition, Curve, MachineSpec, NodeId, NodeSpec, SourceMode, TransitionSpec,
};

/// Samples taken from a Lua curve function.
pub(crate) const CURVE_SAMPLES: usize = 65;

/// Parses `"speed > 2 and not crouch"` into conditions (names are checked by the caller).
pub(crate) fn parse_condition(text: &str) -> Result<Vec<Condition>, String> {
    let mut out = Vec::new();
    for clause in text.split(" and ") {
        let words: Vec<&str> = clause.split_whitespace().collect();
        let cond = match words.as_slice() {
            [name] => Condition::Flag(name.to_string(), true),
            ["not", name] => Condition::Flag(name.to_string(), false),
            [name, op, value] => {
                let op = CompareOp::from_symbol(op)
                    .ok_or_else(|| format!("unknown operator '{op}' in \"{text}\""))?;
                let value = match *value {
                    "true" | "false" => {
                        let v = *value == "true";
                        let v = if op == CompareOp::Ne { !v } else { v };
                        if !matches!(op, CompareOp::Eq | CompareOp::Ne) {
                            return Err(format!("'{clause}': booleans compare with == or ~="));
                        }
                        out.push(Condition::Flag(name.to_string(), v));
                        continue;
                    }
                    v => v
                        .parse::<f32>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| format!("'{v}' is not a finite number in \"{text}\""))?,
                };
                Condition::Compare(name.to_string(), op, value)
            }
            _ => {
                return Err(format!(
                    "cannot read condition \"{text}\" (write e.g. \"speed > 2 and not crouch\")"
                ))
            }
        };
        out.push(cond);
    }
    Ok(out)
}

fn check_conditions(lua: &Lua, conds: &[Condition]) -> mlua::Result<()> {
    for c in conds {
        match c {
            Condition::Compare(param, ..) => check_param(lua, param, "when", true, false)?,
            Condition::Flag(param, _) => check_param(lua, param, "when", false, true)?,
            _ => {}
        }
    }
    Ok(())
}

fn table_conditions(t: &Table) -> mlua::Result<Vec<Condition>> {
    let mut out = Vec::new();
    for pair in t.pairs::<String, Value>() {
        let (param, v) = pair?;
        match v {
            Value::Boolean(b) => out.push(Condition::Flag(param, b)),
            Value::Table(c) => {
                let op: String = c.get(1)?;
                let op = CompareOp::from_symbol(&op)
                    .ok_or_else(|| err(format!("when: unknown operator '{op}'")))?;
                let value = number(&c.get(2)?, "when")?;
                out.push(Condition::Compare(param, op, value));
            }
            other => {
                return Err(err(format!(
                    "when: '{param}' must be true/false or {{ op, number }}, got {}",
                    other.type_name()
                )))
            }
        }
    }
    out.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    Ok(out)
}

fn parse_curve(v: Value) -> mlua::Result<Curve> {
    Ok(match v {
        Value::Nil => Curve::Linear,
        Value::String(s) => {
            let name = s.to_str()?;
            Curve::from_name(&name).ok_or_else(|| {
                err(format!(
                    "unknown curve '{}' (linear, smoothstep, ease_in, ease_out, ease_in_out, {{x1, y1, x2, y2}} or a function)",
                    &*name
                ))
            })?
        }
        Value::Table(t) => {
            let mut c = [0.0; 4];
            for (i, slot) in c.iter_mut().enumerate() {
                *slot = number(&t.get(i + 1)?, "bezier curve {x1, y1, x2, y2}")?;
            }
            if !(0.0..=1.0).contains(&c[0]) || !(0.0..=1.0).contains(&c[2]) {
                return Err(err("bezier curve: x1 and x2 must lie in [0, 1]"));
            }
            Curve::Bezier(c[0], c[1], c[2], c[3])
        }
        Value::Function(f) => {
            let mut samples = Vec::with_capacity(CURVE_SAMPLES);
            for i in 0..CURVE_SAMPLES {
                let t = i as f64 / (CURVE_SAMPLES - 1) as f64;
                let y: Value = f.call(t)?;
                samples.push(number(&y, "curve function result")?);
            }
            Curve::Sampled(samples)
        }
        other => return Err(err(format!("curve: unexpected {}", other.type_name()))),
    })
}

/// The named options of a transition (besides `from` and `to`).
const TRANSITION_KEYS: [&str; 8] = [
    "on",
    "when",
    "at_end",
    "exit_time",
    "blend",
    "curve",
    "source",
    "mode",
];

fn parse_transition(
    lua: &Lua,
    i: usize,
    t: &Table,
    states: &[(String, NodeId)],
) -> mlua::Result<TransitionSpec> {
    let what = format!("transition {}", i + 1);
    check_keys(t, &what, &TRANSITION_KEYS, 2)?;
    let from: String = t
        .get(1)
        .map_err(|_| err(format!("{what}: write {{ \"from\", \"to\", ... }}")))?;
    let to: String = t
        .get(2)
        .map_err(|_| err(format!("{what}: write {{ \"from\", \"to\", ... }}")))?;
    let from = if from == "*" {
        None
    } else {
        Some(state_index(states, &from, &what)?)
    };
    let to = state_index(states, &to, &what)?;
    let mut conditions = Vec::new();
    if let Some(trig) = t.get::<Option<String>>("on")? {
        check_param(lua, &trig, &format!("{what} on"), false, true)?;
        conditions.push(Condition::Trigger(trig));
    }
    match t.get::<Value>("when")? {
        Value::Nil => {}
        Value::String(s) => {
            let when = parse_condition(&s.to_str()?).map_err(|e| err(format!("{what}: {e}")))?;
            check_conditions(lua, &when)?;
            conditions.extend(when);
        }
        Value::Table(c) => {
            let when = table_conditions(&c)?;
            check_conditions(lua, &when)?;
            conditions.extend(when);
        }
        Value::Function(f) => {
            let key = lua.create_registry_value(f)?;
            let index = with_builder(lua, |b| {
                b.predicates.push(key);
                Ok(b.predicates.len() - 1)
            })?;
            conditions.push(Condition::Predicate(index));
        }
        other => {
            return Err(err(format!(
                "{what}: when must be a string, table or function, got {}",
                other.type_name()
            )))
        }
    }
    if opt_bool(t, "at_end", &what)?.unwrap_or(false) {
        conditions.push(Condition::AtEnd);
    }
    match t.get::<Value>("exit_time")? {
        Value::Nil => {}
        v => {
            let e = number(&v, "exit_time")?;
            if !(0.0..=1.0).contains(&e) {
                return Err(err(format!(
                    "{what}: exit_time {e} is outside [0, 1] (a fraction of the state)"
                )));
            }
            conditions.push(Condition::ExitTime(e));
        }
    }
    if conditions.is_empty() {
        return Err(err(format!(
            "{what} never fires: give it on =, when =, at_end = or exit_time ="
        )));
    }
    let blend = match t.get::<Value>("blend")? {
        Value::Nil => 0.2,
        v => number(&v, "blend")?,
    };
    if blend < 0.0 {
        return Err(err(format!("{what}: blend {blend} must be >= 0 seconds")));
    }
    let curve = parse_curve(t.get("curve")?)?;
    let source = match t.get::<Option<String>>("source")?.as_deref() {
        None | Some("live") => SourceMode::Playing,
        Some("frozen") => SourceMode::Frozen,
        Some(other) => {
            return Err(err(format!(
                "{what}: source '{other}' must be \"frozen\" or \"live\""
            )))
        }
    };
    let source = match t.get::<Option<String>>("mode")?.as_deref() {
        None | Some("crossfade") => source,
        Some("inertial") => {
            for key in ["source", "curve"] {
                if !t.get::<Value>(key)?.is_nil() {
                    return Err(err(format!(
                        "{what}: an inertial transition has no {key} (the target plays at \
                         once and the outgoing pose's offset decays over blend); remove {key} \
                         or use mode = \"crossfade\""
                    )));
                }
            }
            SourceMode::Inertial
        }
        Some(other) => {
            return Err(err(format!(
                "{what}: mode '{other}' must be \"crossfade\" or \"inertial\""
            )))
        }
    };
    Ok(TransitionSpec {
        from,
        to,
        conditions,
        blend,
        curve,
        source,
    })
}

/// Keys of `state_machine { ... }` that are not states.
const RESERVED: [&str; 4] = ["states", "start", "transitions", "events"];

/// The states of a definition: `states = { name = node, ... }`, or (the older form) every key
/// other than `start`, `transitions` and `states`. In the older form a state cannot take a
/// reserved name: a node under one of them is an error pointing at `states = { ... }`.
fn read_states(lua: &Lua, def: &Table) -> mlua::Result<Vec<(String, NodeId)>> {
    let mut states = Vec::new();
    if let Value::Table(t) = def.get::<Value>("states")? {
        if let Err(e) = check_keys(def, "state_machine", &RESERVED, 0) {
            record(lua, None, e)?;
        }
        for pair in t.pairs::<Value, Value>() {
            let (k, v) = pair?;
            let Value::String(k) = k else {
                return Err(err("state_machine: write states = { name = node, ... }"));
            };
            let k = k.to_str()?.to_string();
            let node: Node = mlua::FromLua::from_lua(v, lua)
                .map_err(|_| err(format!("state_machine: state '{k}' must be a node")))?;
            states.push((k, node.0));
        }
    } else {
        for pair in def.pairs::<Value, Value>() {
            let (k, v) = pair?;
            let Value::String(k) = k else {
                return Err(err("state_machine: states are name = node entries"));
            };
            let k = k.to_str()?.to_string();
            let is_node = matches!(&v, Value::UserData(u) if u.is::<Node>());
            if RESERVED.contains(&k.as_str()) {
                if is_node {
                    return Err(err(format!(
                        "state_machine: a state cannot be called '{k}' here ('{k}' is a reserved key); put the states in states = {{ {k} = ..., ... }}"
                    )));
                }
                continue;
            }
            if !is_node {
                return Err(err(format!(
                    "state_machine: state '{k}' must be a node, got {}{}",
                    describe(&v),
                    did_you_mean(&k, RESERVED)
                )));
            }
            let node: Node = mlua::FromLua::from_lua(v, lua)?;
            states.push((k, node.0));
        }
    }
    Ok(states)
}

/// `state_machine { ... }` (see the module docs). Each bad transition or event is recorded at
/// its own line and left out; the machine is still made, so the script goes on.
fn state_machine(lua: &Lua, def: Table) -> mlua::Result<Node> {
    let mut states = read_states(lua, &def)?;
    if states.is_empty() {
        return Err(err(
            "state_machine: needs at least one state (states = { name = node, ... })",
        ));
    }
    // the graph numbers states with 16 bits: past 65536, ids would name another state
    const MAX_STATES: usize = 1 << 16;
    if states.len() > MAX_STATES {
        return Err(err(format!(
            "state_machine: {} states; at most {MAX_STATES} are allowed (nest state machines)",
            states.len()
        )));
    }
    states.sort();
    let transitions: Option<Table> = def.get("transitions")?;
    let mut list = Vec::new();
    let source = locate::caller_source(lua);
    if let Some(ts) = &transitions {
        for (i, t) in ts.sequence_values::<Value>().enumerate() {
            let parsed = match t? {
                Value::Table(t) => parse_transition(lua, i, &t, &states),
                other => Err(err(format!(
                    "transition {} must be a table {{ \"from\", \"to\", ... }}, got {}",
                    i + 1,
                    describe(&other)
                ))),
            };
            match parsed {
                Ok(t) => list.push(t),
                Err(e) => record(lua, entry_at(&source, "transitions", None, i), e)?,
            }
        }
    }
    let events = read_events(lua, &def, &states, &source)?;
    let start = match def.get::<Option<String>>("start")? {
        Some(s) => match state_index(&states, &s, "start") {
            Ok(i) => i,
            Err(e) => {
                record(lua, key_at(&source, "start"), e)?;
                0
            }
        },
        None => match list.first().and_then(|t: &TransitionSpec| t.from) {
            Some(s) => s,
            None if states.len() == 1 => 0,
            None => {
                let e = err("state_machine: say which state comes first with start = \"name\"");
                record(lua, None, e)?;
                0
            }
        },
    };
    let spec = MachineSpec {
        states,
        start,
        transitions: list,
        events,
    };
    super::nodes::push(lua, NodeSpec::StateMachine(spec))
}

/// Registers `state_machine`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let f: Function = super::nodes::node_fn(lua, "state_machine { ... }", 1, state_machine)?;
    lua.globals().set("state_machine", f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-clause condition parses into a compare and a negated flag.
    #[test]
    fn parses_conditions() {
        let c = parse_condition("speed > 2.5 and not crouch").unwrap();
        assert_eq!(
            c,
            vec![
                Condition::Compare("speed".into(), CompareOp::Gt, 2.5),
                Condition::Flag("crouch".into(), false),
            ]
        );
        assert_eq!(
            parse_condition("crouch ~= true").unwrap(),
            vec![Condition::Flag("crouch".into(), false)]
        );
        assert!(parse_condition("speed >> 2").is_err());
        assert!(parse_condition("speed > fast").is_err());
    }
}
