//! `marionette run` reports where the character is: for every take of scripts/locomotion.lua
//! (root motion "ground"), run's joint world matrices at frame times equal the baked file's,
//! sampled by Marionette and played by three.js, within the bake tolerance; `--in-place` is the
//! graph's pose without the accumulated root motion, which `root_motion` reports.

use std::path::Path;
use std::process::Command;

use crate::bake_support::*;
use glam::{DMat4, DQuat, DVec3};
use marionette::report::sample_model;
use marionette_anim::time::{step_at, step_time};
use marionette_bake::{joint_error, ReduceOptions};
use marionette_io::import;

const SCRIPT: &str = "scripts/locomotion.lua";

fn bin() -> Command {
    let mut c = crate::common::marionette_cmd();
    c.current_dir(root());
    c
}

/// `run SCRIPT --take take --time t --json [extra]`, parsed.
fn run(take: &str, time: f32, extra: &[&str]) -> serde_json::Value {
    run_script(SCRIPT, take, time, extra)
}

/// `run script --take take --time t --json [extra]`, parsed.
fn run_script(script: &str, take: &str, time: f32, extra: &[&str]) -> serde_json::Value {
    let out = bin()
        .args(["run", script, "--take", take, "--time", &time.to_string()])
        .args(extra)
        .arg("--json")
        .output()
        .expect("run marionette run");
    assert!(
        out.status.success(),
        "run {take} {time}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("run --json prints JSON")
}

/// `(node, world matrix)` of every joint of a run report.
fn worlds(report: &serde_json::Value) -> Vec<(usize, DMat4)> {
    report["joints"]
        .as_array()
        .expect("joints")
        .iter()
        .map(|j| {
            let m: Vec<f64> = j["world"]
                .as_array()
                .expect("world")
                .iter()
                .map(|x| x.as_f64().expect("number"))
                .collect();
            let node = j["node"].as_u64().expect("node") as usize;
            (node, DMat4::from_cols_slice(&m))
        })
        .collect()
}

/// Bakes every take of `script` with the CLI into `dir/baked.glb`.
fn bake(dir: &Path, script: &str) -> std::path::PathBuf {
    let out = dir.join("baked.glb");
    let status = bin()
        .args(["bake", script, "--all", "--quiet", "-o"])
        .arg(&out)
        .status()
        .expect("run marionette bake");
    assert!(status.success(), "bake failed");
    out
}

/// Frame indices spread over a take of `frames` frames: first, last and three in between.
fn frames_of(frames: usize) -> Vec<u64> {
    let last = frames as u64 - 1;
    vec![0, last / 4 + 1, last / 2, 3 * last / 4, last]
}

/// At frame times of every take, run's world matrices equal the baked file sampled at the same
/// time (Marionette's reading, and three.js playing it when the npm clients are installed), at
/// every joint and its 10 cm virtual points, within the bake tolerance plus 1e-4.
#[test]
fn run_world_matches_baked_file() {
    let takes = run_matches_bake(SCRIPT);
    assert_eq!(takes, ["hello", "walk_to_run"]);
    // walk_to_run travels: at its end the root is ~6 m forward in the file and in run
    let end = run("walk_to_run", 4.0, &[]);
    let root = worlds(&end)[0].1.w_axis.truncate();
    assert!(root.z > 5.0, "run's root at the end of walk_to_run: {root}");
}

/// The same for the creature, whose tail and ears are springs (memory replayed from snapshots
/// for each `run --time`, frame by frame for the bake) and whose head is aimed: run, the bake
/// and three.js playing it agree.
#[test]
fn run_world_matches_baked_file_with_springs() {
    let takes = run_matches_bake("scripts/creature.lua");
    assert_eq!(takes, ["look_and_walk"]);
}

/// The same for a take whose keys have tangents (flat, auto, explicit slopes): run, the bake and
/// three.js agree, and the parameter `run` prints is the eased curve's (mood's two flat keys,
/// 0 at 0 s and 1 at 8 s: a quarter of the way in, 3s² - 2s³ = 0.15625).
#[test]
fn run_world_matches_baked_file_with_eased_keys() {
    let script = "scripts/big_graph.lua";
    let takes = run_matches_bake(script);
    assert_eq!(takes, ["moods"]);
    let r = run_script(script, "moods", 2.0, &[]);
    let mood = r["params"]["mood"].as_f64().expect("mood");
    assert!((mood - 0.15625).abs() < 1e-6, "{mood}");
}

/// Checks `script` as [`run_world_matches_baked_file`] says; the takes' names.
fn run_matches_bake(script: &str) -> Vec<String> {
    let dir = TempDir::new("run-world");
    let file = bake(&dir, script);
    let baked = import(&file).expect("import the bake");
    let tolerance = f64::from(ReduceOptions::default().tolerance);
    let budget = tolerance + 1e-4;
    let loaded =
        marionette_script::preview::load_preview(&root().join(script), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
    let takes: Vec<(String, f32, u64)> = loaded
        .graph
        .script()
        .spec
        .takes
        .iter()
        .map(|t| (t.name.clone(), t.fps, step_at(f64::from(t.duration), t.fps)))
        .collect();
    let mut three_spec = Vec::new();
    let mut ours = Vec::new();
    for (take, fps, last) in &takes {
        let take = take.as_str();
        let clip = baked
            .clips
            .iter()
            .position(|c| c.name == take)
            .unwrap_or_else(|| panic!("no animation '{take}' in the bake"));
        let mut times = Vec::new();
        let mut runs = Vec::new();
        for n in frames_of(*last as usize + 1) {
            let t = step_time(n, *fps);
            let r = run_script(script, take, t, &[]);
            assert_eq!(r["frame"].as_u64(), Some(n), "{take} at {t}");
            let time = r["time"].as_f64().map(|x| x as f32);
            assert_eq!(time, Some(t), "{take} frame {n}");
            let sample = sample_model(&baked, Some(clip), t).expect("sample the bake");
            let world = worlds(&r);
            let mut worst = 0.0f64;
            for (joint, (node, m)) in sample.joints.iter().zip(&world) {
                assert_eq!(joint.node, *node, "{take}: joint order");
                let b = DMat4::from_cols_array(&joint.world);
                worst = worst.max(joint_error(m, &b));
            }
            assert!(
                worst <= budget,
                "{script} {take} at {t}: run vs bake {worst}"
            );
            times.push(t);
            runs.push(world);
        }
        three_spec.push((take.to_string(), times));
        ours.push(runs);
    }
    let names = takes.iter().map(|t| t.0.clone()).collect();
    let Some(()) = node_ready("run_world_matches_baked_file") else {
        return names;
    };
    let nodes: Vec<usize> = baked.joint_nodes.clone();
    let three = three_poses(&file, &nodes, &three_spec);
    assert_eq!(three.len(), takes.len());
    for ((name, samples), runs) in three.iter().zip(&ours) {
        assert_eq!(samples.len(), runs.len(), "{name}");
        let mut worst = 0.0f64;
        for ((_, nodes), world) in samples.iter().zip(runs) {
            for (node, m) in nodes {
                let (_, r) = world
                    .iter()
                    .find(|(n, _)| n == node)
                    .unwrap_or_else(|| panic!("{name}: node {node} not in run"));
                worst = worst.max(joint_error(m, r));
            }
        }
        assert!(worst <= budget, "{script} {name}: three.js vs run {worst}");
        println!("{script} {name}: three.js vs run {worst:.2e} m");
    }
    names
}

/// `--in-place` keeps the character where it started (the origin, for the mannequin), and
/// `root_motion` times the in-place world matrices is the placed report: run's two outputs and
/// its `root_motion` field agree.
#[test]
fn in_place_and_root_motion_field() {
    let placed = run("walk_to_run", 3.5, &[]);
    let still = run("walk_to_run", 3.5, &["--in-place"]);
    assert_eq!(placed["frame"], still["frame"]);
    let rm = &placed["root_motion"];
    assert_eq!(rm["mode"], "ground");
    assert_eq!(rm["in_place"], false);
    assert_eq!(still["root_motion"]["in_place"], true);
    assert_eq!(still["root_motion"]["translation"], rm["translation"]);
    let v = |key: &str, n: usize| -> Vec<f64> {
        (0..n)
            .map(|i| rm[key][i].as_f64().expect("number"))
            .collect()
    };
    let (t, q) = (v("translation", 3), v("rotation", 4));
    let motion = DMat4::from_rotation_translation(
        DQuat::from_xyzw(q[0], q[1], q[2], q[3]),
        DVec3::new(t[0], t[1], t[2]),
    );
    assert!(t[2] > 3.0, "walk_to_run has travelled by 3.5 s: {t:?}");
    assert_eq!(t[1], 0.0, "ground motion has no height");
    let (a, b) = (worlds(&placed), worlds(&still));
    let root = b[0].1.w_axis.truncate();
    assert!(
        root.x.abs() < 0.2 && root.z.abs() < 0.2,
        "in place: root at {root}"
    );
    for ((node, m), (_, s)) in a.iter().zip(&b) {
        let err = joint_error(m, &(motion * *s));
        assert!(err < 1e-4, "node {node}: placed vs motion * in place {err}");
    }
}

/// `--time` shows the nearest frame: 1.01 s of the 30 fps take `hello` is frame 30 at 1 s, and
/// 1.02 s is frame 31; the text output says which frame it shows.
#[test]
fn time_shows_nearest_frame() {
    let r = run("hello", 1.01, &[]);
    assert_eq!(r["frame"], 30);
    assert_eq!(r["time"].as_f64(), Some(1.0));
    assert_eq!(r["requested_time"].as_f64(), Some(1.01));
    assert_eq!(run("hello", 1.02, &[])["frame"], 31);
    let out = bin()
        .args(["run", SCRIPT, "--take", "hello", "--time", "1.01"])
        .output()
        .expect("run marionette run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("frame: 30 at 1 s (nearest --time 1.01)"),
        "{text}"
    );
    assert!(text.contains("root motion: ground"), "{text}");
}
