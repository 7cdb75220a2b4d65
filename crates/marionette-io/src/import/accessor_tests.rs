//! Tests of the accessor reader: normalised decoding, strides, sparse substitution and errors.

use super::accessor::{read_floats, read_uints, Ints};
use super::component::{decode_normalized, ComponentType, Type};
use super::container::{load, Parsed};
use base64::Engine;

/// A document with one data-URI buffer and the given views and accessors (JSON fragments).
fn doc(buffer: &[u8], views: &str, accessors: &str) -> Parsed {
    let b64 = base64::engine::general_purpose::STANDARD.encode(buffer);
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},
            "buffers":[{{"byteLength":{},"uri":"data:application/octet-stream;base64,{b64}"}}],
            "bufferViews":[{views}],"accessors":[{accessors}]}}"#,
        buffer.len()
    );
    match load(json.as_bytes(), None, "t.gltf") {
        Ok(doc) => doc,
        Err(e) => panic!("test document does not load: {e}"),
    }
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Each normalised integer type decodes as the spec's formula, including the -1 clamp.
#[test]
fn normalized_decoding_follows_the_spec() {
    let i8v = |v: i8| decode_normalized(ComponentType::I8, &v.to_le_bytes());
    let u8v = |v: u8| decode_normalized(ComponentType::U8, &[v]);
    let i16v = |v: i16| decode_normalized(ComponentType::I16, &v.to_le_bytes());
    let u16v = |v: u16| decode_normalized(ComponentType::U16, &v.to_le_bytes());
    assert_eq!(i8v(-128), -1.0);
    assert_eq!(i8v(-127), -1.0);
    assert_eq!(i8v(127), 1.0);
    assert_eq!(i8v(64), 64.0 / 127.0);
    assert_eq!(u8v(255), 1.0);
    assert_eq!(u8v(51), 0.2);
    assert_eq!(i16v(-32768), -1.0);
    assert_eq!(i16v(16384), 16384.0 / 32767.0);
    assert_eq!(u16v(65535), 1.0);
    assert_eq!(u16v(0), 0.0);
}

/// A sparse accessor replaces the listed elements of its base view; without a base view the
/// other elements are zero.
#[test]
fn sparse_substitution() {
    let mut buf = floats(&[1.0, 2.0, 3.0, 4.0]); // view 0: base
    buf.extend_from_slice(&[1, 3, 0, 0]); // view 1: u8 indices (padded)
    buf.extend(floats(&[20.0, 40.0])); // view 2: values
    let views = r#"{"buffer":0,"byteLength":16},
                   {"buffer":0,"byteOffset":16,"byteLength":2},
                   {"buffer":0,"byteOffset":20,"byteLength":8}"#;
    let sparse = r#""sparse":{"count":2,"indices":{"bufferView":1,"componentType":5121},
                               "values":{"bufferView":2}}"#;
    let accessors = format!(
        r#"{{"bufferView":0,"componentType":5126,"count":4,"type":"SCALAR",{sparse}}},
           {{"componentType":5126,"count":4,"type":"SCALAR",{sparse}}}"#
    );
    let d = doc(&buf, views, &accessors);
    let read = |i| read_floats(&d, i, "p", "test", &[Type::Scalar], Ints::None).map(|r| r.0);
    assert_eq!(read(0), Ok(vec![1.0, 20.0, 3.0, 40.0]));
    assert_eq!(read(1), Ok(vec![0.0, 20.0, 0.0, 40.0]));
}

/// Interleaved elements are read with the view's byte stride; normalised shorts decode.
#[test]
fn strided_and_normalized_reads() {
    // Two elements of [i16 x, i16 y, pad 4 bytes] with stride 8.
    let mut buf = Vec::new();
    for v in [[32767i16, -32768], [0, 16384]] {
        buf.extend(v[0].to_le_bytes());
        buf.extend(v[1].to_le_bytes());
        buf.extend([0u8; 4]);
    }
    let views = r#"{"buffer":0,"byteLength":16,"byteStride":8}"#;
    let accessors =
        r#"{"bufferView":0,"componentType":5122,"normalized":true,"count":2,"type":"VEC2"}"#;
    let d = doc(&buf, views, accessors);
    let (v, count) =
        read_floats(&d, 0, "p", "test", &[Type::Vec2], Ints::Normalized).unwrap_or_default();
    assert_eq!(count, 2);
    assert_eq!(v, vec![1.0, -1.0, 0.0, 16384.0 / 32767.0]);
    let ints = read_uints(&d, 0, "p", "JOINTS", Type::Vec2, &[ComponentType::U16]);
    assert!(ints.is_err_and(|f| f.message.contains("SHORT (5122)")));
}

/// Reading past the end of a view, or an integer type where floats are needed, is an error
/// naming the accessor (the caller's path is kept).
#[test]
fn bounds_and_component_type_errors() {
    let buf = vec![0u8; 8];
    let views = r#"{"buffer":0,"byteLength":8}"#;
    let accessors = r#"{"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR"},
                       {"bufferView":0,"componentType":5121,"count":4,"type":"SCALAR"}"#;
    let d = doc(&buf, views, accessors);
    let err = read_floats(
        &d,
        0,
        "animations[0].samplers[0].input",
        "input",
        &[Type::Scalar],
        Ints::None,
    )
    .err()
    .map(|f| f.to_string())
    .unwrap_or_default();
    assert_eq!(
        err,
        "animations[0].samplers[0].input: accessor 0 needs 3 elements of 4 bytes from byte 0 of \
         bufferView 0, which has only 8 bytes"
    );
    let err = read_floats(
        &d,
        1,
        "x",
        "a rotation output",
        &[Type::Scalar],
        Ints::Normalized,
    )
    .err()
    .map(|f| f.message)
    .unwrap_or_default();
    assert!(err.contains("UNSIGNED_BYTE (5121)"), "{err}");
    assert!(err.contains("normalized\": true"), "{err}");
    let err = read_floats(&d, 7, "x", "input", &[Type::Scalar], Ints::None).err();
    assert!(err.is_some_and(|f| f.message.contains("accessor 7 does not exist")));
}
