//! `retarget(source, { from = rig, map = "auto" | { joint = "source joint", ... }, chains =
//! { ... }, rest = "rest" | "tpose", scale = n | {x, y, z}, ik = true | false | "feet" |
//! "hands" })`: a node of another rig (a clip or any subgraph of it) put on the character
//! (see `marionette_anim::retarget`). Names in the map are checked here, at the script line.

use glam::Vec3;
use mlua::{Lua, Table, Value};

use super::{
    err,
    nodes::{node_fn, push, Node},
    params::vec3_arg,
    rig::RigHandle,
    rig_at,
    strict::{check_opts, describe, number},
    with_builder,
};
use crate::spec::{MapSpec, NodeSpec, ReferencePose, RetargetSpec};

const OPTIONS: [&str; 6] = ["from", "map", "chains", "rest", "scale", "ik"];

/// A list of joint names (a Lua sequence of strings).
fn names(t: &Table, what: &str) -> mlua::Result<Vec<String>> {
    let mut out = Vec::new();
    for v in t.sequence_values::<Value>() {
        match v? {
            Value::String(s) => out.push(s.to_str()?.to_string()),
            other => {
                return Err(err(format!(
                    "{what}: expected joint names, got {}",
                    describe(&other)
                )))
            }
        }
    }
    Ok(out)
}

pub(crate) fn map_option(v: Value) -> mlua::Result<Vec<(String, String)>> {
    let Value::Table(t) = v else {
        return match v {
            Value::Nil => Ok(Vec::new()),
            Value::String(s) if s.to_str()?.as_ref() == "auto" => Ok(Vec::new()),
            other => Err(err(format!(
                "retarget: map must be \"auto\" or a table {{ character_joint = \"source_joint\", ... }}, got {}",
                describe(&other)
            ))),
        };
    };
    let mut pairs = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        match (k, v) {
            (Value::String(k), Value::String(v)) => {
                pairs.push((k.to_str()?.to_string(), v.to_str()?.to_string()))
            }
            (k, v) => {
                return Err(err(format!(
                    "retarget: map entries are character_joint = \"source_joint\", got [{}] = {}",
                    describe(&k),
                    describe(&v)
                )))
            }
        }
    }
    pairs.sort();
    Ok(pairs)
}

pub(crate) fn chains_option(v: Value) -> mlua::Result<Vec<(Vec<String>, Vec<String>)>> {
    let t = match v {
        Value::Nil => return Ok(Vec::new()),
        Value::Table(t) => t,
        other => {
            return Err(err(format!(
                "retarget: chains is a list of {{ \"joint\", \"joint\", ..., from = {{ \"source joint\", ... }} }}, got {}",
                describe(&other)
            )))
        }
    };
    let mut out = Vec::new();
    for (i, c) in t.sequence_values::<Value>().enumerate() {
        let what = format!("retarget: chain {}", i + 1);
        let Value::Table(c) = c? else {
            return Err(err(format!(
                "{what}: expected {{ \"joint\", ..., from = {{ \"source joint\", ... }} }}"
            )));
        };
        super::strict::check_keys(&c, &what, &["from"], c.raw_len())?;
        let target = names(&c, &what)?;
        let source = match c.get::<Value>("from")? {
            Value::Table(f) => names(&f, &what)?,
            other => {
                return Err(err(format!(
                    "{what}: from must list the source chain's joints, got {}",
                    describe(&other)
                )))
            }
        };
        if target.is_empty() || source.is_empty() {
            return Err(err(format!(
                "{what}: a chain needs at least one joint on each side"
            )));
        }
        out.push((target, source));
    }
    Ok(out)
}

pub(crate) fn scale_option(v: Value) -> mlua::Result<Option<Vec3>> {
    let s = match &v {
        Value::Nil => return Ok(None),
        Value::Integer(_) | Value::Number(_) => Vec3::splat(number(&v, "retarget: scale")?),
        Value::Table(t) => {
            // `{x, y, z}` or `{x = .., y = .., z = ..}`
            let n = t.raw_len();
            if n != 3 && n != 0 {
                return Err(err(format!(
                    "retarget: scale is a number or {{x, y, z}} (three numbers), got a table of {n}"
                )));
            }
            vec3_arg(&v, "retarget: scale")?
        }
        other => {
            return Err(err(format!(
                "retarget: scale is a number or {{x, y, z}}, got {}",
                describe(other)
            )))
        }
    };
    if !(s.is_finite() && s.min_element() > 0.0) {
        let written = match v {
            Value::Table(_) => format!("{{{}, {}, {}}}", s.x, s.y, s.z),
            _ => s.x.to_string(),
        };
        return Err(err(format!(
            "retarget: scale must be positive, got {written}"
        )));
    }
    Ok(Some(s))
}

pub(crate) fn ik_option(v: Value) -> mlua::Result<(bool, bool)> {
    match v {
        Value::Nil | Value::Boolean(true) => Ok((true, true)),
        Value::Boolean(false) => Ok((false, false)),
        Value::String(s) => match s.to_str()?.as_ref() {
            "feet" => Ok((true, false)),
            "hands" => Ok((false, true)),
            other => Err(err(format!(
                "retarget: ik is true, false, \"feet\" or \"hands\", got \"{other}\""
            ))),
        },
        other => Err(err(format!(
            "retarget: ik is true, false, \"feet\" or \"hands\", got {}",
            describe(&other)
        ))),
    }
}

/// `rest = "rest" | "tpose"` (`None` when absent).
pub(crate) fn rest_option(v: Value) -> mlua::Result<Option<ReferencePose>> {
    match v {
        Value::Nil => Ok(None),
        Value::String(s) => {
            let s = s.to_str()?.to_string();
            ReferencePose::from_name(&s).map(Some).ok_or_else(|| {
                err(format!(
                    "retarget: rest is \"rest\" (each rig's rest pose) or \"tpose\" (both aligned to a T-pose first), got \"{s}\""
                ))
            })
        }
        other => Err(err(format!(
            "retarget: rest is \"rest\" or \"tpose\", got {}",
            describe(&other)
        ))),
    }
}

fn retarget(lua: &Lua, source: Node, opts: Option<Table>) -> mlua::Result<Node> {
    check_opts(&opts, "retarget", &OPTIONS)?;
    let get = |k: &str| -> mlua::Result<Value> {
        match &opts {
            Some(t) => t.get(k),
            None => Ok(Value::Nil),
        }
    };
    let (invalid, rig_of_source) = with_builder(lua, |b| {
        let i = source.0.index();
        Ok((
            matches!(b.spec.nodes.get(i), Some(NodeSpec::Invalid)),
            b.node_rigs.get(i).copied().flatten(),
        ))
    })?;
    let from = match get("from")? {
        Value::Nil => None,
        Value::UserData(u) if u.is::<RigHandle>() => Some(u.borrow::<RigHandle>()?.index),
        other => {
            return Err(err(format!(
            "retarget: from must be a rig (local robot = marionette.rig(\"robot.glb\")), got {}",
            describe(&other)
        )))
        }
    };
    if invalid {
        // its mistake is recorded already
        return Ok(source);
    }
    let Some(src) = from.or(rig_of_source) else {
        return Err(err(
            "retarget: cannot tell which rig the source animates: give from = rig",
        ));
    };
    let name = |k: usize| with_builder(lua, |b| Ok(b.rig_name(k)));
    if let (Some(f), Some(s)) = (from, rig_of_source) {
        if f != s {
            return Err(err(format!(
                "retarget: the source plays {}'s clips, but from = {} (give from = the rig whose clips it plays, or leave from out)",
                name(s)?,
                name(f)?
            )));
        }
    }
    if src == 0 {
        return Err(err(
            "retarget: the source already animates the character; retarget puts another rig's clips on it (local robot = marionette.rig(\"robot.glb\"); retarget(robot.Walking, { from = robot }))",
        ));
    }
    let map = match (map_option(get("map")?)?, chains_option(get("chains")?)?) {
        (pairs, chains) if pairs.is_empty() && chains.is_empty() => MapSpec::Auto,
        (pairs, chains) => MapSpec::Joints { pairs, chains },
    };
    let reference = rest_option(get("rest")?)?.unwrap_or_default();
    let scale = scale_option(get("scale")?)?;
    let (ik_feet, ik_hands) = ik_option(get("ik")?)?;
    let spec = RetargetSpec {
        input: source.0,
        rig: src,
        map,
        reference,
        scale,
        ik_feet,
        ik_hands,
    };
    // the map checked now, at this line; what the retarget leaves out, said once
    let (character, other) = (rig_at(lua, 0)?, rig_at(lua, src)?);
    let whose = (name(0)?, other.source.clone());
    let r = crate::retarget_map::retargeter(
        &spec,
        &character.skeleton,
        &other.skeleton,
        (&whose.0, &whose.1),
    )
    .map_err(|e| err(format!("retarget: {e}")))?;
    for note in r.notes() {
        let message = format!("retarget from {}: {note}", other.short_name());
        let seen = with_builder(lua, |b| {
            Ok(b.warnings.iter().any(|w| w.ends_with(&message)))
        })?;
        if !seen {
            super::sides::warn(lua, message)?;
        }
    }
    push(lua, NodeSpec::Retarget(spec))
}

/// Registers `retarget`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    lua.globals().set(
        "retarget",
        node_fn(
            lua,
            "retarget(source, opts)",
            2,
            |lua, (source, opts): (Node, Value)| {
                let opts = match opts {
                    Value::Nil => None,
                    Value::Table(t) => Some(t),
                    other => {
                        return Err(err(format!(
                            "retarget: the second argument is an options table (retarget(clip, {{ from = rig }})), got {}",
                            describe(&other)
                        )))
                    }
                };
                retarget(lua, source, opts)
            },
        )?,
    )
}
