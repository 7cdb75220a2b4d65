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
//! name (all its targets); the same names as `mask.morphs` and `pose:set_morph`. A constant
//! value must be within `[0, 1]` (an error otherwise); a parameter's value is clamped to it (a
//! warning when the parameter's range goes beyond); `weight` blends from the animated value to
//! it.

use mlua::{Lua, Table, Value};

use super::{
    caller_location, err,
    ik::{opt_weight, PostOpValue},
    nodes::value_arg,
    recover,
    strict::{check_morph, check_opts},
};
use crate::spec::{PostKind, PostSpec, Value as SValue};

/// Options of `morph.set`.
const SET_OPTS: [&str; 1] = ["weight"];

/// Warns when float parameter `param`, driving `target`, ranges beyond 0..1 (its values
/// outside are clamped).
fn warn_range(lua: &Lua, target: &str, param: &str) -> mlua::Result<()> {
    let range = super::with_builder(lua, |b| Ok(b.spec.param(param).map(|p| (p.min, p.max))))?;
    if let Some((min, max)) = range.filter(|(min, max)| *min < 0.0 || *max > 1.0) {
        super::sides::warn(
            lua,
            format!(
                "morph.set('{target}', '{param}'): '{param}' ranges over [{min}, {max}]; a morph \
                 weight is 0..1, so its values outside are clamped"
            ),
        )?;
    }
    Ok(())
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
                    match &value {
                        SValue::Const(c) if !(0.0..=1.0).contains(c) => {
                            return Err(err(format!(
                                "morph.set: value {c} is outside [0, 1] (a morph weight is 0..1)"
                            )));
                        }
                        SValue::Param(p) => warn_range(lua, &name, p)?,
                        SValue::Const(_) => {}
                    }
                    let weight =
                        opt_weight(lua, &opts).map_err(|e| match super::invalid_message(&e) {
                            Some(m) => err(format!("morph.set: {m}")),
                            None => e,
                        })?;
                    let spec = PostSpec {
                        subject: name,
                        kind: PostKind::Morph { value },
                        weight,
                    };
                    Ok(PostOpValue(Some(spec), caller_location(lua)))
                })();
                recover(lua, r, |lua| Ok(PostOpValue(None, caller_location(lua))))
            },
        )?,
    )?;
    lua.globals().set("morph", t)
}
