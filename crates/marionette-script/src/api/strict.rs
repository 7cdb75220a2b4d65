//! Strictness helpers shared by the API: "did you mean" suggestions for names (case and typos),
//! options tables that reject unknown keys, so a misspelt option is an error at its line
//! instead of silently doing nothing, and the argument checks every constructor uses: finite
//! numbers ([`number`]) and joint names of the rig ([`check_joint`]).

use mlua::{Lua, Table, Value};

use super::{current_rig, err};
use crate::names::closest;
pub(crate) use crate::names::{did_you_mean, unknown_hint};

/// Errors on any string key of `t` not in `allowed` (and on non-string keys other than the
/// first `positional` array slots), naming the key and suggesting the closest allowed one.
pub(crate) fn check_keys(
    t: &Table,
    what: &str,
    allowed: &[&str],
    positional: usize,
) -> mlua::Result<()> {
    let mut bad: Vec<String> = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair?;
        match &k {
            Value::String(s) => {
                // compared in place: the common (valid) case allocates nothing
                let s = s.to_str()?;
                if !allowed.contains(&&*s) {
                    bad.push(s.to_string());
                }
            }
            Value::Integer(i)
                if usize::try_from(*i).is_ok_and(|i| (1..=positional).contains(&i)) => {}
            other => {
                return Err(err(format!(
                    "{what}: unexpected entry [{}]{}",
                    match other {
                        Value::Integer(i) => i.to_string(),
                        v => v.type_name().to_string(),
                    },
                    if positional == 0 {
                        " (this table takes named options only)".to_string()
                    } else {
                        format!(" (only {positional} positional entries)")
                    }
                )))
            }
        }
    }
    bad.sort();
    if let Some(key) = bad.first() {
        let hint = match closest(key, allowed.iter().copied()) {
            Some(c) => format!("did you mean '{c}'?"),
            None if allowed.is_empty() => "it takes no named fields".to_string(),
            None => format!("known: {}", allowed.join(", ")),
        };
        return Err(err(format!("{what}: unknown option '{key}' ({hint})")));
    }
    Ok(())
}

/// Like [`check_keys`] for an optional options table.
pub(crate) fn check_opts(opts: &Option<Table>, what: &str, allowed: &[&str]) -> mlua::Result<()> {
    match opts {
        Some(t) => check_keys(t, what, allowed, 0),
        None => Ok(()),
    }
}

/// Reads an optional boolean option: absent is `None`; anything but `true`/`false` is an error.
pub(crate) fn opt_bool(t: &Table, key: &str, what: &str) -> mlua::Result<Option<bool>> {
    match t.get::<Value>(key)? {
        Value::Nil => Ok(None),
        Value::Boolean(b) => Ok(Some(b)),
        other => Err(err(format!(
            "{what}: {key} must be true or false, got {}",
            describe(&other)
        ))),
    }
}

/// A short description of a Lua value for error messages (`the number 0`, `a table`).
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Integer(i) => format!("the number {i}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{}\"", s.to_string_lossy()),
        other => format!("a {}", other.type_name()),
    }
}

/// A metatable whose `__index` makes reading a missing field of a table an error naming the
/// field, suggesting the closest of `names` (for `ctx` and predicate tables, where `nil` would
/// hide a typo). Protected (`__metatable = false`): a script can neither fetch nor replace it.
pub(crate) fn strict_fields(
    lua: &mlua::Lua,
    what: &str,
    names: Vec<String>,
) -> mlua::Result<Table> {
    let what = what.to_string();
    let meta = lua.create_table()?;
    let index = lua.create_function(move |_, (_t, k): (Value, Value)| -> mlua::Result<Value> {
        let key = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => format!("[{}]", describe(other)),
        };
        let hint = match closest(&key, names.iter().map(String::as_str)) {
            Some(c) => format!(" (did you mean '{c}'?)"),
            None => format!(" (it has: {})", names.join(", ")),
        };
        Err(err(format!("{what}.{key}: unknown field{hint}")))
    })?;
    meta.raw_set("__index", index)?;
    meta.raw_set("__metatable", false)?;
    Ok(meta)
}

/// A finite number argument (every number a script passes goes through here). NaN, the
/// infinities and numbers too large for the runtime's 32-bit floats are refused by name:
/// `expected a number, got NaN`, `expected a finite number, got inf`.
#[inline]
pub(crate) fn number(v: &Value, what: &str) -> mlua::Result<f32> {
    let n = match v {
        Value::Integer(i) => *i as f64,
        Value::Number(n) => *n,
        other => return Err(not_a_number(other, what)),
    };
    // (finite as f32 exactly when `n` is finite and not too large)
    let x = n as f32;
    if x.is_finite() {
        return Ok(x);
    }
    Err(bad_number(n, what))
}

#[cold]
fn not_a_number(v: &Value, what: &str) -> mlua::Error {
    err(format!("{what}: expected a number, got {}", v.type_name()))
}

/// Why `n`, a number that is not a finite f32, is refused.
#[cold]
fn bad_number(n: f64, what: &str) -> mlua::Error {
    if n.is_nan() {
        return err(format!("{what}: expected a number, got NaN"));
    }
    if n.is_infinite() {
        return err(format!("{what}: expected a finite number, got {n}"));
    }
    err(format!(
        "{what}: {n:e} is too large (at most {:e} in magnitude)",
        f32::MAX
    ))
}

/// Checks a joint name against the rig, suggesting near matches.
pub(crate) fn check_joint(lua: &Lua, name: &str) -> mlua::Result<u16> {
    let rig = current_rig(lua)?;
    rig.skeleton.find(name).ok_or_else(|| {
        let morphs = rig.skeleton.morphs();
        // a mesh or a morph target named where a joint is wanted: say what it is
        if let Some(set) = morphs.sets().iter().find(|s| s.name == name) {
            let follows = set
                .joint
                .map(|j| format!(" (it follows joint '{}')", rig.skeleton.name(j)))
                .unwrap_or_default();
            return err(format!(
                "'{name}' is a mesh with morph targets, not a joint{follows}: use \
                 mask.morphs('{name}') for its targets"
            ));
        }
        if !morphs.find_target(name).is_empty() {
            return err(format!(
                "'{name}' is a morph target, not a joint: use mask.morphs('{name}'), morph.set or \
                 pose:set_morph"
            ));
        }
        let hint = unknown_hint(name, rig.skeleton.names().iter().map(String::as_str), "it");
        err(format!(
            "unknown joint '{name}' in rig {}{hint}",
            rig.source
        ))
    })
}

/// The message for a morph name the rig does not have: a joint of that name (and the meshes
/// that follow it), a reversed `target.mesh`, the closest names, or that the rig has no morph
/// targets at all. `what` names the call (`morph.set`).
pub(crate) fn unknown_morph(
    what: &str,
    name: &str,
    skeleton: &marionette_anim::Skeleton,
) -> String {
    let morphs = skeleton.morphs();
    if morphs.is_empty() {
        return format!(
            "{what}: unknown morph target '{name}' (the rig has no morph targets: its meshes have \
             no blend shapes)"
        );
    }
    if let Some(j) = skeleton.find(name) {
        let meshes: Vec<&str> = morphs
            .sets()
            .iter()
            .filter(|s| s.joint.is_some_and(|k| skeleton.is_descendant_of(k, j)))
            .map(|s| s.name.as_str())
            .collect();
        let which = if meshes.is_empty() {
            "no mesh with morph targets follows it".to_string()
        } else {
            format!(
                "the meshes with morph targets under it are {} (name a target, e.g. '{}.{}')",
                meshes.join(", "),
                meshes[0],
                morphs
                    .sets()
                    .iter()
                    .find(|s| s.name == meshes[0])
                    .map_or("", |s| s.targets[0].as_str())
            )
        };
        return format!("{what}: '{name}' is a joint, not a morph target: {which}");
    }
    if let Some((a, b)) = name.split_once('.') {
        let reversed = format!("{b}.{a}");
        if !morphs.find(&reversed).is_empty() {
            return format!(
                "{what}: unknown morph target '{name}' (did you mean '{reversed}'? a qualified name \
                 is mesh.target)"
            );
        }
    }
    let names = morphs.all_names();
    let hint = unknown_hint(name, names.iter().map(String::as_str), "the rig");
    format!("{what}: unknown morph target '{name}'{hint}")
}

/// Checks that `name` names morph targets of the current rig.
pub(crate) fn check_morph(lua: &Lua, what: &str, name: &str) -> mlua::Result<Vec<usize>> {
    let rig = current_rig(lua)?;
    let found = rig.skeleton.morphs().find(name);
    if found.is_empty() {
        return Err(err(unknown_morph(what, name, &rig.skeleton)));
    }
    Ok(found)
}

/// Checks that `tip` ends a two-bone chain (tip, its parent, its grandparent) whose two bones
/// have length in the rest pose; the message names the joint that is wrong. `tip` is a joint of
/// `skeleton` (both callers find it there), so it and its parents index the skeleton's lists.
pub(crate) fn check_chain(
    skeleton: &marionette_anim::Skeleton,
    tip: marionette_anim::JointIndex,
) -> Result<(), String> {
    let names = skeleton.names();
    let name = |j: marionette_anim::JointIndex| names[usize::from(j)].as_str();
    let Some(mid) = skeleton.parent(tip) else {
        return Err(format!(
            "'{}' has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)",
            name(tip)
        ));
    };
    let Some(_root) = skeleton.parent(mid) else {
        return Err(format!(
            "'{}' is a child of '{}', which has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)",
            name(tip),
            name(mid)
        ));
    };
    let rest = skeleton.rest_pose();
    for j in [tip, mid] {
        if rest[usize::from(j)].translation.length() < 1e-6 {
            return Err(format!(
                "'{}' sits on its parent '{}' in the rest pose (a bone of length 0 cannot bend)",
                name(j),
                skeleton.parent(j).map_or("?", name)
            ));
        }
    }
    Ok(())
}
