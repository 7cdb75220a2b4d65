//! Per-joint soft masks: `mask.subtree("spine_02")`, `mask.joints { "head", neck = 0.5 }`,
//! `mask.side("left")`, combined with `+` (max), `-` (remove) and `* k` (scale).

use mlua::{Lua, MetaMethod, Table, UserData, UserDataMethods, UserDataRef, Value};

use super::{
    current_rig, err, recover,
    sides::{joint_sides, warn},
    strict::{check_joint, number},
};
use marionette_anim::mirror::Side;

/// One weight in `[0, 1]` per rig joint.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mask {
    /// Weights, indexed like the rig's joints.
    pub weights: Vec<f32>,
}

/// An optional weight argument in `[0, 1]` (default 1).
fn weight01(w: &Value, what: &str) -> mlua::Result<f32> {
    match w {
        Value::Nil => Ok(1.0),
        v => clamp01(number(v, what)?, what),
    }
}

fn clamp01(w: f32, what: &str) -> mlua::Result<f32> {
    if !(0.0..=1.0).contains(&w) {
        return Err(err(format!("{what}: weight {w} is outside [0, 1]")));
    }
    Ok(w)
}

impl UserData for Mask {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_function(
            MetaMethod::Add,
            |_, (a, b): (UserDataRef<Mask>, UserDataRef<Mask>)| {
                let weights = a
                    .weights
                    .iter()
                    .zip(&b.weights)
                    .map(|(x, y)| x.max(*y))
                    .collect();
                Ok(Mask { weights })
            },
        );
        methods.add_meta_function(
            MetaMethod::Sub,
            |_, (a, b): (UserDataRef<Mask>, UserDataRef<Mask>)| {
                let weights = a
                    .weights
                    .iter()
                    .zip(&b.weights)
                    .map(|(x, y)| (x - y).max(0.0))
                    .collect();
                Ok(Mask { weights })
            },
        );
        methods.add_meta_function(MetaMethod::Mul, |_, (a, b): (Value, Value)| {
            let (m, k) = match (&a, &b) {
                (Value::UserData(u), k) | (k, Value::UserData(u)) => {
                    (u.borrow::<Mask>()?, number(k, "mask * k")?)
                }
                _ => return Err(err("mask * k: one side must be a mask")),
            };
            let k = clamp01(k, "mask * k")?;
            Ok(Mask {
                weights: m.weights.iter().map(|w| w * k).collect(),
            })
        });
        super::method(
            methods,
            "weight",
            "mask:weight(joint)",
            1,
            |lua, m: &Mask, joint: String| {
                let j = check_joint(lua, &joint)?;
                Ok(m.weights.get(usize::from(j)).copied().unwrap_or(0.0))
            },
        );
    }
}

/// A Lua function around a mask constructor: a mistake is recorded and an empty mask
/// returned, so the script goes on (see [`recover`]).
fn mask_fn<A: mlua::FromLuaMulti>(
    lua: &Lua,
    what: &'static str,
    max: usize,
    f: impl Fn(&Lua, A) -> mlua::Result<Mask> + 'static,
) -> mlua::Result<mlua::Function> {
    super::function(lua, what, max, move |lua, args: A| {
        let r = f(lua, args);
        super::use_rig(lua)?;
        recover(lua, r, |lua| {
            Ok(Mask {
                weights: vec![0.0; current_rig(lua)?.skeleton.len()],
            })
        })
    })
}

/// Registers the global `mask` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set(
        "subtree",
        mask_fn(
            lua,
            "mask.subtree(joint, weight)",
            2,
            |lua, (joint, weight): (String, Value)| {
                let root = check_joint(lua, &joint)?;
                let w = weight01(&weight, "mask.subtree")?;
                let rig = current_rig(lua)?;
                let n = rig.skeleton.len();
                let weights = (0..n)
                    .map(|j| {
                        // (exact: a skeleton has at most u16::MAX joints)
                        if rig.skeleton.is_descendant_of(j as u16, root) {
                            w
                        } else {
                            0.0
                        }
                    })
                    .collect();
                Ok(Mask { weights })
            },
        )?,
    )?;
    t.set(
        "joints",
        mask_fn(lua, "mask.joints(joints)", 1, |lua, list: Table| {
            let rig = current_rig(lua)?;
            let mut weights = vec![0.0; rig.skeleton.len()];
            for pair in list.pairs::<Value, Value>() {
                let (k, v) = pair?;
                let (name, w) = match (&k, &v) {
                    (Value::Integer(_), Value::String(s)) => (s.to_str()?.to_string(), 1.0),
                    (Value::String(s), w) => {
                        (s.to_str()?.to_string(), number(w, "mask.joints weight")?)
                    }
                    _ => return Err(err("mask.joints: use { \"head\", neck = 0.5 }")),
                };
                let j = check_joint(lua, &name)?;
                // (in range: `j` is a joint of the current rig, `rig`: no Lua runs in this loop)
                weights[usize::from(j)] = clamp01(w, "mask.joints")?;
            }
            Ok(Mask { weights })
        })?,
    )?;
    t.set(
        "side",
        mask_fn(lua, "mask.side(side)", 1, |lua, side: String| {
            let want_left = match side.to_ascii_lowercase().as_str() {
                "left" | "l" => true,
                "right" | "r" => false,
                _ => {
                    return Err(err(format!(
                        "mask.side(\"{side}\"): use \"left\" or \"right\""
                    )))
                }
            };
            let want = if want_left { Side::Left } else { Side::Right };
            let weights: Vec<f32> = joint_sides(lua)?
                .iter()
                .map(|s| if *s == Some(want) { 1.0 } else { 0.0 })
                .collect();
            if weights.iter().all(|w| *w == 0.0) {
                let rig = current_rig(lua)?;
                warn(
                    lua,
                    format!(
                        "mask.side(\"{side}\"): no joint of rig {} is on that side (no L/R naming found); pair them with marionette.sides {{ ... }}",
                        rig.source
                    ),
                )?;
            }
            Ok(Mask { weights })
        })?,
    )?;
    t.set(
        "all",
        mask_fn(lua, "mask.all(weight)", 1, |lua, weight: Value| {
            let w = weight01(&weight, "mask.all")?;
            Ok(Mask {
                weights: vec![w; current_rig(lua)?.skeleton.len()],
            })
        })?,
    )?;
    lua.globals().set("mask", t)
}
