//! Motion capture and FBX read as Blender reads them: the fixtures of `tests/fixtures/mocap/`
//! (made in Blender by `make_mocap.py`: a BVH walk in centimetres with ZXY channels, a BVH run
//! in metres with XYZ channels, an FBX with a skinned mesh, shape keys and both actions) are
//! imported by Marionette and by Blender's own importers (`tests/blender/sample_import.py`),
//! and every joint's world position agrees within 0.5% of the body's height at every frame and
//! half frame.

use std::collections::HashMap;

use glam::DVec3;
use marionette_anim::{world_matrices, SamplingCache, Transform};
use marionette_io::{import_with, ImportOptions, Unit};
use serde_json::{json, Value};

use crate::bake_support::{root, TempDir};

/// Compares one file; `scale` is Blender's BVH `global_scale` (metres per file unit).
fn compare(file: &str, unit: Option<Unit>, format: &str, scale: f64) {
    let test = format!("mocap_blender {file}");
    let Some(()) = crate::blender::blender(&test) else {
        return;
    };
    let path = root().join("tests/fixtures/mocap").join(file);
    let model = import_with(&path, &ImportOptions { unit }).unwrap();
    assert!(!model.clips.is_empty(), "{file}: no clips");
    let skel = &model.skeleton;
    let fps = 120.0;
    let clips: Vec<Value> = model
        .clips
        .iter()
        .map(|c| {
            let n = ((c.end - c.start) * fps).round() as usize;
            let frames: Vec<f64> = (0..=2 * n).map(|k| k as f64 * 0.5).collect();
            json!({"name": c.name, "fps": fps, "frames": frames})
        })
        .collect();
    let dir = TempDir::new("mocap-blender");
    let (spec_path, out_path) = (dir.path().join("spec.json"), dir.path().join("out.json"));
    let spec = json!({"file": path, "format": format, "scale": scale, "clips": clips});
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    crate::blender::run_blender("sample_import.py", &[&spec_path, &out_path]);
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    // the body's height: the rest pose's extent
    let mut rest_world = Vec::new();
    world_matrices(skel, skel.rest_pose(), &mut rest_world);
    let ys: Vec<f64> = rest_world.iter().map(|m| m.w_axis.y).collect();
    let xs: Vec<f64> = rest_world.iter().map(|m| m.w_axis.x).collect();
    let extent = |v: &[f64]| {
        v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
    };
    let height = extent(&ys).max(extent(&xs));
    assert!(height > 1.0 && height < 2.5, "{file}: height {height}");
    let mut cache = SamplingCache::default();
    let mut pose = vec![Transform::IDENTITY; skel.len()];
    let mut world = Vec::new();
    for clip in &model.clips {
        let samples = result["clips"][&clip.name]["samples"]
            .as_array()
            .unwrap_or_else(|| {
                panic!(
                    "{file}: Blender has no action for '{}': {result}",
                    clip.name
                )
            });
        let mut worst = (0.0f64, String::new());
        let mut compared = 0;
        for s in samples {
            let frame = s[0].as_f64().unwrap();
            let t = clip.start + (frame / f64::from(fps)) as f32;
            clip.sample(t, skel.rest_pose(), &mut cache, &mut pose);
            world_matrices(skel, &pose, &mut world);
            let ours: HashMap<&str, DVec3> = skel
                .names()
                .iter()
                .zip(&world)
                .map(|(n, m)| (n.as_str(), m.w_axis.truncate()))
                .collect();
            for (bone, v) in s[1].as_object().unwrap() {
                let Some(p) = ours.get(bone.as_str()) else {
                    continue;
                };
                let b = DVec3::new(
                    v[0].as_f64().unwrap(),
                    v[1].as_f64().unwrap(),
                    v[2].as_f64().unwrap(),
                );
                let d = (b - *p).length() / height;
                compared += 1;
                if d > worst.0 {
                    worst = (
                        d,
                        format!("'{bone}' at frame {frame}: ours {p:?}, Blender {b:?}"),
                    );
                }
            }
        }
        println!(
            "{file} '{}': {} samples, {compared} joint positions, worst {:.4}% of the height ({})",
            clip.name,
            samples.len(),
            worst.0 * 100.0,
            worst.1
        );
        assert!(
            compared > samples.len() * 10,
            "{file}: too few joints compared ({compared})"
        );
        assert!(
            worst.0 < 0.005,
            "{file} '{}': {:.3}% of the height: {}",
            clip.name,
            worst.0 * 100.0,
            worst.1
        );
    }
}

#[test]
fn a_bvh_walk_in_centimetres_with_zxy_channels_plays_as_in_blender() {
    compare("capture_walk.bvh", Some(Unit::Cm), "bvh", 0.01);
}

#[test]
fn a_bvh_run_in_metres_with_xyz_channels_plays_as_in_blender() {
    compare("capture_run.bvh", None, "bvh", 1.0);
}

#[test]
fn an_fbx_with_a_skinned_mesh_and_two_actions_plays_as_in_blender() {
    compare("capture.fbx", None, "fbx", 1.0);
}

/// Converted files are valid glTF: the Khronos validator finds no error in a BVH, an FBX with
/// a skinned mesh and shape keys, an FBX without bones (object animation) and an FBX without
/// animation, each baked with `bake --all` (the last: its model alone, with a note).
#[test]
fn converted_bvh_and_fbx_files_validate() {
    if crate::bake_support::node_ready("converted_bvh_and_fbx_files_validate").is_none() {
        return;
    }
    let dir = TempDir::new("mocap-validate");
    for (file, note) in [
        ("capture_walk.bvh", None),
        ("capture.fbx", None),
        ("props.fbx", None),
        (
            "still.fbx",
            Some("no animation in the file: the glTF holds its model alone"),
        ),
    ] {
        let src = root().join("tests/fixtures/mocap").join(file);
        let out_file = dir.path().join(format!("{file}.glb"));
        let out = crate::common::marionette(&[
            "bake",
            &src.display().to_string(),
            "--all",
            "-o",
            &out_file.display().to_string(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{file}: {err}");
        if let Some(note) = note {
            assert!(err.contains(note), "{file}: {err}");
        }
        let (errors, report) = crate::bake_support::validate(&out_file);
        assert_eq!(errors, 0, "{file}: {report}");
        let back = marionette_io::import(&out_file).unwrap();
        let model = import_with(&src, &ImportOptions::default()).unwrap();
        assert_eq!(back.meshes.len(), model.meshes.len(), "{file}: meshes kept");
        assert_eq!(
            back.clips.len(),
            model.clips.len(),
            "{file}: a take per clip"
        );
    }
    // an FBX without bones: its nodes are the joints, meshes following them
    let props = import_with(
        &root().join("tests/fixtures/mocap/props.fbx"),
        &ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(props.skeleton.names(), ["Ground", "Crate"]);
    assert!(props.meshes.iter().all(|m| m.node_joint.is_some()));
}
