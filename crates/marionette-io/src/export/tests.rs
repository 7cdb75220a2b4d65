//! Unit tests of the glTF writer on a small hand-built model.

use glam::{Mat4, Quat, Vec2, Vec3};
use serde_json::Value;

use super::nodes::num;
use super::*;
use marionette_anim::{Clip, Interpolation, JointTracks, Skin, SkinnedMesh, Track, Transform};

/// Three joints under a raised armature, one skinned and one rigid mesh, one clip with a STEP
/// translation track and a CUBICSPLINE rotation track sharing key times.
fn small_model() -> Model {
    let rest = vec![
        Transform::IDENTITY,
        Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
        Transform::from_rotation(Quat::from_rotation_z(0.5)),
    ];
    let skeleton = Skeleton::new(
        vec!["root".into(), "a".into(), "b".into()],
        vec![None, Some(0), Some(0)],
        rest,
        Mat4::from_translation(Vec3::new(0.0, 2.0, 0.0)),
    )
    .unwrap()
    .skeleton;
    let tri = SkinnedMesh {
        name: "tri".into(),
        skin: Some(0),
        positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        normals: vec![Vec3::Z; 3],
        uvs: vec![Vec2::ZERO; 3],
        indices: vec![0, 1, 2],
        joints: vec![[0, 1, 0, 0]; 3],
        weights: vec![[0.5, 0.5, 0.0, 0.0]; 3],
        base_color: [1.0, 0.5, 0.25, 1.0],
        ..Default::default()
    };
    let rigid = SkinnedMesh {
        name: "rigid".into(),
        node_joint: Some(1),
        ..tri.clone()
    };
    let rigid = SkinnedMesh {
        skin: None,
        joints: vec![],
        weights: vec![],
        ..rigid
    };
    let times = vec![0.0, 0.5];
    let mut jt = JointTracks::new(1);
    jt.translation = Some(Track {
        interpolation: Interpolation::Step,
        times: times.clone(),
        values: vec![Vec3::ZERO, Vec3::ONE],
    });
    jt.rotation = Some(Track {
        interpolation: Interpolation::CubicSpline,
        times,
        values: vec![Quat::IDENTITY; 6],
    });
    Model {
        skeleton,
        joint_nodes: vec![0, 1, 2],
        skins: vec![Skin {
            name: "skin".into(),
            joints: vec![1, 2],
            inverse_bind: vec![Mat4::IDENTITY; 2],
        }],
        meshes: vec![tri, rigid],
        clips: vec![Clip::new("clip", vec![jt])],
        ..Default::default()
    }
}

/// The JSON and BIN chunks of a GLB.
fn chunks(glb: &[u8]) -> (Value, &[u8]) {
    let u32_at = |o: usize| u32::from_le_bytes(glb[o..o + 4].try_into().unwrap()) as usize;
    assert_eq!(u32_at(8), glb.len());
    let json_len = u32_at(12);
    let json = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_start = 20 + json_len + 8;
    (json, &glb[bin_start..bin_start + u32_at(20 + json_len)])
}

/// Nodes, scene, skin, meshes and samplers follow the documented layout.
#[test]
fn layout_of_small_model() {
    let glb = to_glb(&small_model()).unwrap();
    let (doc, bin) = chunks(&glb);
    assert_eq!(doc["asset"]["generator"], "Marionette");
    let nodes = doc["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 6);
    assert_eq!(nodes[0]["children"], serde_json::json!([1, 2]));
    assert_eq!(nodes[1]["translation"], serde_json::json!([0.0, 1.0, 0.0]));
    assert_eq!(nodes[3]["name"], "Armature");
    assert_eq!(nodes[3]["translation"], serde_json::json!([0.0, 2.0, 0.0]));
    assert_eq!(nodes[3]["children"], serde_json::json!([0]));
    assert_eq!(doc["scenes"][0]["nodes"], serde_json::json!([3, 4]));
    assert_eq!(nodes[4]["skin"], 0);
    assert_eq!(nodes[1]["children"], serde_json::json!([5]));
    assert_eq!(doc["skins"][0]["skeleton"], 0);
    let acc = &doc["accessors"];
    let prim = &doc["meshes"][0]["primitives"][0];
    assert_eq!(
        acc[prim["indices"].as_u64().unwrap() as usize]["componentType"],
        5123
    );
    let joints = prim["attributes"]["JOINTS_0"].as_u64().unwrap() as usize;
    assert_eq!(acc[joints]["componentType"], 5121);
    let pos = &acc[prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
    assert_eq!(pos["max"], serde_json::json!([1.0, 1.0, 0.0]));
    let samplers = &doc["animations"][0]["samplers"];
    assert_eq!(samplers[0]["interpolation"], "STEP");
    assert_eq!(samplers[1]["interpolation"], "CUBICSPLINE");
    assert_eq!(samplers[0]["input"], samplers[1]["input"]);
    assert_eq!(
        acc[samplers[1]["output"].as_u64().unwrap() as usize]["count"],
        6
    );
    for view in doc["bufferViews"].as_array().unwrap() {
        assert_eq!(view["byteOffset"].as_u64().unwrap_or(0) % 4, 0);
    }
    assert_eq!(
        doc["buffers"][0]["byteLength"].as_u64().unwrap() as usize,
        bin.len()
    );
    assert!(doc["buffers"][0].get("uri").is_none());
}

/// The same model gives the same bytes; `.gltf` names its buffer and pretty-prints.
#[test]
fn deterministic_and_gltf_names_buffer() {
    let m = small_model();
    assert_eq!(to_glb(&m).unwrap(), to_glb(&m).unwrap());
    let (json, bin) = to_gltf(&m, "small.bin").unwrap();
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["buffers"][0]["uri"], "small.bin");
    assert_eq!(
        doc["buffers"][0]["byteLength"].as_u64().unwrap() as usize,
        bin.len()
    );
    assert!(json.contains('\n'));
}

/// Floats are written as their shortest decimal when it reads back exactly.
#[test]
fn floats_are_short_and_exact() {
    assert_eq!(num(0.1, "x").unwrap().to_string(), "0.1");
    assert_eq!(num(0.1, "x").unwrap().as_f64().unwrap() as f32, 0.1f32);
    assert!(matches!(num(f32::NAN, "x"), Err(GltfError::NotFinite(_))));
}

/// Inconsistent models are rejected with the glTF-style path of the culprit.
#[test]
fn errors_name_the_culprit() {
    let mut m = small_model();
    m.skins[0].joints[1] = 9;
    let e = to_glb(&m).unwrap_err().to_string();
    assert!(
        e.starts_with("skins[0] 'skin'") && e.contains("joint 9"),
        "{e}"
    );

    let mut m = small_model();
    m.meshes[0].positions[1].x = f32::NAN;
    let e = to_glb(&m).unwrap_err().to_string();
    assert!(e.starts_with("meshes[0] 'tri'"), "{e}");

    let mut m = small_model();
    m.clips[0].tracks.clear();
    assert!(matches!(
        to_glb(&m),
        Err(GltfError::EmptyClip { clip: 0, .. })
    ));

    let mut m = small_model();
    m.clips[0].tracks[0].translation.as_mut().unwrap().times[1] = 0.0;
    let e = to_glb(&m).unwrap_err().to_string();
    assert!(e.contains("clips[0] 'clip', joint 1 translation"), "{e}");
}

/// Rotation tracks whose values are all 16-bit codes are written as normalized SHORTs when
/// asked (one that is not stays in floats), and read back as the very values written, though
/// they are not exactly unit length; not asked, everything is a float, unit length.
#[test]
fn snorm16_rotations_round_trip() {
    let m = small_model();
    let codes = |q: Quat| marionette_anim::quantize_rotation(q.normalize());
    let exact = vec![
        codes(Quat::from_rotation_x(0.3)),
        codes(Quat::from_rotation_y(-1.1)),
    ];
    assert!((exact[0].length() - 1.0).abs() > 1e-6 || (exact[1].length() - 1.0).abs() > 1e-6);
    let track = |values: Vec<Quat>| Track {
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values,
    };
    let clip = Clip::new(
        "q",
        vec![
            JointTracks {
                rotation: Some(track(exact.clone())),
                ..JointTracks::new(1)
            },
            JointTracks {
                rotation: Some(track(vec![Quat::from_rotation_z(0.1234), Quat::IDENTITY])),
                ..JointTracks::new(2)
            },
        ],
    );
    for snorm in [true, false] {
        let (mut doc, nodes) = skeleton_document(&m.skeleton).unwrap();
        let anim = Animation {
            clip: &clip,
            rate: None,
            extras: Value::Null,
            snorm_rotations: snorm,
        };
        append_animations(&mut doc, &[anim], &nodes, &[]).unwrap();
        let glb = doc.to_glb().unwrap();
        let (json, _) = chunks(&glb);
        let a = &json["animations"][0];
        let types: Vec<u64> = a["samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                json["accessors"][s["output"].as_u64().unwrap() as usize]["componentType"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(
            types,
            if snorm {
                vec![5122, 5126]
            } else {
                vec![5126, 5126]
            }
        );
        let back = crate::import_slice(&glb, None, "q.glb").unwrap();
        // the track about x (joint numbers may differ on import: the armature is a node)
        let rot = back.clips[0]
            .tracks
            .iter()
            .find(|t| t.rotation.as_ref().is_some_and(|r| r.values[0].x != 0.0))
            .unwrap();
        let values = &rot.rotation.as_ref().unwrap().values;
        if snorm {
            assert_eq!(values, &exact);
        } else {
            // floats are written unit length
            assert!(values.iter().all(|q| (q.length() - 1.0).abs() < 1e-6));
        }
    }
}
