//! `return graph { root = node, post = function(pose, ctx) ... end, takes = { ... },
//! root_motion = "ground" }`: finishes the description. Each mistake is recorded (see
//! [`record`]) and the rest still read, so all of them are reported.

use mlua::{Lua, RegistryKey, Table, UserData, Value};

use super::{
    caller_location, err, ik::PostOpValue, nodes::Node, record, strict::check_keys,
    takes::add_takes, with_builder,
};
use crate::spec::{PostSpec, RootMotionMode};
use crate::Location;

/// What `graph { ... }` returns; the host checks the script returned it.
pub(crate) struct GraphHandle;

impl UserData for GraphHandle {}

/// The operations and the Lua function of `post = ...`.
type Post = (Vec<(PostSpec, Option<Location>)>, Option<RegistryKey>);

/// Reads `post = ...`.
fn read_post(lua: &Lua, v: Value) -> mlua::Result<Post> {
    let mut ops = Vec::new();
    let list = match v {
        Value::Nil => return Ok((ops, None)),
        Value::Function(f) => return Ok((ops, Some(lua.create_registry_value(f)?))),
        Value::Table(list) => list,
        _ => {
            let e = err("graph: post must be a function(pose, ctx) or a list of ik.* / adjust.* operations (and a function last)");
            record(lua, None, e)?;
            return Ok((ops, None));
        }
    };
    let n = list.raw_len();
    let mut func = None;
    for (i, v) in list.sequence_values::<Value>().enumerate() {
        match v? {
            Value::Function(f) if i + 1 == n => func = Some(lua.create_registry_value(f)?),
            Value::Function(_) => {
                let e = err(format!(
                    "graph: post[{}]: a Lua function must come last in post (the Rust operations run first)",
                    i + 1
                ));
                record(lua, None, e)?;
            }
            Value::UserData(u) if u.is::<PostOpValue>() => {
                let op = u.borrow::<PostOpValue>()?;
                // a placeholder's mistake is already recorded
                if let Some(spec) = &op.0 {
                    ops.push((spec.clone(), op.1.clone()));
                }
            }
            _ => {
                let e = err(format!(
                    "graph: post[{}] must be an ik.* or adjust.* operation, or a function(pose, ctx) last",
                    i + 1
                ));
                record(lua, None, e)?;
            }
        }
    }
    Ok((ops, func))
}

/// Reads `root_motion = "..."` (the default when absent or wrong).
fn read_root_motion(lua: &Lua, v: Value) -> mlua::Result<RootMotionMode> {
    let name = match v {
        Value::Nil => return Ok(RootMotionMode::default()),
        Value::String(s) => s.to_str()?.to_string(),
        other => other.type_name().to_string(),
    };
    match RootMotionMode::from_name(&name) {
        Some(m) => Ok(m),
        None => {
            let names: Vec<String> = RootMotionMode::ALL
                .iter()
                .map(|m| format!("\"{}\"", m.name()))
                .collect();
            let e = err(format!(
                "graph: root_motion '{name}' must be one of {}",
                names.join(", ")
            ));
            record(lua, None, e)?;
            Ok(RootMotionMode::default())
        }
    }
}

/// `graph { ... }`.
fn graph(lua: &Lua, def: Table) -> mlua::Result<GraphHandle> {
    if let Err(e) = check_keys(
        &def,
        "graph",
        &["root", "post", "takes", "root_motion", "passes"],
        0,
    ) {
        record(lua, None, e)?;
    }
    let root: Option<Node> = match def.get::<Value>("root")? {
        Value::Nil => {
            record(
                lua,
                None,
                err("graph { root = node, ... }: root is missing"),
            )?;
            None
        }
        v => match mlua::FromLua::from_lua(v, lua) {
            Ok(n) => Some(n),
            Err(_) => {
                record(lua, None, err("graph: root must be a node"))?;
                None
            }
        },
    };
    if let Some(root) = root {
        // the graph animates the character: another rig's poses reach it through retarget
        let other = with_builder(lua, |b| {
            Ok(match b.node_rigs.get(root.0.index()).copied().flatten() {
                Some(k) if k != 0 => Some((b.rig_name(k), b.rig_name(0))),
                _ => None,
            })
        })?;
        if let Some((other, character)) = other {
            record(
                lua,
                None,
                err(format!(
                    "graph: root plays {other}'s clips, which is another skeleton than {character}'s: put them on the character with retarget(node, {{ from = rig }})"
                )),
            )?;
        }
    }
    let (ops, post) = read_post(lua, def.get("post")?)?;
    let mode = read_root_motion(lua, def.get("root_motion")?)?;
    let passes = match def.get::<Value>("passes")? {
        Value::Nil => Vec::new(),
        v => match super::passes::read_passes(lua, v, "graph: passes") {
            Ok(p) => p,
            Err(e) => {
                record(lua, None, e)?;
                Vec::new()
            }
        },
    };
    match def.get::<Value>("takes")? {
        Value::Nil => {}
        Value::Table(t) => add_takes(lua, &t)?,
        _ => record(
            lua,
            None,
            err("graph: takes must be { name = { duration = ..., ... } }"),
        )?,
    }
    let line = caller_location(lua);
    with_builder(lua, |b| {
        if b.finished {
            return Err(err("graph { ... } can only be called once per script"));
        }
        b.finished = true;
        b.graph_line = line;
        if let Some(root) = root {
            b.spec.root = root.0;
        }
        b.spec.root_motion = mode;
        b.spec.passes = passes;
        b.post = post;
        for (op, at) in ops {
            b.spec.post.push(op);
            b.spec.sources.post.push(at);
        }
        Ok(())
    })?;
    Ok(GraphHandle)
}

/// Registers `graph`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let f = super::function(lua, "graph { ... }", 1, graph)?;
    lua.globals().set("graph", f)
}
