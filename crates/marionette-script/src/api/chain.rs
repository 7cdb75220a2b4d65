//! `ik.chain(root, tip, target, opts)` and `ik.spline(root, tip, points, opts)`: chain IK of any
//! length and a chain laid along a curve, as post-process operations evaluated in Rust.
//!
//! ```lua
//! ik.chain("tail_01", "tail_08", "tail_target", { solver = "fabrik", limits = 25 })
//! ik.spline("spine_01", "neck", { { 0, 1.2, 0.1 }, { 0, 1.5, 0.2 } })
//! ```

use mlua::{Lua, Table, Value};

use super::rig_decl::{CHAIN, SPLINE};
use super::{
    constrain::{flag_opt, num_opt, rig_op, target_arg},
    err,
    ik::{op_fn, opt},
    strict::{check_joint, check_opts, describe, number},
};
use crate::rig_kind::{ChainLimits, RigKind};
use marionette_anim::rigging::chain_ik::Solver;

/// Checks that `root` is an ancestor of `tip`: the chain's joints, root first.
fn check_root(lua: &Lua, root: &str, tip: &str, what: &str) -> mlua::Result<Vec<u16>> {
    let r = check_joint(lua, root)?;
    let t = check_joint(lua, tip)?;
    let rig = super::current_rig(lua)?;
    match marionette_anim::rigging::chain(rig.skeleton.parents(), r, t) {
        Some(c) if c.len() >= 2 => Ok(c),
        Some(_) => Err(err(format!(
            "{what}: root and tip are both '{tip}'; a chain needs two joints at least"
        ))),
        None if marionette_anim::rigging::chain(rig.skeleton.parents(), t, r).is_some() => {
            Err(err(format!(
                "{what}: '{root}' is below '{tip}': swap them, the chain's first joint (nearer the root) comes first: {what}(\"{tip}\", \"{root}\", ...)"
            )))
        }
        None => Err(err(format!(
            "{what}: '{root}' is not an ancestor of '{tip}' in rig {}; give the chain's first joint, then its last (for '{tip}': {})",
            rig.source,
            ancestors(&rig.skeleton, t)
        ))),
    }
}

/// `tip`'s ancestors, nearest first (up to six), to suggest a root.
fn ancestors(sk: &marionette_anim::Skeleton, tip: u16) -> String {
    let mut out = Vec::new();
    let mut j = sk.parent(tip);
    while let Some(p) = j {
        if out.len() == 6 {
            out.push("...".to_string());
            break;
        }
        out.push(format!("'{}'", sk.name(p)));
        j = sk.parent(p);
    }
    if out.is_empty() {
        "it has no parent".to_string()
    } else {
        out.join(", ")
    }
}

fn chain_kind(
    lua: &Lua,
    root: String,
    tip: &str,
    target: Value,
    opts: &Option<Table>,
) -> mlua::Result<RigKind> {
    const WHAT: &str = CHAIN.name;
    check_opts(opts, WHAT, CHAIN.options)?;
    let chain = check_root(lua, &root, tip, WHAT)?;
    let target = target_arg(lua, target, &format!("{WHAT} target"))?;
    let solver = match opt(opts, "solver")? {
        Value::Nil => Solver::Fabrik,
        Value::String(s) => match s.to_str()?.as_ref() {
            "fabrik" => Solver::Fabrik,
            "ccd" => Solver::Ccd,
            other => {
                return Err(err(format!(
                    "{WHAT}: solver '{other}' must be \"fabrik\" or \"ccd\""
                )))
            }
        },
        other => {
            return Err(err(format!(
                "{WHAT}: solver must be \"fabrik\" or \"ccd\", got {}",
                describe(&other)
            )))
        }
    };
    let iterations = num_opt(opts, "iterations", WHAT, 1.0..=10000.0, "")?;
    if iterations.is_some_and(|n| n.fract() != 0.0) {
        return Err(err(format!("{WHAT}: iterations must be a whole number")));
    }
    let tolerance = num_opt(opts, "tolerance", WHAT, 0.0..=1.0, " metres")?.unwrap_or(5e-5);
    let limits = match opt(opts, "limits")? {
        Value::Nil => ChainLimits::None,
        v @ (Value::Integer(_) | Value::Number(_)) => {
            let d = number(&v, &format!("{WHAT} limits"))?;
            if !(0.0..=180.0).contains(&d) {
                return Err(err(format!("{WHAT}: limits {d} must be 0..180 degrees")));
            }
            ChainLimits::All(d)
        }
        Value::Table(t) => {
            let mut named = Vec::new();
            for pair in t.pairs::<Value, Value>() {
                let (k, v) = pair?;
                let Value::String(k) = k else {
                    return Err(err(format!(
                        "{WHAT}: limits must be degrees, or {{ joint = degrees, ... }}"
                    )));
                };
                let k = k.to_str()?.to_string();
                let j = check_joint(lua, &k)?;
                if !chain.contains(&j) {
                    return Err(err(format!(
                        "{WHAT}: limits: '{k}' is not in the chain from '{root}' to '{tip}'"
                    )));
                }
                let d = number(&v, &format!("{WHAT} limits.{k}"))?;
                if !(0.0..=180.0).contains(&d) {
                    return Err(err(format!(
                        "{WHAT}: limits.{k} {d} must be 0..180 degrees"
                    )));
                }
                named.push((k, d));
            }
            named.sort_by(|a, b| a.0.cmp(&b.0));
            ChainLimits::Named(named)
        }
        other => {
            return Err(err(format!(
                "{WHAT}: limits must be degrees, or {{ joint = degrees, ... }}, got {}",
                describe(&other)
            )))
        }
    };
    let pole = match opt(opts, "pole")? {
        Value::Nil => None,
        v => Some(target_arg(lua, v, &format!("{WHAT} pole"))?),
    };
    let stretch = flag_opt(opts, "stretch", WHAT)?;
    Ok(RigKind::Chain {
        root,
        target,
        solver,
        iterations: iterations.map(|n| n as u32),
        tolerance,
        limits,
        pole,
        stretch,
    })
}

/// Adds `chain` and `spline` to the global `ik` table (registered before).
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let ik: Table = lua.globals().get("ik")?;
    ik.set(
        "chain",
        op_fn(
            lua,
            CHAIN.signature(),
            CHAIN.args.len(),
            |lua, (root, tip, target, opts): (String, String, Value, Option<Table>)| {
                let kind = chain_kind(lua, root, &tip, target, &opts)?;
                rig_op(lua, tip, kind, &opts)
            },
        )?,
    )?;
    ik.set(
        "spline",
        op_fn(
            lua,
            SPLINE.signature(),
            SPLINE.args.len(),
            |lua, (root, tip, points, opts): (String, String, Value, Option<Table>)| {
                const WHAT: &str = SPLINE.name;
                check_opts(&opts, WHAT, SPLINE.options)?;
                check_root(lua, &root, &tip, WHAT)?;
                let Value::Table(list) = points else {
                    return Err(err(format!(
                        "{WHAT}: give the curve's points as a list, {{ {{x, y, z}}, \"joint\", \"vec3_param\", ... }}"
                    )));
                };
                let mut ps = Vec::new();
                for (k, v) in list.sequence_values::<Value>().enumerate() {
                    ps.push(target_arg(lua, v?, &format!("{WHAT} point {}", k + 1))?);
                }
                if ps.is_empty() {
                    return Err(err(format!("{WHAT}: give at least one point")));
                }
                rig_op(lua, tip, RigKind::Spline { root, points: ps }, &opts)
            },
        )?,
    )
}
