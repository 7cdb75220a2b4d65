//! Accessors written into a [`Document`]'s one buffer (each over its own 4-byte aligned view).

use serde_json::json;

use crate::Document;

/// `bufferView.target` for vertex attributes.
pub const ARRAY_BUFFER: u32 = 34962;
/// `bufferView.target` for triangle indices.
pub const ELEMENT_ARRAY_BUFFER: u32 = 34963;
/// `accessor.componentType` codes.
pub const UNSIGNED_BYTE: u32 = 5121;
/// 16-bit signed integers.
pub const SHORT: u32 = 5122;
/// 16-bit unsigned integers.
pub const UNSIGNED_SHORT: u32 = 5123;
/// 32-bit unsigned integers.
pub const UNSIGNED_INT: u32 = 5125;
/// 32-bit floats.
pub const FLOAT: u32 = 5126;

/// Description of one accessor to write.
pub struct AccessorSpec<'a> {
    /// Little-endian element bytes, tightly packed.
    pub bytes: &'a [u8],
    /// Element count.
    pub count: usize,
    /// `componentType` code.
    pub component_type: u32,
    /// `type` (`SCALAR`, `VEC2`, ...).
    pub kind: &'static str,
    /// Buffer view target, `None` for animation and inverse bind matrix data.
    pub target: Option<u32>,
    /// Per-component `(min, max)`, required for positions and animation inputs.
    pub bounds: Option<(Vec<f64>, Vec<f64>)>,
}

/// Appends an accessor with its own buffer view and returns the accessor index.
pub fn accessor(doc: &mut Document, spec: AccessorSpec<'_>) -> usize {
    let view = doc.add_view(spec.bytes, spec.target);
    let mut a = json!({
        "bufferView": view,
        "componentType": spec.component_type,
        "count": spec.count,
        "type": spec.kind,
    });
    if let Some((min, max)) = spec.bounds {
        a["min"] = json!(min);
        a["max"] = json!(max);
    }
    doc.push("accessors", a)
}

/// Normalized SHORT accessor of 4-component elements (16-bit rotation keys).
pub fn snorm16(doc: &mut Document, codes: &[[i16; 4]]) -> usize {
    let bytes: Vec<u8> = codes
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect();
    let acc = accessor(
        doc,
        AccessorSpec {
            bytes: &bytes,
            count: codes.len(),
            component_type: SHORT,
            kind: "VEC4",
            target: None,
            bounds: None,
        },
    );
    doc.json["accessors"][acc]["normalized"] = json!(true);
    acc
}

/// Float accessor over `components`-wide elements, with bounds when `bounds` is set.
pub fn floats(
    doc: &mut Document,
    values: &[f32],
    components: usize,
    kind: &'static str,
    target: Option<u32>,
    bounds: bool,
) -> usize {
    let bounds = bounds.then(|| min_max(values, components));
    accessor(
        doc,
        AccessorSpec {
            bytes: &le_bytes_f32(values),
            count: values.len() / components.max(1),
            component_type: FLOAT,
            kind,
            target,
            bounds,
        },
    )
}

/// Per-component minimum and maximum, widened exactly to `f64`.
pub fn min_max(values: &[f32], components: usize) -> (Vec<f64>, Vec<f64>) {
    let mut min = vec![f64::INFINITY; components];
    let mut max = vec![f64::NEG_INFINITY; components];
    for chunk in values.chunks_exact(components) {
        for (c, &v) in chunk.iter().enumerate() {
            min[c] = min[c].min(f64::from(v));
            max[c] = max[c].max(f64::from(v));
        }
    }
    (min, max)
}

/// Little-endian bytes of floats.
pub fn le_bytes_f32(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Little-endian bytes of 16-bit integers.
pub fn le_bytes_u16(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Little-endian bytes of 32-bit integers.
pub fn le_bytes_u32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Views start on 4-byte boundaries and record their unpadded length.
    #[test]
    fn views_are_aligned_and_exact() {
        let mut doc = Document::new();
        doc.add_view(&[1, 2, 3], None);
        let second = doc.add_view(&[9; 5], Some(ARRAY_BUFFER));
        assert_eq!(doc.bin.len(), 9);
        let views = &doc.json["bufferViews"];
        assert_eq!(views[second]["byteOffset"], 4);
        assert_eq!(views[second]["byteLength"], 5);
        assert_eq!(views[second]["target"], ARRAY_BUFFER);
        assert_eq!(&doc.bin[..4], &[1, 2, 3, 0]);
    }

    /// Bounds are per component over all elements.
    #[test]
    fn min_max_per_component() {
        let (min, max) = min_max(&[1.0, -2.0, 3.0, 0.5, 4.0, -1.0], 3);
        assert_eq!(min, vec![0.5, -2.0, -1.0]);
        assert_eq!(max, vec![1.0, 4.0, 3.0]);
    }
}
