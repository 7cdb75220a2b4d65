//! Motion quality (issue 33) on the bundled locomotion: inertial transitions keep the angular
//! velocity continuous where crossfades jump, the foot lock keeps planted feet within the goal,
//! and a broken assertion fails with the take, time, frame, joint, value and limit.

use std::path::Path;

use crate::script_common::TempDir;
use marionette_anim::motion::joints::velocity_jump;
use marionette_bake::{bake_take, judge, motion_of, ScriptBake};
use marionette_script::{load, HostOptions, ScriptedGraph};

fn bundled() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomotion.lua");
    std::fs::read_to_string(path).expect("scripts/locomotion.lua")
}

fn graph(dir: &TempDir, name: &str, text: &str) -> ScriptedGraph {
    let path = dir.write(name, text);
    let (loader, _) = marionette_script::rigs::rig_loader(&path, &Default::default());
    ScriptedGraph::new(load(&path, &HostOptions::new(loader)).expect("loads")).expect("builds")
}

fn replaced(text: &str, pairs: &[(&str, &str)]) -> String {
    pairs.iter().fold(text.to_string(), |t, (a, b)| {
        assert!(t.contains(a), "the bundled script no longer has {a}");
        t.replace(a, b)
    })
}

const INERTIAL_JUMP: &str = r#"blend = 0.15, mode = "inertial""#;
const INERTIAL_LAND: &str = r#"blend = 0.25, mode = "inertial""#;
/// The transitions as they were before inertial ones existed.
const CROSSFADE_JUMP: &str = r#"blend = 0.15, curve = "smoothstep""#;
const CROSSFADE_LAND: &str = r#"blend = 0.25, curve = "ease_in_out", source = "frozen""#;
/// The bundled script's foot lock (taken out to compare).
const LOCK: &str = r#"ik.foot_lock({ "L_foot", "R_foot" }),"#;

/// The largest jump of any joint's angular velocity between frames around each state change
/// (the velocity into the switch frame against the one out of it, and the next two frames),
/// with the change's time.
fn transition_jumps(g: &mut ScriptedGraph) -> Vec<(f32, f32)> {
    let skeleton = g.script().rig.skeleton.clone();
    let take = bake_take(g, "walk_to_run", &ScriptBake::default(), &mut |_, _| {}).unwrap();
    let m = motion_of(&skeleton, &take);
    let switches: Vec<f32> = take
        .meta
        .markers
        .iter()
        .filter(|mk| mk.time > 0.0 && (mk.name == "jump" || mk.name == "move"))
        .map(|mk| mk.time)
        .collect();
    assert_eq!(switches.len(), 2, "{:?}", take.meta.markers);
    switches
        .iter()
        .map(|&t| {
            let at = (t * m.fps).round() as usize;
            let (first, last) = (at, at + 2);
            let worst = (first..=last)
                .flat_map(|f| (0..m.joints()).map(move |j| (f, j)))
                .map(|(f, j)| velocity_jump(&m, f, j))
                .fold(0.0f32, f32::max);
            (t, worst)
        })
        .collect()
}

#[test]
fn inertial_transitions_keep_the_angular_velocity_a_crossfade_breaks() {
    let dir = TempDir::new("motion-av");
    // (without the foot lock, whose holds change velocities of their own)
    let text = replaced(&bundled(), &[(LOCK, "")]);
    let crossfade = replaced(
        &text,
        &[
            (INERTIAL_JUMP, CROSSFADE_JUMP),
            (INERTIAL_LAND, CROSSFADE_LAND),
        ],
    );
    // the default crossfade: linear, the source still playing
    let linear = replaced(
        &text,
        &[
            (INERTIAL_JUMP, "blend = 0.15"),
            (INERTIAL_LAND, "blend = 0.25"),
        ],
    );
    let a = transition_jumps(&mut graph(&dir, "linear.lua", &linear));
    let eased = transition_jumps(&mut graph(&dir, "eased.lua", &crossfade));
    let b = transition_jumps(&mut graph(&dir, "inertial.lua", &text));
    for (((t, fade), (_, eased)), (_, inertial)) in a.iter().zip(&eased).zip(&b) {
        println!(
            "state change at {t:.3} s: largest angular velocity jump {fade:.0} deg/s \
             crossfading linearly, {eased:.0} deg/s with the eased curves, {inertial:.0} deg/s \
             inertial ({:.2}x the linear crossfade)",
            inertial / fade
        );
    }
    for ((t, fade), (_, inertial)) in a.iter().zip(&b) {
        assert!(
            inertial < fade,
            "at {t}: inertial {inertial} vs crossfade {fade}"
        );
    }
}

#[test]
fn the_foot_lock_keeps_planted_feet_within_two_millimetres() {
    let dir = TempDir::new("motion-slide");
    let locked = bundled();
    let unlocked = replaced(&locked, &[(LOCK, "")]);
    for take in ["walk_to_run", "hello"] {
        let mut slide = Vec::new();
        for (name, script) in [("unlocked.lua", &unlocked), ("locked.lua", &locked)] {
            let mut g = graph(&dir, name, script);
            let skeleton = g.script().rig.skeleton.clone();
            let baked = bake_take(&mut g, take, &ScriptBake::default(), &mut |_, _| {}).unwrap();
            let q = judge(g.script().spec.asserts_for(take), &skeleton, &baked).unwrap();
            let s = q.figures.foot_slide.expect("the feet touch the ground");
            println!(
                "{take} {name}: foot slide worst {:.2} mm, mean {:.2} mm",
                s.worst_mm, s.mean_mm
            );
            slide.push(s.worst_mm);
        }
        assert!(slide[1] < 2.0, "{take}: {} mm with the lock", slide[1]);
        if take == "walk_to_run" {
            assert!(slide[0] > 50.0, "{take}: {} mm without the lock", slide[0]);
        }
    }
}

#[test]
fn a_broken_assertion_names_take_time_frame_joint_value_and_limit() {
    let dir = TempDir::new("motion-fail");
    let strict = replaced(
        &bundled(),
        &[
            ("foot_slide_mm = 2.5,", "foot_slide_mm = 0.5,"),
            (LOCK, ""),
            ("L_calf = { max = 150 }", "L_calf = { max = 90 }"),
        ],
    );
    let mut g = graph(&dir, "strict.lua", &strict);
    let skeleton = g.script().rig.skeleton.clone();
    let baked = bake_take(
        &mut g,
        "walk_to_run",
        &ScriptBake::default(),
        &mut |_, _| {},
    )
    .unwrap();
    let q = judge(
        g.script().spec.asserts_for("walk_to_run"),
        &skeleton,
        &baked,
    )
    .unwrap();
    assert_eq!(
        q.failures,
        [
            "take 'walk_to_run' at 0.017 s (frame 1): L_foot slides 94.9 mm > 0.5 mm",
            "take 'walk_to_run' at 3.450 s (frame 207): L_calf is 94.3 degrees from rest > 90 degrees",
        ]
    );
}

/// `bake` checks the assertions before it writes: a broken one exits 1, prints the line and
/// writes nothing (also `--in-place`, judged on the frames the character walks).
#[test]
fn a_bake_with_a_broken_assertion_writes_nothing() {
    let dir = TempDir::new("motion-bake");
    let strict = replaced(
        &bundled(),
        &[("L_calf = { max = 150 }", "L_calf = { max = 90 }")],
    );
    dir.write("strict.lua", &strict);
    for extra in [&[][..], &["--in-place"][..]] {
        let mut args = vec!["bake", "strict.lua", "-o", "out.glb"];
        args.extend(extra);
        let out = crate::common::marionette_in(dir.path(), &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains(
                "take 'walk_to_run' at 3.450 s (frame 207): L_calf is 94.3 degrees from rest > 90 degrees"
            ) && err.contains("1 motion assertion failed: nothing was written"),
            "{err}"
        );
        assert!(!dir.path().join("out.glb").exists());
    }
}
