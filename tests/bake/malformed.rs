//! Deliberately malformed glTF files: each gives an error naming the file and the glTF path,
//! never a panic. Fixable problems become one warning per mesh or animation.
//!
//! Every case starts from a small valid skinned glTF written by hand below (two joints, one
//! triangle, one rotation clip) and mutates its JSON or its buffer.

use base64::Engine;
use marionette_anim::Model;
use marionette_io::{import, import_slice};
use serde_json::{json, Value};

/// Byte offsets of the regions of the test buffer.
const POS: usize = 0; // 3 x VEC3 f32
const JOINTS: usize = 36; // 3 x VEC4 u8
const WEIGHTS: usize = 48; // 3 x VEC4 f32
const IBM: usize = 96; // 2 x MAT4 f32
const TIMES: usize = 224; // 2 x f32
const ROTS: usize = 232; // 2 x VEC4 f32
const LEN: usize = 264;

fn put_f32s(buf: &mut [u8], at: usize, values: &[f32]) {
    for (i, v) in values.iter().enumerate() {
        buf[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// The valid buffer: a triangle bound to two joints, and a 1 s rotation of the second joint.
fn buffer() -> Vec<u8> {
    let mut b = vec![0u8; LEN];
    put_f32s(&mut b, POS, &[0., 0., 0., 1., 0., 0., 0., 1., 0.]);
    for v in 0..3 {
        b[JOINTS + 4 * v..JOINTS + 4 * v + 4].copy_from_slice(&[0, 1, 0, 0]);
        put_f32s(&mut b, WEIGHTS + 16 * v, &[0.5, 0.5, 0.0, 0.0]);
    }
    let identity = [
        1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.,
    ];
    let mut down = identity;
    down[13] = -1.0;
    put_f32s(&mut b, IBM, &identity);
    put_f32s(&mut b, IBM + 64, &down);
    put_f32s(&mut b, TIMES, &[0.0, 1.0]);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    put_f32s(&mut b, ROTS, &[0., 0., 0., 1., 0., 0., s, s]);
    b
}

/// The valid glTF JSON (the buffer's `uri` is added by [`gltf_bytes`]).
fn document() -> Value {
    let view =
        |offset: usize, len: usize| json!({"buffer": 0, "byteOffset": offset, "byteLength": len});
    json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [
            {"name": "body", "mesh": 0, "skin": 0},
            {"name": "hip", "children": [2], "translation": [0.0, 1.0, 0.0]},
            {"name": "spine"}
        ],
        "meshes": [{"name": "body", "primitives": [{
            "attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}
        }]}],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": 3}],
        "animations": [{"name": "wave",
            "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}],
            "samplers": [{"input": 4, "output": 5, "interpolation": "LINEAR"}]}],
        "buffers": [{"byteLength": LEN}],
        "bufferViews": [
            view(POS, 36), view(JOINTS, 12), view(WEIGHTS, 48),
            view(IBM, 128), view(TIMES, 8), view(ROTS, 32)
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0.0], "max": [1.0]},
            {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"}
        ]
    })
}

/// `.gltf` bytes with the buffer embedded as a data URI.
fn gltf_bytes(mut doc: Value, buf: &[u8]) -> Vec<u8> {
    let b64 = base64::engine::general_purpose::STANDARD.encode(buf);
    doc["buffers"][0]["byteLength"] = json!(buf.len());
    doc["buffers"][0]["uri"] = json!(format!("data:application/octet-stream;base64,{b64}"));
    doc.to_string().into_bytes()
}

/// `.glb` bytes: JSON chunk plus BIN chunk.
fn glb_bytes(doc: &Value, buf: &[u8]) -> Vec<u8> {
    let mut json = doc.to_string().into_bytes();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + buf.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(buf.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(buf);
    out
}

fn import_gltf(doc: Value, buf: &[u8]) -> Result<Model, String> {
    import_slice(&gltf_bytes(doc, buf), None, "tiny.gltf").map_err(|e| e.to_string())
}

/// The error text of importing a mutated document (fails the test if it imports).
fn error_of(doc: Value, buf: &[u8]) -> String {
    match import_gltf(doc, buf) {
        Ok(_) => panic!("the malformed file imported without error"),
        Err(e) => e,
    }
}

/// The hand-written file is valid: the cases below fail only because of their mutation.
#[test]
fn baseline_imports_as_gltf_and_glb() {
    let model = import_gltf(document(), &buffer()).expect("valid glTF");
    assert_eq!(
        model.skeleton.names(),
        &["hip".to_string(), "spine".to_string()]
    );
    assert_eq!(model.joint_nodes, vec![1, 2]);
    assert_eq!(model.skins[0].joints, vec![0, 1]);
    assert_eq!(model.meshes[0].weights[0], [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(model.meshes[0].indices, vec![0, 1, 2]);
    assert_eq!(model.clips[0].name, "wave");
    assert_eq!(model.clips[0].duration(), 1.0);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let glb = glb_bytes(&document(), &buffer());
    let from_glb = import_slice(&glb, None, "tiny.glb").expect("valid GLB");
    assert_eq!(from_glb.skeleton, model.skeleton);
    assert_eq!(from_glb.clips, model.clips);
}

/// A GLB cut short names the file and says it is truncated; no cut length panics.
#[test]
fn truncated_glb() {
    let glb = glb_bytes(&document(), &buffer());
    let err = import_slice(&glb[..glb.len() / 2], None, "tiny.glb")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.starts_with("tiny.glb: GLB is truncated: the header says"),
        "{err}"
    );
    for len in 0..glb.len() {
        assert!(
            import_slice(&glb[..len], None, "tiny.glb").is_err(),
            "cut at {len}"
        );
    }
}

/// Accessor indices that point nowhere are reported at their JSON path.
#[test]
fn bad_accessor_index() {
    let mut doc = document();
    doc["animations"][0]["samplers"][0]["output"] = json!(99);
    assert_eq!(
        error_of(doc, &buffer()),
        "tiny.gltf: animations[0].samplers[0].output: accessor 99 does not exist (the file has 6 \
         accessors)"
    );
    let mut doc = document();
    doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(42);
    let err = error_of(doc, &buffer());
    assert_eq!(
        err,
        "tiny.gltf: meshes[0].primitives[0].attributes[\"POSITION\"]: accessor 42 does not \
         exist (the file has 6 accessors)"
    );
}

/// Float JOINTS_0 and an u8 animation input are rejected before any byte is read.
#[test]
fn wrong_component_types() {
    let mut doc = document();
    doc["accessors"][1]["componentType"] = json!(5126);
    assert_eq!(
        error_of(doc, &buffer()),
        "tiny.gltf: meshes[0].primitives[0].attributes[\"JOINTS_0\"]: accessor 1 has \
         componentType FLOAT (5126); JOINTS must be UNSIGNED_BYTE (5121) or UNSIGNED_SHORT (5123)"
    );
    let mut doc = document();
    doc["accessors"][4]["componentType"] = json!(5121);
    assert_eq!(
        error_of(doc, &buffer()),
        "tiny.gltf: animations[0].samplers[0].input: accessor 4 has componentType \
         UNSIGNED_BYTE (5121); an animation input must be FLOAT (5126)"
    );
}

/// NaN key times are reported on the input, NaN values on the output.
#[test]
fn nan_keys() {
    let mut buf = buffer();
    put_f32s(&mut buf, TIMES + 4, &[f32::NAN]);
    assert_eq!(
        error_of(document(), &buf),
        "tiny.gltf: animations[0].samplers[0].input: accessor 4 element 1 is not a finite number \
         (NaN)"
    );
    let mut buf = buffer();
    put_f32s(&mut buf, ROTS + 16, &[f32::NAN]);
    assert_eq!(
        error_of(document(), &buf),
        "tiny.gltf: animations[0].samplers[0].output: accessor 5 element 1 is not a finite number \
         (NaN)"
    );
}

/// Key times that go backwards are an error on the sampler input.
#[test]
fn out_of_order_key_times() {
    let mut buf = buffer();
    put_f32s(&mut buf, TIMES, &[1.0, 0.0]);
    assert_eq!(
        error_of(document(), &buf),
        "tiny.gltf: animations[0].samplers[0].input: key times must increase: key 1 at 0s \
         follows 1s (key times must be sorted and unique)"
    );
}

/// More or fewer output values than input keys is named on the output.
#[test]
fn output_count_mismatch() {
    let mut doc = document();
    doc["accessors"][5]["count"] = json!(1);
    assert_eq!(
        error_of(doc, &buffer()),
        "tiny.gltf: animations[0].samplers[0].output: accessor 5 has 1 elements but input has 2"
    );
}

/// Other structural problems: broken JSON, a vertex bound to a joint the skin lacks, a view
/// past the end of its buffer, a node hierarchy with a cycle.
#[test]
fn structural_errors() {
    let err = import_slice(b"{\"asset\": ", None, "tiny.gltf")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(
        err,
        "tiny.gltf: asset: not valid glTF JSON: EOF while parsing a value (at byte 10)"
    );
    let mut buf = buffer();
    buf[JOINTS + 1] = 5;
    assert_eq!(
        error_of(document(), &buf),
        "tiny.gltf: meshes[0].primitives[0].attributes[\"JOINTS_0\"]: vertex 0 uses joint 5 of \
         the skin 'skin_0', which has only 2 joints"
    );
    let mut doc = document();
    doc["bufferViews"][4]["byteOffset"] = json!(LEN);
    let err = error_of(doc, &buffer());
    assert!(
        err.starts_with("tiny.gltf: bufferViews[4]: bytes 264..272 lie outside"),
        "{err}"
    );
    let mut doc = document();
    doc["nodes"][2]["children"] = json!([1]);
    let err = error_of(doc, &buffer());
    assert!(err.contains("the node hierarchy has a cycle"), "{err}");
}

/// Flipping any byte of a GLB never panics (the result may be a model or an error).
#[test]
fn corrupted_bytes_never_panic() {
    let glb = glb_bytes(&document(), &buffer());
    for at in 0..glb.len() {
        for mask in [0x01u8, 0x80, 0xFF] {
            let mut bad = glb.clone();
            bad[at] ^= mask;
            let _ = import_slice(&bad, None, "tiny.glb");
        }
    }
}

/// An external `.bin` next to the `.gltf` is read; a missing one names the URI's path.
#[test]
fn external_buffer_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("malformed_external");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut doc = document();
    doc["buffers"][0]["uri"] = json!("tiny%20data.bin");
    std::fs::write(dir.join("tiny data.bin"), buffer()).expect("write bin");
    std::fs::write(dir.join("tiny.gltf"), doc.to_string()).expect("write gltf");
    let model = import(&dir.join("tiny.gltf")).expect("external buffer");
    assert_eq!(model.clips.len(), 1);
    doc["buffers"][0]["uri"] = json!("missing.bin");
    std::fs::write(dir.join("broken.gltf"), doc.to_string()).expect("write gltf");
    let err = import(&dir.join("broken.gltf"))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    // the file as given (not its base name), the URI as written, the OS error once
    assert_eq!(
        err,
        format!(
            "{}: buffers[0].uri: cannot read 'missing.bin': No such file or directory (os error 2)",
            dir.join("broken.gltf").display()
        )
    );
}

/// Five influences, weights above 1 and unnamed or repeated animation names are fixed with one
/// warning each.
#[test]
fn fixable_problems_become_warnings() {
    let mut doc = document();
    // Five joints (no inverse bind matrices: identity), and a second influence set.
    for name in ["a", "b", "c"] {
        doc["nodes"]
            .as_array_mut()
            .expect("nodes")
            .push(json!({ "name": name }));
    }
    doc["nodes"][2]["children"] = json!([3, 4, 5]);
    doc["skins"][0] = json!({"joints": [1, 2, 3, 4, 5]});
    let mut buf = buffer();
    for v in 0..3 {
        buf[JOINTS + 4 * v..JOINTS + 4 * v + 4].copy_from_slice(&[0, 1, 2, 3]);
        put_f32s(&mut buf, WEIGHTS + 16 * v, &[0.5, 1.5, 0.25, 0.125]);
    }
    buf.extend_from_slice(&[4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0]);
    for _ in 0..3 {
        buf.extend([0.1f32, 0.0, 0.0, 0.0].iter().flat_map(|v| v.to_le_bytes()));
    }
    let views = doc["bufferViews"].as_array_mut().expect("views");
    views.push(json!({"buffer": 0, "byteOffset": LEN, "byteLength": 12}));
    views.push(json!({"buffer": 0, "byteOffset": LEN + 12, "byteLength": 48}));
    let accessors = doc["accessors"].as_array_mut().expect("accessors");
    accessors.push(json!({"bufferView": 6, "componentType": 5121, "count": 3, "type": "VEC4"}));
    accessors.push(json!({"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC4"}));
    let attributes = &mut doc["meshes"][0]["primitives"][0]["attributes"];
    attributes["JOINTS_1"] = json!(6);
    attributes["WEIGHTS_1"] = json!(7);
    let anim = doc["animations"][0].clone();
    doc["animations"] = json!([anim.clone(), anim.clone(), anim]);
    doc["animations"][1]["name"] = json!(null);
    let model = import_gltf(doc, &buf).expect("fixable file imports");
    let w = model.warnings.join("\n");
    assert!(
        w.contains("mesh 'body': 3 vertices had more than 4 influences"),
        "{w}"
    );
    assert!(
        w.contains("mesh 'body': 3 vertices had weights outside [0, 1] (clamped)"),
        "{w}"
    );
    // Kept: slot 1 (clamped to 1), 0 (0.5), 2 (0.25), 3 (0.125); dropped: slot 4 (0.1).
    assert_eq!(model.meshes[0].joints[0], [1, 0, 2, 3]);
    let total: f32 = model.meshes[0].weights[0].iter().sum();
    assert!((total - 1.0).abs() < 1e-6, "{total}");
    let names: Vec<&str> = model.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["wave", "animation_1", "wave_2"]);
    assert!(
        w.contains("animations[2]: the name 'wave' is used by an earlier animation"),
        "{w}"
    );
}

/// A non-skinned mesh under a joint follows that joint with its node offset baked in; one not
/// under any joint is skipped with a warning; non-triangle primitives are skipped likewise.
#[test]
fn rigid_and_unsupported_meshes() {
    let mut doc = document();
    doc["meshes"]
        .as_array_mut()
        .expect("meshes")
        .push(json!({"name": "prop", "primitives": [{"attributes": {"POSITION": 0}}]}));
    doc["meshes"]
        .as_array_mut()
        .expect("meshes")
        .push(json!({"name": "lines", "primitives": [{"attributes": {"POSITION": 0}, "mode": 1}]}));
    let nodes = doc["nodes"].as_array_mut().expect("nodes");
    nodes.push(json!({"name": "holder", "mesh": 1, "translation": [0.0, 0.0, 2.0]}));
    nodes.push(json!({"name": "static", "mesh": 1}));
    nodes.push(json!({"name": "wire", "mesh": 2, "skin": 0}));
    doc["nodes"][2]["children"] = json!([3]);
    let model = import_gltf(doc, &buffer()).expect("imports");
    assert_eq!(
        model.meshes.len(),
        3,
        "body, the held prop and the static one"
    );
    let prop = &model.meshes[1];
    assert_eq!(
        prop.name, "prop@holder",
        "a mesh used twice is named per node"
    );
    assert_eq!(prop.skin, None);
    assert_eq!(prop.node_joint, Some(1), "follows 'spine'");
    assert_eq!(prop.positions[1].to_array(), [1.0, 0.0, 2.0]);
    // a mesh neither skinned nor under a joint is kept where its node is (in the armature's
    // space): a static mesh
    let fixed = &model.meshes[2];
    assert_eq!(fixed.name, "prop@static");
    assert_eq!((fixed.skin, fixed.node_joint), (None, None));
    let w = model.warnings.join("\n");
    assert!(!w.contains("not supported yet"), "{w}");
    assert!(
        w.contains("meshes[2].primitives[0] (mesh 'lines'): mode Lines (1) is not supported"),
        "{w}"
    );
}

/// Degenerate rotations: a zero node rotation or a zero rotation key is refused with its glTF
/// path; keys of 1e-30 or 1e38 are normalised, and such a file bakes within budget to finite
/// keys (a bake never writes a non-finite number nor exits over its budget).
#[test]
fn degenerate_rotations() {
    let mut doc = document();
    doc["nodes"][2]["rotation"] = json!([0.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        error_of(doc, &buffer()),
        "tiny.gltf: nodes[2].rotation: is a zero-length quaternion (not a rotation)"
    );
    let mut buf = buffer();
    put_f32s(&mut buf, ROTS + 16, &[0.0; 4]);
    assert_eq!(
        error_of(document(), &buf),
        "tiny.gltf: animations[0].samplers[0].output: key 1 is a zero-length quaternion (not a rotation)"
    );
    let dir = std::env::temp_dir().join(format!("marionette-degenerate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for scale in [1e-30f32, 1e38] {
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let mut buf = buffer();
        let keys = [0., 0., 0., 1., 0., 0., s, s].map(|v| v * scale);
        put_f32s(&mut buf, ROTS, &keys);
        let model = import_gltf(document(), &buf).expect("normalised");
        let q = model.clips[0].tracks[0].rotation.as_ref().unwrap().values[1];
        assert!((q.length() - 1.0).abs() < 1e-6, "{scale}: {q}");
        let file = dir.join("tiny.gltf");
        std::fs::write(&file, gltf_bytes(document(), &buf)).unwrap();
        let out = dir.join(format!("baked-{scale}.glb"));
        let job = marionette_bake::BakeJob::new(
            marionette_bake::BakeSource::Clips {
                rig: file.clone(),
                into: None,
            },
            &out,
        );
        let report = marionette_bake::run(&job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            report.takes[0].stats.max_error <= 1e-4,
            "{:?}",
            report.takes[0].stats
        );
        let back = import(&out).unwrap();
        for t in &back.clips[0].tracks {
            let r = t.rotation.as_ref().unwrap();
            assert!(r.values.iter().all(|q| q.is_finite()), "{scale}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// JSON that does not parse names the byte (minified JSON has one line, so a line and column
/// say little) and the enclosing glTF JSON path; in a GLB the byte counts from the file start.
#[test]
fn json_errors_give_byte_and_path() {
    let text = String::from_utf8(gltf_bytes(document(), &buffer())).expect("utf8");
    let bad = text.replacen("\"name\":\"spine\"}", "\"name\":\"spine\",}", 1);
    let at = bad.find(",}").expect("comma") + 1;
    let err = import_slice(bad.as_bytes(), None, "tiny.gltf").expect_err("fails");
    assert_eq!(
        err.to_string(),
        format!("tiny.gltf: nodes[2]: not valid glTF JSON: trailing comma (at byte {at})")
    );
    assert_eq!(err.gltf_path().as_deref(), Some("nodes[2]"));
    // a schema error (valid JSON, wrong glTF) says what glTF wants there, in glTF words
    let bad = text.replacen("\"mesh\":0", "\"mesh\":\"x\"", 1);
    assert_eq!(
        import_slice(bad.as_bytes(), None, "tiny.gltf")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "tiny.gltf: nodes[0].mesh: must be an index (a non-negative integer), not the string \"x\""
    );
    // the same trailing comma in a GLB: the JSON chunk starts at byte 20
    let mut doc: Value = serde_json::from_str(&text).expect("json");
    doc["buffers"][0]
        .as_object_mut()
        .expect("buffer")
        .remove("uri");
    let glb = glb_bytes(&doc, &buffer());
    let json_len = u32::from_le_bytes(glb[12..16].try_into().expect("len")) as usize;
    let json = String::from_utf8(glb[20..20 + json_len].to_vec()).expect("utf8");
    let bad_json = json.replacen("\"name\":\"spine\"}", "\"name\":\"spine\",}", 1);
    let mut bad = glb.clone();
    bad.splice(20..20 + json_len, bad_json.bytes().take(json_len));
    let at = 20 + bad_json.find(",}").expect("comma") + 1;
    assert_eq!(
        import_slice(&bad, None, "tiny.glb")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        format!("tiny.glb: nodes[2]: not valid glTF JSON: trailing comma (at byte {at})")
    );
}

/// GLB container errors name the chunk and its byte.
#[test]
fn glb_chunk_errors_name_chunk_and_byte() {
    let mut glb = glb_bytes(&document(), &buffer());
    glb[16..20].copy_from_slice(b"BIN\0");
    assert_eq!(
        import_slice(&glb, None, "tiny.glb")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "tiny.glb: GLB chunk 0 at byte 12 is BIN (0x004E4942), not JSON (0x4E4F534A): the first \
         chunk must hold the glTF JSON"
    );
    let mut glb = glb_bytes(&document(), &buffer());
    glb[4] = 1;
    assert_eq!(
        import_slice(&glb, None, "tiny.glb")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "tiny.glb: GLB header: version 1 (at byte 4) is not supported (only glTF 2.0)"
    );
}
