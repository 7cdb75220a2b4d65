//! Left and right on any rig: which side each joint is on and which joints pair up, from the
//! rig's names ([`marionette_anim::mirror::side_of`]: `L_`/`R_`, `Left`/`Right`, `_L`/`_R`, `.L`/`.R`,
//! `UpperArmL`, node numbers ignored) and from the script's own pairing:
//!
//! ```lua
//! marionette.sides { left = "Lf", right = "Rt" }              -- a pattern: "armLf" pairs with "armRt"
//! marionette.sides { pairs = { ["arm A"] = "arm B" } }        -- explicit (left = right)
//! ```
//!
//! `mask.side` and mirroring use both; each warns when it finds no joints or pairs.

use mlua::{Lua, Table, Value};

use super::{
    caller_location, current_rig, err,
    strict::{check_joint, check_keys},
    with_builder,
};
use marionette_anim::mirror::{side_of, MirrorMap, Side};
use marionette_anim::JointIndex;

/// The script's pairs as joint indices (left, right).
pub(crate) fn explicit_pairs(lua: &Lua) -> mlua::Result<Vec<(JointIndex, JointIndex)>> {
    let rig = current_rig(lua)?;
    with_builder(lua, |b| {
        Ok(b.spec
            .mirror_pairs
            .iter()
            .filter_map(|(l, r)| Some((rig.skeleton.find(l)?, rig.skeleton.find(r)?)))
            .collect())
    })
}

/// The side of every joint: the script's pairs first, then the rig's naming.
pub(crate) fn joint_sides(lua: &Lua) -> mlua::Result<Vec<Option<Side>>> {
    let rig = current_rig(lua)?;
    let mut sides: Vec<Option<Side>> = rig
        .skeleton
        .names()
        .iter()
        .map(|n| side_of(n).map(|(s, _)| s))
        .collect();
    // (in range: the pairs are looked up in the current rig, `rig`; no Lua runs in between)
    for (l, r) in explicit_pairs(lua)? {
        sides[usize::from(l)] = Some(Side::Left);
        sides[usize::from(r)] = Some(Side::Right);
    }
    Ok(sides)
}

/// How many joints mirroring swaps on the current rig.
pub(crate) fn mirrored_joints(lua: &Lua) -> mlua::Result<usize> {
    let rig = current_rig(lua)?;
    Ok(MirrorMap::with_pairs(&rig.skeleton, &explicit_pairs(lua)?).paired())
}

/// Records a warning at the calling script line (shown by `check`, `run` and the editor).
pub(crate) fn warn(lua: &Lua, message: String) -> mlua::Result<()> {
    let at = caller_location(lua).map_or(String::new(), |l| format!("{}:{}: ", l.file, l.line));
    with_builder(lua, |b| {
        let line = format!("{at}warning: {message}");
        if !b.warnings.contains(&line) {
            b.warnings.push(line);
        }
        Ok(())
    })
}

fn string(t: &Table, key: &str) -> mlua::Result<Option<String>> {
    match t.get::<Value>(key)? {
        Value::Nil => Ok(None),
        Value::String(s) if !s.as_bytes().is_empty() => Ok(Some(s.to_str()?.to_string())),
        _ => Err(err(format!(
            "marionette.sides: {key} must be a non-empty string"
        ))),
    }
}

/// `marionette.sides { left = "Lf", right = "Rt" }` / `{ pairs = { a = "b" } }`.
fn sides(lua: &Lua, def: Table) -> mlua::Result<usize> {
    check_keys(&def, "marionette.sides", &["left", "right", "pairs"], 0)?;
    let rig = current_rig(lua)?;
    let mut pairs: Vec<(String, String)> = Vec::new();
    match (string(&def, "left")?, string(&def, "right")?) {
        (Some(l), Some(r)) => {
            for name in rig.skeleton.names() {
                if !name.contains(&l) {
                    continue;
                }
                let other = name.replacen(&l, &r, 1);
                if rig.skeleton.find(&other).is_some() {
                    pairs.push((name.clone(), other));
                }
            }
            if pairs.is_empty() {
                return Err(err(format!(
                    "marionette.sides: no joint pairs in rig {} with left = '{l}', right = '{r}'",
                    rig.source
                )));
            }
        }
        (None, None) => {}
        _ => return Err(err("marionette.sides: give both left = and right =")),
    }
    if let Some(t) = def.get::<Option<Table>>("pairs")? {
        let mut list = Vec::new();
        for pair in t.pairs::<String, String>() {
            let (l, r) = pair.map_err(|_| {
                err("marionette.sides: write pairs = { left_name = \"right_name\" }")
            })?;
            check_joint(lua, &l)?;
            check_joint(lua, &r)?;
            list.push((l, r));
        }
        list.sort();
        pairs.extend(list);
    }
    if pairs.is_empty() {
        return Err(err(
            "marionette.sides: give left = and right = (a name pattern) or pairs = { left = \"right\" }",
        ));
    }
    let n = pairs.len();
    with_builder(lua, |b| {
        b.rig_used = true;
        b.spec.mirror_pairs.extend(pairs);
        Ok(n)
    })
}

/// Adds `marionette.sides` (after `rig::register` made the `marionette` table).
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let m: Table = lua.globals().get("marionette")?;
    m.set(
        "sides",
        super::function(lua, "marionette.sides { ... }", 1, |lua, def: Table| {
            let r = sides(lua, def);
            super::recover(lua, r, |_| Ok(0))
        })?,
    )
}
