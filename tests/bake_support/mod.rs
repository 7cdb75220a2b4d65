//! Shared helpers of the bake integration tests: synthetic takes, temp folders, and the npm
//! clients (three.js player, Khronos validator) with the project's skip rules: when
//! `tests/js/node_modules` (or `node`) is missing the test fails if `CI` is set, otherwise it
//! prints "skipped: ..." and returns.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use glam::{DMat4, Mat4, Quat, Vec3};
use marionette_anim::world_matrices;
use marionette_anim::Model;
use marionette_anim::{SamplingCache, Skeleton, Transform};
use marionette_bake::{joint_error, BakedTake, Grid, Marker, TakeEvent, TakeMeta};

pub use marionette_testkit::{repo_root as root, TempDir};

/// `Some(())` when node and tests/js/node_modules are there; otherwise skips (or fails in CI).
pub fn node_ready(test: &str) -> Option<()> {
    let modules = root().join("tests/js/node_modules");
    let node = Command::new("node").arg("--version").output().is_ok();
    if modules.is_dir() && node {
        return Some(());
    }
    let why = if node {
        "tests/js/node_modules is missing (run `npm ci --prefix tests/js`)"
    } else {
        "node is not installed"
    };
    marionette_testkit::missing(&format!("{test}: {why}"))
}

/// Runs `node tests/js/<script> args...` and returns stdout; panics with stderr on failure.
pub fn node(script: &str, args: &[&Path]) -> String {
    let out = Command::new("node")
        .arg(root().join("tests/js").join(script))
        .args(args)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "node {script} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Joint world matrices three.js computes, `[animation][sample] -> (time, node -> matrix)`.
pub type ThreePoses = Vec<(String, Vec<(f32, Vec<(usize, DMat4)>)>)>;

/// Plays `file`'s animations in three.js at the given times and reads the listed nodes' world
/// matrices.
pub fn three_poses(file: &Path, nodes: &[usize], anims: &[(String, Vec<f32>)]) -> ThreePoses {
    let dir = file.parent().unwrap();
    let spec_path = dir.join("three_spec.json");
    let mut animations = serde_json::Map::new();
    for (name, times) in anims {
        animations.insert(name.clone(), serde_json::json!(times));
    }
    let spec = serde_json::json!({"nodes": nodes, "animations": animations});
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    let text = node("three_check.mjs", &[file, &spec_path]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let samples = a["samples"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let nodes = s["nodes"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|n| {
                            let m: Vec<f64> = n["world"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .map(|x| x.as_f64().unwrap())
                                .collect();
                            (
                                n["node"].as_u64().unwrap() as usize,
                                DMat4::from_cols_slice(&m),
                            )
                        })
                        .collect();
                    (s["time"].as_f64().unwrap() as f32, nodes)
                })
                .collect();
            (a["name"].as_str().unwrap().to_string(), samples)
        })
        .collect()
}

/// Runs the Khronos validator on `file` and returns (errors, full report text).
pub fn validate(file: &Path) -> (usize, String) {
    let script = root().join("tests/js/validate.mjs");
    let out = Command::new("node")
        .arg(&script)
        .arg(file)
        .output()
        .expect("run node");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let errors = text
        .lines()
        .find_map(|l| {
            l.split(": ")
                .nth(1)
                .and_then(|r| {
                    r.strip_suffix(" errors")
                        .or_else(|| r.split(" errors").next())
                })
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(usize::MAX);
    (errors, text)
}

/// A 6-joint arm under a rotated, scaled armature: shoulder, elbow, wrist, two fingers, a tip.
pub fn arm() -> Skeleton {
    let names = ["shoulder", "elbow", "wrist", "finger_a", "finger_b", "tip"];
    let parents = vec![None, Some(0), Some(1), Some(2), Some(2), Some(3)];
    let rest = vec![
        Transform::from_translation(Vec3::new(0.0, 1.4, 0.0)),
        Transform::from_translation(Vec3::new(0.0, 0.3, 0.0)),
        Transform::new(
            Vec3::new(0.0, 0.28, 0.0),
            Quat::from_rotation_z(0.1),
            Vec3::ONE,
        ),
        Transform::from_translation(Vec3::new(0.02, 0.08, 0.0)),
        Transform::from_translation(Vec3::new(-0.02, 0.08, 0.0)),
        Transform::from_translation(Vec3::new(0.0, 0.04, 0.0)),
    ];
    let armature = Mat4::from_scale_rotation_translation(
        Vec3::splat(0.5),
        Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
        Vec3::new(0.0, 0.0, 0.2),
    );
    Skeleton::new(
        names.iter().map(|s| s.to_string()).collect(),
        parents,
        rest,
        armature,
    )
    .unwrap()
    .skeleton
}

/// A 3 s wave of the arm at `fps`: smooth rotations, a held finger, a translating shoulder.
pub fn wave(skeleton: &Skeleton, fps: f32) -> BakedTake {
    let frames: Vec<Vec<Transform>> = (0..=(3.0 * fps) as usize)
        .map(|i| {
            let t = i as f32 / fps;
            let mut p = skeleton.rest_pose().to_vec();
            p[0].translation += Vec3::new((t * 1.3).sin() * 0.1, 0.0, 0.0);
            p[0].rotation = Quat::from_rotation_y(t * 0.7);
            p[1].rotation = Quat::from_rotation_z((t * 4.0).sin() * 0.8);
            p[2].rotation *= Quat::from_rotation_x((t * 6.0).cos() * 0.3);
            p[3].rotation = Quat::from_rotation_z(if t < 1.5 { 0.0 } else { 0.6 });
            p[5].scale = Vec3::splat(1.0 + 0.2 * (t * 2.0).sin());
            p
        })
        .collect();
    BakedTake {
        name: "wave".into(),
        grid: Grid::new(fps, frames.len()),
        frames,
        inner: Vec::new(),
        exact_between: false,
        animated: Vec::new(),
        morphs: Default::default(),
        meta: TakeMeta {
            markers: vec![Marker {
                name: "peak".into(),
                time: 0.4,
            }],
            events: vec![TakeEvent {
                name: "clap".into(),
                time: 1.5,
                value: None,
            }],
        },
    }
}

/// World matrices (f64) of every joint at every frame of a take.
pub fn take_worlds(skeleton: &Skeleton, take: &BakedTake) -> Vec<Vec<DMat4>> {
    take.frames
        .iter()
        .map(|f| {
            let mut w = Vec::new();
            world_matrices(skeleton, f, &mut w);
            w
        })
        .collect()
}

/// Asserts that `dir/a.EXT` and `dir/b.EXT` are the same export byte for byte (for `.gltf`, the
/// JSON is compared with its own `.bin` name swapped back, and the two `.bin` files too).
pub fn assert_same_export(dir: &Path, ext: &str) {
    let a = dir.join(format!("a.{ext}"));
    let b = dir.join(format!("b.{ext}"));
    assert_eq!(
        std::fs::read(&a).unwrap().len(),
        std::fs::read(&b).unwrap().len()
    );
    if ext == "gltf" {
        // the JSON names its own .bin: compare with the names swapped back
        let ta = std::fs::read_to_string(&a).unwrap();
        let tb = std::fs::read_to_string(&b)
            .unwrap()
            .replace("b.bin", "a.bin");
        assert_eq!(ta, tb);
        let (ba, bb) = (dir.join("a.bin"), dir.join("b.bin"));
        assert_eq!(std::fs::read(ba).unwrap(), std::fs::read(bb).unwrap());
    } else {
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    }
}

/// Largest world-space error between the raw bake and `back`'s clip of the same name sampled
/// at every frame; `full`: every joint must be a joint of `back`.
pub fn round_trip_error(model: &Model, take: &BakedTake, back: &Model, full: bool) -> f64 {
    let clip = back
        .clips
        .iter()
        .find(|c| c.name == take.name)
        .unwrap_or_else(|| panic!("no clip '{}' in the export", take.name));
    let map: Vec<(usize, usize)> = model
        .skeleton
        .names()
        .iter()
        .enumerate()
        .filter_map(|(j, n)| back.skeleton.find(n).map(|k| (j, k as usize)))
        .collect();
    // a joint neither skinned nor animated in an animation-only export is a plain node there
    if full {
        assert_eq!(map.len(), model.skeleton.len());
    }
    assert!(!map.is_empty());
    let mut cache = SamplingCache::new();
    let mut pose = back.skeleton.rest_pose().to_vec();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut worst = 0.0f64;
    for (i, frame) in take.frames.iter().enumerate() {
        clip.sample(
            take.grid.time(i),
            back.skeleton.rest_pose(),
            &mut cache,
            &mut pose,
        );
        world_matrices(&model.skeleton, frame, &mut a);
        world_matrices(&back.skeleton, &pose, &mut b);
        for &(j, k) in &map {
            worst = worst.max(joint_error(&a[j], &b[k]));
        }
    }
    worst
}

/// The bake job `marionette bake SOURCE --retarget-to CHARACTER --clip ...` runs: `clips` of
/// `source` through the proposed map, written to `out`.
pub fn retarget_bake_job(
    source: &Path,
    character: &Path,
    out: &Path,
    clips: &[&str],
) -> marionette_bake::BakeJob {
    let mut job = marionette_bake::BakeJob::new(
        marionette_bake::BakeSource::Retarget {
            source: source.to_path_buf(),
            character: character.to_path_buf(),
            map: None,
            rest: None,
        },
        out,
    );
    job.selection =
        marionette_bake::Selection::Named(clips.iter().map(|c| c.to_string()).collect());
    job
}

/// What `marionette run` shows for a retarget bake (`bake SOURCE --retarget-to CHARACTER`):
/// the script it writes, loaded as the bake loads it, each named clip baked as a take. Returns
/// the character's skeleton and the takes.
pub fn retarget_run_takes(
    source: &Path,
    character: &Path,
    names: &[&str],
) -> (std::sync::Arc<Skeleton>, Vec<BakedTake>) {
    use marionette_bake::{bake_take, ScriptBake};
    use marionette_script::rigs::{rig_loader, RigChoice};
    use marionette_script::{load_text, retarget_map, spec::MapSpec, HostOptions, ScriptedGraph};
    let model = marionette_io::import(source).unwrap();
    let rig = marionette_script::Rig::from_model(source.display().to_string(), &model);
    let file = source.file_name().unwrap().to_str().unwrap();
    let options = retarget_map::MapFile {
        map: MapSpec::Auto,
        reference: None,
        scale: None,
        ik: None,
    };
    let text = retarget_map::bake_script(&rig, file, &options, None);
    let stem = source.file_stem().unwrap().to_str().unwrap();
    let script = source.with_file_name(format!("{stem}.retarget.lua"));
    let (loader, _) = rig_loader(&script, &RigChoice::given(Some(character)));
    let loaded = load_text(&script, &text, &HostOptions::new(loader)).unwrap();
    let mut graph = ScriptedGraph::new(loaded).unwrap();
    let options = ScriptBake {
        fps: None,
        in_place: false,
    };
    let takes = names
        .iter()
        .map(|n| bake_take(&mut graph, n, &options, &mut |_, _| {}).unwrap())
        .collect();
    (graph.script().rig.skeleton.clone(), takes)
}

/// One take's line of the bake report (`bake` without `--quiet`).
#[derive(Debug)]
pub struct TakeReport {
    pub name: String,
    pub keys: usize,
    /// Every `<label> <value> mm` pair of the line, by label (`max`, `p99`, ...).
    pub mm: std::collections::BTreeMap<String, f64>,
}

/// Reads the report lines: `NAME  F frames  K / R keys (P%)  C channels  max X mm  p99 Y mm`.
pub fn parse_report(text: &str) -> Vec<TakeReport> {
    let mut out = Vec::new();
    for line in text.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(f) = tokens.iter().position(|&t| t == "frames") else {
            continue;
        };
        let Some(k) = tokens.iter().position(|&t| t == "keys") else {
            continue;
        };
        if f < 2 || k < 3 || tokens[k - 2] != "/" {
            continue;
        }
        let Ok(keys) = tokens[k - 3].parse() else {
            continue;
        };
        let mut mm = std::collections::BTreeMap::new();
        for (i, t) in tokens.iter().enumerate() {
            if *t == "mm" && i >= 2 {
                if let Ok(v) = tokens[i - 1].parse::<f64>() {
                    mm.insert(tokens[i - 2].to_string(), v);
                }
            }
        }
        out.push(TakeReport {
            name: tokens[..f - 1].join(" "),
            keys,
            mm,
        });
    }
    out
}

/// Bakes every clip or take of `input` into `out` with the command line (and `args`); the
/// parsed report.
pub fn bake_cli(input: &Path, out: &Path, args: &[&str]) -> Vec<TakeReport> {
    let o = crate::common::marionette_cmd()
        .arg("bake")
        .arg(input)
        .args(["--all", "--force", "-o"])
        .arg(out)
        .args(args)
        .output()
        .expect("run marionette bake");
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "marionette bake {} failed:\n{text}",
        input.display()
    );
    let report = parse_report(&text);
    assert!(
        !report.is_empty(),
        "no report lines in the output of bake {}:\n{text}",
        input.display()
    );
    report
}
