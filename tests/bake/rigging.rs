//! Procedural rigging (issue 34) through the script: the creature's springs and aim bake what
//! `run`, `render` and the editor show, seeking either way; springs baked at 30 and 60 fps agree
//! within 5 mm; a spring's stiffness changed live changes the motion without a reset.

use std::path::Path;

use crate::bake_passes::graph;
use crate::script_common::TempDir;
use marionette_anim::ik::model_transform;
use marionette_anim::Transform;
use marionette_bake::{bake_take, BakedTake, ScriptBake};
use marionette_script::ScriptedGraph;

/// The creature's script in a folder of its own, with its rig beside it, and a take `steady`
/// added: it walks at a constant speed while the head turns, so the body's frames are a pure
/// function of time (a speed that changes moves the synced walk's phase by a step's worth at a
/// different rate, and with it the body, springs or not).
fn creature(dir: &TempDir) -> ScriptedGraph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("scripts/creature.glb"), dir.join("creature.glb"))
        .expect("copy the creature");
    let text = std::fs::read_to_string(root.join("scripts/creature.lua")).expect("creature.lua");
    let anchor = "  takes = {\n";
    assert!(text.contains(anchor), "creature.lua has no {anchor:?}");
    let steady = "    steady = { duration = 4, speed = { { 0, 1 } },\n      look = { { 0, { 0.8, 1.6, 2.0 } }, { 1.5, { -1.2, 1.4, 1.5 } }, { 3, { 0.8, 1.8, 2.0 } } } },\n";
    let text = text.replace(anchor, &format!("{anchor}{steady}"));
    graph(dir, "creature.lua", &text)
}

fn bake(g: &mut ScriptedGraph, take: &str, fps: Option<f32>) -> BakedTake {
    let options = ScriptBake {
        fps,
        ..Default::default()
    };
    bake_take(g, take, &options, &mut |_, _| {}).expect("bakes")
}

/// World position of `joint`'s end (its child at rest, or itself) in a baked frame.
fn tip(g: &ScriptedGraph, frame: &[Transform], joint: &str) -> glam::Vec3 {
    let sk = &g.script().rig.skeleton;
    let j = sk.find(joint).expect("joint");
    model_transform(sk.parents(), frame, j).translation
}

/// Every baked frame is the frame shown at its time, seeking forwards and backwards (the
/// springs' memory comes back from the snapshots), and the springs really move the tail away
/// from the clip's rest.
#[test]
fn the_creature_bakes_what_is_shown() {
    let dir = TempDir::new("rig-shown");
    let mut g = creature(&dir);
    let baked = bake(&mut g, "look_and_walk", None);
    let n = g.script().rig.skeleton.len();
    let mut shown = vec![Transform::IDENTITY; n];
    g.play(Some("look_and_walk")).expect("plays");
    for i in [0usize, 200, 359, 360, 90, 3, 181] {
        g.seek(f64::from(baked.grid.time(i)));
        g.pose_with_root_motion(&mut shown);
        assert_eq!(shown, baked.frames[i], "frame {i}");
    }
    // the tail's end swings: relative to the pelvis it moves by centimetres over the take
    let rel = |f: &[Transform]| tip(&g, f, "tail_06") - tip(&g, f, "pelvis");
    let first = rel(&baked.frames[0]);
    let swing = baked
        .frames
        .iter()
        .map(|f| rel(f).distance(first))
        .fold(0.0f32, f32::max);
    assert!(swing > 0.05, "the tail hardly moved: {swing} m");
    // the ears (the file's own springs, rig:springs()) flick as the head turns: their ends move
    // against the head
    let ear = |f: &[Transform]| {
        let sk = &g.script().rig.skeleton;
        let head = model_transform(sk.parents(), f, sk.find("head").expect("head"));
        head.inverse().transform_point(tip(&g, f, "L_ear_end"))
    };
    let rest = ear(&baked.frames[0]);
    let flick = baked
        .frames
        .iter()
        .map(|f| ear(f).distance(rest))
        .fold(0.0f32, f32::max);
    assert!(flick > 0.01, "the ears hardly moved: {flick} m");
}

/// `joint`'s position in the pelvis's frame: the spring's own motion, without the root motion
/// (which a take steps at its own rate, so the body's travel may differ by a few millimetres
/// between rates, springs or not).
fn on_body(g: &ScriptedGraph, frame: &[Transform], joint: &str) -> glam::Vec3 {
    let sk = &g.script().rig.skeleton;
    let pelvis = model_transform(sk.parents(), frame, sk.find("pelvis").expect("pelvis"));
    pelvis.inverse().transform_point(tip(g, frame, joint))
}

/// Baked at 30 and at 60 fps, the tail's and ears' ends (on the body) are within 5 mm at the
/// shared times.
#[test]
fn springs_agree_at_thirty_and_sixty_fps() {
    let dir = TempDir::new("rig-rates");
    let mut g = creature(&dir);
    let a = bake(&mut g, "steady", Some(30.0));
    let b = bake(&mut g, "steady", Some(60.0));
    let body = (0..a.frames.len())
        .map(|i| tip(&g, &a.frames[i], "head").distance(tip(&g, &b.frames[2 * i], "head")))
        .fold(0.0f32, f32::max);
    assert!(body < 1e-4, "the body itself differs by {body} m");
    assert_eq!(b.frames.len(), 2 * a.frames.len() - 1);
    let mut worst = 0.0f32;
    for (i, fa) in a.frames.iter().enumerate() {
        let fb = &b.frames[2 * i];
        for joint in ["tail_03", "tail_06", "L_ear_02", "R_ear_02"] {
            worst = worst.max(on_body(&g, fa, joint).distance(on_body(&g, fb, joint)));
        }
    }
    println!("creature springs, 30 vs 60 fps: {:.2} mm", worst * 1000.0);
    assert!(
        worst < 5e-3,
        "30 and 60 fps differ by {} mm",
        worst * 1000.0
    );
}

/// Live: raising the tail's stiffness takes effect from that frame without a reset (the tail
/// goes on from where it was: no jump), and the motion after it differs from the motion without
/// the change.
#[test]
fn stiffness_changed_live_changes_the_motion_without_a_reset() {
    let dir = TempDir::new("rig-live");
    let mut g = creature(&dir);
    g.play(None).expect("live");
    g.set("speed", marionette_anim::graph::ParamValue::Float(1.0))
        .expect("speed");
    let n = g.script().rig.skeleton.len();
    let mut pose = vec![Transform::IDENTITY; n];
    let dt = 1.0 / 60.0;
    let mut ends = Vec::new();
    let mut same = Vec::new();
    for step in 0..120 {
        if step == 60 {
            g.set(
                "tail_stiffness",
                marionette_anim::graph::ParamValue::Float(8.0),
            )
            .expect("stiffness");
        }
        g.advance(dt);
        g.pose_with_root_motion(&mut pose);
        ends.push(tip(&g, &pose, "tail_06") - tip(&g, &pose, "pelvis"));
    }
    // the same without the change, for comparison
    let mut h = creature(&dir);
    h.play(None).expect("live");
    h.set("speed", marionette_anim::graph::ParamValue::Float(1.0))
        .expect("speed");
    for _ in 0..120 {
        h.advance(dt);
        h.pose_with_root_motion(&mut pose);
        same.push(tip(&h, &pose, "tail_06") - tip(&h, &pose, "pelvis"));
    }
    let jump = ends[60].distance(ends[59]);
    let usual = (1..120)
        .map(|k| ends[k].distance(ends[k - 1]))
        .fold(0.0f32, f32::max);
    assert_eq!(ends[..60], same[..60], "identical before the change");
    assert!(
        jump <= usual,
        "the change made the largest step ({jump} m), as a reset would"
    );
    let apart = ends[119].distance(same[119]);
    assert!(apart > 1e-3, "the change changed nothing: {apart} m");
}

/// `warp`: the jump lands on the target at the window's end (ground plane, within a
/// millimetre), a target keyed to move during the window is followed, the motion outside the
/// window is the clip's own, and the bake writes what is shown.
#[test]
fn a_warped_jump_lands_on_its_target() {
    let dir = TempDir::new("rig-warp");
    let script = "local rig = marionette.rig()\n\
        params { land = vec3(1.5, 0, 0.8) }\n\
        return graph {\n  root = warp(rig.jump, { target = 'land', window = { 0.2, 0.7 } }),\n  root_motion = 'ground',\n\
        takes = {\n    still = { duration = 1 },\n    moving = { duration = 1, land = { { 0, { 1.5, 0, 0.8 } }, { 0.5, { -0.5, 0, 2.0 } } } },\n  },\n}\n";
    let mut g = graph(&dir, "warp.lua", script);
    let mut p = graph(
        &dir,
        "plain.lua",
        &script.replace(
            "warp(rig.jump, { target = 'land', window = { 0.2, 0.7 } })",
            "rig.jump",
        ),
    );
    for (take, want) in [
        ("still", glam::Vec3::new(1.5, 0.0, 0.8)),
        ("moving", glam::Vec3::new(-0.5, 0.0, 2.0)),
    ] {
        g.play(Some(take)).expect("plays");
        p.play(Some(take)).expect("plays");
        let at = |g: &mut ScriptedGraph, t: f64| {
            g.seek(t);
            g.graph().root_motion_world().translation
        };
        let landed = at(&mut g, 0.7);
        let off = glam::Vec2::new(landed.x - want.x, landed.z - want.z).length();
        println!("warp {take}: lands {:.3} mm from its target", off * 1000.0);
        assert!(off < 1e-3, "{take}: landed at {landed}, not {want}");
        // before the window the motion is the clip's own; after it, the clip's own steps
        assert_eq!(
            at(&mut g, 0.15),
            at(&mut p, 0.15),
            "{take}: moved before the window"
        );
        let (a0, a1) = (at(&mut g, 0.8), at(&mut g, 0.9));
        let (b0, b1) = (at(&mut p, 0.8), at(&mut p, 0.9));
        assert!(
            ((a1 - a0) - (b1 - b0)).length() < 1e-5,
            "{take}: after the window"
        );
    }
    // the window by the clip's markers is the same window
    let mut m = graph(
        &dir,
        "marked.lua",
        &script.replace(
            "warp(rig.jump, { target = 'land', window = { 0.2, 0.7 } })",
            "warp(rig.jump:event('takeoff', 0.2):event('land', 0.7), { target = 'land', window = { 'takeoff', 'land' } })",
        ),
    );
    m.play(Some("moving")).expect("plays");
    g.play(Some("moving")).expect("plays");
    for t in [0.3, 0.7, 0.9] {
        m.seek(t);
        g.seek(t);
        assert_eq!(
            m.graph().root_motion_world(),
            g.graph().root_motion_world(),
            "markers and seconds differ at {t}"
        );
    }
    let baked = bake(&mut g, "moving", None);
    let n = g.script().rig.skeleton.len();
    let mut shown = vec![Transform::IDENTITY; n];
    g.play(Some("moving")).expect("plays");
    for i in [0usize, 42, 20, 60] {
        g.seek(f64::from(baked.grid.time(i)));
        g.pose_with_root_motion(&mut shown);
        assert_eq!(shown, baked.frames[i], "frame {i}");
    }
}
