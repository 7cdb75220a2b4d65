//! Bake passes: `passes = { ... }` in `graph { }` (every take) or in a take (replacing the
//! graph's), run over the whole take's frames before anything reads them:
//!
//! ```lua
//! passes = {
//!   pass.despike { max_speed = 1500, frames = 4 },        -- a capture's flips, each listed
//!   pass.smooth { window = 0.1, joints = { "head" } },    -- channel = "rotation" | "translation" | "both"
//!   pass.foot_lock { feet = { "L_foot", "R_foot" }, blend = 0.1 },
//!   pass.root_extract { from = "pelvis", drop = false },
//!   pass.loop_close { blend = 0.2 },
//!   function(frames) ... end,                             -- Lua, under the script budget
//! }
//! ```
//!
//! Joints are checked against the character at the call: an unknown one is an error at its
//! line.

use mlua::{Lua, Table, UserData, Value};

use super::{
    caller_location, err,
    ik::opt,
    recover,
    strict::{check_chain, check_joint, check_opts, describe, number, opt_bool},
    with_builder,
};
use crate::spec::{PassKind, PassSpec};
use marionette_anim::motion::{asserts::default_feet, ContactRule};
use marionette_anim::passes::{Channels, Pass};
use marionette_anim::JointIndex;

/// What a `pass.*` call returns: the pass (`None` for the placeholder of a call that failed,
/// whose mistake is already recorded).
#[derive(Debug, Clone)]
pub(crate) struct PassValue(pub Option<PassSpec>);

impl UserData for PassValue {}

/// The pass constructors, with their options (in the order the guide lists them).
const PASSES: [(&str, &[&str]); 5] = [
    ("loop_close", &["blend"]),
    ("root_extract", &["from", "drop"]),
    ("foot_lock", &["feet", "blend", "height", "speed"]),
    ("smooth", &["window", "joints", "channel"]),
    ("despike", &["max_speed", "frames", "joints"]),
];

/// A number option `>= min` (`default` when absent).
fn num(opts: &Option<Table>, what: &str, key: &str, default: f32, min: f32) -> mlua::Result<f32> {
    match opt(opts, key)? {
        Value::Nil => Ok(default),
        v => {
            let n = number(&v, &format!("{what}: {key}"))?;
            if n < min {
                return Err(err(format!("{what}: {key} {n} must be >= {min}")));
            }
            Ok(n)
        }
    }
}

/// A list of joint names (`None` when absent), each checked against the character.
fn joints(
    lua: &Lua,
    opts: &Option<Table>,
    what: &str,
    key: &str,
) -> mlua::Result<Option<Vec<JointIndex>>> {
    let names = match opt(opts, key)? {
        Value::Nil => return Ok(None),
        v => super::motion::names(v, &format!("{what}: {key}"))?,
    };
    let mut out = Vec::new();
    for name in names {
        let j =
            check_joint(lua, &name).map_err(|e| err(format!("{what}: {key}: {}", message(&e))))?;
        if out.contains(&j) {
            return Err(err(format!("{what}: {key}: '{name}' is given twice")));
        }
        out.push(j);
    }
    if out.is_empty() {
        return Err(err(format!(
            "{what}: {key} is empty: name at least one joint"
        )));
    }
    Ok(Some(out))
}

/// An API error's text without the Lua decoration.
fn message(e: &mlua::Error) -> String {
    super::invalid_message(e).unwrap_or_else(|| e.to_string())
}

/// Builds the pass `name` from its options.
fn build(lua: &Lua, name: &str, opts: &Option<Table>) -> mlua::Result<Pass> {
    let what = format!("pass.{name}");
    let what = what.as_str();
    Ok(match name {
        "loop_close" => Pass::LoopClose {
            blend: num(opts, what, "blend", 0.2, 0.0)?,
        },
        "root_extract" => {
            let from = match opt(opts, "from")? {
                Value::Nil => None,
                Value::String(s) => {
                    let name = s.to_str()?.to_string();
                    let j = check_joint(lua, &name)
                        .map_err(|e| err(format!("{what}: from: {}", message(&e))))?;
                    let rig = super::current_rig(lua)?;
                    if rig.skeleton.parent(j).is_none() {
                        return Err(err(format!(
                            "{what}: from: '{name}' is a root joint already (it carries its own travel); give a joint under it (the hips), or drop = true alone"
                        )));
                    }
                    Some(j)
                }
                other => {
                    return Err(err(format!(
                        "{what}: from must be a joint name, got {}",
                        describe(&other)
                    )))
                }
            };
            let drop = match opts {
                Some(t) => opt_bool(t, "drop", what)?.unwrap_or(false),
                None => false,
            };
            if from.is_none() && !drop {
                return Err(err(format!(
                    "{what}: give from = \"pelvis\" (the joint whose travel moves onto its root), drop = true (keep the take in place), or both"
                )));
            }
            Pass::RootExtract { from, drop }
        }
        "foot_lock" => {
            let rig = super::current_rig(lua)?;
            let skeleton = &rig.skeleton;
            let feet = match joints(lua, opts, what, "feet")? {
                Some(f) => f,
                None => {
                    let found = default_feet(skeleton);
                    if found.is_empty() {
                        return Err(err(format!(
                            "{what}: the rig has no joint named like a foot or an ankle near the ground: give feet = {{ \"L_foot\", \"R_foot\" }}"
                        )));
                    }
                    found.into_iter().map(|j| j as JointIndex).collect()
                }
            };
            for &j in &feet {
                check_chain(skeleton, j)
                    .map_err(|e| err(format!("{what}: '{}': {e}", skeleton.name(j))))?;
            }
            let lift = match opt(opts, "height")? {
                Value::Nil => None,
                v => Some(number(&v, &format!("{what}: height"))?),
            };
            let speed = num(opts, what, "speed", ContactRule::SPEED, 0.0)?;
            let feet = feet
                .into_iter()
                .map(|j| {
                    // (not given: NaN, the take's default, found on its frames)
                    let height = lift.unwrap_or(f32::NAN);
                    (j, ContactRule { height, speed })
                })
                .collect();
            Pass::FootLock {
                feet,
                blend: num(opts, what, "blend", 0.1, 0.0)?,
            }
        }
        "smooth" => {
            let channels = match opt(opts, "channel")? {
                Value::Nil => Channels::Rotation,
                Value::String(s) => {
                    let s = s.to_str()?;
                    Channels::from_name(&s).ok_or_else(|| {
                        err(format!(
                            "{what}: channel '{}' must be one of \"rotation\", \"translation\", \"both\"",
                            &*s
                        ))
                    })?
                }
                other => {
                    return Err(err(format!(
                        "{what}: channel must be \"rotation\", \"translation\" or \"both\", got {}",
                        describe(&other)
                    )))
                }
            };
            let window = num(opts, what, "window", 0.1, 0.0)?;
            if window <= 0.0 {
                return Err(err(format!("{what}: window must be > 0 seconds")));
            }
            Pass::Smooth {
                joints: joints(lua, opts, what, "joints")?.unwrap_or_default(),
                window,
                channels,
            }
        }
        "despike" => {
            let frames = num(opts, what, "frames", 4.0, 1.0)?;
            if frames.fract() != 0.0 || frames > 120.0 {
                return Err(err(format!(
                    "{what}: frames {frames} must be a whole number of frames, 1 to 120"
                )));
            }
            let max_speed = num(
                opts,
                what,
                "max_speed",
                marionette_anim::fast_turns::DEFAULT_TURN_LIMIT,
                0.0,
            )?;
            if max_speed <= 0.0 {
                return Err(err(format!("{what}: max_speed must be > 0 degrees/s")));
            }
            Pass::Despike {
                joints: joints(lua, opts, what, "joints")?.unwrap_or_default(),
                max_speed,
                frames: frames as usize,
            }
        }
        other => return Err(err(format!("internal: no pass '{other}'"))),
    })
}

/// Reads a `passes = { ... }` list (`what` names it: `graph: passes`, `take 'walk': passes`).
pub(crate) fn read_passes(lua: &Lua, v: Value, what: &str) -> mlua::Result<Vec<PassSpec>> {
    let list = match v {
        Value::Table(t) => t,
        other => {
            return Err(err(format!(
                "{what} must be a list of pass.* calls and function(frames) ... end, got {}",
                describe(&other)
            )))
        }
    };
    let constructors: Table = lua.globals().get("pass")?;
    let mut out = Vec::new();
    for (i, v) in list.sequence_values::<Value>().enumerate() {
        let at = caller_location(lua);
        match v? {
            Value::UserData(u) if u.is::<PassValue>() => {
                // a placeholder's mistake is already recorded
                if let Some(spec) = &u.borrow::<PassValue>()?.0 {
                    out.push(spec.clone());
                }
            }
            Value::Function(f) => {
                let named = constructors
                    .pairs::<String, Value>()
                    .filter_map(Result::ok)
                    .find(|(_, c)| matches!(c, Value::Function(c) if c.to_pointer() == f.to_pointer()));
                if let Some((name, _)) = named {
                    return Err(err(format!(
                        "{what}[{}]: pass.{name} is not called: write pass.{name} {{ }} (with its options)",
                        i + 1
                    )));
                }
                let key = lua.create_registry_value(f)?;
                let k = with_builder(lua, |b| {
                    b.pass_fns.push(key);
                    Ok(b.pass_fns.len() - 1)
                })?;
                out.push(PassSpec {
                    kind: PassKind::Lua(k),
                    at,
                });
            }
            other => {
                return Err(err(format!(
                    "{what}[{}] must be a pass.* call or a function(frames), got {}",
                    i + 1,
                    describe(&other)
                )))
            }
        }
    }
    Ok(out)
}

/// Registers the global `pass` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let t = lua.create_table()?;
    for (name, allowed) in PASSES {
        let call = format!("pass.{name} {{ ... }}");
        let f = super::function(lua, call, 1, move |lua, opts: Value| {
            let what = format!("pass.{name}");
            let r = match opts {
                Value::Nil => Ok(None),
                Value::Table(t) => check_opts(&Some(t.clone()), &what, allowed).map(|()| Some(t)),
                other => Err(err(format!(
                    "{what} takes an options table, {what} {{ ... }}; got {}",
                    describe(&other)
                ))),
            };
            let r = r.and_then(|opts| build(lua, name, &opts)).map(|p| {
                PassValue(Some(PassSpec {
                    kind: PassKind::Builtin(p),
                    at: caller_location(lua),
                }))
            });
            recover(lua, r, |_| Ok(PassValue(None)))
        })?;
        t.set(name, f)?;
    }
    // a misspelt pass is an error naming the closest (`pass.despik`: did you mean 'despike'?)
    let names = PASSES.iter().map(|(n, _)| n.to_string()).collect();
    t.set_metatable(Some(super::strict::strict_fields(lua, "pass", names)?))?;
    lua.globals().set("pass", t)
}
