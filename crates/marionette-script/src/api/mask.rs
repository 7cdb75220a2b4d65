//! Per-joint soft masks: `mask.subtree("spine_02")`, `mask.joints { "head", neck = 0.5 }`,
//! `mask.side("left")`, `mask.morphs("Head_4")`, combined with `+` (max), `-` (remove) and
//! `* k` (scale).
//!
//! A mask also holds one weight per morph target of the rig (after the joints): a rule that
//! sets a joint sets the morph targets of the meshes that follow it (see
//! `marionette_anim::morph`), so `mask.subtree("Neck")` covers the face; `mask.morphs` names
//! targets (or a mesh's targets) directly.

use mlua::{Lua, MetaMethod, Table, UserData, UserDataMethods, UserDataRef, Value};

use super::{
    current_rig, err, recover,
    sides::{joint_sides, warn},
    strict::{check_joint, number},
};
use marionette_anim::mirror::Side;

/// One weight in `[0, 1]` per rig joint, then one per morph target.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mask {
    /// Weights, indexed like the rig's joints, then its morph targets.
    pub weights: Vec<f32>,
}

/// Sets the weight of every morph target whose mesh follows a joint for which `hit` is true
/// (the weights after the rig's `joints`).
fn follow(weights: &mut [f32], rig: &crate::Rig, hit: impl Fn(u16) -> bool, w: f32) {
    let joints = rig.skeleton.len();
    for (k, j) in rig.skeleton.morphs().joints().enumerate() {
        if j.is_some_and(&hit) {
            if let Some(slot) = weights.get_mut(joints + k) {
                *slot = w;
            }
        }
    }
}

/// The length of a mask over `rig`: its joints and morph targets.
fn mask_len(rig: &crate::Rig) -> usize {
    rig.skeleton.len() + rig.skeleton.morphs().len()
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
            |lua, m: &Mask, name: String| {
                // a morph target (or `mesh.target`) reads its own weight (the first mesh's, for
                // a name several meshes share)
                let rig = current_rig(lua)?;
                if rig.skeleton.find(&name).is_none() {
                    if let Some(&k) = rig.skeleton.morphs().find_target(&name).first() {
                        let at = rig.skeleton.len() + k;
                        return Ok(m.weights.get(at).copied().unwrap_or(0.0));
                    }
                }
                let j = check_joint(lua, &name)?;
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
                weights: vec![0.0; mask_len(&*current_rig(lua)?)],
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
                let mut weights: Vec<f32> = (0..n)
                    .map(|j| {
                        // (exact: a skeleton has at most u16::MAX joints)
                        if rig.skeleton.is_descendant_of(j as u16, root) {
                            w
                        } else {
                            0.0
                        }
                    })
                    .collect();
                weights.resize(mask_len(&rig), 0.0);
                follow(
                    &mut weights,
                    &rig,
                    |j| rig.skeleton.is_descendant_of(j, root),
                    w,
                );
                Ok(Mask { weights })
            },
        )?,
    )?;
    t.set(
        "joints",
        mask_fn(lua, "mask.joints(joints)", 1, |lua, list: Table| {
            let rig = current_rig(lua)?;
            let mut weights = vec![0.0; mask_len(&rig)];
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
                let w = clamp01(w, "mask.joints")?;
                weights[usize::from(j)] = w;
                follow(&mut weights, &rig, |k| k == j, w);
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
            let sides = joint_sides(lua)?;
            let mut weights: Vec<f32> = sides
                .iter()
                .map(|s| if *s == Some(want) { 1.0 } else { 0.0 })
                .collect();
            let rig = current_rig(lua)?;
            weights.resize(mask_len(&rig), 0.0);
            let on_side = |j: u16| sides.get(usize::from(j)) == Some(&Some(want));
            follow(&mut weights, &rig, on_side, 1.0);
            if weights.iter().all(|w| *w == 0.0) {
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
                weights: vec![w; mask_len(&*current_rig(lua)?)],
            })
        })?,
    )?;
    t.set(
        "morphs",
        mask_fn(
            lua,
            "mask.morphs(targets, weight)",
            2,
            |lua, (names, weight): (Value, Value)| {
                let w = weight01(&weight, "mask.morphs")?;
                let rig = current_rig(lua)?;
                let mut weights = vec![0.0; mask_len(&rig)];
                let names: Vec<String> = match names {
                    Value::String(s) => vec![s.to_str()?.to_string()],
                    Value::Table(t) => {
                        t.sequence_values::<String>()
                            .collect::<mlua::Result<_>>()
                            .map_err(|_| err("mask.morphs: give a name or a list of names"))?
                    }
                    other => {
                        return Err(err(format!(
                            "mask.morphs: give a morph target or mesh name (or a list of them), \
                             got {}",
                            other.type_name()
                        )))
                    }
                };
                let joints = rig.skeleton.len();
                for name in names {
                    for k in super::strict::check_morph(lua, "mask.morphs", &name)? {
                        weights[joints + k] = w;
                    }
                }
                Ok(Mask { weights })
            },
        )?,
    )?;
    lua.globals().set("mask", t)
}
