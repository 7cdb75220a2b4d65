//! The binary side of the glTF writer: one buffer of 4-byte aligned views, their accessors, and
//! the GLB container.

use serde_json::{json, Value};

use super::ExportError;

/// `bufferView.target` for vertex attributes.
pub const ARRAY_BUFFER: u32 = 34962;
/// `bufferView.target` for triangle indices.
pub const ELEMENT_ARRAY_BUFFER: u32 = 34963;
/// `accessor.componentType` codes.
pub const UNSIGNED_BYTE: u32 = 5121;
/// 16-bit unsigned integers.
pub const UNSIGNED_SHORT: u32 = 5123;
/// 32-bit unsigned integers.
pub const UNSIGNED_INT: u32 = 5125;
/// 32-bit floats.
pub const FLOAT: u32 = 5126;

/// Accumulates the single binary buffer, its buffer views and accessors, in creation order.
#[derive(Default)]
pub struct Bin {
    /// Buffer bytes; always a multiple of 4 long between views.
    pub data: Vec<u8>,
    /// `bufferViews` JSON entries.
    pub views: Vec<Value>,
    /// `accessors` JSON entries.
    pub accessors: Vec<Value>,
}

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

impl Bin {
    /// Appends `bytes` as a new buffer view (zero-padded to 4 bytes) and returns its index.
    pub fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        let offset = self.data.len();
        self.data.extend_from_slice(bytes);
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let mut v = json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len() });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.views.push(v);
        self.views.len() - 1
    }

    /// Appends an accessor with its own buffer view and returns the accessor index.
    pub fn accessor(&mut self, spec: AccessorSpec<'_>) -> usize {
        let view = self.view(spec.bytes, spec.target);
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
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    /// Float accessor over `components`-wide elements, with bounds when `bounds` is set.
    pub fn floats(
        &mut self,
        values: &[f32],
        components: usize,
        kind: &'static str,
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let bounds = bounds.then(|| min_max(values, components));
        self.accessor(AccessorSpec {
            bytes: &le_bytes_f32(values),
            count: values.len() / components.max(1),
            component_type: FLOAT,
            kind,
            target,
            bounds,
        })
    }
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

/// Wraps JSON text and binary data in a GLB container (JSON padded with spaces, BIN with zeros;
/// the BIN chunk is omitted when `bin` is empty).
pub fn glb(json: &str, bin: &[u8]) -> Result<Vec<u8>, ExportError> {
    let pad = |n: usize| (4 - n % 4) % 4;
    let json_len = json.len() + pad(json.len());
    let bin_len = bin.len() + pad(bin.len());
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let total32 = u32::try_from(total).map_err(|_| ExportError::TooLarge(total))?;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total32.to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json.as_bytes());
    out.resize(out.len() + pad(json.len()), b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(out.len() + pad(bin.len()), 0);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Views start on 4-byte boundaries and record their unpadded length.
    #[test]
    fn views_are_aligned_and_exact() {
        let mut bin = Bin::default();
        bin.view(&[1, 2, 3], None);
        let second = bin.view(&[9; 5], Some(ARRAY_BUFFER));
        assert_eq!(bin.data.len(), 12);
        assert_eq!(bin.views[second]["byteOffset"], 4);
        assert_eq!(bin.views[second]["byteLength"], 5);
        assert_eq!(bin.views[second]["target"], ARRAY_BUFFER);
        assert_eq!(&bin.data[..4], &[1, 2, 3, 0]);
    }

    /// Bounds are per component over all elements.
    #[test]
    fn min_max_per_component() {
        let (min, max) = min_max(&[1.0, -2.0, 3.0, 0.5, 4.0, -1.0], 3);
        assert_eq!(min, vec![0.5, -2.0, -1.0]);
        assert_eq!(max, vec![1.0, 4.0, 3.0]);
    }

    /// GLB header, chunk lengths and padding bytes follow the spec.
    #[test]
    fn glb_layout() {
        let out = glb("{}", &[7]).unwrap();
        assert_eq!(&out[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(out[8..12].try_into().unwrap()), 36);
        assert_eq!(u32::from_le_bytes(out[12..16].try_into().unwrap()), 4);
        assert_eq!(&out[20..24], b"{}  ");
        assert_eq!(&out[24..32], &[4, 0, 0, 0, b'B', b'I', b'N', 0]);
        assert_eq!(&out[32..36], &[7, 0, 0, 0]);
        assert_eq!(out.len(), 36);
    }
}
