//! `constrain.*`: aim, multi-aim, copy, damped follow, twist and limits, as post-process
//! operations evaluated in Rust (`graph { post = { ... } }`):
//!
//! ```lua
//! post = {
//!   constrain.aim("head", "R_hand", { axis = "z", up = "y", limit = 80 }),
//!   constrain.multi_aim("head", { { "look", 0.7 }, { "L_hand", 0.3 } }),
//!   constrain.copy("jaw_helper", "jaw", { channel = "rotation", mix = "add" }),
//!   constrain.damped("antenna_02", "antenna_01", { lag = 0.12 }),
//!   constrain.twist("L_hand", { "L_forearm_twist" }),
//!   constrain.limit("neck", { cone = 40, twist = { -30, 30 }, speed = 360 }),
//! }
//! ```
//! Shared with `ik.chain` and `spring`: [`target_arg`] (a point, a vec3 parameter or a joint)
//! and [`joint_list`].

use glam::Vec3;
use mlua::{Lua, Table, Value};

use super::rig_decl::{AIM, COPY, DAMPED, LIMIT, MULTI_AIM, TWIST};
use super::{
    err,
    ik::{axis, op, op_fn, opt},
    nodes::value_arg,
    params::vec3_source,
    strict::{check_joint, check_opts, describe, number, opt_bool},
    with_builder,
};
use crate::rig_kind::{AimSpec, RigKind, TargetSpec};
use crate::spec::PostKind;
use marionette_anim::graph::ParamKind;
use marionette_anim::rigging::copy::{Channels, Mix};

/// A target: `{x, y, z}` in model space, a vec3 parameter's name or a joint's name (a name
/// that is both is an error: rename one).
pub(crate) fn target_arg(lua: &Lua, v: Value, what: &str) -> mlua::Result<TargetSpec> {
    if v.is_nil() {
        return Err(err(format!(
            "{what}: missing: give a point {{x, y, z}}, a vec3 parameter's name or a joint's name"
        )));
    }
    if let Value::Table(t) = &v {
        // an options table where the target goes: the target was left out
        let named = t
            .pairs::<Value, Value>()
            .flatten()
            .any(|(k, _)| k.is_string());
        if named && t.raw_get::<Value>(1)?.is_nil() {
            return Err(err(format!(
                "{what}: got an options table where the target goes; the target comes first (a point {{x, y, z}}, a vec3 parameter or a joint), then the options"
            )));
        }
    }
    let Value::String(s) = &v else {
        return Ok(TargetSpec::Point(vec3_source(lua, v, what)?));
    };
    let name = s.to_str()?.to_string();
    let param = with_builder(lua, |b| Ok(b.spec.param(&name).map(|p| p.kind())))?;
    let joint = super::current_rig(lua)?.skeleton.find(&name);
    match (param, joint) {
        (Some(ParamKind::Vec3), Some(_)) => Err(err(format!(
            "{what}: '{name}' is both a vec3 parameter and a joint; rename the parameter"
        ))),
        (Some(_), None) => vec3_source(lua, v, what).map(TargetSpec::Point),
        (_, Some(_)) => Ok(TargetSpec::Joint(name)),
        (None, None) => {
            let rig = super::current_rig(lua)?;
            let vec3s: Vec<String> = with_builder(lua, |b| {
                Ok(b.spec
                    .params
                    .iter()
                    .filter(|p| p.kind() == ParamKind::Vec3)
                    .map(|p| p.name.clone())
                    .collect())
            })?;
            let names = rig
                .skeleton
                .names()
                .iter()
                .chain(&vec3s)
                .map(String::as_str);
            let hint =
                super::strict::unknown_hint(&name, names, "the rig's joints and vec3 parameters");
            Err(err(format!(
                "{what}: '{name}' is neither a joint of rig {} nor a vec3 parameter{hint}",
                rig.source
            )))
        }
    }
}

/// A list of joint names (`what` names the list in errors); at least one, none twice.
pub(crate) fn joint_list(lua: &Lua, v: &Value, what: &str) -> mlua::Result<Vec<String>> {
    let Value::Table(t) = v else {
        return Err(err(format!(
            "{what}: give a list of joint names, {{ \"a\", \"b\" }}, got {}",
            describe(v)
        )));
    };
    let mut names: Vec<String> = Vec::new();
    for v in t.sequence_values::<Value>() {
        match v? {
            Value::String(s) => {
                let n = s.to_str()?.to_string();
                check_joint(lua, &n)?;
                if names.contains(&n) {
                    return Err(err(format!("{what}: '{n}' is given twice")));
                }
                names.push(n);
            }
            other => {
                return Err(err(format!(
                    "{what}: expected joint names, got {}",
                    describe(&other)
                )))
            }
        }
    }
    if names.is_empty() {
        return Err(err(format!("{what}: name at least one joint")));
    }
    Ok(names)
}

/// A rigging operation at the calling line, with its `weight` and its optional `mask` (a
/// `mask.*` value: per joint, how much of the operation's effect shows).
pub(crate) fn rig_op(
    lua: &Lua,
    joint: String,
    kind: RigKind,
    opts: &Option<Table>,
) -> mlua::Result<super::ik::PostOpValue> {
    let mask = match opt(opts, "mask")? {
        Value::Nil => None,
        Value::UserData(u) => match u.borrow::<super::mask::Mask>() {
            Ok(m) => Some(m.weights.clone()),
            Err(_) => {
                return Err(err(
                    "mask must be a mask (mask.subtree(...), mask.joints{...}, ...)",
                ))
            }
        },
        other => {
            return Err(err(format!(
                "mask must be a mask (mask.subtree(...), mask.joints{{...}}, ...), got {}",
                describe(&other)
            )))
        }
    };
    op(lua, joint, PostKind::Rig { kind, mask }, opts)
}

/// An optional number option, checked against `range`.
pub(crate) fn num_opt(
    opts: &Option<Table>,
    key: &str,
    what: &str,
    range: std::ops::RangeInclusive<f32>,
    unit: &str,
) -> mlua::Result<Option<f32>> {
    match opt(opts, key)? {
        Value::Nil => Ok(None),
        v => {
            let n = number(&v, &format!("{what} {key}"))?;
            if !range.contains(&n) {
                return Err(err(format!(
                    "{what}: {key} {n} must be {}..{}{unit}",
                    range.start(),
                    range.end()
                )));
            }
            Ok(Some(n))
        }
    }
}

/// An optional `true`/`false` option (absent: false), read by [`opt_bool`].
pub(crate) fn flag_opt(opts: &Option<Table>, key: &str, what: &str) -> mlua::Result<bool> {
    match opts {
        Some(t) => Ok(opt_bool(t, key, what)?.unwrap_or(false)),
        None => Ok(false),
    }
}

/// A `{min, max}` pair in degrees.
fn range_value(v: &Value, what: &str) -> mlua::Result<[f32; 2]> {
    let Value::Table(t) = v else {
        return Err(err(format!("{what}: expected {{min, max}} in degrees")));
    };
    let a = number(&t.raw_get::<Value>(1)?, what)?;
    let b = number(&t.raw_get::<Value>(2)?, what)?;
    if a > b {
        return Err(err(format!("{what}: {{{a}, {b}}}: min is above max")));
    }
    Ok([a, b])
}

fn aim_opts(lua: &Lua, opts: &Option<Table>, what: &str) -> mlua::Result<AimSpec> {
    check_opts(opts, what, AIM.options)?;
    let up_joint = match opt(opts, "up_joint")? {
        Value::Nil => None,
        Value::String(s) => {
            let n = s.to_str()?.to_string();
            check_joint(lua, &n)?;
            Some(n)
        }
        other => {
            return Err(err(format!(
                "{what}: up_joint must be a joint name, got {}",
                describe(&other)
            )))
        }
    };
    if up_joint.is_some() && !opt(opts, "world_up")?.is_nil() {
        return Err(err(format!("{what}: give world_up or up_joint, not both")));
    }
    let limits = match opt(opts, "limits")? {
        Value::Nil => None,
        Value::Table(t) => {
            super::strict::check_keys(&t, &format!("{what} limits"), &["x", "y", "z"], 0)?;
            let mut r = [[-180.0, 180.0]; 3];
            for (k, key) in ["x", "y", "z"].iter().enumerate() {
                let v: Value = t.get(*key)?;
                if !v.is_nil() {
                    r[k] = range_value(&v, &format!("{what} limits.{key}"))?;
                }
            }
            Some(r)
        }
        other => {
            return Err(err(format!(
            "{what}: limits must be {{ x = {{min, max}}, y = ..., z = ... }} in degrees, got {}",
            describe(&other)
        )))
        }
    };
    Ok(AimSpec {
        axis: axis(opts, "axis", Vec3::Z)?,
        up: axis(opts, "up", Vec3::Y)?,
        world_up: axis(opts, "world_up", Vec3::Y)?,
        up_joint,
        limit: num_opt(opts, "limit", what, 0.0..=180.0, " degrees")?.unwrap_or(180.0),
        limits,
    })
}

fn copy_kind(
    lua: &Lua,
    joint: &str,
    source: String,
    opts: &Option<Table>,
) -> mlua::Result<RigKind> {
    const WHAT: &str = COPY.name;
    check_opts(opts, WHAT, COPY.options)?;
    check_joint(lua, &source)?;
    if source == joint {
        return Err(err(format!(
            "{WHAT}: '{joint}' copies itself; give another joint as the source"
        )));
    }
    let word = |key: &str, default: &str, allowed: &[&str]| -> mlua::Result<String> {
        match opt(opts, key)? {
            Value::Nil => Ok(default.to_string()),
            Value::String(s) => {
                let s = s.to_str()?.to_string();
                if allowed.contains(&s.as_str()) {
                    Ok(s)
                } else {
                    Err(err(format!(
                        "{WHAT}: {key} '{s}' must be one of {}{}",
                        allowed.join(", "),
                        super::strict::did_you_mean(&s, allowed.iter().copied())
                    )))
                }
            }
            other => Err(err(format!(
                "{WHAT}: {key} must be one of {}, got {}",
                allowed.join(", "),
                describe(&other)
            ))),
        }
    };
    let channel = word(
        "channel",
        "rotation",
        &["rotation", "position", "scale", "all"],
    )?;
    let space = word("space", "model", &["model", "world", "local"])?;
    let mix = word("mix", "replace", &["replace", "add"])?;
    let offset = flag_opt(opts, "offset", WHAT)?;
    let all = channel == "all";
    Ok(RigKind::Copy {
        source,
        channels: Channels {
            rotation: all || channel == "rotation",
            position: all || channel == "position",
            scale: all || channel == "scale",
        },
        model: space != "local",
        offset,
        mix: if mix == "add" { Mix::Add } else { Mix::Replace },
    })
}

/// Registers the global `constrain` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set(
        "aim",
        op_fn(
            lua,
            AIM.signature(),
            AIM.args.len(),
            |lua, (joint, target, opts): (String, Value, Option<Table>)| {
                const WHAT: &str = AIM.name;
                let aim = aim_opts(lua, &opts, WHAT)?;
                let target = target_arg(lua, target, &format!("{WHAT} target"))?;
                rig_op(lua, joint, RigKind::Aim { target, aim }, &opts)
            },
        )?,
    )?;
    t.set(
        "multi_aim",
        op_fn(
            lua,
            MULTI_AIM.signature(),
            MULTI_AIM.args.len(),
            |lua, (joint, targets, opts): (String, Value, Option<Table>)| {
                const WHAT: &str = MULTI_AIM.name;
                let aim = aim_opts(lua, &opts, WHAT)?;
                let Value::Table(list) = targets else {
                    return Err(err(format!(
                        "{WHAT}: give the targets as {{ {{ target, weight }}, ... }}"
                    )));
                };
                let mut ts = Vec::new();
                for (k, v) in list.sequence_values::<Value>().enumerate() {
                    let what = format!("{WHAT} target {}", k + 1);
                    let Value::Table(pair) = v? else {
                        return Err(err(format!("{what}: expected {{ target, weight }}")));
                    };
                    let target = target_arg(lua, pair.raw_get(1)?, &what)?;
                    let w = match pair.raw_get::<Value>(2)? {
                        Value::Nil => crate::spec::Value::Const(1.0),
                        v => value_arg(lua, v, &format!("{what} weight"))?,
                    };
                    ts.push((target, w));
                }
                if ts.is_empty() {
                    return Err(err(format!("{WHAT}: give at least one target")));
                }
                rig_op(lua, joint, RigKind::MultiAim { targets: ts, aim }, &opts)
            },
        )?,
    )?;
    t.set(
        "copy",
        op_fn(
            lua,
            COPY.signature(),
            COPY.args.len(),
            |lua, (joint, source, opts): (String, String, Option<Table>)| {
                let kind = copy_kind(lua, &joint, source, &opts)?;
                rig_op(lua, joint, kind, &opts)
            },
        )?,
    )?;
    t.set(
        "damped",
        op_fn(
            lua,
            DAMPED.signature(),
            DAMPED.args.len(),
            |lua, (joint, source, opts): (String, String, Option<Table>)| {
                const WHAT: &str = DAMPED.name;
                check_opts(&opts, WHAT, DAMPED.options)?;
                check_joint(lua, &source)?;
                if source == joint {
                    return Err(err(format!(
                        "{WHAT}: '{joint}' follows itself; give the joint it follows (its parent, for a tail or an antenna)"
                    )));
                }
                let lag = num_opt(&opts, "lag", WHAT, 0.0..=10.0, " seconds")?.unwrap_or(0.1);
                let position_lag = num_opt(&opts, "position_lag", WHAT, 0.0..=10.0, " seconds")?;
                let kind = RigKind::Damped {
                    source,
                    lag,
                    position_lag,
                };
                rig_op(lua, joint, kind, &opts)
            },
        )?,
    )?;
    t.set(
        "twist",
        op_fn(
            lua,
            TWIST.signature(),
            TWIST.args.len(),
            |lua, (joint, twisters, opts): (String, Value, Option<Table>)| {
                const WHAT: &str = TWIST.name;
                check_opts(
                    &opts,
                    WHAT,
                    &["weight", "mask", "axis", "weights", "remove"],
                )?;
                let twisters = joint_list(lua, &twisters, &format!("{WHAT} twist joints"))?;
                if twisters.contains(&joint) {
                    return Err(err(format!("{WHAT}: '{joint}' is in its own twist joints")));
                }
                let weights = match opt(&opts, "weights")? {
                    Value::Nil => None,
                    Value::Table(t) => {
                        let w: Vec<f32> = t
                            .sequence_values::<Value>()
                            .map(|v| number(&v?, &format!("{WHAT} weights")))
                            .collect::<mlua::Result<_>>()?;
                        if w.len() != twisters.len() {
                            return Err(err(format!(
                                "{WHAT}: {} weights for {} twist joints; give one each",
                                w.len(),
                                twisters.len()
                            )));
                        }
                        Some(w)
                    }
                    other => {
                        return Err(err(format!(
                            "{WHAT}: weights must be a list of numbers, got {}",
                            describe(&other)
                        )))
                    }
                };
                let remove = flag_opt(&opts, "remove", WHAT)?;
                let axis = match opt(&opts, "axis")? {
                    Value::Nil => None,
                    v => Some(super::ik::axis_value(v, "axis", Vec3::Y)?),
                };
                let kind = RigKind::Twist {
                    twisters,
                    axis,
                    weights,
                    remove,
                };
                rig_op(lua, joint, kind, &opts)
            },
        )?,
    )?;
    t.set(
        "limit",
        op_fn(
            lua,
            LIMIT.signature(),
            LIMIT.args.len(),
            |lua, (joint, opts): (String, Option<Table>)| {
                const WHAT: &str = LIMIT.name;
                check_opts(&opts, WHAT, LIMIT.options)?;
                let cone = num_opt(&opts, "cone", WHAT, 0.0..=180.0, " degrees")?;
                let twist = match opt(&opts, "twist")? {
                    Value::Nil => None,
                    v => Some(range_value(&v, &format!("{WHAT} twist"))?),
                };
                let speed = num_opt(&opts, "speed", WHAT, 0.0..=1e6, " degrees per second")?;
                if cone.is_none() && twist.is_none() && speed.is_none() {
                    return Err(err(format!(
                        "{WHAT}: give cone (degrees), twist ({{min, max}} degrees) or speed (degrees per second)"
                    )));
                }
                let axis = match opt(&opts, "axis")? {
                    Value::Nil => None,
                    v => Some(super::ik::axis_value(v, "axis", Vec3::Y)?),
                };
                let kind = RigKind::Limit {
                    axis,
                    cone,
                    twist,
                    speed,
                };
                rig_op(lua, joint, kind, &opts)
            },
        )?,
    )?;
    lua.globals().set("constrain", t)
}
