//! The `pose:` methods read the usual arguments — a plain `{x, y, z}` and options that are all
//! known numbers — in one pass off the Lua stack, and everything else (a table with a
//! metatable, `.x/.y/.z` fields, string or table options) the general way: both give the same
//! pose and the same errors.

use crate::script_common::{options, TempDir};
use marionette_anim::Transform;
use marionette_script::{load, ScriptedGraph};

/// The pose after one frame of `post = function(pose, ctx) <body> end`, or its runtime error.
fn post(body: &str) -> Result<Vec<Transform>, String> {
    let dir = TempDir::new("post-args");
    let path = dir.write(
        "anim.lua",
        &format!(
            "local rig = marionette.rig()\nreturn graph {{ root = rig.idle,\n  \
             post = function(pose, ctx)\n    {body}\n  end }}\n"
        ),
    );
    let mut g = load(&path, &options())
        .and_then(ScriptedGraph::new)
        .map_err(|e| e.headline())?;
    let pose = g.seek(0.3).to_vec();
    match g.runtime_error() {
        Some(e) => {
            let h = e.headline();
            let file = path.display().to_string();
            Err(h.strip_prefix(&file).map(str::to_string).unwrap_or(h))
        }
        None => Ok(pose),
    }
}

/// Each method with its arguments read off the stack and the general way (a metatable on the
/// target, or a string option that only the general path reads) gives the same pose, and the
/// ops do change it.
#[test]
fn both_paths_give_the_same_pose() {
    let untouched = post("").expect("runs");
    let m = "setmetatable({0.3, 1.2, 2}, {})";
    let pairs = [
        (
            "pose:look_at('head', {0.3, 1.2, 2}, { weight = 0.5, limit = 45 })".to_string(),
            format!("pose:look_at('head', {m}, {{ weight = 0.5, limit = 45, axis = 'z' }})"),
        ),
        (
            "pose:look_at('head', {0.3, 1.2, 2})".to_string(),
            "pose:look_at('head', { x = 0.3, y = 1.2, z = 2 })".to_string(),
        ),
        (
            "pose:rotate('spine', {10, 20, 30}, { weight = 1 })".to_string(),
            "pose:rotate('spine', {10, 20, 30}, { weight = 1, space = 'local' })".to_string(),
        ),
        (
            "pose:translate('pelvis', {0.1, 0, 0})".to_string(),
            format!("pose:translate('pelvis', {m})").replace("0.3, 1.2, 2", "0.1, 0, 0"),
        ),
        (
            "pose:set_translation('L_hand', {0.3, 1.2, 2}, { weight = 0.25 })".to_string(),
            format!("pose:set_translation('L_hand', {m}, {{ weight = 0.25 }})"),
        ),
        (
            "pose:two_bone_ik('L_hand', {0.3, 1.2, 0.5}, { pole = {0, 1, -1} })".to_string(),
            "pose:two_bone_ik('L_hand', setmetatable({0.3, 1.2, 0.5}, {}), { pole = {0, 1, -1} })"
                .to_string(),
        ),
    ];
    for (fast, general) in pairs {
        let a = post(&fast).expect(&fast);
        assert_eq!(a, post(&general).expect(&general), "{fast}");
        assert_ne!(a, untouched, "{fast} changes nothing");
    }
}

/// Errors read the same whichever way the arguments were read: a NaN or huge component, a
/// string where a number belongs, an unknown or out-of-range option.
#[test]
fn both_paths_give_the_same_errors() {
    // each body uses the target T, given as a plain table (read off the stack) and with a
    // metatable (read the general way)
    let cases = [
        (
            "pose:look_at('head', T{0/0, 1, 2})",
            ":4: look_at target: expected a number, got NaN",
        ),
        (
            "pose:look_at('head', T{1e39, 1, 2})",
            ":4: look_at target: 1e39 is too large (at most 3.4028235e38 in magnitude)",
        ),
        (
            "pose:rotate('spine', T{'10', 0, 0})",
            ":4: rotate {x, y, z} degrees: expected a number, got string",
        ),
        (
            "pose:look_at('head', T{0, 1, 2}, { wieght = 1 })",
            ":4: pose:look_at: unknown option 'wieght' (did you mean 'weight'?)",
        ),
        (
            "pose:look_at('head', T{0, 1, 2}, { weight = 2 })",
            ":4: weight 2 is outside [0, 1]",
        ),
        (
            "pose:look_at('head', T{0, 1, 2}, { limit = 200 })",
            ":4: look_at: limit 200 must be 0..180 degrees",
        ),
        (
            "pose:translate('pelvis', T{0, 1, 2}, { 0.5 })",
            ":4: pose:translate: unexpected entry [1] (this table takes named options only)",
        ),
    ];
    for (body, want) in cases {
        for t in [
            "local T = function(t) return t end ",
            "local T = function(t) return setmetatable(t, {}) end ",
        ] {
            let body = format!("{t}{body}");
            assert_eq!(post(&body).expect_err(&body), want, "{body}");
        }
    }
}
