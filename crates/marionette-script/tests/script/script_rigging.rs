//! Procedural rigging ops as a script writes them: each lowers to the graph and changes the pose;
//! each misuse is an error at its line naming the fix (on the small test rig: root, pelvis,
//! spine, head, L_/R_ upperarm and hand, L_thigh).

use crate::script_common::{options, TempDir};
use marionette_anim::ik::model_transform;
use marionette_script::{load, ScriptedGraph};

/// The script `anim.lua` with `post = { <ops> }` (and `extra` before the graph), loaded.
fn with_post(extra: &str, ops: &str) -> Result<ScriptedGraph, String> {
    let dir = TempDir::new("rigging");
    let path = dir.write(
        "anim.lua",
        &format!(
            "local rig = marionette.rig()\n{extra}\nreturn graph {{ root = rig.idle,\n  post = {{\n    {ops}\n  }} }}\n"
        ),
    );
    load(&path, &options())
        .and_then(ScriptedGraph::new)
        .map_err(|e| e.headline())
}

fn fails(extra: &str, op: &str) -> String {
    match with_post(extra, op) {
        Ok(_) => panic!("{op}: loaded"),
        Err(e) => e,
    }
}

/// Every op loads, evaluates and changes the pose it is about.
#[test]
fn every_op_changes_the_pose() {
    let plain = with_post("", "").expect("loads").seek(0.5).to_vec();
    for (extra, op, joint) in [
        ("", "constrain.aim('head', { 1, 2, 1 }, { axis = 'y', up = 'z' })", "head"),
        ("params { look = vec3(1, 1.5, 1) }", "constrain.aim('head', 'look', { axis = 'y', up = 'z' })", "head"),
        ("", "constrain.aim('head', 'L_hand', { axis = 'y', up = 'z' })", "head"),
        ("", "constrain.multi_aim('head', { { {1, 2, 0}, 1 }, { 'R_hand', 0.5 } }, { axis = 'y', up = 'z' })", "head"),
        ("", "constrain.copy('R_upperarm', 'L_upperarm', { channel = 'rotation', offset = false }), adjust.rotate('L_upperarm', { 0, 0, 40 })", "L_upperarm"),
        ("", "adjust.rotate('L_hand', { 0, 0, 30 }), constrain.copy('R_hand', 'L_hand', { mix = 'add', space = 'local' })", "R_hand"),
        ("", "ik.chain('pelvis', 'L_hand', { 0.4, 1.3, 0.3 })", "L_hand"),
        ("", "ik.chain('pelvis', 'L_hand', 'R_hand', { solver = 'ccd', limits = { spine = 10 } })", "L_hand"),
        ("", "ik.spline('pelvis', 'head', { { 0.2, 1.4, 0 }, { 0.5, 1.6, 0 } })", "head"),
        ("", "spring({ 'L_upperarm', 'L_hand' }, { gravity = 9.81, stiffness = 0.5 })", "L_hand"),
    ] {
        let mut g = with_post(extra, op).unwrap_or_else(|e| panic!("{op}: {e}"));
        let pose = g.seek(0.5).to_vec();
        let sk = &g.script().rig.skeleton;
        let j = sk.find(joint).expect("joint");
        let a = model_transform(sk.parents(), &plain, j);
        let b = model_transform(sk.parents(), &pose, j);
        let moved = a.translation.distance(b.translation) + a.rotation.angle_between(b.rotation);
        assert!(moved > 1e-3, "{op}: {joint} did not move");
    }
}

/// The aim meets a joint target within 0.1 degree; a chain reaches a reachable point within
/// 0.1 mm; a chain limit holds.
#[test]
fn targets_are_met() {
    let mut g = with_post(
        "",
        "constrain.aim('head', 'L_hand', { axis = 'y', up = 'z' })",
    )
    .expect("loads");
    let pose = g.seek(0.2).to_vec();
    let sk = &g.script().rig.skeleton;
    let head = model_transform(sk.parents(), &pose, sk.find("head").expect("head"));
    let hand = model_transform(sk.parents(), &pose, sk.find("L_hand").expect("hand"));
    let off = (head.rotation * glam::Vec3::Y)
        .angle_between(hand.translation - head.translation)
        .to_degrees();
    assert!(off < 0.1, "{off} degrees");
    let target = glam::Vec3::new(0.4, 1.3, 0.3);
    let mut g = with_post("", "ik.chain('pelvis', 'L_hand', { 0.4, 1.3, 0.3 })").expect("loads");
    let pose = g.seek(0.2).to_vec();
    let sk = &g.script().rig.skeleton;
    let hand = model_transform(sk.parents(), &pose, sk.find("L_hand").expect("hand"));
    assert!(
        hand.translation.distance(target) < 1e-4,
        "{}",
        hand.translation
    );
}

/// Each misuse is an error at its line, saying what to do.
#[test]
fn misuses_are_errors_at_their_line() {
    for (extra, op, want) in [
        (
            "",
            "ik.chain('head', 'L_hand', { 0, 1, 0 })",
            "'head' is not an ancestor of 'L_hand'",
        ),
        (
            "",
            "ik.chain('L_hand', 'L_hand', { 0, 1, 0 })",
            "a chain needs two joints",
        ),
        (
            "",
            "ik.chain('pelvis', 'L_hnd', { 0, 1, 0 })",
            "did you mean 'L_hand'",
        ),
        (
            "",
            "ik.chain('pelvis', 'L_hand', { 0, 1, 0 }, { solvr = 'ccd' })",
            "unknown option 'solvr' (did you mean 'solver'?)",
        ),
        (
            "",
            "ik.chain('pelvis', 'L_hand', { 0, 1, 0 }, { solver = 'jacobian' })",
            "\"fabrik\" or \"ccd\"",
        ),
        (
            "",
            "ik.chain('pelvis', 'L_hand', { 0, 1, 0 }, { limits = { R_hand = 10 } })",
            "'R_hand' is not in the chain",
        ),
        (
            "",
            "constrain.aim('head', 'nowhere')",
            "neither a joint of rig",
        ),
        (
            "params { speed = float(0, 0, 1) }",
            "constrain.aim('head', 'speed')",
            "is not a vec3",
        ),
        (
            "params { L_hand = vec3(0, 1, 0) }",
            "constrain.aim('head', 'L_hand')",
            "both a vec3 parameter and a joint",
        ),
        (
            "",
            "constrain.aim('head', { 0, 1, 0 }, { limit = 400 })",
            "limit 400 must be 0..180",
        ),
        (
            "",
            "constrain.aim('head', { 0, 1, 0 }, { world_up = 'y', up_joint = 'spine' })",
            "not both",
        ),
        (
            "",
            "constrain.copy('head', 'spine', { channel = 'rotaton' })",
            "did you mean 'rotation'",
        ),
        ("", "constrain.limit('head', {})", "give cone"),
        (
            "",
            "constrain.limit('head', { twist = { 30, -30 } })",
            "min is above max",
        ),
        (
            "",
            "constrain.twist('L_hand', { 'L_upperarm' }, { weights = { 0.5, 0.5 } })",
            "2 weights for 1 twist joints",
        ),
        (
            "",
            "spring({ 'L_upperarm', 'R_hand' })",
            "'R_hand' is not a child of 'L_upperarm'",
        ),
        (
            "",
            "spring({ 'L_hand' }, { stiffness = 100 })",
            "stiffness 100 must be 0..60",
        ),
        (
            "",
            "spring({ 'L_hand' }, { colliders = { 'head' } })",
            "must be sphere(...) or capsule(...)",
        ),
        (
            "",
            "spring({ 'L_hand' }, { colliders = { sphere('head', -1) } })",
            "radius -1 must be above 0",
        ),
        (
            "",
            "spring({ 'L_hand' }, { colliders = { capsule('head', 0.1, { 0, 0, 0 }) } })",
            "give both ends",
        ),
    ] {
        let e = fails(extra, op);
        assert!(e.contains("anim.lua:5:"), "{op}: not at its line: {e}");
        assert!(e.contains(want), "{op}: {e}\n  wanted: {want}");
    }
}

/// `rig:springs()` on a rig whose file carries no spring bones is an empty list and a warning
/// saying how to declare them; on another rig than the character it is an error.
#[test]
fn file_springs_on_a_rig_without_them() {
    let dir = TempDir::new("rigging-vrm");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nlocal post = rig:springs()\nassert(#post == 0)\nreturn graph { root = rig.idle, post = post }\n",
    );
    let loaded = load(&path, &options()).unwrap_or_else(|e| panic!("{e}"));
    let w = &loaded.warnings;
    assert!(
        w.iter()
            .any(|w| w.contains("anim.lua:2") && w.contains("carries no spring bones")),
        "{w:?}"
    );
    let e = fails(
        "local src = marionette.rig('source.glb')\nlocal s = src:springs()",
        "",
    );
    assert!(e.contains("call it on the character's rig"), "{e}");
    // a mistake in its options is an error at its line, like every other call's
    let e = fails("local s = rig:springs({ wieght = 1 })", "");
    assert!(
        e.contains("anim.lua:2:") && e.contains("unknown option 'wieght' (did you mean 'weight'?)"),
        "{e}"
    );
}

/// `warp`'s misuses are errors at their line: markers the clip does not have, markers on a node
/// that is not a clip, a window backwards, a missing target, another mode.
#[test]
fn warp_misuses() {
    for (node, want) in [
        (
            "warp(rig.jump, { target = 'land', window = { 'up', 'down' } })",
            "the clip has no marker 'up'",
        ),
        (
            "warp(mirror(rig.jump), { target = 'land', window = { 'up', 0.5 } })",
            "not a clip player: give seconds",
        ),
        (
            "warp(rig.jump, { target = 'land', window = { 0.5, 0.2 } })",
            "from must be at least 0 and below to",
        ),
        ("warp(rig.jump, { window = { 0.1, 0.2 } })", "give target"),
        (
            "warp(rig.jump, { target = 'land', window = { 0.1, 0.2 }, mode = 'scale' })",
            "mode must be \"skew\"",
        ),
    ] {
        let dir = TempDir::new("rigging-warp");
        let path = dir.write(
            "anim.lua",
            &format!(
                "local rig = marionette.rig()\nparams {{ land = vec3(1, 0, 1) }}\nlocal w = {node}\nreturn graph {{ root = w, root_motion = 'ground' }}\n"
            ),
        );
        let e = load(&path, &options())
            .and_then(ScriptedGraph::new)
            .err()
            .map(|e| e.headline())
            .unwrap_or_else(|| panic!("{node}: loaded"));
        assert!(
            e.contains("anim.lua:3:") && e.contains(want),
            "{node}: {e}\n  wanted: {want}"
        );
    }
}

/// A rigging operation's `mask`: a joint at 0 keeps the pose from before the operation, at 0.5
/// shows half of its change; a mask's zero also takes the operation out of the joint's
/// provenance.
#[test]
fn a_mask_scales_an_operation_per_joint() {
    let angle = |extra: &str| {
        let mut g = with_post(
            "",
            &format!("constrain.aim('head', {{ 2, 1.7, 0 }}, {{ axis = 'y', up = 'z'{extra} }})"),
        )
        .expect("loads");
        let pose = g.seek(0.2).to_vec();
        let sk = &g.script().rig.skeleton;
        let head = model_transform(sk.parents(), &pose, sk.find("head").expect("head"));
        (head.rotation * glam::Vec3::Y)
            .angle_between(glam::Vec3::Y)
            .to_degrees()
    };
    let (full, none, half) = (
        angle(""),
        angle(", mask = mask.joints({ 'spine' })"),
        angle(", mask = mask.all(0.5)"),
    );
    assert!(full > 10.0, "the aim turned the head {full} degrees");
    assert!(none < 1e-3, "masked out, the head turned {none} degrees");
    // (the aim's turn has a twist in it too, so the aimed axis moves about, not exactly, half)
    assert!(
        (half - full / 2.0).abs() < 5.0,
        "half the mask: {half} of {full} degrees"
    );
    let e = with_post(
        "",
        "constrain.aim('head', { 2, 1.7, 0 }, { mask = 'head' })",
    )
    .err()
    .expect("fails");
    assert!(e.contains("mask must be a mask"), "{e}");
}
