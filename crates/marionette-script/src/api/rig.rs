//! `marionette.rig()`: clips by name (`rig.walk`, `rig:clip("walk")`), joints (`rig:joint`,
//! `rig.joints`) and morph target names (`rig.morphs`).

use mlua::{Lua, MetaMethod, UserData, UserDataMethods};

use super::{
    caller_location, current_rig, err, invalid_node,
    nodes::Node,
    recover,
    strict::{check_joint, did_you_mean},
    with_builder,
};
use crate::spec::{ClipSpec, NodeSpec};
use marionette_anim::JointIndex;

/// The rig handle a script gets from `marionette.rig()`; it refers to the builder's rig.
pub(crate) struct RigHandle;

/// A clip player node for the named clip, or an error listing the rig's clips.
pub(crate) fn clip_node(lua: &Lua, name: &str) -> mlua::Result<Node> {
    let rig = current_rig(lua)?;
    let Some(clip) = rig.clip_index(name) else {
        let names = rig.clip_names();
        let hint = did_you_mean(name, names.iter().copied());
        return Err(err(format!(
            "unknown clip '{name}'{hint} (the rig {} has: {})",
            rig.source,
            names.join(", ")
        )));
    };
    let spec = ClipSpec {
        clip,
        speed: 1.0,
        looping: true,
        offset: 0.0,
        events: Vec::new(),
    };
    let at = caller_location(lua);
    with_builder(lua, |b| Ok(Node(b.push(NodeSpec::Clip(spec), at))))
}

/// [`clip_node`], a mistake recorded and a placeholder returned (see [`recover`]).
fn clip_or_placeholder(lua: &Lua, name: &str) -> mlua::Result<Node> {
    let r = clip_node(lua, name);
    recover(lua, r, invalid_node)
}

/// Checks that `tip` ends a two-bone chain (tip, its parent, its grandparent) whose two bones
/// have length in the rest pose; the message names the joint that is wrong. `tip` is a joint of
/// `skeleton` (both callers find it there), so it and its parents index the skeleton's lists.
pub(crate) fn check_chain(
    skeleton: &marionette_anim::Skeleton,
    tip: JointIndex,
) -> Result<(), String> {
    let names = skeleton.names();
    let name = |j: JointIndex| names[usize::from(j)].as_str();
    let Some(mid) = skeleton.parent(tip) else {
        return Err(format!(
            "'{}' has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)",
            name(tip)
        ));
    };
    let Some(_root) = skeleton.parent(mid) else {
        return Err(format!(
            "'{}' is a child of '{}', which has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)",
            name(tip),
            name(mid)
        ));
    };
    let rest = skeleton.rest_pose();
    for j in [tip, mid] {
        if rest[usize::from(j)].translation.length() < 1e-6 {
            return Err(format!(
                "'{}' sits on its parent '{}' in the rest pose (a bone of length 0 cannot bend)",
                name(j),
                skeleton.parent(j).map_or("?", name)
            ));
        }
    }
    Ok(())
}

impl UserData for RigHandle {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        super::method(
            methods,
            "clip",
            "rig:clip(name)",
            1,
            |lua, _: &Self, name: String| clip_or_placeholder(lua, &name),
        );
        super::method(
            methods,
            "joint",
            "rig:joint(name)",
            1,
            |lua, _: &Self, name: String| {
                check_joint(lua, &name)?;
                Ok(name)
            },
        );
        methods.add_meta_method(MetaMethod::Index, |lua, _, key: String| {
            let rig = current_rig(lua)?;
            match key.as_str() {
                "joints" => lua
                    .create_sequence_from(rig.skeleton.names().iter().cloned())
                    .map(mlua::Value::Table),
                "clips" => lua
                    .create_sequence_from(rig.clip_names())
                    .map(mlua::Value::Table),
                "morphs" => lua
                    .create_sequence_from(rig.skeleton.morphs().target_names())
                    .map(mlua::Value::Table),
                "source" => lua.create_string(&rig.source).map(mlua::Value::String),
                _ => clip_or_placeholder(lua, &key)
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
        super::function(
            lua,
            "marionette.rig(path)",
            1,
            |lua, path: Option<String>| {
                if let Some(path) = path {
                    let loaded = with_builder(lua, |b| {
                        if b.rig.is_some() && (!b.spec.nodes.is_empty() || b.rig_used) {
                            return Err(err(
                                "marionette.rig(path) must be called before any clip, mask, ik/adjust operation or marionette.sides uses the rig",
                            ));
                        }
                        (b.loader)(Some(&path)).map_err(mlua::Error::runtime)
                    })?;
                    with_builder(lua, |b| {
                        b.rig = Some(loaded);
                        Ok(())
                    })?;
                } else {
                    current_rig(lua)?;
                }
                Ok(RigHandle)
            },
        )?,
    )?;
    m.set("version", env!("CARGO_PKG_VERSION"))?;
    lua.globals().set("marionette", m)
}
