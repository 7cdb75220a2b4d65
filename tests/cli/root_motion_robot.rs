//! Root motion on a rig whose root rests away from the origin (issue 21): the
//! RobotExpressive's root stands 0.195 m off it in world Z. Its `Walking` clip walks in place,
//! so with `root_motion = "ground"`:
//! - `run --time 0` reports no root motion and draws the robot where the source clip has it,
//!   with and without `--in-place`, and the in-place walk gives no motion later either;
//! - `bake --in-place` (of the script's take and of the rig's clip) leaves the robot where its
//!   source stands: every joint's world position within 0.1 mm of the source clip's.
//!
//! The model is a public test model kept outside the repository, at
//! `<crate root>/../shared/testdata/gltf/RobotExpressive.glb` (or under `MARIONETTE_TESTDATA`);
//! the tests fail with a message saying so when it is missing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::script_common::TempDir;
use glam::DVec3;
use marionette::report::{sample_model, SampleReport};
use marionette_io::import;

/// Joint world positions must agree with the source within this (metres): 0.1 mm.
const MM_TENTH: f64 = 1e-4;

/// A script playing the robot's in-place walk with ground root motion, and a take of it.
const SCRIPT: &str = r#"local rig = marionette.rig()
return graph {
  root = rig.Walking,
  root_motion = "ground",
  takes = { walk = { duration = 0.9 } },
}
"#;

/// RobotExpressive.glb; panics with where it was looked for when it is missing.
fn robot() -> PathBuf {
    let dir = match std::env::var_os("MARIONETTE_TESTDATA") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/gltf"),
    };
    let path = dir.join("RobotExpressive.glb");
    assert!(
        path.is_file(),
        "test model missing: {} (the public glTF test models live in ../shared/testdata/gltf \
         next to the repository, or in the folder MARIONETTE_TESTDATA names)",
        path.display()
    );
    path
}

fn marionette(args: &[&str]) -> Vec<u8> {
    let out = crate::common::marionette_cmd()
        .args(args)
        .output()
        .expect("run marionette");
    assert!(
        out.status.success(),
        "marionette {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// World position of each joint, by name.
type Positions = HashMap<String, DVec3>;

fn positions_of(report: &SampleReport) -> Positions {
    report
        .joints
        .iter()
        .map(|j| {
            let w = &j.world;
            (j.name.clone(), DVec3::new(w[12], w[13], w[14]))
        })
        .collect()
}

/// Every joint of `file`'s animation `clip` at `time`, by name.
fn sample(file: &Path, clip: &str, time: f32) -> Positions {
    let model = import(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let index = model
        .clips
        .iter()
        .position(|c| c.name == clip)
        .unwrap_or_else(|| panic!("{}: no animation '{clip}'", file.display()));
    let report = sample_model(&model, Some(index), time)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    positions_of(&report)
}

/// Joint positions of a `run --json` report, by name.
fn run_positions(report: &serde_json::Value) -> Positions {
    report["joints"]
        .as_array()
        .expect("joints")
        .iter()
        .map(|j| {
            let name = j["name"].as_str().expect("name").to_string();
            let w: Vec<f64> = j["world"]
                .as_array()
                .expect("world")
                .iter()
                .map(|x| x.as_f64().expect("number"))
                .collect();
            (name, DVec3::new(w[12], w[13], w[14]))
        })
        .collect()
}

/// The largest distance between the same joint in `source` and `other` (every joint of
/// `source` must be in `other`), and that joint.
fn worst(source: &Positions, other: &Positions) -> (f64, String) {
    let mut worst = (0.0, String::new());
    for (name, p) in source {
        let q = other
            .get(name)
            .unwrap_or_else(|| panic!("joint {name} missing"));
        let d = p.distance(*q);
        if d > worst.0 {
            worst = (d, name.clone());
        }
    }
    worst
}

/// `run --time 0` (and later times, the walk being in place) reports no root motion, and
/// draws the robot where the source clip has it, with or without `--in-place`.
#[test]
fn run_has_no_root_motion_offset() {
    let robot = robot();
    let dir = TempDir::new("root-motion-robot-run");
    let script = dir.write("walk.lua", SCRIPT);
    let (script, rig) = (script.to_string_lossy(), robot.to_string_lossy());
    for time in ["0", "0.5"] {
        let source = sample(&robot, "Walking", time.parse().expect("a time"));
        for take in [&["--take", "walk"][..], &[]] {
            for in_place in [&["--in-place"][..], &[]] {
                let mut args = vec!["run", &*script, "--rig", &*rig, "--time", time, "--json"];
                args.extend(take);
                args.extend(in_place);
                let report: serde_json::Value =
                    serde_json::from_slice(&marionette(&args)).expect("run --json prints JSON");
                let what = args[5..].join(" ");
                let motion = &report["root_motion"];
                assert_eq!(motion["mode"], "ground");
                let t: Vec<f64> = (0..3)
                    .map(|i| motion["translation"][i].as_f64().expect("number"))
                    .collect();
                assert!(
                    DVec3::from_slice(&t).length() < 1e-6,
                    "{what}: an in-place walk has no root motion, run reports {t:?} \
                     (the distance of the robot's root from the origin?)"
                );
                let w = motion["rotation"][3].as_f64().expect("number");
                assert!(w.abs() > 1.0 - 1e-9, "{what}: a turn of {motion}");
                let (d, joint) = worst(&source, &run_positions(&report));
                assert!(
                    d < MM_TENTH,
                    "{what}: {joint} is {:.3} mm from where the source clip has it",
                    d * 1e3
                );
            }
        }
    }
}

/// `bake --in-place` leaves the robot where its source stands: the script's take (root
/// motion extracted and dropped) and the rig's clip (ground motion removed from its first
/// frame) both have every joint within 0.1 mm of the source clip at frame 0, and at every
/// frame within the bake's tolerance (the walk is in place: there is nothing to remove).
#[test]
fn bake_in_place_keeps_the_source_position() {
    let robot = robot();
    let dir = TempDir::new("root-motion-robot-bake");
    let script = dir.write("walk.lua", SCRIPT);
    let take_out = dir.join("take.glb");
    let clip_out = dir.join("clip.glb");
    let rig = robot.to_string_lossy();
    marionette(&[
        "bake",
        &script.to_string_lossy(),
        "--rig",
        &rig,
        "--take",
        "walk",
        "--in-place",
        "--quiet",
        "-o",
        &take_out.to_string_lossy(),
    ]);
    marionette(&[
        "bake",
        &rig,
        "--clip",
        "Walking",
        "--in-place",
        "--quiet",
        "-o",
        &clip_out.to_string_lossy(),
    ]);
    for (file, clip) in [(&take_out, "walk"), (&clip_out, "Walking")] {
        // frame times of both bakes (the take at 60 fps, the clip at its own 30 fps)
        for (k, time) in [0.0f32, 1.0 / 3.0, 2.0 / 3.0].into_iter().enumerate() {
            let source = sample(&robot, "Walking", time);
            let baked = sample(file, clip, time);
            let (d, joint) = worst(&source, &baked);
            // frame 0 is a key; later frames are within the key reduction's 0.1 mm budget
            let budget = if k == 0 { MM_TENTH } else { MM_TENTH + 1e-6 };
            assert!(
                d < budget,
                "{} at {time} s: {joint} is {:.3} mm from the source clip's",
                file.display(),
                d * 1e3
            );
        }
    }
}
