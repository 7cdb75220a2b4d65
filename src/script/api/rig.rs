//! `marionette.rig()`: clips by name (`rig.walk`, `rig:clip("walk")`) and joints (`rig:joint`).

use mlua::{Lua, MetaMethod, UserData, UserDataMethods};

use super::{current_rig, err, nodes::Node, with_builder};
use crate::script::spec::{ClipSpec, NodeSpec};

/// The rig handle a script gets from `marionette.rig()`; it refers to the builder's rig.
pub(crate) struct RigHandle;

/// A clip player node for the named clip, or an error listing the rig's clips.
pub(crate) fn clip_node(lua: &Lua, name: &str) -> mlua::Result<Node> {
    let rig = current_rig(lua)?;
    let Some(clip) = rig.clip_index(name) else {
        return Err(err(format!(
            "unknown clip '{name}' (the rig {} has: {})",
            rig.source,
            rig.clip_names().join(", ")
        )));
    };
    let spec = ClipSpec {
        clip,
        speed: 1.0,
        looping: true,
        offset: 0.0,
        events: Vec::new(),
    };
    with_builder(lua, |b| Ok(Node(b.push(NodeSpec::Clip(spec)))))
}

/// Checks a joint name against the rig, suggesting near matches.
pub(crate) fn check_joint(lua: &Lua, name: &str) -> mlua::Result<u16> {
    let rig = current_rig(lua)?;
    rig.skeleton.find(name).ok_or_else(|| {
        let lower = name.to_ascii_lowercase();
        let near: Vec<&str> = rig
            .skeleton
            .names()
            .iter()
            .filter(|n| {
                let n = n.to_ascii_lowercase();
                n.contains(&lower) || lower.contains(&n)
            })
            .map(String::as_str)
            .take(5)
            .collect();
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", near.join(", "))
        };
        err(format!(
            "unknown joint '{name}' in rig {}{hint}",
            rig.source
        ))
    })
}

impl UserData for RigHandle {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("clip", |lua, _, name: String| clip_node(lua, &name));
        methods.add_method("joint", |lua, _, name: String| {
            check_joint(lua, &name)?;
            Ok(name)
        });
        methods.add_meta_method(MetaMethod::Index, |lua, _, key: String| {
            let rig = current_rig(lua)?;
            match key.as_str() {
                "joints" => lua
                    .create_sequence_from(rig.skeleton.names().iter().cloned())
                    .map(mlua::Value::Table),
                "clips" => lua
                    .create_sequence_from(rig.clip_names())
                    .map(mlua::Value::Table),
                "source" => lua.create_string(&rig.source).map(mlua::Value::String),
                _ => clip_node(lua, &key)
                    .and_then(|n| lua.create_userdata(n))
                    .map(mlua::Value::UserData),
            }
        });
    }
}

/// Registers the `marionette` table with `marionette.rig(path?)`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let m = lua.create_table()?;
    m.set(
        "rig",
        lua.create_function(|lua, path: Option<String>| {
            if let Some(path) = path {
                let loaded = with_builder(lua, |b| {
                    if b.rig.is_some() && !b.spec.nodes.is_empty() {
                        return Err(err(
                            "marionette.rig(path) must be called before any clip is used",
                        ));
                    }
                    (b.loader)(Some(&path)).map_err(err)
                })?;
                with_builder(lua, |b| {
                    b.rig = Some(loaded);
                    Ok(())
                })?;
            } else {
                current_rig(lua)?;
            }
            Ok(RigHandle)
        })?,
    )?;
    m.set("version", env!("CARGO_PKG_VERSION"))?;
    lua.globals().set("marionette", m)
}
