//! Motion quality from the command line (issue 33) on the bundled locomotion: `check --report`
//! writes the documented schema, `run --json` carries the take's contacts, and the RobotExpressive
//! (a rig made elsewhere, whose feet are not named "foot") is measured and locked too.

use std::path::{Path, PathBuf};

use crate::common::{marionette, marionette_in};
use crate::script_common::TempDir;

fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("JSON")
}

#[test]
fn check_report_holds_every_take_in_the_documented_schema() {
    let dir = TempDir::new("motion-report");
    let report = dir.path().join("quality.json");
    let out = marionette(&[
        "check",
        "scripts/locomotion.lua",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = json(&std::fs::read(&report).unwrap());
    let takes = r["takes"].as_object().unwrap();
    assert_eq!(takes.keys().collect::<Vec<_>>(), ["hello", "walk_to_run"]);
    let walk = &r["takes"]["walk_to_run"];
    let slide = walk["foot_slide_mm"].as_object().unwrap();
    assert_eq!(slide.keys().collect::<Vec<_>>(), ["mean", "worst"]);
    assert!(walk["foot_slide_mm"]["worst"].as_f64().unwrap() < 2.5);
    assert_eq!(walk["asserted"], true);
    assert_eq!(walk["failures"].as_array().unwrap().len(), 0);
    assert_eq!(walk["frames"], 241);
    for key in [
        "contacts",
        "max_joint_speed",
        "angular_velocity_jump",
        "limits",
    ] {
        assert!(!walk[key].is_null(), "{key}");
    }
    assert!(walk["limits"]["L_calf"]["max"].as_f64().unwrap() < 150.0);
}

#[test]
fn run_json_has_the_takes_contacts_and_the_planted_feet() {
    let out = marionette(&[
        "run",
        "scripts/locomotion.lua",
        "--take",
        "walk_to_run",
        "--time",
        "0.5",
        "--json",
    ]);
    assert!(out.status.success());
    let r = json(&out.stdout);
    assert_eq!(r["planted"], serde_json::json!(["L_foot"]));
    let first = &r["contacts"]["L_foot"][0];
    assert_eq!(
        first["start"].as_f64().unwrap() as f32,
        marionette::anim::time::step_time(1, 60.0)
    );
    assert!(first["end"].as_f64().unwrap() > 0.5);
    assert!(!r["contacts"]["R_foot"].as_array().unwrap().is_empty());
    let live = marionette(&["run", "scripts/locomotion.lua", "--time", "0.5", "--json"]);
    let live = json(&live.stdout);
    assert_eq!(live["contacts"], serde_json::json!({}));
}

fn robot() -> PathBuf {
    let dir = match std::env::var_os("MARIONETTE_TESTDATA") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/gltf"),
    };
    let path = dir.join("RobotExpressive.glb");
    assert!(path.is_file(), "test model missing: {}", path.display());
    path
}

const ROBOT: &str = r#"local rig = marionette.rig()
assert_motion { max_joint_speed = false }
params { speed = float(0, 0, 6) }
return graph {
  root = blend1d("speed", { { 0, rig.Idle }, { 1.4, rig.Walking }, { 4, rig.Running } }, { sync = true }),
  root_motion = "ground",
  takes = { walk_to_run = { duration = 4, speed = { { 0, 0 }, { 1, 1.4 }, { 3, 4.0 } } } },
}
"#;

/// The Robot's blend: its feet are found by name (`FootL`, `FootR`, low at rest; not its
/// knees) and measured; they hang from its root rather than its legs, so `ik.foot_lock`
/// refuses them at the line, saying why.
#[test]
fn the_robots_feet_are_measured_and_its_lock_refused() {
    let dir = TempDir::new("motion-robot");
    let rig = robot();
    let rig = rig.to_str().unwrap();
    dir.write("robot.lua", ROBOT);
    let out = marionette_in(
        dir.path(),
        &["check", "robot.lua", "--rig", rig, "--report", "q.json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = json(&std::fs::read(dir.path().join("q.json")).unwrap());
    let take = &r["takes"]["walk_to_run"];
    println!("Robot walk_to_run: foot slide {}", take["foot_slide_mm"]);
    let feet: Vec<&String> = take["contacts"].as_object().unwrap().keys().collect();
    assert_eq!(feet, ["FootL"], "{take}");
    assert!(
        take["foot_slide_mm"]["worst"].as_f64().unwrap() > 5.0,
        "{take}"
    );
    dir.write(
        "lock.lua",
        &ROBOT.replace(
            "  root_motion = \"ground\",\n",
            "  root_motion = \"ground\",\n  post = { ik.foot_lock({ \"FootL\", \"FootR\" }) },\n",
        ),
    );
    let out = marionette_in(dir.path(), &["check", "lock.lua", "--rig", rig]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "lock.lua:7: ik.foot_lock: 'FootL': 'FootL' is a child of 'Bone', which has no parent"
        ),
        "{err}"
    );
}

/// What the guide shows loads (`max_joint_speed = { 1500, head = 600 }`, `ground` without
/// `feet`), and mistakes are named at their line with the nearest joint.
#[test]
fn assert_motion_forms_and_mistakes() {
    let dir = TempDir::new("motion-forms");
    let script = |asserts: &str| {
        format!("local rig = marionette.rig()\n{asserts}\nreturn graph {{ root = rig.idle, takes = {{ t = {{ duration = 1 }} }} }}\n")
    };
    dir.write(
        "ok.lua",
        &script("assert_motion { max_joint_speed = { 1500, head = 600 }, ground = { max_penetration_mm = 10 } }"),
    );
    let out = marionette_in(dir.path(), &["check", "ok.lua"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (asserts, want) in [
        (
            "assert_motion { limits = { L_calff = { max = 90 } } }",
            "bad.lua:2: assert_motion: limits: the rig has no joint 'L_calff' (did you mean 'L_calf'?)",
        ),
        (
            "assert_motion 'x'",
            "bad.lua:2: assert_motion takes a table, assert_motion { foot_slide_mm = 2 }; got the string \"x\"",
        ),
        (
            "assert_motion { max_joint_speed = { 1500, hed = 600 } }",
            "bad.lua:2: assert_motion: max_joint_speed: the rig has no joint 'hed' (did you mean 'head'?)",
        ),
    ] {
        dir.write("bad.lua", &script(asserts));
        let out = marionette_in(dir.path(), &["check", "bad.lua"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(want), "{asserts}: {err}");
    }
}

/// `inspect --json` gives each clip's contacts, played on its own: the mannequin's idle stands
/// on both feet throughout (from the second frame, the first with a speed), its jump leaves the
/// ground and lands.
#[test]
fn inspect_lists_each_clips_contacts() {
    let out = marionette(&["inspect", "assets/mannequin.glb", "--json"]);
    assert!(out.status.success());
    let r = json(&out.stdout);
    let clip = |name: &str| {
        r["clips"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()["contacts"]
            .clone()
    };
    let idle = clip("idle");
    let spans = idle["L_foot"].as_array().unwrap();
    assert_eq!(spans.len(), 1, "{idle}");
    let second = marionette::anim::time::step_time(1, 60.0);
    assert_eq!(spans[0]["start"].as_f64().unwrap() as f32, second);
    assert_eq!(spans[0]["end"].as_f64().unwrap() as f32, 2.4);
    let jump = clip("jump");
    let spans = jump["R_foot"].as_array().unwrap();
    assert_eq!(spans.len(), 2, "{jump}");
    assert!(spans[0]["end"].as_f64().unwrap() < spans[1]["start"].as_f64().unwrap());
}

/// The lock on a retargeted capture (scripts/mocap.lua with `ik.foot_lock`, its bake passes
/// off): no knee pops (no joint turns faster than the default limit) and the worst slide does
/// not grow.
#[test]
fn the_lock_holds_a_retargeted_capture() {
    let dir = TempDir::new("motion-mocap");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("scripts/capture_walk.bvh"),
        dir.path().join("capture_walk.bvh"),
    )
    .unwrap();
    let raw = std::fs::read_to_string(root.join("scripts/mocap.lua")).unwrap();
    let anchor = "  root_motion = \"ground\",\n";
    assert!(raw.contains(anchor));
    let locked = raw.replace(
        anchor,
        &format!("{anchor}  post = {{ ik.foot_lock({{ \"L_foot\", \"R_foot\" }}) }},\n"),
    );
    let rig = root.join("assets/mannequin.glb");
    let mut worst = Vec::new();
    for (name, text) in [("raw.lua", raw.as_str()), ("locked.lua", locked.as_str())] {
        dir.write(name, &format!("assert_motion {{ }}\n{text}"));
        let out = marionette_in(
            dir.path(),
            &[
                "check",
                name,
                "--rig",
                rig.to_str().unwrap(),
                "--report",
                "q.json",
                "--no-passes",
            ],
        );
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r = json(&std::fs::read(dir.path().join("q.json")).unwrap());
        let take = &r["takes"]["capture"];
        println!(
            "retargeted capture {name}: foot slide {}, fastest turn {}",
            take["foot_slide_mm"], take["max_joint_speed"]
        );
        worst.push(take["foot_slide_mm"]["worst"].as_f64().unwrap());
    }
    assert!(worst[1] <= worst[0], "{worst:?}");
}

/// A raw capture rests from its hips at the origin, its feet a metre below its rest height:
/// `inspect` measures its contacts from the lowest its feet go, so its clip shows them (the
/// rest rule would find none).
#[test]
fn a_raw_captures_clip_shows_its_contacts() {
    let out = marionette(&[
        "inspect",
        "scripts/capture_walk.bvh",
        "--unit",
        "cm",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = json(&out.stdout);
    let contacts = r["clips"][0]["contacts"].as_object().unwrap();
    for foot in ["LeftFoot", "RightFoot"] {
        let spans = contacts[foot].as_array().unwrap();
        assert!(!spans.is_empty(), "{foot}: no contacts in {contacts:?}");
    }
}

/// A `contacts` rule giving only `speed` keeps the default height (it used to plant nothing).
#[test]
fn a_contact_rule_with_only_a_speed_keeps_the_default_height() {
    let dir = TempDir::new("motion-speed-only");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomotion.lua"),
    )
    .unwrap();
    let anchor = "  foot_slide_mm = 2.5,";
    assert!(text.contains(anchor));
    let speed_only = text.replace(
        anchor,
        "  contacts = { L_foot = { speed = 0.35 } },\n  foot_slide_mm = 2.5,",
    );
    let mut spans = Vec::new();
    for (name, script) in [
        ("plain.lua", text.as_str()),
        ("speed.lua", speed_only.as_str()),
    ] {
        dir.write(name, script);
        let out = marionette_in(dir.path(), &["check", name, "--report", "q.json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r = json(&std::fs::read(dir.path().join("q.json")).unwrap());
        spans.push(r["takes"]["walk_to_run"]["contacts"]["L_foot"].clone());
    }
    assert!(!spans[0].as_array().unwrap().is_empty());
    assert_eq!(spans[0], spans[1]);
}
