//! The real client animators open bakes in: Blender 3.4 (Debian's `blender`) imports each
//! baked file headless (`tests/blender/sample.py`, one Blender process per file), plays every
//! animation at every frame and half frame (scene fps = the take's), and every joint's world
//! head is compared with Marionette: at frames with the source (`run` / the rig's clip), between
//! frames with the bake's reference (the interpolation of the two frames, what the unreduced
//! bake plays) and with Marionette sampling the written file. Blender then re-exports the file
//! and the re-export, read back by Marionette, must still match at every frame.
//!
//! Skipped with a message when `blender` is not installed and `CI` is unset; under CI it runs
//! (`tests/run.sh` installs `blender python3-numpy`).

use crate::bake_support;
use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use crate::bake_support::{root, TempDir};
use glam::DVec3;
use marionette_anim::{world_matrices, Interpolate, SamplingCache, Skeleton, Transform};
use marionette_bake::{
    bake_clip_keys, bake_take, run, BakeJob, BakeSource, BakedTake, Grid, ScriptBake, Shells,
};
use marionette_io::import;
use marionette_script::{load, HostOptions, Rig, ScriptedGraph};
use serde_json::{json, Value};

/// Slack over the 0.1 mm budget for Blender's f32 evaluation (the Fox is about 100 units tall;
/// the LINEAR profile already keeps a fifth of the budget for it, measured maxima are printed).
const SLACK: f64 = 2e-5;

/// `Some` when `blender` runs, `None` (with a message) when it is absent outside CI: every
/// Blender test of this binary asks it first.
pub(crate) fn blender(test: &str) -> Option<()> {
    let ok = Command::new("blender")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(());
    }
    let why = "blender is not installed (apt-get install blender python3-numpy)";
    if std::env::var_os("CI").is_some() {
        panic!("{test}: {why}");
    }
    println!("skipped: {test}: {why}");
    None
}

/// Runs a Blender script from tests/blender headless with `args` (after `--`); fails with
/// Blender's output when the script fails.
pub(crate) fn run_blender(script: &str, args: &[&Path]) {
    let out = Command::new("blender")
        .args(["-b", "--factory-startup", "--python-exit-code", "1", "-P"])
        .arg(root().join("tests/blender").join(script))
        .arg("--")
        .args(args)
        .output()
        .expect("run blender");
    assert!(
        out.status.success(),
        "blender {script} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Joint world positions of `pose` on `skeleton`, by joint name.
fn heads(skeleton: &Skeleton, pose: &[Transform]) -> HashMap<String, DVec3> {
    let mut w = Vec::new();
    world_matrices(skeleton, pose, &mut w);
    skeleton
        .names()
        .iter()
        .zip(&w)
        .map(|(n, m)| (n.clone(), m.w_axis.truncate()))
        .collect()
}

/// The bake's reference halfway between frames `i` and `i + 1`.
fn half_pose(take: &BakedTake, i: usize) -> Vec<Transform> {
    take.frames[i]
        .iter()
        .zip(&take.frames[i + 1])
        .map(|(a, b)| {
            Transform::new(
                a.translation.lerp(b.translation, 0.5),
                Interpolate::linear(a.rotation.normalize(), b.rotation.normalize(), 0.5),
                a.scale.lerp(b.scale, 0.5),
            )
        })
        .collect()
}

/// Sample times of `take`: every frame, then every inner time (half frames for a take).
fn times(take: &BakedTake) -> Vec<f64> {
    let g: &Grid = &take.grid;
    let mut t: Vec<f64> = g.times().iter().map(|&x| f64::from(x)).collect();
    t.extend(g.inner_times().into_iter().map(f64::from));
    t
}

/// Runs Blender on `file`: world heads of every bone at `times(take)` for each take, and a
/// re-export to `reexport`. Returns, per take, one `bone -> head` map per time.
fn blender_heads(
    file: &Path,
    takes: &[BakedTake],
    reexport: &Path,
) -> Vec<Vec<HashMap<String, DVec3>>> {
    let dir = file.parent().unwrap();
    let spec_path = dir.join("spec.json");
    let out_path = dir.join("blender.json");
    let anims: Vec<Value> = takes
        .iter()
        .map(|t| json!({"name": t.name, "fps": t.fps(), "times": times(t)}))
        .collect();
    let spec = json!({"file": file, "reexport": reexport, "anims": anims});
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    run_blender("sample.py", &[&spec_path, &out_path]);
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    takes
        .iter()
        .map(|t| {
            let samples = result["anims"][&t.name]["samples"].as_array().unwrap();
            assert_eq!(samples.len(), times(t).len(), "{}", t.name);
            samples
                .iter()
                .map(|s| {
                    s[1].as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| {
                            let p: Vec<f64> = serde_json::from_value(v.clone()).unwrap();
                            (k.clone(), DVec3::new(p[0], p[1], p[2]))
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Largest distance between `blender` and `want` over the joints both have (all of `want`'s
/// joints must be in Blender).
fn worst(blender: &HashMap<String, DVec3>, want: &HashMap<String, DVec3>) -> f64 {
    want.iter()
        .map(|(name, p)| {
            let b = blender
                .get(name)
                .unwrap_or_else(|| panic!("joint {name} not in Blender"));
            b.distance(*p)
        })
        .fold(0.0, f64::max)
}

/// Compares Blender's playback of `file` (which holds `takes`, baked on `skeleton` at
/// `tolerance` metres) with the source and with Marionette reading the file, then checks the
/// Blender re-export. Returns the worst errors (source, file, re-export) in metres.
fn compare(file: &Path, skeleton: &Skeleton, takes: &[BakedTake], tolerance: f64) -> [f64; 3] {
    let reexport = file.with_file_name("reexport.glb");
    let blender = blender_heads(file, takes, &reexport);
    let written = import(file).unwrap();
    let back = import(&reexport).unwrap();
    let mut cache = SamplingCache::new();
    let (mut vs_source, mut vs_file, mut vs_reexport) = (0.0f64, 0.0f64, 0.0f64);
    for (take, samples) in takes.iter().zip(&blender) {
        let n = take.frames.len();
        let ts = times(take);
        let clip = written.clips.iter().find(|c| c.name == take.name).unwrap();
        let mut pose = written.skeleton.rest_pose().to_vec();
        for (k, (t, bl)) in ts.iter().zip(samples).enumerate() {
            let want = if k < n {
                heads(skeleton, &take.frames[k])
            } else if take.exact_between {
                // a clip at its own keys: the source itself between frames
                heads(skeleton, &take.inner[k - n])
            } else {
                heads(skeleton, &half_pose(take, k - n))
            };
            let e = worst(bl, &want);
            assert!(
                e <= tolerance + SLACK,
                "{} {} t={t}: {e} m",
                file.display(),
                take.name
            );
            vs_source = vs_source.max(e);
            clip.sample(
                *t as f32,
                written.skeleton.rest_pose(),
                &mut cache,
                &mut pose,
            );
            let e = worst(bl, &heads(&written.skeleton, &pose));
            assert!(
                e <= tolerance + SLACK,
                "{} {} vs file t={t}: {e} m",
                file.display(),
                take.name
            );
            vs_file = vs_file.max(e);
        }
        // Blender's exporter names the animation after the action ("<take>_<armature>")
        let re = back
            .clips
            .iter()
            .find(|c| c.name == take.name || c.name.starts_with(&format!("{}_", take.name)))
            .unwrap_or_else(|| panic!("{}: no re-exported {}", file.display(), take.name));
        let mut pose = back.skeleton.rest_pose().to_vec();
        let grid = &take.grid;
        // the exporter samples whole frames: compare those inside the take
        for i in (0..n).filter(|&i| step_is_frame(grid, i)) {
            re.sample(
                grid.time(i),
                back.skeleton.rest_pose(),
                &mut cache,
                &mut pose,
            );
            let got = heads(&back.skeleton, &pose);
            let want = heads(skeleton, &take.frames[i]);
            let e = worst(&got, &want);
            assert!(
                e <= tolerance + SLACK,
                "{} {} re-export frame {i}: {e} m",
                file.display(),
                take.name
            );
            vs_reexport = vs_reexport.max(e);
        }
    }
    [vs_source, vs_file, vs_reexport]
}

/// True when frame `i` of `grid` is a whole frame time (not a clip end between frames).
fn step_is_frame(grid: &Grid, i: usize) -> bool {
    grid.rate
        .is_some_and(|fps| (f64::from(grid.time(i)) * f64::from(fps) - i as f64).abs() < 1e-3)
}

fn bake(job: &BakeJob) {
    run(job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
}

/// The mannequin takes of scripts/locomotion.lua play in Blender within 0.1 mm of `run` at
/// every frame and half frame, and Blender's re-export still matches.
#[test]
fn locomotion_takes_play_in_blender() {
    let Some(_) = blender("locomotion_takes_play_in_blender") else {
        return;
    };
    let dir = TempDir::new("blender-locomotion");
    let script = root().join("scripts/locomotion.lua");
    let rig_path = root().join("assets/mannequin.glb");
    let out = dir.join("locomotion.glb");
    let job = BakeJob::new(
        BakeSource::Script {
            script: script.clone(),
            rig: marionette_script::rigs::RigChoice::fallback(rig_path.clone()),
        },
        &out,
    );
    bake(&job);
    let model = import(&rig_path).unwrap();
    let rig = Rig::from_model(rig_path.display().to_string(), &model);
    let loaded = load(&script, &HostOptions::with_rig(rig)).unwrap();
    let mut graph = ScriptedGraph::new(loaded).unwrap();
    let names: Vec<String> = graph
        .script()
        .spec
        .takes
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let options = ScriptBake {
        fps: None,
        in_place: false,
    };
    let takes: Vec<BakedTake> = names
        .iter()
        .map(|n| bake_take(&mut graph, n, &options, &mut |_, _| {}).unwrap())
        .collect();
    let skeleton = graph.script().rig.skeleton.clone();
    let e = compare(&out, &skeleton, &takes, 1e-4);
    println!(
        "locomotion in Blender: vs run {:.4} mm, vs file {:.4} mm, re-export {:.4} mm",
        e[0] * 1e3,
        e[1] * 1e3,
        e[2] * 1e3
    );
}

/// The Robot's clips retargeted onto the mannequin (`bake --retarget-to`) play in Blender
/// within 0.1 mm of what `run` shows for the same retarget, and Blender's re-export still
/// matches.
#[test]
fn retargeted_robot_plays_in_blender() {
    let Some(_) = blender("retargeted_robot_plays_in_blender") else {
        return;
    };
    let Some(robot) = common::testdata_file("RobotExpressive.glb") else {
        return;
    };
    let dir = TempDir::new("blender-retarget");
    let character = root().join("assets/mannequin.glb");
    let out = dir.join("robot_on_mannequin.glb");
    let clips = ["Walking", "Jump"];
    bake(&bake_support::retarget_bake_job(
        &robot, &character, &out, &clips,
    ));
    let (skeleton, takes) = bake_support::retarget_run_takes(&robot, &character, &clips);
    let e = compare(&out, &skeleton, &takes, 1e-4);
    println!(
        "robot on the mannequin in Blender: vs run {:.4} mm, vs file {:.4} mm, re-export {:.4} mm",
        e[0] * 1e3,
        e[1] * 1e3,
        e[2] * 1e3
    );
}

/// The Fox's clips, resampled at 30 fps, play in Blender within 0.1 mm of the source clips at
/// every frame (half frames: of the bake's reference), and Blender's re-export still matches.
#[test]
fn fox_clips_play_in_blender() {
    let Some(_) = blender("fox_clips_play_in_blender") else {
        return;
    };
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let dir = TempDir::new("blender-fox");
    let out = dir.join("fox.glb");
    let job = BakeJob::new(
        BakeSource::Clips {
            rig: fox.clone(),
            into: None,
        },
        &out,
    );
    bake(&job);
    let model = import(&fox).unwrap();
    let shells = Shells::of_model(&model);
    let takes: Vec<BakedTake> = model
        .clips
        .iter()
        .map(|c| bake_clip_keys(&model.skeleton, &shells, c, (1e-4, 1e-3), &mut |_, _| {}))
        .collect();
    let e = compare(&out, &model.skeleton, &takes, 1e-4);
    println!(
        "Fox in Blender: vs source {:.4} mm, vs file {:.4} mm, re-export {:.4} mm",
        e[0] * 1e3,
        e[1] * 1e3,
        e[2] * 1e3
    );
}
