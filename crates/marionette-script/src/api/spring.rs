//! `spring(joints, opts)` with its colliders `sphere(...)` and `capsule(...)`: secondary motion
//! (hair, tails, ears, cloth strips, jiggle) as a post-process operation evaluated in Rust.
//!
//! ```lua
//! spring({ "tail_01", "tail_02", "tail_03" }, {
//!   stiffness = 2.5,            -- Hz: how fast it returns to the animated pose
//!   damping = 0.6,              -- ratio, 1 = critical
//!   gravity = 9.81,             -- m/s^2 downwards, or {x, y, z}
//!   radius = 0.02,              -- metres, against the colliders
//!   colliders = { sphere("pelvis", 0.12), capsule("L_thigh", 0.07, { 0, 0, 0 }, { 0, -0.4, 0 }) },
//! })
//! ```

use glam::Vec3;
use mlua::{Lua, Table, UserData, Value};

use super::rig_decl::{FILE_SPRINGS, SPRING};
use super::{
    constrain::{num_opt, rig_op},
    err,
    ik::{op_fn, opt},
    nodes::value_arg,
    params::vec3_arg,
    recover,
    strict::{check_joint, check_opts, describe, number},
};
use crate::rig_kind::{ColliderSpec, RigKind};
use crate::spec::Value as SValue;
use marionette_anim::rigging::spring::Shape;

/// A collider made by `sphere(...)` / `capsule(...)` (`None`: the placeholder of a call that
/// failed, whose mistake is recorded).
#[derive(Debug, Clone)]
pub(crate) struct ColliderValue(pub Option<ColliderSpec>);

impl UserData for ColliderValue {}

/// The joints of a spring: a list, each the child of the one before, or one name: that joint
/// and its descendants while each has a single child.
fn spring_joints(lua: &Lua, v: &Value) -> mlua::Result<Vec<String>> {
    const WHAT: &str = "spring";
    let rig = super::current_rig(lua)?;
    let sk = &rig.skeleton;
    let names = match v {
        Value::String(s) => {
            let name = s.to_str()?.to_string();
            let mut j = check_joint(lua, &name)?;
            let kids: Vec<&str> = sk.children(j).map(|c| sk.name(c)).collect();
            if kids.len() > 1 {
                return Err(err(format!(
                    "{WHAT}: '{name}' has {} children ({}): a spring is one chain; give its joints as a list, {{ \"{name}\", \"{}\", ... }}",
                    kids.len(),
                    kids.join(", "),
                    kids[0]
                )));
            }
            let mut out = vec![name];
            loop {
                let kids: Vec<u16> = sk.children(j).collect();
                match kids.as_slice() {
                    [only] => {
                        j = *only;
                        out.push(sk.name(j).to_string());
                    }
                    _ => break,
                }
            }
            out
        }
        v @ Value::Table(_) => super::constrain::joint_list(lua, v, "spring joints")?,
        other => {
            return Err(err(format!(
                "{WHAT}: give the chain's joints, {{ \"tail_01\", \"tail_02\" }}, or its first joint's name, got {}",
                describe(other)
            )))
        }
    };
    for pair in names.windows(2) {
        let (a, b) = (check_joint(lua, &pair[0])?, check_joint(lua, &pair[1])?);
        if sk.parent(b) != Some(a) {
            return Err(err(format!(
                "{WHAT}: '{}' is not a child of '{}': a spring's joints are one chain, each the child of the one before (one spring per chain)",
                pair[1], pair[0]
            )));
        }
    }
    Ok(names)
}

fn spring_kind(lua: &Lua, joints: Value, opts: &Option<Table>) -> mlua::Result<RigKind> {
    const WHAT: &str = "spring";
    check_opts(opts, WHAT, SPRING.options)?;
    let joints = spring_joints(lua, &joints)?;
    let ranged = |key: &str, default: f32, max: f32, unit: &str| -> mlua::Result<SValue> {
        match opt(opts, key)? {
            Value::Nil => Ok(SValue::Const(default)),
            v => {
                let v = value_arg(lua, v, &format!("{WHAT} {key}"))?;
                if let SValue::Const(c) = v {
                    if !(0.0..=max).contains(&c) {
                        return Err(err(format!("{WHAT}: {key} {c} must be 0..{max}{unit}")));
                    }
                }
                Ok(v)
            }
        }
    };
    let stiffness = ranged("stiffness", 2.0, 60.0, " Hz")?;
    let damping = ranged("damping", 0.5, 10.0, " (1 = critical)")?;
    let gravity = match opt(opts, "gravity")? {
        Value::Nil => Vec3::ZERO,
        v @ (Value::Integer(_) | Value::Number(_)) => {
            Vec3::new(0.0, -number(&v, &format!("{WHAT} gravity"))?, 0.0)
        }
        v => vec3_arg(
            &v,
            &format!("{WHAT} gravity (m/s^2 downwards, or {{x, y, z}})"),
        )?,
    };
    let radius = num_opt(opts, "radius", WHAT, 0.0..=10.0, " metres")?.unwrap_or(0.02);
    let colliders = match opt(opts, "colliders")? {
        Value::Nil => Vec::new(),
        Value::Table(t) => {
            let mut out = Vec::new();
            for (k, v) in t.sequence_values::<Value>().enumerate() {
                match v? {
                    Value::UserData(u) => match u.borrow::<ColliderValue>() {
                        Ok(c) => out.extend(c.0.clone()),
                        Err(_) => {
                            return Err(err(format!(
                                "{WHAT}: colliders[{}] is not a sphere(...) or capsule(...)",
                                k + 1
                            )))
                        }
                    },
                    other => {
                        return Err(err(format!(
                            "{WHAT}: colliders[{}] must be sphere(...) or capsule(...), got {}",
                            k + 1,
                            describe(&other)
                        )))
                    }
                }
            }
            out
        }
        other => {
            return Err(err(format!(
                "{WHAT}: colliders must be a list of sphere(...) and capsule(...), got {}",
                describe(&other)
            )))
        }
    };
    Ok(RigKind::Spring {
        joints,
        stiffness,
        damping,
        gravity,
        radius,
        colliders,
    })
}

/// A collider constructor: a mistake is recorded and a placeholder returned.
fn collider_fn<A: mlua::FromLuaMulti>(
    lua: &Lua,
    what: &'static str,
    max: usize,
    f: impl Fn(&Lua, A) -> mlua::Result<ColliderSpec> + 'static,
) -> mlua::Result<mlua::Function> {
    super::function(lua, what, max, move |lua, args: A| {
        let r = f(lua, args).map(|c| ColliderValue(Some(c)));
        recover(lua, r, |_| Ok(ColliderValue(None)))
    })
}

fn radius_arg(v: &Value, what: &str) -> mlua::Result<f32> {
    let r = number(v, &format!("{what} radius"))?;
    if !(r > 0.0 && r <= 100.0) {
        return Err(err(format!("{what}: radius {r} must be above 0 (metres)")));
    }
    Ok(r)
}

/// Registers `spring`, `sphere` and `capsule`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    g.set(
        "spring",
        op_fn(
            lua,
            SPRING.signature(),
            SPRING.args.len(),
            |lua, (joints, opts): (Value, Option<Table>)| {
                let kind = spring_kind(lua, joints, &opts)?;
                let RigKind::Spring { joints: js, .. } = &kind else {
                    unreachable!("spring_kind makes a spring")
                };
                let first = js[0].clone();
                rig_op(lua, first, kind, &opts)
            },
        )?,
    )?;
    g.set(
        "sphere",
        collider_fn(
            lua,
            "sphere(joint, radius, offset)",
            3,
            |lua, (joint, radius, offset): (String, Value, Value)| {
                check_joint(lua, &joint)?;
                let offset = match offset {
                    Value::Nil => Vec3::ZERO,
                    v => vec3_arg(&v, "sphere offset")?,
                };
                Ok(ColliderSpec {
                    joint,
                    shape: Shape::Sphere {
                        offset,
                        radius: radius_arg(&radius, "sphere")?,
                    },
                })
            },
        )?,
    )?;
    g.set(
        "capsule",
        collider_fn(
            lua,
            "capsule(joint, radius, from, to)",
            4,
            |lua, (joint, radius, from, to): (String, Value, Value, Value)| {
                check_joint(lua, &joint)?;
                if to.is_nil() {
                    return Err(err(
                        "capsule: give both ends, capsule(joint, radius, {x, y, z}, {x, y, z}), in the joint's frame",
                    ));
                }
                Ok(ColliderSpec {
                    joint,
                    shape: Shape::Capsule {
                        offset: vec3_arg(&from, "capsule from")?,
                        tail: vec3_arg(&to, "capsule to")?,
                        radius: radius_arg(&radius, "capsule")?,
                    },
                })
            },
        )?,
    )?;
    Ok(())
}

/// `rig:springs(opts)`: the character's own spring bones (a VRM file's `VRMC_springBone`), one
/// post operation per spring with the file's settings, as a list for `post = { ... }`. A spring
/// whose joints are not one chain in the skeleton is left out with a warning; a rig without
/// springs gives an empty list and a warning.
pub(crate) fn file_springs(lua: &Lua, rig: usize, opts: &Option<Table>) -> mlua::Result<Table> {
    let r = springs_of(lua, rig, opts);
    recover(lua, r, |lua| lua.create_table())
}

fn springs_of(lua: &Lua, rig: usize, opts: &Option<Table>) -> mlua::Result<Table> {
    const WHAT: &str = "rig:springs";
    check_opts(opts, WHAT, FILE_SPRINGS.options)?;
    if rig != 0 {
        return Err(err(format!(
            "{WHAT}: springs move the character; call it on the character's rig (marionette.rig())"
        )));
    }
    let character = super::current_rig(lua)?;
    let sk = &character.skeleton;
    let out = lua.create_table()?;
    let springs = &sk.springs().springs;
    if springs.is_empty() {
        super::sides::warn(
            lua,
            format!(
                "{WHAT}: rig {} carries no spring bones (VRMC_springBone); declare them with spring(...)",
                character.source
            ),
        )?;
        return Ok(out);
    }
    for (k, s) in springs.iter().enumerate() {
        let joints: Vec<u16> = s.joints.iter().map(|j| j.joint).collect();
        let chained = joints.windows(2).all(|p| sk.parent(p[1]) == Some(p[0]));
        if joints.is_empty() || !chained {
            super::sides::warn(
                lua,
                format!(
                    "{WHAT}: spring {k} '{}' of rig {} is not one chain of joints; left out",
                    s.name, character.source
                ),
            )?;
            continue;
        }
        let first = sk.name(joints[0]).to_string();
        let v = rig_op(lua, first, RigKind::VrmSpring { index: k }, opts)?;
        out.raw_push(v)?;
    }
    Ok(out)
}
