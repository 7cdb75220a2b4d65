//! Baking morph target weights: a re-bake keeps every weights channel (RobotExpressive: 42
//! before, 42 after) and, at its own keys, every key; a clip whose weights move (CUBICSPLINE,
//! STEP and LINEAR channels) comes back within `--morph-tolerance` at every key time and
//! between them, at its own key times and resampled at its own rate; a script take's weights
//! come back as `run` shows them; a skeleton-only file says it leaves them out.

use crate::common;

use std::path::Path;

use crate::bake_support::{node_ready, root, validate, TempDir};
use glam::{Mat4, Quat, Vec3};
use marionette_anim::Model;
use marionette_anim::{
    Clip, Interpolation, JointTracks, MorphSet, MorphTarget, MorphTrack, Morphs, SamplingCache,
    Skeleton, Skin, SkinnedMesh, Track, Transform,
};
use marionette_bake::{check_times, run, BakeJob, BakeReport, BakeSource};
use marionette_io::{import, to_glb};
use serde_json::Value;

fn bake(job: &BakeJob) -> BakeReport {
    run(job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"))
}

/// The glTF JSON of a `.glb`.
fn json_of(file: &Path) -> Value {
    marionette_io::Document::read(file).unwrap().json
}

/// `weights` channels per animation name.
fn weights_channels(file: &Path) -> Vec<(String, usize)> {
    let json = json_of(file);
    json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let n = a["channels"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["target"]["path"] == "weights")
                .count();
            (a["name"].as_str().unwrap().to_string(), n)
        })
        .collect()
}

/// `clip`'s weights at `t` on `model`.
fn weights(model: &Model, clip: &Clip, t: f32) -> Vec<f32> {
    let m = model.skeleton.morphs();
    let mut w = m.defaults().to_vec();
    clip.sample_morphs(t, m, &mut SamplingCache::new(), &mut w);
    w
}

/// Largest weight difference between two clips at every key time of either and between them.
fn worst(model: &Model, a: &Clip, b: &Clip) -> f32 {
    check_times(&[a, b])
        .into_iter()
        .map(|t| {
            weights(model, a, t)
                .iter()
                .zip(weights(model, b, t))
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f32::max)
        })
        .fold(0.0, f32::max)
}

/// Re-baking RobotExpressive keeps its 42 weights channels (three face meshes in each of 14
/// clips) and every other channel, validator-clean; baking the bake again keeps every key.
#[test]
fn robot_rebake_keeps_every_weights_channel() {
    let Some(robot) = common::testdata_file("RobotExpressive.glb") else {
        return;
    };
    let dir = TempDir::new("bake-morphs-robot");
    let out = dir.join("robot.glb");
    bake(&BakeJob::new(
        BakeSource::Clips {
            rig: robot.clone(),
            into: None,
        },
        &out,
    ));
    let before: usize = weights_channels(&robot).iter().map(|(_, n)| n).sum();
    let after: usize = weights_channels(&out).iter().map(|(_, n)| n).sum();
    assert_eq!((before, after), (42, 42));
    let (source, written) = (import(&robot).unwrap(), import(&out).unwrap());
    for (a, b) in source.clips.iter().zip(&written.clips) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.morphs.len(), b.morphs.len(), "{}", a.name);
        assert_eq!(a.channel_count(), b.channel_count(), "{}", a.name);
        assert_eq!(worst(&source, a, b), 0.0, "{}", a.name);
    }
    if node_ready("robot_rebake_keeps_every_weights_channel").is_some() {
        let (errors, report) = validate(&out);
        assert_eq!(errors, 0, "{report}");
    }
    // a bake of the bake writes the weights keys it finds, key for key
    let again = dir.join("again.glb");
    bake(&BakeJob::new(
        BakeSource::Clips {
            rig: out.clone(),
            into: None,
        },
        &again,
    ));
    let twice = import(&again).unwrap();
    for (a, b) in written.clips.iter().zip(&twice.clips) {
        assert_eq!(a.morphs, b.morphs, "{}", a.name);
    }
}

/// A rig (two joints, a skinned mesh with two targets) whose clips move its weights: `talk` a
/// CUBICSPLINE curve on keys every other 24 fps frame, `blink` STEP keys, `sway` LINEAR keys
/// at every 24 fps frame (what Blender's exporter writes).
fn face_rig() -> Model {
    let skeleton = Skeleton::new(
        vec!["root".into(), "head".into()],
        vec![None, Some(0)],
        vec![Transform::IDENTITY, Transform::from_translation(Vec3::Y)],
        Mat4::IDENTITY,
    )
    .unwrap()
    .skeleton
    .with_morphs(Morphs::new(vec![MorphSet {
        name: "face".into(),
        targets: vec!["smile".into(), "blink".into()],
        defaults: vec![0.0, 0.0],
        joint: Some(1),
        node: None,
    }]));
    let n = 4;
    let mesh = SkinnedMesh {
        name: "face".into(),
        skin: Some(0),
        positions: vec![
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.1, 1.0, 0.0),
            Vec3::new(0.1, 1.1, 0.0),
            Vec3::new(0.0, 1.1, 0.0),
        ],
        normals: vec![Vec3::Z; n],
        indices: vec![0, 1, 2, 0, 2, 3],
        joints: vec![[1, 0, 0, 0]; n],
        weights: vec![[1.0, 0.0, 0.0, 0.0]; n],
        base_color: [1.0; 4],
        morph_set: Some(0),
        targets: vec![
            MorphTarget {
                positions: vec![Vec3::ZERO, Vec3::ZERO, Vec3::Y * 0.02, Vec3::Y * 0.02],
                ..MorphTarget::default()
            },
            MorphTarget {
                positions: vec![Vec3::Y * -0.01; n],
                ..MorphTarget::default()
            },
        ],
        ..SkinnedMesh::default()
    };
    let skin = Skin {
        name: "skin".into(),
        joints: vec![0, 1],
        inverse_bind: vec![Mat4::IDENTITY, Mat4::from_translation(-Vec3::Y)],
    };
    let times: Vec<f32> = (0..=12).map(|k| k as f32 / 24.0 * 2.0).collect();
    // in/value/out per key and target: smile rises and falls with tangents, blink stays 0
    let mut cubic = Vec::new();
    for (k, t) in times.iter().enumerate() {
        let v = (t * std::f32::consts::PI).sin().powi(2);
        let slope = (2.0 * t * std::f32::consts::PI).sin() * std::f32::consts::PI;
        let bump = if k == 6 { 1.5 } else { 0.0 };
        cubic.extend([slope + bump, 0.0, v, 0.0, slope - bump, 0.0]);
    }
    let mut nod = JointTracks::new(1);
    nod.rotation = Some(Track {
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: vec![Quat::IDENTITY, Quat::from_rotation_x(0.3)],
    });
    let talk = Clip::new("talk", vec![nod.clone()]).with_morphs(vec![MorphTrack {
        set: 0,
        targets: 2,
        interpolation: Interpolation::CubicSpline,
        times: times.clone(),
        values: cubic,
    }]);
    let frames: Vec<f32> = (0..=24).map(|k| k as f32 / 24.0).collect();
    let sway_values = frames
        .iter()
        .flat_map(|t| [0.5 + 0.5 * (7.0 * t).sin(), 0.25 + 0.25 * (3.0 * t).cos()])
        .collect();
    let sway = Clip::new("sway", vec![nod.clone()]).with_morphs(vec![MorphTrack {
        set: 0,
        targets: 2,
        interpolation: Interpolation::Linear,
        times: frames,
        values: sway_values,
    }]);
    let blink = Clip::new("blink", vec![nod]).with_morphs(vec![MorphTrack {
        set: 0,
        targets: 2,
        interpolation: Interpolation::Step,
        times: vec![0.0, 0.5, 0.625, 1.0],
        values: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.25, 0.5],
    }]);
    Model {
        skeleton,
        joint_nodes: vec![0, 1],
        skins: vec![skin],
        meshes: vec![mesh],
        clips: vec![talk, blink, sway],
        ..Model::default()
    }
}

/// Moving weights come back within the tolerance at every key time and between them: at the
/// clip's own key times (CUBICSPLINE refined, STEP kept as STEP), and resampled at `--fps 24`,
/// the source's own rate, for the sources that rate can follow (STEP, and LINEAR keys on its
/// frames, as Blender writes them; for the CUBICSPLINE clip the frames are within the
/// tolerance and the report says what resampling costs between them); a tighter tolerance
/// writes more keys; the files validate.
#[test]
fn moving_weights_come_back_within_the_tolerance() {
    let dir = TempDir::new("bake-morphs-face");
    let rig = dir.join("face.glb");
    std::fs::write(&rig, to_glb(&face_rig()).unwrap()).unwrap();
    let source = import(&rig).unwrap();
    let mut keys = Vec::new();
    for (fps, tolerance) in [(None, 1e-3), (Some(24.0), 1e-3), (None, 1e-5)] {
        let out = dir.join(format!("out_{}_{tolerance}.glb", fps.unwrap_or(0.0)));
        let mut job = BakeJob::new(
            BakeSource::Clips {
                rig: rig.clone(),
                into: None,
            },
            &out,
        );
        job.fps = fps;
        job.morph_tolerance = tolerance;
        let report = bake(&job);
        let written = import(&out).unwrap();
        for (a, b) in source.clips.iter().zip(&written.clips) {
            let stats = &report
                .takes
                .iter()
                .find(|t| t.name == a.name)
                .unwrap()
                .stats;
            if fps.is_some() && a.name == "talk" {
                // frames within the tolerance; between them the chord of a curve
                for k in 0..=24 {
                    let t = k as f32 / 24.0;
                    let (x, y) = (weights(&source, a, t), weights(&source, b, t));
                    let e = x
                        .iter()
                        .zip(&y)
                        .map(|(p, q)| (p - q).abs())
                        .fold(0.0, f32::max);
                    assert!(e <= tolerance * 1.001, "talk at frame {k}: {e}");
                }
                let cost = stats
                    .morphs
                    .against_source
                    .as_ref()
                    .expect("resampling cost");
                assert!(cost.error > tolerance, "{cost:?}");
            } else {
                let e = worst(&source, a, b);
                assert!(
                    e <= tolerance * 1.001,
                    "{} at {fps:?}, {tolerance}: {e}",
                    a.name
                );
            }
            assert!(
                stats.morphs.max_error <= tolerance * 1.001,
                "{:?}",
                stats.morphs
            );
            assert_eq!(stats.morphs.channels, 1);
            let track = &b.morphs[0];
            let want = if a.name == "blink" {
                Interpolation::Step
            } else {
                Interpolation::Linear
            };
            assert_eq!(track.interpolation, want, "{}", a.name);
            if fps.is_none() && a.name == "talk" {
                keys.push(track.len());
            }
        }
        if node_ready("moving_weights_come_back_within_the_tolerance").is_some() {
            let (errors, report) = validate(&out);
            assert_eq!(errors, 0, "{report}");
        }
    }
    // looser tolerance, fewer keys (both met)
    assert!(keys[0] < keys[1], "{keys:?}");
}

/// A script take that drives a morph from a parameter (`scripts/locomotion.lua`: smile and
/// blink) bakes to weights channels that give, at every frame, the weights `run` shows, and
/// between frames stay within the tolerance of the line between them; a skeleton-only bake
/// leaves them out and says so.
#[test]
fn script_takes_bake_the_weights_run_shows() {
    let dir = TempDir::new("bake-morphs-script");
    let script = root().join("scripts/locomotion.lua");
    let rig = root().join("assets/mannequin.glb");
    let out = dir.join("locomotion.glb");
    let report = bake(&BakeJob::new(
        BakeSource::Script {
            script: script.clone(),
            rig: marionette_script::rigs::RigChoice::fallback(rig.clone()),
        },
        &out,
    ));
    let written = import(&out).unwrap();
    let model = import(&rig).unwrap();
    let rig_handle = marionette_script::Rig::from_model(rig.display().to_string(), &model);
    let loaded = marionette_script::load(
        &script,
        &marionette_script::HostOptions::with_rig(rig_handle),
    )
    .unwrap();
    let mut graph = marionette_script::ScriptedGraph::new(loaded).unwrap();
    for take in ["hello", "walk_to_run"] {
        let stats = &report.takes.iter().find(|t| t.name == take).unwrap().stats;
        assert_eq!(stats.morphs.channels, 1, "{take}: {:?}", stats.morphs);
        let clip = written.clips.iter().find(|c| c.name == take).unwrap();
        graph.play(Some(take)).unwrap();
        let data = graph.take_data(take).unwrap();
        let frames = (data.duration * data.fps).round() as usize + 1;
        let mut run_weights = Vec::new();
        for i in 0..frames {
            let t = marionette_anim::time::step_time(i as u64, data.fps);
            graph.seek(f64::from(t));
            let want = graph.morphs().to_vec();
            let got = weights(&written, clip, t);
            let e = want
                .iter()
                .zip(&got)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            assert!(
                e <= 1e-3 * 1.001,
                "{take} frame {i}: run {want:?}, file {got:?}"
            );
            run_weights.push((t, want));
        }
        for w in run_weights.windows(2) {
            let ((t0, a), (t1, b)) = (&w[0], &w[1]);
            let got = weights(&written, clip, 0.5 * (t0 + t1));
            for ((x, y), g) in a.iter().zip(b).zip(&got) {
                assert!((0.5 * (x + y) - g).abs() <= 1.001e-3, "{take} at {t0}: {g}");
            }
        }
        // the take moves the face: a blink or a smile reaches 1
        let peak = run_weights
            .iter()
            .flat_map(|(_, w)| w.iter().copied())
            .fold(0.0, f32::max);
        assert_eq!(peak, 1.0, "{take}");
    }
    let only = dir.join("only.glb");
    let mut job = BakeJob::new(
        BakeSource::Script {
            script,
            rig: marionette_script::rigs::RigChoice::fallback(rig),
        },
        &only,
    );
    job.animation_only = true;
    let report = bake(&job);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("morph weights channel(s) not written")),
        "{:?}",
        report.notes
    );
    assert!(weights_channels(&only).iter().all(|(_, n)| *n == 0));
}
