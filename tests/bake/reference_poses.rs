//! Poses of real models checked against a real glTF client.
//!
//! `tests/golden/<model>.poses.json` holds poses computed by three.js r187 (`tests/js/reference.mjs`
//! says how to regenerate them): the rest pose, and for every clip the local TRS and world matrix
//! of every skin joint, animation target and their ancestors at 0, three interior times (not on
//! keys), the duration and past the end. Here every model is imported with
//! [`marionette_io::import`] and sampled with [`marionette::report::sample_model`]; each of our
//! joints must match three.js by glTF node index within [`TOLERANCE`] (absolute, on every world
//! matrix element and TRS component; rotations up to sign).
//!
//! Run with `--nocapture` to see the largest error per model.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Largest allowed absolute difference from three.js (issue 2: "within 1e-4").
const TOLERANCE: f64 = 1e-4;

/// How many mismatches a failure message lists before summarising.
const SHOWN_FAILURES: usize = 25;

/// One model's golden file.
#[derive(Deserialize)]
struct Golden {
    /// The client that produced it, e.g. `three r187`.
    source: String,
    /// The model's file name.
    file: String,
    /// The pose with no clip applied.
    rest: Pose,
    /// Clips in three's order (the file's order).
    clips: Vec<GoldenClip>,
}

#[derive(Deserialize)]
struct GoldenClip {
    /// three's clip name (`animation_<i>` when the file has none).
    name: String,
    /// The name in the file, if any.
    gltf_name: Option<String>,
    /// three's duration: the latest key time.
    duration: f64,
    samples: Vec<Sample>,
}

#[derive(Deserialize)]
struct Sample {
    time: f64,
    #[serde(flatten)]
    pose: Pose,
}

#[derive(Deserialize)]
struct Pose {
    nodes: Vec<NodePose>,
}

#[derive(Deserialize)]
struct NodePose {
    node: usize,
    name: Option<String>,
    translation: [f64; 3],
    rotation: [f64; 4],
    scale: [f64; 3],
    world: [f64; 16],
}

/// Our pose of one joint, in the golden's units.
struct OurJoint {
    node: usize,
    translation: [f64; 3],
    rotation: [f64; 4],
    scale: [f64; 3],
    world: [f64; 16],
}

/// The golden files, each with the model it describes: `assets/<file>` for the project's own
/// models, `tests/golden/<file>` for hand-made fixtures (`interpolation_modes.gltf`: STEP,
/// CUBICSPLINE, normalised integer and sparse outputs, an unnamed late-starting clip, a rotated
/// and scaled armature), otherwise the public test-model directory. A public model that is missing is skipped
/// with a message on a local run and fails the test under CI (see `common`).
fn goldens() -> Vec<(PathBuf, Golden)> {
    let dir = common::repo_path("tests/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".poses.json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let golden: Golden = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not a golden pose file: {e}", file.display()));
        let own = ["assets", "tests/golden"]
            .map(|dir| common::repo_path(dir).join(&golden.file))
            .into_iter()
            .find(|path| path.is_file());
        let model = match own {
            Some(path) => path,
            None => match common::testdata_file(&golden.file) {
                Some(path) => path,
                None => continue,
            },
        };
        out.push((model, golden));
    }
    out
}

/// Imports a model, naming it on failure.
fn import(path: &Path) -> marionette_anim::Model {
    marionette_io::import(path).unwrap_or_else(|e| panic!("import {}: {e}", path.display()))
}

/// Our pose of every joint at `time` in clip `clip` (or the rest pose).
fn our_pose(model: &marionette_anim::Model, clip: Option<usize>, time: f64) -> Vec<OurJoint> {
    let report = marionette::report::sample_model(model, clip, time as f32)
        .unwrap_or_else(|e| panic!("sample {}: {e}", model.source.display()));
    assert_eq!(
        report.joints.len(),
        model.skeleton.len(),
        "sample_model must report every joint"
    );
    report
        .joints
        .iter()
        .map(|j| OurJoint {
            node: j.node,
            translation: j.translation.map(f64::from),
            rotation: j.rotation.map(f64::from),
            scale: j.scale.map(f64::from),
            world: j.world.map(f64::from),
        })
        .collect()
}

/// Largest error seen so far, and where.
#[derive(Default)]
struct Worst {
    error: f64,
    at: String,
}

/// Largest error per quantity (`world`, `translation`, `rotation`, `scale`).
type WorstBy = BTreeMap<&'static str, Worst>;

fn see(worst: &mut WorstBy, what: &'static str, error: f64, at: impl FnOnce() -> String) {
    let entry = worst.entry(what).or_default();
    if error > entry.error || entry.at.is_empty() {
        entry.error = error;
        entry.at = at();
    }
}

/// Compares our joints with three's nodes; mismatches go to `failures`.
fn compare(
    context: &str,
    ours: &[OurJoint],
    three: &Pose,
    worst: &mut WorstBy,
    failures: &mut Vec<String>,
) {
    for joint in ours {
        let Some(reference) = three.nodes.iter().find(|n| n.node == joint.node) else {
            failures.push(format!(
                "{context}: our joint node {} is not in the golden file",
                joint.node
            ));
            continue;
        };
        let name = reference.name.as_deref().unwrap_or("(unnamed)");
        let mut check = |what: &'static str, index: usize, ours: f64, three: f64| {
            let error = (ours - three).abs();
            let at = || format!("{context}, node {} '{name}', {what}[{index}]", joint.node);
            see(worst, what, error, at);
            if error > TOLERANCE || error.is_nan() {
                failures.push(format!("{}: ours {ours:.7} vs three {three:.7}", at()));
            }
        };
        for (i, (&a, &b)) in joint.world.iter().zip(&reference.world).enumerate() {
            check("world", i, a, b);
        }
        for (i, (&a, &b)) in joint
            .translation
            .iter()
            .zip(&reference.translation)
            .enumerate()
        {
            check("translation", i, a, b);
        }
        for (i, (&a, &b)) in joint.scale.iter().zip(&reference.scale).enumerate() {
            check("scale", i, a, b);
        }
        // q and -q are the same rotation: compare with three's quaternion in our hemisphere.
        let dot: f64 = joint
            .rotation
            .iter()
            .zip(&reference.rotation)
            .map(|(a, b)| a * b)
            .sum();
        let sign = if dot < 0.0 { -1.0 } else { 1.0 };
        for (i, (&a, &b)) in joint.rotation.iter().zip(&reference.rotation).enumerate() {
            check("rotation", i, a, sign * b);
        }
    }
}

/// Every joint of every model, at every golden time of every clip, matches three.js.
#[test]
fn poses_match_three_js() {
    let goldens = goldens();
    let mut failures = Vec::new();
    for (path, golden) in &goldens {
        let model = import(path);
        let mut worst = WorstBy::new();
        let mut compared = 0usize;
        let rest = our_pose(&model, None, 0.0);
        compare(
            &format!("{}, rest pose", golden.file),
            &rest,
            &golden.rest,
            &mut worst,
            &mut failures,
        );
        compared += rest.len();
        for (index, clip) in golden.clips.iter().enumerate() {
            for sample in &clip.samples {
                let context = format!(
                    "{}, clip {index} '{}', t = {}",
                    golden.file, clip.name, sample.time
                );
                let ours = our_pose(&model, Some(index), sample.time);
                compare(&context, &ours, &sample.pose, &mut worst, &mut failures);
                compared += ours.len();
            }
        }
        assert!(compared > 0, "{}: no joints were compared", golden.file);
        println!(
            "{}: {compared} joint poses compared with {}; max abs error:",
            golden.file, golden.source
        );
        for (what, w) in &worst {
            println!("  {what:<11} {:.3e} at {}", w.error, w.at);
        }
    }
    report(failures);
}

/// Clip names, order and durations match three.js (names only where the file has them: three
/// invents `animation_<i>` for an unnamed animation, we invent our own stable name).
#[test]
fn clips_match_three_js() {
    let goldens = goldens();
    let mut failures = Vec::new();
    for (path, golden) in &goldens {
        let model = import(path);
        let ours: Vec<(&str, f32)> = model
            .clips
            .iter()
            .map(|c| (c.name.as_str(), c.end))
            .collect();
        let three: Vec<(&str, f64)> = golden
            .clips
            .iter()
            .map(|c| (c.name.as_str(), c.duration))
            .collect();
        if ours.len() != three.len() {
            failures.push(format!(
                "{}: our clips {ours:?} vs three {three:?}",
                golden.file
            ));
            continue;
        }
        for (index, (clip, reference)) in model.clips.iter().zip(&golden.clips).enumerate() {
            if let Some(name) = &reference.gltf_name {
                if &clip.name != name {
                    failures.push(format!(
                        "{}: clip {index} is '{}', three and the file call it '{name}'",
                        golden.file, clip.name
                    ));
                }
            } else if clip.name.trim().is_empty() {
                failures.push(format!(
                    "{}: unnamed clip {index} got no generated name",
                    golden.file
                ));
            }
            if (f64::from(clip.end) - reference.duration).abs() > 1e-6 {
                failures.push(format!(
                    "{}: clip {index} '{}' lasts {} s, three says {} s",
                    golden.file, clip.name, clip.end, reference.duration
                ));
            }
        }
    }
    report(failures);
}

/// Every public test model has a golden file (a new model needs `tests/js/reference.mjs` run).
#[test]
fn every_test_model_has_a_golden_file() {
    let models = common::testdata_models();
    for model in models {
        let stem = model
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let golden = common::repo_path("tests/golden").join(format!("{stem}.poses.json"));
        assert!(
            golden.is_file(),
            "{} has no golden poses: run `node tests/js/reference.mjs tests/golden {}`",
            model.display(),
            model.display()
        );
    }
}

/// Our skeleton holds every joint of every skin in the file (read with the `gltf` crate).
#[test]
fn joint_set_covers_every_skin() {
    let goldens = goldens();
    for (path, golden) in &goldens {
        let model = import(path);
        let doc = gltf::Gltf::open(path)
            .unwrap_or_else(|e| panic!("gltf crate on {}: {e}", path.display()));
        let ours: BTreeSet<usize> = model.joint_nodes.iter().copied().collect();
        assert_eq!(
            ours.len(),
            model.joint_nodes.len(),
            "{}: a node is a joint twice",
            golden.file
        );
        assert_eq!(
            model.joint_nodes.len(),
            model.skeleton.len(),
            "{}: joint_nodes vs skeleton",
            golden.file
        );
        for skin in doc.skins() {
            let skin_nodes: BTreeSet<usize> = skin.joints().map(|n| n.index()).collect();
            let missing: Vec<_> = skin_nodes.difference(&ours).collect();
            assert!(
                missing.is_empty(),
                "{}: skin {} joints {missing:?} are not in Model::joint_nodes",
                golden.file,
                skin.index()
            );
        }
        assert_eq!(
            model.skins.len(),
            doc.skins().count(),
            "{}: skin count",
            golden.file
        );
    }
}

/// Panics listing the first mismatches, or returns when there are none.
fn report(failures: Vec<String>) {
    if failures.is_empty() {
        return;
    }
    let shown: Vec<&str> = failures
        .iter()
        .take(SHOWN_FAILURES)
        .map(String::as_str)
        .collect();
    panic!(
        "{} mismatches with three.js (tolerance {TOLERANCE}); first {}:\n{}",
        failures.len(),
        shown.len(),
        shown.join("\n")
    );
}
