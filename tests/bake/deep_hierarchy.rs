//! Deep hierarchies stay linear: a generated 100,000-deep node chain imports (and one with more
//! joints than a skeleton holds fails at once with a clear error), and a 10,000-deep joint
//! chain bakes within budget. Quadratic code made these take minutes (13 s to inspect 100,000
//! nodes, 113 s to bake 10,000 joints); `cargo bench --bench bake -- deep` shows the scaling.

use std::path::Path;

use base64::Engine;
use marionette_bake as bake;
use marionette_bake::{self, BakeJob, BakeSource};
use marionette_io::{import, import_slice};
use serde_json::{json, Value};

/// A chain of `n` nodes, each `step` metres above its parent; nodes `first_joint..` are the
/// joints of a skin. With `wave`, one 1 s clip rotates every joint about Z (three keys).
fn chain_gltf(n: usize, first_joint: usize, step: f32, wave: bool) -> Vec<u8> {
    let nodes: Vec<Value> = (0..n)
        .map(|i| {
            let mut node = json!({"name": format!("n{i}"), "translation": [0.0, step, 0.0]});
            if i + 1 < n {
                node["children"] = json!([i + 1]);
            }
            node
        })
        .collect();
    let joints: Vec<usize> = (first_joint..n).collect();
    let mut doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "skins": [{"joints": joints}],
    });
    if wave {
        let mut bin: Vec<u8> = Vec::new();
        for t in [0.0f32, 0.5, 1.0] {
            bin.extend_from_slice(&t.to_le_bytes());
        }
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        let mut accessors = vec![json!({"bufferView": 0, "componentType": 5126, "count": 3,
                                        "type": "SCALAR", "min": [0.0], "max": [1.0]})];
        for (k, &j) in joints.iter().enumerate() {
            let a = (j as f32 * 0.3).sin() * 0.2;
            for angle in [0.0, a, 0.0] {
                let (s, c) = (angle * 0.5f32).sin_cos();
                for v in [0.0, 0.0, s, c] {
                    bin.extend_from_slice(&v.to_le_bytes());
                }
            }
            accessors.push(json!({"bufferView": 1, "byteOffset": 48 * k,
                                  "componentType": 5126, "count": 3, "type": "VEC4"}));
            samplers.push(json!({"input": 0, "output": k + 1}));
            channels.push(json!({"sampler": k, "target": {"node": j, "path": "rotation"}}));
        }
        let b64 = base64::engine::general_purpose::STANDARD.encode(&bin);
        doc["buffers"] = json!([{"byteLength": bin.len(),
                                 "uri": format!("data:application/octet-stream;base64,{b64}")}]);
        doc["bufferViews"] = json!([
            {"buffer": 0, "byteOffset": 0, "byteLength": 12},
            {"buffer": 0, "byteOffset": 12, "byteLength": bin.len() - 12}
        ]);
        doc["accessors"] = json!(accessors);
        doc["animations"] = json!([{"name": "wave", "channels": channels, "samplers": samplers}]);
    }
    doc.to_string().into_bytes()
}

/// 100,000 nodes deep: the 60,000 deepest are joints, the 40,000 above them the armature.
#[test]
fn import_of_a_100000_deep_chain() {
    let bytes = chain_gltf(100_000, 40_000, 0.01, false);
    let model = import_slice(&bytes, None, "deep.gltf").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.skeleton.len(), 60_000);
    assert_eq!(model.joint_nodes[59_999], 99_999);
    assert_eq!(model.skeleton.parent(59_999), Some(59_998));
    // the armature is the world transform of the 40,000 nodes above: 400 m up
    let up = model.skeleton.armature().w_axis.y;
    assert!((up - 400.0).abs() < 1e-2, "{up}");
    let report = marionette::report::inspect(&model);
    assert_eq!(report.joints[59_999].depth, 59_999);
}

/// More joints than a skeleton holds: refused with the count, without first walking every
/// chain.
#[test]
fn too_many_joints_is_refused() {
    let bytes = chain_gltf(100_000, 0, 0.01, false);
    let err = import_slice(&bytes, None, "deep.gltf")
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some("deep.gltf: nodes: cannot build the skeleton: 100000 joints is more than the supported 65535")
    );
}

/// A 10,000-joint chain, every joint waving, bakes within the 0.1 mm budget (and reads back).
#[test]
fn bake_of_a_10000_deep_chain() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("deep_hierarchy_bake");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rig = dir.join("chain.gltf");
    std::fs::write(&rig, chain_gltf(10_000, 0, 0.001, true)).expect("write rig");
    let out = dir.join("baked.glb");
    let job = BakeJob::new(
        BakeSource::Clips {
            rig: rig.clone(),
            into: None,
        },
        &out,
    );
    let report = bake::run(&job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let stats = &report.takes[0].stats;
    // keys at 0, 0.5 and 1 s: the clip's own time base is 24 fps (25 frames), a few intervals
    // halved where Blender's reading of the wide slerps would miss
    assert!((25..=50).contains(&stats.frames), "{stats:?}");
    assert!(stats.max_error <= 1e-4, "{}", stats.max_error);
    let back = import(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.skeleton.len(), 10_000);
    assert!(back.clips.iter().any(|c| c.name == "wave"));
    let _ = std::fs::remove_dir_all(&dir);
}
