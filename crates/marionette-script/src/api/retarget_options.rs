//! The options of a retarget (`map`, `chains`, `rest`, `scale`, `ik`) read from Lua values, as
//! both `retarget(source, { ... })` and a map file (`crate::map_file`) give them.

use glam::Vec3;
use mlua::{Table, Value};

use super::{
    err,
    params::vec3_arg,
    strict::{describe, number},
};
use crate::spec::ReferencePose;

/// A list of joint names (a Lua sequence of strings).
fn names(t: &Table, what: &str) -> mlua::Result<Vec<String>> {
    let mut out = Vec::new();
    for v in t.sequence_values::<Value>() {
        match v? {
            Value::String(s) => out.push(s.to_str()?.to_string()),
            other => {
                return Err(err(format!(
                    "{what}: expected joint names, got {}",
                    describe(&other)
                )))
            }
        }
    }
    Ok(out)
}

pub(crate) fn map_option(v: Value) -> mlua::Result<Vec<(String, String)>> {
    let Value::Table(t) = v else {
        return match v {
            Value::Nil => Ok(Vec::new()),
            Value::String(s) if s.to_str()?.as_ref() == "auto" => Ok(Vec::new()),
            other => Err(err(format!(
                "retarget: map must be \"auto\" or a table {{ character_joint = \"source_joint\", ... }}, got {}",
                describe(&other)
            ))),
        };
    };
    let mut pairs = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        match (k, v) {
            (Value::String(k), Value::String(v)) => {
                pairs.push((k.to_str()?.to_string(), v.to_str()?.to_string()))
            }
            (k, v) => {
                return Err(err(format!(
                    "retarget: map entries are character_joint = \"source_joint\", got [{}] = {}",
                    describe(&k),
                    describe(&v)
                )))
            }
        }
    }
    pairs.sort();
    Ok(pairs)
}

pub(crate) fn chains_option(v: Value) -> mlua::Result<Vec<(Vec<String>, Vec<String>)>> {
    let t = match v {
        Value::Nil => return Ok(Vec::new()),
        Value::Table(t) => t,
        other => {
            return Err(err(format!(
                "retarget: chains is a list of {{ \"joint\", \"joint\", ..., from = {{ \"source joint\", ... }} }}, got {}",
                describe(&other)
            )))
        }
    };
    let mut out = Vec::new();
    for (i, c) in t.sequence_values::<Value>().enumerate() {
        let what = format!("retarget: chain {}", i + 1);
        let Value::Table(c) = c? else {
            return Err(err(format!(
                "{what}: expected {{ \"joint\", ..., from = {{ \"source joint\", ... }} }}"
            )));
        };
        super::strict::check_keys(&c, &what, &["from"], c.raw_len())?;
        let target = names(&c, &what)?;
        let source = match c.get::<Value>("from")? {
            Value::Table(f) => names(&f, &what)?,
            other => {
                return Err(err(format!(
                    "{what}: from must list the source chain's joints, got {}",
                    describe(&other)
                )))
            }
        };
        if target.is_empty() || source.is_empty() {
            return Err(err(format!(
                "{what}: a chain needs at least one joint on each side"
            )));
        }
        out.push((target, source));
    }
    Ok(out)
}

pub(crate) fn scale_option(v: Value) -> mlua::Result<Option<Vec3>> {
    let s = match &v {
        Value::Nil => return Ok(None),
        Value::Integer(_) | Value::Number(_) => Vec3::splat(number(&v, "retarget: scale")?),
        Value::Table(t) => {
            // `{x, y, z}` or `{x = .., y = .., z = ..}`
            let n = t.raw_len();
            if n != 3 && n != 0 {
                return Err(err(format!(
                    "retarget: scale is a number or {{x, y, z}} (three numbers), got a table of {n}"
                )));
            }
            vec3_arg(&v, "retarget: scale")?
        }
        other => {
            return Err(err(format!(
                "retarget: scale is a number or {{x, y, z}}, got {}",
                describe(other)
            )))
        }
    };
    if !(s.is_finite() && s.min_element() > 0.0) {
        let written = match v {
            Value::Table(_) => format!("{{{}, {}, {}}}", s.x, s.y, s.z),
            _ => s.x.to_string(),
        };
        return Err(err(format!(
            "retarget: scale must be positive, got {written}"
        )));
    }
    Ok(Some(s))
}

pub(crate) fn ik_option(v: Value) -> mlua::Result<(bool, bool)> {
    match v {
        // by default the feet only: a differently proportioned arm reaching the source's hand
        // positions bends its elbow away from the capture's
        Value::Nil => Ok((true, false)),
        Value::Boolean(true) => Ok((true, true)),
        Value::Boolean(false) => Ok((false, false)),
        Value::String(s) => match s.to_str()?.as_ref() {
            "feet" => Ok((true, false)),
            "hands" => Ok((false, true)),
            other => Err(err(format!(
                "retarget: ik is true, false, \"feet\" or \"hands\", got \"{other}\""
            ))),
        },
        other => Err(err(format!(
            "retarget: ik is true, false, \"feet\" or \"hands\", got {}",
            describe(&other)
        ))),
    }
}

/// `rest = "auto" | "rest" | "tpose"` (`None` when absent).
pub(crate) fn rest_option(v: Value) -> mlua::Result<Option<ReferencePose>> {
    match v {
        Value::Nil => Ok(None),
        Value::String(s) => {
            let s = s.to_str()?.to_string();
            ReferencePose::from_name(&s).map(Some).ok_or_else(|| {
                err(format!(
                    "retarget: rest is \"auto\" (the default: a T-pose when the rests differ), \"rest\" (each rig's rest pose) or \"tpose\" (both aligned to a T-pose first), got \"{s}\""
                ))
            })
        }
        other => Err(err(format!(
            "retarget: rest is \"auto\", \"rest\" or \"tpose\", got {}",
            describe(&other)
        ))),
    }
}
