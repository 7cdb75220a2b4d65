//! `return graph { root = node, post = function(pose, ctx) ... end, takes = { ... },
//! root_motion = "ground" }`: finishes the description.

use mlua::{Lua, Table, UserData, Value};

use super::{
    err, ik::PostOpValue, nodes::Node, strict::check_keys, takes::add_takes, with_builder,
};
use crate::script::spec::RootMotionMode;

/// What `graph { ... }` returns; the host checks the script returned it.
pub(crate) struct GraphHandle;

impl UserData for GraphHandle {}

/// Registers `graph`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let f = lua.create_function(|lua, def: Table| {
        check_keys(&def, "graph", &["root", "post", "takes", "root_motion"], 0)?;
        let root: Node = match def.get::<Value>("root")? {
            Value::Nil => return Err(err("graph { root = node, ... }: root is missing")),
            v => mlua::FromLua::from_lua(v, lua).map_err(|_| err("graph: root must be a node"))?,
        };
        let mut ops = Vec::new();
        let post = match def.get::<Value>("post")? {
            Value::Nil => None,
            Value::Function(f) => Some(lua.create_registry_value(f)?),
            Value::Table(list) => {
                let n = list.raw_len();
                let mut func = None;
                for (i, v) in list.sequence_values::<Value>().enumerate() {
                    let v = v?;
                    if let Value::Function(f) = v {
                        if i + 1 != n {
                            return Err(err(format!(
                                "graph: post[{}]: a Lua function must come last in post (the Rust operations run first)",
                                i + 1
                            )));
                        }
                        func = Some(lua.create_registry_value(f)?);
                        continue;
                    }
                    let op = match &v {
                        Value::UserData(u) => u.borrow::<PostOpValue>().ok().map(|o| o.0.clone()),
                        _ => None,
                    };
                    ops.push(op.ok_or_else(|| {
                        err(format!(
                            "graph: post[{}] must be an ik.* or adjust.* operation, or a function(pose, ctx) last",
                            i + 1
                        ))
                    })?);
                }
                func
            }
            _ => {
                return Err(err(
                    "graph: post must be a function(pose, ctx) or a list of ik.* / adjust.* operations (and a function last)",
                ))
            }
        };
        let mode = match def.get::<Option<String>>("root_motion")?.as_deref() {
            None => RootMotionMode::default(),
            Some(name) => RootMotionMode::from_name(name).ok_or_else(|| {
                let names: Vec<String> = RootMotionMode::ALL
                    .iter()
                    .map(|m| format!("\"{}\"", m.name()))
                    .collect();
                err(format!(
                    "graph: root_motion '{name}' must be one of {}",
                    names.join(", ")
                ))
            })?,
        };
        if let Some(t) = def.get::<Option<Table>>("takes")? {
            add_takes(lua, &t)?;
        }
        let line = super::caller_location(lua);
        with_builder(lua, |b| {
            if b.finished {
                return Err(err("graph { ... } can only be called once per script"));
            }
            b.finished = true;
            b.graph_line = line;
            b.spec.root = root.0;
            b.spec.root_motion = mode;
            b.post = post;
            b.spec.post = ops;
            Ok(())
        })?;
        Ok(GraphHandle)
    })?;
    lua.globals().set("graph", f)
}
