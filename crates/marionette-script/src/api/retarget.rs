//! `retarget(source, { from = rig, map = "auto" | { joint = "source joint", ... }, chains =
//! { ... }, rest = "rest" | "tpose", scale = n | {x, y, z}, ik = true | false | "feet" |
//! "hands" })`: a node of another rig (a clip or any subgraph of it) put on the character
//! (see `marionette_anim::retarget`). Names in the map are checked here, at the script line.

use mlua::{Lua, Table, Value};

use super::{
    err,
    nodes::{node_fn, push, Node},
    retarget_options::{chains_option, ik_option, map_option, rest_option, scale_option},
    rig::RigHandle,
    rig_at,
    strict::{check_opts, describe},
    with_builder,
};
use crate::spec::{MapSpec, NodeSpec, RetargetSpec};

const OPTIONS: [&str; 6] = ["from", "map", "chains", "rest", "scale", "ik"];

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
    let start = with_builder(lua, |b| {
        Ok(crate::spec::first_clip(&b.spec.nodes, spec.input).cloned())
    })?;
    let r = crate::retarget_map::retargeter(
        &spec,
        &character.skeleton,
        (&other.skeleton, &other.clips),
        (&whose.0, &whose.1),
        start.as_ref(),
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
