//! Morph targets on import, hand-made files (the minimal AnimatedMorphCube case and hostile
//! variants): deltas dense, sparse and normalised, default weights from the mesh and the
//! node, target names, `weights` channels in every interpolation; and each count glTF requires
//! to agree is an error naming its path. Then the model's morph targets written back by the
//! codec read back the same.

use base64::Engine;
use glam::Vec3;
use marionette_anim::Model;
use marionette_anim::{Interpolation, SamplingCache};
use marionette_io::{import_slice, to_glb};
use serde_json::{json, Value};

/// A glTF document under construction: JSON plus one binary buffer.
struct Doc {
    json: Value,
    bin: Vec<u8>,
}

impl Doc {
    /// A file with one node (`mesh 0`), a quad of 4 vertices (two triangles) and nothing else.
    fn new() -> Self {
        let mut d = Doc {
            json: json!({
                "asset": {"version": "2.0"},
                "scene": 0,
                "scenes": [{"nodes": [0]}],
                "nodes": [{"name": "cube", "mesh": 0}],
                "meshes": [{"name": "cube", "primitives": [{"attributes": {}, "indices": 0}]}],
                "buffers": [{"byteLength": 0}],
                "bufferViews": [],
                "accessors": [],
            }),
            bin: Vec::new(),
        };
        let idx: Vec<u8> = [0u16, 1, 2, 0, 2, 3]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        d.accessor(&idx, 5123, 6, "SCALAR", None);
        let pos = d.floats(
            &[0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.],
            "VEC3",
            true,
        );
        let nrm = d.floats(
            &[0., 0., 1., 0., 0., 1., 0., 0., 1., 0., 0., 1.],
            "VEC3",
            false,
        );
        d.json["meshes"][0]["primitives"][0]["attributes"] =
            json!({"POSITION": pos, "NORMAL": nrm});
        d
    }

    /// Appends raw bytes as a buffer view (4-byte aligned) and returns its index.
    fn view(&mut self, bytes: &[u8]) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        let views = self.json["bufferViews"].as_array_mut().unwrap();
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}));
        views.len() - 1
    }

    /// An accessor over new bytes; returns its index.
    fn accessor(
        &mut self,
        bytes: &[u8],
        component: u32,
        count: usize,
        kind: &str,
        extra: Option<Value>,
    ) -> usize {
        let view = self.view(bytes);
        let mut a =
            json!({"bufferView": view, "componentType": component, "count": count, "type": kind});
        if let Some(Value::Object(m)) = extra {
            for (k, v) in m {
                a[k] = v;
            }
        }
        let accessors = self.json["accessors"].as_array_mut().unwrap();
        accessors.push(a);
        accessors.len() - 1
    }

    /// A float accessor (with min/max when `bounds`); returns its index.
    fn floats(&mut self, values: &[f32], kind: &str, bounds: bool) -> usize {
        let n = match kind {
            "SCALAR" => 1,
            "VEC3" => 3,
            _ => 4,
        };
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let extra = bounds.then(|| {
            let col = |c: usize| values.iter().skip(c).step_by(n).copied();
            let min: Vec<f32> = (0..n)
                .map(|c| col(c).fold(f32::INFINITY, f32::min))
                .collect();
            let max: Vec<f32> = (0..n)
                .map(|c| col(c).fold(f32::NEG_INFINITY, f32::max))
                .collect();
            json!({"min": min, "max": max})
        });
        self.accessor(&bytes, 5126, values.len() / n, kind, extra)
    }

    /// Adds morph targets (each a list of POSITION deltas, 4 vertices) to primitive 0 with
    /// `extras.targetNames` when `names` is given.
    fn targets(&mut self, deltas: &[[f32; 12]], names: Option<&[&str]>) {
        let targets: Vec<Value> = deltas
            .iter()
            .map(|d| json!({"POSITION": self.floats(d, "VEC3", true)}))
            .collect();
        self.json["meshes"][0]["primitives"][0]["targets"] = Value::Array(targets);
        if let Some(names) = names {
            self.json["meshes"][0]["extras"] = json!({"targetNames": names});
        }
    }

    /// Adds an animation with one `weights` channel on node 0.
    fn weights_channel(&mut self, interpolation: &str, times: &[f32], values: &[f32]) {
        let input = self.floats(times, "SCALAR", true);
        let output = self.floats(values, "SCALAR", false);
        self.json["animations"] = json!([{
            "name": "talk",
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}],
            "samplers": [{"input": input, "output": output, "interpolation": interpolation}],
        }]);
    }

    /// The file as `.gltf` bytes with the buffer as a data URI.
    fn bytes(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"][0] = json!({
            "byteLength": self.bin.len(),
            "uri": format!(
                "data:application/octet-stream;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(&self.bin)
            ),
        });
        serde_json::to_vec(&json).unwrap()
    }

    fn import(&self) -> Result<Model, String> {
        import_slice(&self.bytes(), None, "morph.gltf").map_err(|e| e.to_string())
    }
}

/// Two targets: "up" lifts the top edge by 1, "wide" moves the right edge by 2.
const UP: [f32; 12] = [0., 0., 0., 0., 0., 0., 0., 1., 0., 0., 1., 0.];
const WIDE: [f32; 12] = [0., 0., 0., 2., 0., 0., 2., 0., 0., 0., 0., 0.];

/// The clip's weights at `t`.
fn weights_at(model: &Model, t: f32) -> Vec<f32> {
    let morphs = model.skeleton.morphs();
    let mut w = morphs.defaults().to_vec();
    model.clips[0].sample_morphs(t, morphs, &mut SamplingCache::new(), &mut w);
    w
}

/// The AnimatedMorphCube case: one node, no skin, no joint animation. The node becomes the
/// joint that carries its mesh; names, defaults and a LINEAR weights channel are read.
#[test]
fn a_morph_cube_imports() {
    let mut d = Doc::new();
    d.targets(&[UP, WIDE], Some(&["up", "wide"]));
    d.json["meshes"][0]["weights"] = json!([0.25, 0.0]);
    d.weights_channel("LINEAR", &[0.0, 1.0, 2.0], &[0.0, 1.0, 1.0, 0.0, 0.5, 0.5]);
    let model = d.import().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.skeleton.names(), &["cube".to_string()]);
    let morphs = model.skeleton.morphs();
    assert_eq!(morphs.sets().len(), 1);
    let set = &morphs.sets()[0];
    assert_eq!((set.name.as_str(), set.node), ("cube", Some(0)));
    assert_eq!(set.targets, vec!["up", "wide"]);
    assert_eq!(set.defaults, vec![0.25, 0.0]);
    assert_eq!(set.joint, Some(0));
    assert_eq!(model.meshes[0].targets.len(), 2);
    assert_eq!(
        model.meshes[0].targets[1].positions[1],
        Vec3::new(2.0, 0.0, 0.0)
    );
    let clip = &model.clips[0];
    assert_eq!(clip.morphs.len(), 1);
    assert_eq!(clip.end, 2.0);
    assert_eq!(weights_at(&model, 0.5), vec![0.5, 0.5]);
    assert_eq!(weights_at(&model, 1.5), vec![0.75, 0.25]);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
}

/// STEP holds, CUBICSPLINE reads in/value/out groups of all targets per key; the node's
/// `weights` override the mesh's; without targetNames the targets are `target<k>`.
#[test]
fn interpolations_defaults_and_generated_names() {
    let mut d = Doc::new();
    d.targets(&[UP, WIDE], None);
    d.json["meshes"][0]["weights"] = json!([0.25, 0.0]);
    d.json["nodes"][0]["weights"] = json!([0.5, 0.75]);
    d.weights_channel("STEP", &[0.0, 1.0], &[0.0, 1.0, 1.0, 0.0]);
    let model = d.import().unwrap_or_else(|e| panic!("{e}"));
    let set = &model.skeleton.morphs().sets()[0];
    assert_eq!(set.targets, vec!["target0", "target1"]);
    assert_eq!(set.defaults, vec![0.5, 0.75]);
    assert_eq!(weights_at(&model, 0.99), vec![0.0, 1.0]);
    // cubic: key 0 = in (0, 0), value (0, 0), out (1, 0); key 1 = in (1, 0), value (1, 1), out
    let cubic = [0., 0., 0., 0., 1., 0., 1., 0., 1., 1., 0., 0.];
    d.weights_channel("CUBICSPLINE", &[0.0, 1.0], &cubic);
    let model = d.import().unwrap_or_else(|e| panic!("{e}"));
    let track = &model.clips[0].morphs[0];
    assert_eq!(track.interpolation, Interpolation::CubicSpline);
    let w = weights_at(&model, 0.5);
    // target 0: Hermite of p0 = 0, m0 = 1, p1 = 1, m1 = 1 at 0.5 -> 0.5; target 1: 0 -> 1
    // with flat tangents -> 0.5
    assert!(
        (w[0] - 0.5).abs() < 1e-6 && (w[1] - 0.5).abs() < 1e-6,
        "{w:?}"
    );
}

/// Sparse POSITION deltas (two of four vertices) and normalised BYTE normal deltas read as
/// the dense values they stand for.
#[test]
fn sparse_and_normalised_deltas() {
    let mut d = Doc::new();
    let indices: Vec<u8> = [2u16, 3].iter().flat_map(|i| i.to_le_bytes()).collect();
    let values: Vec<u8> = [0f32, 1., 0., 0., 1., 0.]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let iv = d.view(&indices);
    let vv = d.view(&values);
    let accessors = d.json["accessors"].as_array_mut().unwrap();
    accessors.push(json!({
        "componentType": 5126, "count": 4, "type": "VEC3",
        "min": [0.0, 0.0, 0.0], "max": [0.0, 1.0, 0.0],
        "sparse": {"count": 2, "indices": {"bufferView": iv, "componentType": 5123},
                   "values": {"bufferView": vv}}
    }));
    let sparse = accessors.len() - 1;
    // normal deltas as normalised i8: 127 = 1.0, -127 = -1.0 (4 bytes per VEC3 element, padded)
    let normals: Vec<u8> = [
        [0i8, 0, -127, 0],
        [0, 0, -127, 0],
        [127, 0, 0, 0],
        [0, 127, 0, 0],
    ]
    .iter()
    .flat_map(|v| v.iter().map(|&b| b as u8))
    .collect();
    let nv = d.view(&normals);
    d.json["bufferViews"][nv]["byteStride"] = json!(4);
    let accessors = d.json["accessors"].as_array_mut().unwrap();
    accessors.push(
        json!({"bufferView": nv, "componentType": 5120, "normalized": true,
                          "count": 4, "type": "VEC3"}),
    );
    let nrm = accessors.len() - 1;
    d.json["meshes"][0]["primitives"][0]["targets"] = json!([{"POSITION": sparse, "NORMAL": nrm}]);
    d.weights_channel("LINEAR", &[0.0, 1.0], &[0.0, 1.0]);
    let model = d.import().unwrap_or_else(|e| panic!("{e}"));
    let t = &model.meshes[0].targets[0];
    assert_eq!(t.positions, vec![Vec3::ZERO, Vec3::ZERO, Vec3::Y, Vec3::Y]);
    assert_eq!(t.normals[0], Vec3::new(0.0, 0.0, -1.0));
    assert_eq!(t.normals[2], Vec3::X);
    assert_eq!(model.skeleton.morphs().defaults(), &[0.0]);
    assert_eq!(weights_at(&model, 0.25), vec![0.25]);
}

/// Each count glTF requires to agree, and each value that cannot be a weight, is an error
/// naming the glTF path.
#[test]
fn bad_counts_name_their_path() {
    let base = || {
        let mut d = Doc::new();
        d.targets(&[UP, WIDE], Some(&["up", "wide"]));
        d.weights_channel("LINEAR", &[0.0, 1.0], &[0.0, 1.0, 1.0, 0.0]);
        d
    };
    let err = |d: &Doc| d.import().expect_err("should fail");
    // a weights output that is not keys x targets
    let mut d = base();
    d.weights_channel("LINEAR", &[0.0, 1.0], &[0.0, 1.0, 1.0]);
    let e = err(&d);
    assert!(e.contains("animations[0].samplers[0].output"), "{e}");
    assert!(e.contains("needs 4: 2 keys x 2 targets"), "{e}");
    // cubic needs in/value/out triplets
    d.weights_channel("CUBICSPLINE", &[0.0, 1.0], &[0.0; 4]);
    let e = err(&d);
    assert!(
        e.contains("needs 12") && e.contains("in-tangent, value, out-tangent"),
        "{e}"
    );
    // a NaN weight
    d.weights_channel("LINEAR", &[0.0, 1.0], &[0.0, f32::NAN, 1.0, 0.0]);
    let e = err(&d);
    assert!(
        e.contains("animations[0].samplers[0].output") && e.contains("finite"),
        "{e}"
    );
    // node weights of the wrong length
    let mut d = base();
    d.json["nodes"][0]["weights"] = json!([1.0]);
    let e = err(&d);
    assert!(
        e.contains("nodes[0].weights") && e.contains("1 weights"),
        "{e}"
    );
    // mesh weights of the wrong length
    let mut d = base();
    d.json["meshes"][0]["weights"] = json!([1.0, 0.0, 0.0]);
    assert!(err(&d).contains("meshes[0].weights"));
    // primitives of one mesh with different target counts
    let mut d = base();
    let prim = d.json["meshes"][0]["primitives"][0].clone();
    let mut second = prim.clone();
    second["targets"] = json!([prim["targets"][0].clone()]);
    d.json["meshes"][0]["primitives"] = json!([prim, second]);
    let e = err(&d);
    assert!(e.contains("meshes[0].primitives[1].targets"), "{e}");
    assert!(
        e.contains("has 1 morph targets but primitives[0] has 2"),
        "{e}"
    );
    // a delta accessor with the wrong count
    let mut d = base();
    let short = d.floats(&[0.0; 9], "VEC3", true);
    d.json["meshes"][0]["primitives"][0]["targets"][1]["POSITION"] = json!(short);
    let e = err(&d);
    assert!(
        e.contains("meshes[0].primitives[0].targets[1][\"POSITION\"]"),
        "{e}"
    );
    // a weights channel on a node without morph targets
    let mut d = base();
    d.json["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "empty"}));
    d.json["scenes"][0]["nodes"] = json!([0, 1]);
    d.weights_channel("LINEAR", &[0.0, 1.0], &[0.0; 4]);
    d.json["animations"][0]["channels"][0]["target"]["node"] = json!(1);
    let e = err(&d);
    assert!(e.contains("animations[0].channels[0].target.node"), "{e}");
}

/// Repeated or missing target names are renamed with a warning; a mismatched name list is
/// ignored with a warning.
#[test]
fn target_name_problems_warn() {
    let mut d = Doc::new();
    d.targets(&[UP, WIDE], Some(&["smile", "smile"]));
    d.weights_channel("LINEAR", &[0.0, 1.0], &[0.0, 1.0, 1.0, 0.0]);
    let model = d.import().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        model.skeleton.morphs().sets()[0].targets,
        vec!["smile", "smile_1"]
    );
    assert_eq!(model.warnings.len(), 1, "{:?}", model.warnings);
    let mut d = Doc::new();
    d.targets(&[UP, WIDE], Some(&["only"]));
    d.weights_channel("LINEAR", &[0.0, 1.0], &[0.0, 1.0, 1.0, 0.0]);
    let model = d.import().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        model.skeleton.morphs().sets()[0].targets,
        vec!["target0", "target1"]
    );
    assert!(
        model.warnings[0].contains("extras.targetNames"),
        "{:?}",
        model.warnings
    );
}

/// The codec writes a model's morph targets (deltas, default weights, target names) and its
/// weights channels so that they read back the same; the mannequin's face too.
#[test]
fn morph_targets_round_trip() {
    let mut d = Doc::new();
    d.targets(&[UP, WIDE], Some(&["up", "wide"]));
    d.json["meshes"][0]["weights"] = json!([0.25, 0.0]);
    d.weights_channel("LINEAR", &[0.0, 1.0, 2.0], &[0.0, 1.0, 1.0, 0.0, 0.5, 0.5]);
    let model = d.import().unwrap_or_else(|e| panic!("{e}"));
    let back = import_slice(&to_glb(&model).unwrap(), None, "back.glb").unwrap();
    let (a, b) = (model.skeleton.morphs(), back.skeleton.morphs());
    assert_eq!(a.sets()[0].targets, b.sets()[0].targets);
    assert_eq!(a.defaults(), b.defaults());
    assert_eq!(model.meshes[0].targets, back.meshes[0].targets);
    for t in [0.0, 0.3, 1.0, 1.7, 2.0] {
        assert_eq!(weights_at(&model, t), weights_at(&back, t), "t = {t}");
    }
    let mannequin = marionette_anim::mannequin::build();
    let back = import_slice(&to_glb(&mannequin).unwrap(), None, "m.glb").unwrap();
    let face = |m: &Model| m.meshes.iter().find(|m| m.name == "face").cloned().unwrap();
    assert_eq!(face(&mannequin).targets, face(&back).targets);
    let set = &back.skeleton.morphs().sets()[0];
    assert_eq!(set.targets, vec!["blink", "smile", "jaw_open"]);
    assert_eq!(back.skeleton.names()[set.joint.unwrap() as usize], "head");
}
