//! Declarative post-process operations, evaluated in Rust every frame without calling Lua:
//!
//! ```lua
//! post = {
//!   ik.look_at("head", "look", { weight = 0.7, limit = 60 }),        -- target: vec3 param or {x,y,z}
//!   ik.two_bone("L_hand", "hand_target", { pole = { 0.3, 1.0, -1 } }),
//!   adjust.rotate("spine_02", { 0, 15, 0 }),                         -- degrees, local space
//!   adjust.translate("pelvis", { 0, -0.05, 0 }, { space = "model", weight = "crouch_amount" }),
//!   function(pose, ctx) ... end,                                     -- optional, last: Lua
//! }
//! ```
//! `ik.rotate` / `ik.translate` are deprecated aliases of `adjust.rotate` / `adjust.translate`.
//! The `pose:` methods of a `post` function take the same options with the same meaning.
//! For per-frame procedural code, `post` can instead be a `function(pose, ctx)`.

use glam::Vec3;
use marionette_anim::motion::ContactRule;
use mlua::{Lua, Table, UserData, Value};

use super::{
    caller_location, err,
    nodes::value_arg,
    params::{vec3_arg, vec3_source},
    recover,
    strict::{check_chain, check_joint, check_opts, number},
};
use crate::spec::{PostKind, PostSpec, Space, Value as SValue};

/// Options of `ik.look_at` and `pose:look_at`.
pub(crate) const LOOK_AT_OPTS: [&str; 4] = ["weight", "limit", "axis", "up"];
/// Options of `ik.two_bone` and `pose:two_bone_ik`.
pub(crate) const TWO_BONE_OPTS: [&str; 2] = ["weight", "pole"];
/// Options of `adjust.rotate` / `adjust.translate` and the `pose:` methods of the same names.
pub(crate) const ADJUST_OPTS: [&str; 2] = ["weight", "space"];
/// The error for a two-bone IK without a pole.
pub(crate) const NEEDS_POLE: &str =
    "ik.two_bone: give pole = {x, y, z} (a model-space point the elbow or knee bends towards)";

/// A post-process operation value returned by `ik.*` / `adjust.*`: the operation (`None` for
/// the placeholder of a call that failed, whose mistake is already recorded) and the script
/// line that made it.
#[derive(Debug, Clone)]
pub(crate) struct PostOpValue(pub Option<PostSpec>, pub Option<crate::Location>);

impl UserData for PostOpValue {}

/// A Lua function around an `ik.*` / `adjust.*` constructor: a mistake is recorded and a
/// placeholder returned, so the script goes on (see [`recover`]).
/// `what` names it in errors; it takes at most `max` arguments.
pub(crate) fn op_fn<A: mlua::FromLuaMulti>(
    lua: &Lua,
    what: impl Into<String>,
    max: usize,
    f: impl Fn(&Lua, A) -> mlua::Result<PostOpValue> + 'static,
) -> mlua::Result<mlua::Function> {
    super::function(lua, what, max, move |lua, args: A| {
        let r = f(lua, args);
        recover(lua, r, |lua| Ok(PostOpValue(None, caller_location(lua))))
    })
}

/// Option `key` of an optional options table (nil when absent).
pub(crate) fn opt(opts: &Option<Table>, key: &str) -> mlua::Result<Value> {
    match opts {
        Some(t) => t.get(key),
        None => Ok(Value::Nil),
    }
}

/// The `weight` option: a number in `[0, 1]` or a float parameter (default 1).
pub(crate) fn opt_weight(lua: &Lua, opts: &Option<Table>) -> mlua::Result<SValue> {
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
    space_value(opt(opts, "space")?)
}

/// [`space`] from the option's value (nil: the default).
pub(crate) fn space_value(v: Value) -> mlua::Result<Space> {
    match v {
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
    axis_value(opt(opts, key)?, key, default)
}

/// [`axis`] from the option's value (nil: `default`).
pub(crate) fn axis_value(v: Value, key: &str, default: Vec3) -> mlua::Result<Vec3> {
    Ok(match v {
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

pub(crate) fn op(
    lua: &Lua,
    joint: String,
    kind: PostKind,
    opts: &Option<Table>,
) -> mlua::Result<PostOpValue> {
    super::use_rig(lua)?;
    check_joint(lua, &joint)?;
    let spec = PostSpec {
        subject: joint,
        kind,
        weight: opt_weight(lua, opts)?,
    };
    Ok(PostOpValue(Some(spec), caller_location(lua)))
}

/// Adds `rotate` and `translate` to `table` (the `adjust` namespace, or `ik`'s deprecated
/// aliases); errors name `ns.rotate` / `ns.translate`.
fn add_adjust(lua: &Lua, table: &Table, ns: &'static str) -> mlua::Result<()> {
    table.set(
        "rotate",
        op_fn(
            lua,
            format!("{ns}.rotate(joint, degrees, opts)"),
            3,
            move |lua, (joint, degrees, opts): (String, Value, Option<Table>)| {
                let what = format!("{ns}.rotate");
                check_opts(&opts, &what, &ADJUST_OPTS)?;
                let degrees = vec3_arg(&degrees, &format!("{what} {{x, y, z}} degrees"))?;
                let kind = PostKind::Rotate {
                    degrees,
                    space: space(&opts)?,
                };
                op(lua, joint, kind, &opts)
            },
        )?,
    )?;
    table.set(
        "translate",
        op_fn(
            lua,
            format!("{ns}.translate(joint, offset, opts)"),
            3,
            move |lua, (joint, offset, opts): (String, Value, Option<Table>)| {
                let what = format!("{ns}.translate");
                check_opts(&opts, &what, &ADJUST_OPTS)?;
                let offset = vec3_arg(&offset, &format!("{what} offset"))?;
                let kind = PostKind::Translate {
                    offset,
                    space: space(&opts)?,
                };
                op(lua, joint, kind, &opts)
            },
        )?,
    )
}

/// Options of `ik.foot_lock`.
const FOOT_LOCK_OPTS: [&str; 5] = ["weight", "pole", "release", "height", "speed"];

/// `ik.foot_lock({ "L_foot", "R_foot" }, { release = 0.15, height = 0.12, speed = 0.35,
/// pole = {x, y, z}, weight = ... })`: each foot needs a two-bone chain above it.
fn foot_lock(lua: &Lua, feet: Value, opts: &Option<Table>) -> mlua::Result<PostOpValue> {
    const WHAT: &str = "ik.foot_lock";
    check_opts(opts, WHAT, &FOOT_LOCK_OPTS)?;
    let Value::Table(list) = feet else {
        return Err(err(format!(
            "{WHAT}: give the feet as a list of joint names, {{ \"L_foot\", \"R_foot\" }}"
        )));
    };
    let names: Vec<String> = list
        .sequence_values::<Value>()
        .map(|v| match v? {
            Value::String(s) => Ok(s.to_str()?.to_string()),
            other => Err(err(format!(
                "{WHAT}: feet must be joint names, got {}",
                super::strict::describe(&other)
            ))),
        })
        .collect::<mlua::Result<_>>()?;
    if names.is_empty() {
        return Err(err(format!("{WHAT}: name at least one foot")));
    }
    if let Some((k, name)) = names
        .iter()
        .enumerate()
        .find(|(k, n)| names[..*k].contains(n))
    {
        return Err(err(format!(
            "{WHAT}: '{name}' is given twice (foot {k} and an earlier one); name each foot once",
            k = k + 1
        )));
    }
    let num = |key: &str| -> mlua::Result<Option<f32>> {
        match opt(opts, key)? {
            Value::Nil => Ok(None),
            v => {
                let n = number(&v, &format!("{WHAT} {key}"))?;
                if n < 0.0 && key != "height" {
                    return Err(err(format!("{WHAT}: {key} {n} must be >= 0")));
                }
                Ok(Some(n))
            }
        }
    };
    let (release, height) = (num("release")?.unwrap_or(0.1), num("height")?);
    let speed = num("speed")?.unwrap_or(ContactRule::SPEED);
    let pole = match opt(opts, "pole")? {
        Value::Nil => None,
        v => Some(vec3_source(lua, v, "ik.foot_lock pole")?),
    };
    let rig = super::current_rig(lua)?;
    for name in &names {
        let j = check_joint(lua, name)?;
        check_chain(&rig.skeleton, j).map_err(|e| err(format!("{WHAT}: '{name}': {e}")))?;
    }
    let kind = PostKind::FootLock {
        feet: names.iter().map(|n| (n.clone(), height, speed)).collect(),
        pole,
        release,
    };
    op(lua, names[0].clone(), kind, opts)
}

/// Registers the global `ik` and `adjust` tables.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set(
        "look_at",
        op_fn(
            lua,
            "ik.look_at(joint, target, opts)",
            3,
            |lua, (joint, target, opts): (String, Value, Option<Table>)| {
                check_opts(&opts, "ik.look_at", &LOOK_AT_OPTS)?;
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
        op_fn(
            lua,
            "ik.two_bone(tip, target, opts)",
            3,
            |lua, (tip, target, opts): (String, Value, Option<Table>)| {
                check_opts(&opts, "ik.two_bone", &TWO_BONE_OPTS)?;
                let target = vec3_source(lua, target, "ik.two_bone target")?;
                let pole = match opt(&opts, "pole")? {
                    Value::Nil => return Err(err(NEEDS_POLE)),
                    v => vec3_source(lua, v, "ik.two_bone pole")?,
                };
                let j = check_joint(lua, &tip)?;
                let rig = super::current_rig(lua)?;
                check_chain(&rig.skeleton, j).map_err(|e| err(format!("ik.two_bone: {e}")))?;
                op(lua, tip, PostKind::TwoBone { target, pole }, &opts)
            },
        )?,
    )?;
    t.set(
        "foot_lock",
        op_fn(
            lua,
            "ik.foot_lock(feet, opts)",
            2,
            |lua, (feet, opts): (Value, Option<Table>)| foot_lock(lua, feet, &opts),
        )?,
    )?;
    let adjust = lua.create_table()?;
    add_adjust(lua, &adjust, "adjust")?;
    // deprecated aliases: rotate/translate are not IK; `adjust.*` names them for what they do
    add_adjust(lua, &t, "ik")?;
    lua.globals().set("adjust", adjust)?;
    lua.globals().set("ik", t)
}
