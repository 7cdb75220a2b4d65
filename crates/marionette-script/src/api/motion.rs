//! `assert_motion { ... }`: limits every frame of every take must keep, checked by `check` and
//! `bake` (a take may give its own, `assert_motion = { ... }` in the take, which replaces the
//! global one for that take):
//!
//! ```lua
//! assert_motion {
//!   foot_slide_mm = 5,                       -- planted feet travel at most 5 mm
//!   feet = { "L_foot", "R_foot" },           -- default: joints named like feet or ankles
//!   contacts = { L_foot = { height = 0.12, speed = 0.3 } },   -- metres, m/s
//!   no_nan = true,                           -- default true
//!   max_joint_speed = 1500,                  -- degrees/s, or { 1500, head = 600 }; false: off
//!   limits = { L_calf = { min = 0, max = 150 } },              -- degrees away from rest
//!   ground = { feet = { "L_toe", "R_toe" }, max_penetration_mm = 10 },
//! }
//! ```
//!
//! Joints are checked against the character when the call runs: an unknown one is an error at
//! its line.

use mlua::{Lua, Table, Value};

use super::strict::{check_keys, describe, number, opt_bool};
use super::{current_rig, err, with_builder};
use marionette_anim::motion::{AngleLimit, ContactRule, MotionAsserts};

const KEYS: [&str; 7] = [
    "foot_slide_mm",
    "feet",
    "contacts",
    "no_nan",
    "max_joint_speed",
    "limits",
    "ground",
];

/// A list of joint names (`what` names it in errors).
pub(crate) fn names(v: Value, what: &str) -> mlua::Result<Vec<String>> {
    let Value::Table(t) = v else {
        return Err(err(format!(
            "{what} must be a list of joint names, got {}",
            describe(&v)
        )));
    };
    t.sequence_values::<Value>()
        .map(|v| match v? {
            Value::String(s) => Ok(s.to_str()?.to_string()),
            other => Err(err(format!(
                "{what} must list joint names, got {}",
                describe(&other)
            ))),
        })
        .collect()
}

fn positive(v: &Value, what: &str) -> mlua::Result<f32> {
    let n = number(v, what)?;
    if n < 0.0 {
        return Err(err(format!("{what} must be >= 0, got {n}")));
    }
    Ok(n)
}

/// Joint-keyed tables (`{ L_foot = { ... } }`) in name order, so errors come in a stable order;
/// the first `positional` list entries are left to the caller.
fn by_joint(t: &Table, what: &str, positional: i64) -> mlua::Result<Vec<(String, Value)>> {
    let mut out = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        match k {
            Value::String(s) => out.push((s.to_str()?.to_string(), v)),
            Value::Integer(i) if (1..=positional).contains(&i) => {}
            other => {
                return Err(err(format!(
                    "{what}: keys must be joint names, got {}",
                    describe(&other)
                )))
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn table(v: Value, what: &str) -> mlua::Result<Table> {
    match v {
        Value::Table(t) => Ok(t),
        other => Err(err(format!(
            "{what} must be a table, got {}",
            describe(&other)
        ))),
    }
}

/// Parses an `assert_motion` table (`what` names it in errors).
pub(crate) fn parse(t: &Table, what: &str) -> mlua::Result<MotionAsserts> {
    check_keys(t, what, &KEYS, 0)?;
    let mut a = MotionAsserts::default();
    match t.get::<Value>("foot_slide_mm")? {
        Value::Nil => {}
        v => a.foot_slide_mm = Some(positive(&v, &format!("{what}: foot_slide_mm"))?),
    }
    match t.get::<Value>("feet")? {
        Value::Nil => {}
        v => a.feet = Some(names(v, &format!("{what}: feet"))?),
    }
    if let Value::Table(c) = t.get::<Value>("contacts")? {
        for (joint, v) in by_joint(&c, &format!("{what}: contacts"), 0)? {
            let w = format!("{what}: contacts.{joint}");
            let r = table(v, &w)?;
            check_keys(&r, &w, &["height", "speed"], 0)?;
            let mut rule = ContactRule {
                height: f32::NAN,
                speed: ContactRule::SPEED,
            };
            match r.get::<Value>("height")? {
                Value::Nil => {}
                v => rule.height = number(&v, &format!("{w}.height"))?,
            }
            match r.get::<Value>("speed")? {
                Value::Nil => {}
                v => rule.speed = positive(&v, &format!("{w}.speed"))?,
            }
            a.contacts.push((joint, rule));
        }
    } else if !t.get::<Value>("contacts")?.is_nil() {
        return Err(err(format!("{what}: contacts must be a table of joints")));
    }
    a.no_nan = opt_bool(t, "no_nan", what)?.unwrap_or(true);
    match t.get::<Value>("max_joint_speed")? {
        Value::Nil => {}
        Value::Boolean(false) => a.max_joint_speed = None,
        Value::Table(s) => {
            let w = format!("{what}: max_joint_speed");
            match s.get::<Value>(1)? {
                Value::Nil => {}
                v => a.max_joint_speed = Some(positive(&v, &w)?),
            }
            for (joint, v) in by_joint(&s, &w, 1)? {
                a.joint_speeds
                    .push((joint.clone(), positive(&v, &format!("{w}.{joint}"))?));
            }
        }
        v => a.max_joint_speed = Some(positive(&v, &format!("{what}: max_joint_speed"))?),
    }
    match t.get::<Value>("limits")? {
        Value::Nil => {}
        v => {
            let w = format!("{what}: limits");
            for (joint, v) in by_joint(&table(v, &w)?, &w, 0)? {
                let wj = format!("{w}.{joint}");
                let l = table(v, &wj)?;
                check_keys(&l, &wj, &["min", "max"], 0)?;
                let get = |k: &str, d: f32| match l.get::<Value>(k)? {
                    Value::Nil => Ok(d),
                    v => number(&v, &format!("{wj}.{k}")),
                };
                let (min, max) = (get("min", 0.0)?, get("max", 180.0)?);
                if min > max {
                    return Err(err(format!("{wj}: min {min} is above max {max}")));
                }
                a.limits.push(AngleLimit { joint, min, max });
            }
        }
    }
    match t.get::<Value>("ground")? {
        Value::Nil => {}
        v => {
            let w = format!("{what}: ground");
            let g = table(v, &w)?;
            check_keys(&g, &w, &["feet", "max_penetration_mm"], 0)?;
            let feet = match g.get::<Value>("feet")? {
                Value::Nil => None,
                v => Some(names(v, &format!("{w}.feet"))?),
            };
            let depth = match g.get::<Value>("max_penetration_mm")? {
                Value::Nil => 10.0,
                v => positive(&v, &format!("{w}.max_penetration_mm"))?,
            };
            a.ground = Some((feet, depth));
        }
    }
    Ok(a)
}

/// Parses and checks the joints against the character (an unknown one named with the
/// nearest the rig has).
pub(crate) fn parse_for_rig(lua: &Lua, t: &Table, what: &str) -> mlua::Result<MotionAsserts> {
    let a = parse(t, what)?;
    let rig = current_rig(lua)?;
    if let Err(e) = a.resolve(&rig.skeleton) {
        let names = rig.skeleton.names().iter().map(String::as_str);
        return Err(err(format!(
            "{what}: {}: the rig has no joint '{}'{}",
            e.what,
            e.joint,
            crate::names::did_you_mean(&e.joint, names)
        )));
    }
    Ok(a)
}

/// Registers the global `assert_motion`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let f = super::function(lua, "assert_motion { ... }", 1, |lua, def: Value| {
        let r = match def {
            Value::Table(def) => parse_for_rig(lua, &def, "assert_motion"),
            other => Err(err(format!(
                "assert_motion takes a table, assert_motion {{ foot_slide_mm = 2 }}; got {}",
                describe(&other)
            ))),
        };
        let r = r.and_then(|a| {
            with_builder(lua, |b| {
                if b.spec.assert_motion.is_some() {
                    return Err(err(
                        "assert_motion is given twice; give one (a take may give its own)",
                    ));
                }
                b.spec.assert_motion = Some(a);
                Ok(())
            })
        });
        super::recover(lua, r, |_| Ok(()))
    })?;
    lua.globals().set("assert_motion", f)
}
