//! Issue 12, one post-process API: `ik.*`, `adjust.*` and `pose:*` share options and checks
//! (two-bone chains are validated, `pole` is required), `post` mixes Rust operations with a Lua
//! function, unknown `ctx` fields and near-miss names are errors with a suggestion.

use crate::script_common::{options, TempDir};
use marionette_script::{load, ScriptedGraph};

const HEAD: &str =
    "local rig = marionette.rig()\nparams { speed = float(0, 0, 6), aim = vec3(0, 1, 1) }\n";

fn build(body: &str) -> Result<ScriptedGraph, String> {
    let dir = TempDir::new("post");
    let path = dir.write("anim.lua", body);
    load(&path, &options())
        .and_then(ScriptedGraph::new)
        .map_err(|e| {
            let h = e.headline();
            let file = path.display().to_string();
            h.strip_prefix(&file).map(str::to_string).unwrap_or(h)
        })
}

/// The message of a `post` function's runtime error after one frame.
fn runtime_error(post: &str) -> String {
    let mut g = build(&format!(
        "{HEAD}return graph {{ root = rig.idle,\n  post = function(pose, ctx)\n    {post}\n  end }}\n"
    ))
    .expect("loads");
    g.seek(0.1);
    g.runtime_error().expect("post fails").headline()
}

/// `ik.two_bone` on a joint without parent or grandparent names the joint and why.
#[test]
fn two_bone_validates_the_chain() {
    let load_err = |tip: &str| {
        build(&format!(
            "{HEAD}return graph {{ root = rig.idle, post = {{ ik.two_bone('{tip}', 'aim', {{ pole = {{0, 0, 1}} }}) }} }}\n"
        ))
        .err()
        .expect("fails")
    };
    assert_eq!(
        load_err("root"),
        ":3: ik.two_bone: 'root' has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)"
    );
    assert_eq!(
        load_err("pelvis"),
        ":3: ik.two_bone: 'pelvis' is a child of 'root', which has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)"
    );
    assert_eq!(
        load_err("L_hnad"),
        ":3: unknown joint 'L_hnad' in rig small test rig (did you mean 'L_hand'?)"
    );
    assert!(build(&format!(
        "{HEAD}return graph {{ root = rig.idle, post = {{ ik.two_bone('L_hand', 'aim', {{ pole = {{0, 0, 1}} }}) }} }}\n"
    ))
    .is_ok());
}

/// `pose:*` shares `ik.*`'s options and checks: unknown keys, a required pole, the chain check,
/// and suggestions for joint names.
#[test]
fn pose_methods_share_the_ik_semantics() {
    assert!(
        runtime_error("pose:rotate('head', {0, 1, 0}, { spcae = 'model' })")
            .ends_with(":5: pose:rotate: unknown option 'spcae' (did you mean 'space'?)")
    );
    assert!(runtime_error("pose:two_bone_ik('L_hand', {0, 1, 0})").ends_with(
        ":5: pose:two_bone_ik: give pole = {x, y, z} (a model-space point the elbow or knee bends towards)"
    ));
    assert!(
        runtime_error("pose:two_bone_ik('pelvis', {0, 1, 0}, { pole = {0, 0, 1} })")
            .ends_with(":5: pose:two_bone_ik: 'pelvis' is a child of 'root', which has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)")
    );
    assert!(runtime_error("pose:rotate('Head', {0, 1, 0})")
        .ends_with(":5: unknown joint 'Head' (did you mean 'head'?)"));
}

/// Reading an unknown `ctx` field is an error naming it, not `nil`.
#[test]
fn unknown_ctx_fields_are_errors() {
    let got = runtime_error("local s = ctx.sped");
    assert!(
        got.ends_with(":5: ctx.sped: unknown field (did you mean 'speed'?)"),
        "{got}"
    );
    let got = runtime_error("local s = ctx.zzzz");
    assert!(
        got.ends_with(":5: ctx.zzzz: unknown field (it has: time, aim, speed)"),
        "{got}"
    );
}

/// `post` mixes Rust operations and a Lua function (last); `adjust.*` and the deprecated
/// `ik.rotate` alias give the same pose; a function before an operation is an error.
#[test]
fn post_mixes_rust_ops_and_lua() {
    let head_y = |post: &str| {
        let mut g = build(&format!(
            "{HEAD}return graph {{ root = rig.idle, post = {post} }}\n"
        ))
        .expect("loads");
        let pose = g.seek(0.0).to_vec();
        assert!(g.runtime_error().is_none());
        (pose[3].rotation, pose[3].translation)
    };
    let rust_only = head_y("{ adjust.rotate('head', {0, 30, 0}) }");
    let alias = head_y("{ ik.rotate('head', {0, 30, 0}) }");
    assert_eq!(rust_only, alias);
    let mixed = head_y(
        "{ adjust.rotate('head', {0, 30, 0}), function(pose, ctx) pose:translate('head', {0, 0.5, 0}) end }",
    );
    assert_eq!(mixed.0, rust_only.0);
    assert!((mixed.1.y - rust_only.1.y - 0.5).abs() < 1e-6, "{mixed:?}");
    assert_eq!(
        build(&format!(
            "{HEAD}return graph {{ root = rig.idle, post = {{ function() end, adjust.rotate('head', {{0, 1, 0}}) }} }}\n"
        ))
        .err()
        .expect("fails"),
        ":3: graph: post[1]: a Lua function must come last in post (the Rust operations run first)"
    );
}

/// Clip names suggest the near name, case included.
#[test]
fn clip_names_suggest() {
    assert_eq!(
        build("local rig = marionette.rig()\nreturn graph { root = rig.Idle }\n")
            .err()
            .expect("fails"),
        ":2: unknown clip 'Idle' (did you mean 'idle'?) (the rig small test rig has: idle, walk, run, wave, jump)"
    );
}
