//! A clip keeps its time base through `marionette bake`: without `--fps` the written keys sit
//! at the source's own key times (irregular ones included) and the report measures the source;
//! with `--fps` the report says what resampling costs; a clip that moves no node is refused in
//! clip words; `--shell-mm` is checked.

use std::path::{Path, PathBuf};

use crate::common::TempDir;
use std::process::Output;

use base64::Engine;
use marionette_io::import;
use serde_json::json;

fn bake(args: &[&str]) -> Output {
    crate::common::marionette_cmd()
        .arg("bake")
        .args(args)
        .output()
        .expect("run marionette")
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A two-joint chain whose `turn` clip rotates the child at irregular key times (no usual
/// rate holds them all) and translates the root at others.
fn irregular_rig(dir: &Path) -> PathBuf {
    let rot_times = [0.0f32, 0.137, 0.5111, 0.9];
    let rot: Vec<f32> = rot_times
        .iter()
        .flat_map(|t| {
            let (s, c) = (t * 0.3).sin_cos();
            [0.0, 0.0, s, c]
        })
        .collect();
    let tr_times = [0.0f32, 0.35, 0.9];
    let tr = [0.0f32, 0.0, 0.0, 0.1, 0.05, 0.0, 0.2, 0.0, 0.0];
    let mut bin = floats(&rot_times);
    bin.extend(floats(&rot));
    bin.extend(floats(&tr_times));
    bin.extend(floats(&tr));
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bin)
    );
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "root", "children": [1]},
            {"name": "arm", "translation": [0.0, 1.0, 0.0]}
        ],
        "buffers": [{"byteLength": bin.len(), "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": bin.len()}],
        "accessors": [
            {"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 4, "type": "SCALAR",
             "min": [0.0], "max": [0.9]},
            {"bufferView": 0, "byteOffset": 16, "componentType": 5126, "count": 4, "type": "VEC4"},
            {"bufferView": 0, "byteOffset": 80, "componentType": 5126, "count": 3, "type": "SCALAR",
             "min": [0.0], "max": [0.9]},
            {"bufferView": 0, "byteOffset": 92, "componentType": 5126, "count": 3, "type": "VEC3"}
        ],
        "animations": [{"name": "turn",
            "samplers": [{"input": 0, "output": 1}, {"input": 2, "output": 3}],
            "channels": [
                {"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                {"sampler": 1, "target": {"node": 0, "path": "translation"}}
            ]}]
    });
    let path = dir.join("irregular.gltf");
    std::fs::write(&path, doc.to_string()).expect("write rig");
    path
}

/// Without `--fps` every written key time is one of the source's; the extras say so.
#[test]
fn a_clip_keeps_its_own_key_times() {
    let dir = TempDir::new("time-base-own");
    let rig = irregular_rig(&dir);
    let out = dir.join("baked.gltf");
    let o = bake(&[rig.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("max "), "{stdout}");
    assert!(!stdout.contains("resampling costs"), "{stdout}");
    let source: Vec<f32> = vec![0.0, 0.137, 0.35, 0.5111, 0.9];
    let back = import(&out).unwrap_or_else(|e| panic!("{e}"));
    let clip = back.clips.iter().find(|c| c.name == "turn").expect("turn");
    for t in &clip.tracks {
        let times: Vec<f32> = [
            t.translation.as_ref().map(|k| k.times.clone()),
            t.rotation.as_ref().map(|k| k.times.clone()),
        ]
        .into_iter()
        .flatten()
        .flatten()
        .collect();
        for time in times {
            assert!(
                source.contains(&time),
                "key at {time}, not a source key time"
            );
        }
    }
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let anim = doc["animations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "turn")
        .unwrap();
    let m = &anim["extras"]["marionette"];
    assert_eq!(m["time_base"], "source");
    assert!(m["fps"].is_null(), "{m}");
    assert_eq!(m["frames"], 5);
    // a re-bake keeps the keys as they are, to the byte
    let again = dir.join("again.gltf");
    let o = bake(&[out.to_str().unwrap(), "-o", again.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(dir.join("baked.bin")).unwrap(),
        std::fs::read(dir.join("again.bin")).unwrap()
    );
}

/// `--fps 30` resamples the clip: its source keys fall between frames, and the report says
/// what that costs against the clip itself.
#[test]
fn resampling_reports_its_cost() {
    let dir = TempDir::new("time-base-fps");
    let rig = irregular_rig(&dir);
    let out = dir.join("baked.glb");
    let o = bake(&[
        rig.to_str().unwrap(),
        "--fps",
        "30",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let cost = stdout
        .split("resampling costs ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no resampling cost in: {stdout}"));
    assert!(cost > 0.1, "{stdout}");
}

/// A clip that animates no node's transform, only morph weights (a single unskinned node, as
/// the Khronos AnimatedMorphCube), bakes: its weights channel is written and plays the same.
#[test]
fn a_clip_of_weights_only_bakes() {
    let dir = TempDir::new("time-base-morph");
    // one triangle with one morph target, its weight animated
    let mut bin = floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    bin.extend(floats(&[0.0, 0.0, 0.5, 0.0, 0.0, 0.5, 0.0, 0.0, 0.5]));
    bin.extend(floats(&[0.0, 1.0]));
    bin.extend(floats(&[0.0, 1.0]));
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bin)
    );
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "face", "mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "targets": [{"POSITION": 1}]}],
                    "weights": [0.0]}],
        "buffers": [{"byteLength": bin.len(), "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": bin.len()}],
        "accessors": [
            {"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 0, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.5], "max": [0.0, 0.0, 0.5]},
            {"bufferView": 0, "byteOffset": 72, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0.0], "max": [1.0]},
            {"bufferView": 0, "byteOffset": 80, "componentType": 5126, "count": 2, "type": "SCALAR"}
        ],
        "animations": [{"name": "smile",
            "samplers": [{"input": 2, "output": 3}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}]}]
    });
    let rig = dir.join("morph.gltf");
    std::fs::write(&rig, doc.to_string()).unwrap();
    let out = dir.join("baked.glb");
    let o = bake(&[rig.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let (source, baked) = (import(&rig).unwrap(), import(&out).unwrap());
    assert_eq!(baked.clips[0].morphs.len(), 1);
    let morphs = source.skeleton.morphs();
    for t in [0.0, 0.25, 0.5, 1.0] {
        let at = |m: &marionette_anim::Model| {
            let mut w = morphs.defaults().to_vec();
            let cache = &mut marionette_anim::SamplingCache::new();
            m.clips[0].sample_morphs(t, morphs, cache, &mut w);
            w
        };
        assert_eq!(at(&source), at(&baked), "t = {t}");
    }
}

/// `--shell-mm` must be a positive number of millimetres.
#[test]
fn shell_distance_is_checked() {
    let dir = TempDir::new("time-base-shell");
    let rig = irregular_rig(&dir);
    let out = dir.join("baked.glb");
    let o = bake(&[
        rig.to_str().unwrap(),
        "--shell-mm",
        "-3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = bake(&[
        rig.to_str().unwrap(),
        "--shell-mm",
        "500",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
