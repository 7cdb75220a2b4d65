//! Declarative post-process operations, evaluated in Rust every frame without calling Lua:
//!
//! ```lua
//! post = {
//!   ik.look_at("head", "look", { weight = 0.7, limit = 60 }),        -- target: vec3 param or {x,y,z}
//!   ik.two_bone("L_hand", "hand_target", { pole = { 0.3, 1.0, -1 } }),
//!   ik.rotate("spine_02", { 0, 15, 0 }),                             -- degrees, local space
//!   ik.translate("pelvis", { 0, -0.05, 0 }, { space = "model", weight = "crouch_amount" }),
//! }
//! ```
//! For per-frame procedural code, `post` can instead be a `function(pose, ctx)`.

use glam::Vec3;
use mlua::{Lua, Table, UserData, Value};

use super::{
    check_param, err,
    nodes::{number, value_arg},
    params::vec3_arg,
    rig::check_joint,
    strict::check_opts,
    with_builder,
};
use crate::anim::graph::ParamKind;
use crate::script::spec::{PostKind, PostSpec, Space, Value as SValue, Vec3Value};

/// A post-process operation value returned by `ik.*`.
#[derive(Debug, Clone)]
pub(crate) struct PostOpValue(pub PostSpec);

impl UserData for PostOpValue {}

fn vec3_source(lua: &Lua, v: Value, what: &str) -> mlua::Result<Vec3Value> {
    match v {
        Value::String(s) => {
            let name = s.to_str()?.to_string();
            let is_vec3 = with_builder(lua, |b| {
                Ok(b.spec.param(&name).map(|p| p.kind() == ParamKind::Vec3))
            })?;
            match is_vec3 {
                Some(true) => Ok(Vec3Value::Param(name)),
                Some(false) => Err(err(format!("{what}: parameter '{name}' is not a vec3"))),
                None => {
                    check_param(lua, &name, what, false, false)?;
                    Err(err(format!("{what}: unknown parameter '{name}'")))
                }
            }
        }
        v => Ok(Vec3Value::Const(vec3_arg(&v, what)?)),
    }
}

fn opt(opts: &Option<Table>, key: &str) -> mlua::Result<Value> {
    match opts {
        Some(t) => t.get(key),
        None => Ok(Value::Nil),
    }
}

fn weight(lua: &Lua, opts: &Option<Table>) -> mlua::Result<SValue> {
    match opt(opts, "weight")? {
        Value::Nil => Ok(SValue::Const(1.0)),
        v => {
            let w = value_arg(lua, v, "weight")?;
            if let SValue::Const(c) = w {
                if !(0.0..=1.0).contains(&c) {
                    return Err(err(format!("weight {c} is outside [0, 1]")));
                }
            }
            Ok(w)
        }
    }
}

/// Reads the `space` option: `"local"` (the default) or `"model"`.
pub(crate) fn space(opts: &Option<Table>) -> mlua::Result<Space> {
    match opt(opts, "space")? {
        Value::Nil => Ok(Space::Local),
        Value::String(s) => match s.to_str()?.as_ref() {
            "local" => Ok(Space::Local),
            "model" => Ok(Space::Model),
            other => Err(err(format!(
                "space '{other}' must be \"local\" or \"model\""
            ))),
        },
        other => Err(err(format!(
            "space must be \"local\" or \"model\", got {}",
            other.type_name()
        ))),
    }
}

/// Reads an axis option: `"x"`, `"-y"`, ... or `{x, y, z}`; `default` when absent.
pub(crate) fn axis(opts: &Option<Table>, key: &str, default: Vec3) -> mlua::Result<Vec3> {
    Ok(match opt(opts, key)? {
        Value::Nil => default,
        Value::String(s) => match s.to_str()?.as_ref() {
            "x" | "+x" => Vec3::X,
            "-x" => Vec3::NEG_X,
            "y" | "+y" => Vec3::Y,
            "-y" => Vec3::NEG_Y,
            "z" | "+z" => Vec3::Z,
            "-z" => Vec3::NEG_Z,
            other => {
                return Err(err(format!(
                    "{key} '{other}': use \"x\", \"-y\", ... or {{x, y, z}}"
                )))
            }
        },
        v => vec3_arg(&v, key)?,
    })
}

fn op(lua: &Lua, joint: String, kind: PostKind, opts: &Option<Table>) -> mlua::Result<PostOpValue> {
    check_joint(lua, &joint)?;
    Ok(PostOpValue(PostSpec {
        joint,
        kind,
        weight: weight(lua, opts)?,
    }))
}

/// Registers the global `ik` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set(
        "look_at",
        lua.create_function(
            |lua, (joint, target, opts): (String, Value, Option<Table>)| {
                check_opts(&opts, "ik.look_at", &["weight", "limit", "axis", "up"])?;
                let target = vec3_source(lua, target, "ik.look_at target")?;
                let limit = match opt(&opts, "limit")? {
                    Value::Nil => 180.0,
                    v => number(&v, "limit")?,
                };
                if !(0.0..=180.0).contains(&limit) {
                    return Err(err(format!(
                        "ik.look_at: limit {limit} must be 0..180 degrees"
                    )));
                }
                let kind = PostKind::LookAt {
                    target,
                    limit,
                    axis: axis(&opts, "axis", Vec3::Z)?,
                    up: axis(&opts, "up", Vec3::Y)?,
                };
                op(lua, joint, kind, &opts)
            },
        )?,
    )?;
    t.set(
        "two_bone",
        lua.create_function(|lua, (tip, target, opts): (String, Value, Option<Table>)| {
            check_opts(&opts, "ik.two_bone", &["weight", "pole"])?;
            let target = vec3_source(lua, target, "ik.two_bone target")?;
            let pole = match opt(&opts, "pole")? {
                Value::Nil => {
                    return Err(err(
                        "ik.two_bone: give pole = {x, y, z} (where the elbow or knee points)",
                    ))
                }
                v => vec3_source(lua, v, "ik.two_bone pole")?,
            };
            op(lua, tip, PostKind::TwoBone { target, pole }, &opts)
        })?,
    )?;
    t.set(
        "rotate",
        lua.create_function(
            |lua, (joint, degrees, opts): (String, Value, Option<Table>)| {
                check_opts(&opts, "ik.rotate", &["weight", "space"])?;
                let degrees = vec3_arg(&degrees, "ik.rotate {x, y, z} degrees")?;
                op(
                    lua,
                    joint,
                    PostKind::Rotate {
                        degrees,
                        space: space(&opts)?,
                    },
                    &opts,
                )
            },
        )?,
    )?;
    t.set(
        "translate",
        lua.create_function(
            |lua, (joint, offset, opts): (String, Value, Option<Table>)| {
                check_opts(&opts, "ik.translate", &["weight", "space"])?;
                let offset = vec3_arg(&offset, "ik.translate offset")?;
                op(
                    lua,
                    joint,
                    PostKind::Translate {
                        offset,
                        space: space(&opts)?,
                    },
                    &opts,
                )
            },
        )?,
    )?;
    lua.globals().set("ik", t)
}
