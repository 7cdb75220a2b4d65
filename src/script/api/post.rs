//! `post(pose, ctx)`: procedural overrides on the blended local pose, run in Rust.
//!
//! ```lua
//! post = function(pose, ctx)
//!   pose:look_at("head", ctx.look, { weight = 0.7, limit = 60 })       -- degrees
//!   pose:two_bone_ik("L_hand", { 0.4, 1.2, 0.3 }, { pole = { 0.4, 1.0, -1 } })
//!   pose:rotate("spine_02", { 0, 10 * math.sin(ctx.time), 0 })          -- degrees, local
//!   pose:translate("pelvis", { 0, -0.05, 0 }, { space = "model", weight = 0.5 })
//! end
//! ```
//!
//! The options and their meaning are `ik.*`'s and `adjust.*`'s ([`super::ik`]): the same keys
//! (unknown ones are errors), a required `pole` (a model-space point) for two-bone IK, the same
//! chain check. Joint names are looked up in a table built once, without allocating per call.
//!
//! The pose handle wraps nothing: during the call the pose lives in the state's [`PostFrame`].

use std::collections::HashMap;

use glam::{EulerRot, Quat, Vec3};
use mlua::{Lua, Table, UserData, UserDataMethods, Value};

use super::{
    err,
    ik::{axis_value, space_value, ADJUST_OPTS, LOOK_AT_OPTS, NEEDS_POLE, TWO_BONE_OPTS},
    nodes::number,
    params::vec3_arg,
    rig::check_chain,
    strict::{check_opts, did_you_mean},
};
use crate::anim::graph::{Params, PostOp, Value as GValue, Vec3Value};
use crate::anim::ik::{model_transform, LookAt};
use crate::anim::{JointIndex, Skeleton, Transform};

/// The pose being post-processed and what the ops need to read.
pub(crate) struct PostFrame {
    /// The local pose, parent-first.
    pub pose: Vec<Transform>,
    /// Parent of each joint.
    pub parents: Vec<Option<JointIndex>>,
    /// Joint indices by name (built once per script).
    pub joints: HashMap<String, JointIndex>,
    /// Empty parameter set (weights passed to ops are constants).
    pub params: Params,
    /// Per joint: why it cannot end a two-bone chain, or `None` when it can (checked once).
    pub chains: Vec<Option<String>>,
}

impl PostFrame {
    /// A frame for `skeleton`.
    pub fn new(skeleton: &Skeleton) -> Self {
        let joints = skeleton
            .names()
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as JointIndex))
            .collect();
        let chains = (0..skeleton.len())
            .map(|j| check_chain(skeleton, j as JointIndex).err())
            .collect();
        PostFrame {
            pose: Vec::new(),
            parents: skeleton.parents().to_vec(),
            joints,
            params: Params::default(),
            chains,
        }
    }

    /// The joint named by a Lua string, looked up without allocating.
    fn joint(&self, name: &mlua::LuaString) -> mlua::Result<JointIndex> {
        let name = name.to_str()?;
        self.joints.get(&*name).copied().ok_or_else(|| {
            let hint = did_you_mean(&name, self.joints.keys().map(String::as_str));
            err(format!("unknown joint '{}'{hint}", &*name))
        })
    }

    fn apply(&mut self, op: PostOp) {
        op.apply(&self.parents, &mut self.pose, &self.params);
    }
}

/// The `pose` argument of `post`.
pub(crate) struct PoseHandle;

/// One call's options read in a single pass over the table, without creating key strings:
/// the value of each of `allowed` (nil when absent). Keys are matched raw (no `__index`); an
/// unknown key defers to [`check_opts`] for its error message.
fn read_opts<const N: usize>(
    opts: &Option<Table>,
    what: &str,
    allowed: &[&str; N],
) -> mlua::Result<[Value; N]> {
    let mut out: [Value; N] = std::array::from_fn(|_| Value::Nil);
    if let Some(t) = opts {
        let mut unknown = false;
        t.for_each(|k: Value, v: Value| {
            let slot = match &k {
                Value::String(s) => {
                    let key = s.as_bytes();
                    allowed.iter().position(|a| a.as_bytes() == &*key)
                }
                _ => None,
            };
            match slot {
                Some(i) => out[i] = v,
                None => unknown = true,
            }
            Ok(())
        })?;
        if unknown {
            check_opts(opts, what, allowed)?;
        }
    }
    Ok(out)
}

fn f32_or(v: &Value, key: &str, default: f32) -> mlua::Result<f32> {
    match v {
        Value::Nil => Ok(default),
        v => number(v, key),
    }
}

fn weight(v: &Value) -> mlua::Result<GValue> {
    let w = f32_or(v, "weight", 1.0)?;
    if !(0.0..=1.0).contains(&w) {
        return Err(err(format!("weight {w} is outside [0, 1]")));
    }
    Ok(GValue::Const(w))
}

fn with_frame<R>(lua: &Lua, f: impl FnOnce(&mut PostFrame) -> mlua::Result<R>) -> mlua::Result<R> {
    let mut frame = lua
        .app_data_mut::<PostFrame>()
        .ok_or_else(|| err("the pose can only be changed inside post(pose, ctx)"))?;
    f(&mut frame)
}

impl UserData for PoseHandle {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(
            "look_at",
            |lua, _, (joint, target, opts): (mlua::LuaString, Value, Option<Table>)| {
                // LOOK_AT_OPTS: weight, limit, axis, up
                let [w, limit, aim, up] = read_opts(&opts, "pose:look_at", &LOOK_AT_OPTS)?;
                let target = vec3_arg(&target, "look_at target")?;
                let limit = f32_or(&limit, "limit", 180.0)?;
                if !(0.0..=180.0).contains(&limit) {
                    return Err(err(format!(
                        "look_at: limit {limit} must be 0..180 degrees"
                    )));
                }
                let settings = LookAt {
                    aim_axis: axis_value(aim, "axis", Vec3::Z)?,
                    up_axis: axis_value(up, "up", Vec3::Y)?,
                    limit: limit.to_radians(),
                    ..LookAt::default()
                };
                let weight = weight(&w)?;
                with_frame(lua, |f| {
                    let joint = f.joint(&joint)?;
                    f.apply(PostOp::LookAt {
                        joint,
                        target: Vec3Value::Const(target),
                        settings,
                        weight,
                    });
                    Ok(())
                })
            },
        );
        methods.add_method(
            "two_bone_ik",
            |lua, _, (tip, target, opts): (mlua::LuaString, Value, Option<Table>)| {
                // TWO_BONE_OPTS: weight, pole
                let [w, pole] = read_opts(&opts, "pose:two_bone_ik", &TWO_BONE_OPTS)?;
                let target = vec3_arg(&target, "two_bone_ik target")?;
                let pole = match pole {
                    Value::Nil => None,
                    v => Some(vec3_arg(&v, "two_bone_ik pole")?),
                };
                let Some(pole) = pole else {
                    return Err(err(NEEDS_POLE.replace("ik.two_bone", "pose:two_bone_ik")));
                };
                let weight = weight(&w)?;
                with_frame(lua, |f| {
                    let tip = f.joint(&tip)?;
                    if let Some(e) = &f.chains[tip as usize] {
                        return Err(err(format!("pose:two_bone_ik: {e}")));
                    }
                    f.apply(PostOp::TwoBoneIk {
                        tip,
                        target: Vec3Value::Const(target),
                        pole: Vec3Value::Const(pole),
                        weight,
                    });
                    Ok(())
                })
            },
        );
        methods.add_method(
            "rotate",
            |lua, _, (joint, degrees, opts): (mlua::LuaString, Value, Option<Table>)| {
                // ADJUST_OPTS: weight, space
                let [w, sp] = read_opts(&opts, "pose:rotate", &ADJUST_OPTS)?;
                let d = vec3_arg(&degrees, "rotate {x, y, z} degrees")?;
                let rotation = Quat::from_euler(
                    EulerRot::XYZ,
                    d.x.to_radians(),
                    d.y.to_radians(),
                    d.z.to_radians(),
                );
                let (space, weight) = (space_value(sp)?, weight(&w)?);
                with_frame(lua, |f| {
                    let joint = f.joint(&joint)?;
                    f.apply(PostOp::AddRotation {
                        joint,
                        rotation,
                        space,
                        weight,
                    });
                    Ok(())
                })
            },
        );
        methods.add_method(
            "translate",
            |lua, _, (joint, offset, opts): (mlua::LuaString, Value, Option<Table>)| {
                // ADJUST_OPTS: weight, space
                let [w, sp] = read_opts(&opts, "pose:translate", &ADJUST_OPTS)?;
                let offset = vec3_arg(&offset, "translate offset")?;
                let (space, weight) = (space_value(sp)?, weight(&w)?);
                with_frame(lua, |f| {
                    let joint = f.joint(&joint)?;
                    f.apply(PostOp::AddTranslation {
                        joint,
                        offset,
                        space,
                        weight,
                    });
                    Ok(())
                })
            },
        );
        methods.add_method("position", |lua, _, joint: mlua::LuaString| {
            let p = with_frame(lua, |f| {
                let joint = f.joint(&joint)?;
                Ok(model_transform(&f.parents, &f.pose, joint).translation)
            })?;
            let t = lua.create_table()?;
            for (i, (k, v)) in [("x", p.x), ("y", p.y), ("z", p.z)].into_iter().enumerate() {
                t.raw_set(i + 1, v)?;
                t.raw_set(k, v)?;
            }
            Ok(t)
        });
        methods.add_method(
            "set_translation",
            |lua, _, (joint, pos, opts): (mlua::LuaString, Value, Option<Table>)| {
                // ADJUST_OPTS: weight, space
                let [w, sp] = read_opts(&opts, "pose:set_translation", &ADJUST_OPTS)?;
                let translation = vec3_arg(&pos, "set_translation")?;
                let (space, weight) = (space_value(sp)?, weight(&w)?);
                with_frame(lua, |f| {
                    let joint = f.joint(&joint)?;
                    f.apply(PostOp::SetTranslation {
                        joint,
                        translation,
                        space,
                        weight,
                    });
                    Ok(())
                })
            },
        );
    }
}
