//! Files with errors never import in silence: a mesh no node uses, an accessor past its view,
//! misaligned or holding a NaN are each a warning naming the glTF path (the validator suite's
//! last silent cases, in small); a clip whose only key time is before 0 is refused, naming it.

use base64::Engine as _;

fn gltf(json: serde_json::Value) -> Vec<String> {
    let model = marionette_io::import_slice(json.to_string().as_bytes(), None, "t.gltf").unwrap();
    model.warnings
}

fn data(bytes: &[u8]) -> String {
    format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

#[test]
fn unread_errors_are_warnings_with_their_path() {
    // 4 floats: a NaN at element 1 of a SCALAR accessor, then [-1.0] as a key time
    let mut bytes = Vec::new();
    for v in [0.0f32, f32::NAN, -1.0, 0.5] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let warnings = gltf(serde_json::json!({
        "asset": { "version": "2.0" },
        "buffers": [{ "byteLength": 16, "uri": data(&bytes) }],
        "bufferViews": [{ "buffer": 0, "byteLength": 16 }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR" },
            { "bufferView": 0, "byteOffset": 2, "componentType": 5126, "count": 1, "type": "SCALAR" },
            { "bufferView": 0, "byteOffset": 8, "componentType": 5126, "count": 4, "type": "SCALAR" },
            { "bufferView": 0, "byteOffset": 8, "componentType": 5126, "count": 1, "type": "SCALAR", "min": [-1.0], "max": [-1.0] },
            { "bufferView": 0, "byteOffset": 12, "componentType": 5126, "count": 1, "type": "SCALAR" }
        ],
        "meshes": [{ "name": "orphan", "primitives": [{ "attributes": { "POSITION": 0 } }] }],
        "nodes": [{ "name": "n" }],
        "scenes": [{ "nodes": [0] }]
    }));
    let has = |needle: &str| {
        assert!(
            warnings.iter().any(|w| w.contains(needle)),
            "no warning with '{needle}' in {warnings:#?}"
        )
    };
    has("meshes[0] 'orphan': no node uses this mesh; not imported");
    has("accessors[0]: element 1 is not a finite number");
    has("accessors[1]: byteOffset 2 (byte 2 of its buffer) is not a multiple of 4");
    has("accessors[2]: accessor 2 needs 4 elements");
}

#[test]
fn a_clip_whose_only_key_is_before_zero_is_refused_with_its_path() {
    let mut bytes = Vec::new();
    for v in [-1.0f32, 0.0, 1.0, 0.0] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let json = serde_json::json!({
        "asset": { "version": "2.0" },
        "buffers": [{ "byteLength": 16, "uri": data(&bytes) }],
        "bufferViews": [{ "buffer": 0, "byteLength": 16 }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 1, "type": "SCALAR", "min": [-1.0], "max": [-1.0] },
            { "bufferView": 0, "byteOffset": 4, "componentType": 5126, "count": 1, "type": "VEC3" }
        ],
        "nodes": [{ "name": "n" }],
        "scenes": [{ "nodes": [0] }],
        "animations": [{
            "samplers": [{ "input": 0, "output": 1 }],
            "channels": [{ "sampler": 0, "target": { "node": 0, "path": "translation" } }]
        }]
    });
    let e = marionette_io::import_slice(json.to_string().as_bytes(), None, "t.gltf").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.gltf: animations[0].samplers[0].input: key 0 has negative time -1s"
    );
}
