//! Morph targets (blend shapes) from Lua: `rig.morphs` lists the target names, and
//! `morph.set` drives targets declaratively in `graph { post = { ... } }`, evaluated in Rust
//! every frame:
//!
//! ```lua
//! params { surprise = float(0, 0, 1) }
//! return graph {
//!   root = rig.idle,
//!   post = {
//!     morph.set("Surprised", "surprise"),              -- weight from a float parameter
//!     morph.set("Head_4.Angry", 0.25, { weight = 0.5 }) -- one mesh's target, half blended
//!   },
//! }
//! ```
//!
//! A name is a target's own name (every mesh's target of that name), `mesh.target`, or a mesh's
//! name (all its targets); the same names as `mask.morphs` and `pose:set_morph`. The value is
//! clamped to `[0, 1]`; `weight` blends from the animated value to it.

use mlua::{Lua, Table, Value};

use super::{
    caller_location, current_rig, err,
    ik::{opt_weight, PostOpValue},
    nodes::value_arg,
    recover,
    strict::{check_opts, unknown_hint},
};
use crate::spec::{PostKind, PostSpec, Value as SValue};
use marionette_anim::Morphs;

/// Options of `morph.set`.
const SET_OPTS: [&str; 1] = ["weight"];

/// The message for a morph name the rig does not have: the closest names, or that the rig
/// has no morph targets at all. `what` names the call (`morph.set`).
pub(crate) fn unknown_morph(what: &str, name: &str, morphs: &Morphs) -> String {
    if morphs.is_empty() {
        return format!(
            "{what}: unknown morph target '{name}' (the rig has no morph targets: its meshes have \
             no blend shapes)"
        );
    }
    let names = morphs.all_names();
    let hint = unknown_hint(name, names.iter().map(String::as_str), "the rig");
    format!("{what}: unknown morph target '{name}'{hint}")
}

/// Checks that `name` names morph targets of the current rig.
pub(crate) fn check_morph(lua: &Lua, what: &str, name: &str) -> mlua::Result<Vec<usize>> {
    let rig = current_rig(lua)?;
    let found = rig.skeleton.morphs().find(name);
    if found.is_empty() {
        return Err(err(unknown_morph(what, name, rig.skeleton.morphs())));
    }
    Ok(found)
}

/// Registers the global `morph` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set(
        "set",
        super::function(
            lua,
            "morph.set(target, value, opts)",
            3,
            |lua, (name, value, opts): (String, Value, Option<Table>)| {
                let r = (|| {
                    check_opts(&opts, "morph.set", &SET_OPTS)?;
                    super::use_rig(lua)?;
                    check_morph(lua, "morph.set", &name)?;
                    let value = value_arg(lua, value, "morph.set value")?;
                    if let SValue::Const(c) = value {
                        if !(0.0..=1.0).contains(&c) {
                            return Err(err(format!(
                                "morph.set: value {c} is outside [0, 1] (morph weights are \
                                 clamped to 0..1)"
                            )));
                        }
                    }
                    let spec = PostSpec {
                        subject: name,
                        kind: PostKind::Morph { value },
                        weight: opt_weight(lua, &opts)?,
                    };
                    Ok(PostOpValue(Some(spec), caller_location(lua)))
                })();
                recover(lua, r, |lua| Ok(PostOpValue(None, caller_location(lua))))
            },
        )?,
    )?;
    lua.globals().set("morph", t)
}
