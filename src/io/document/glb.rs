//! The GLB container: splitting a `.glb` into its JSON and BIN chunks (every length checked
//! against the bytes present) and wrapping JSON and a buffer into one.

use crate::io::GltfError;

/// The magic bytes a GLB starts with.
pub(crate) const MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
/// The byte of a GLB file where the JSON chunk's data starts (after the 12-byte header and the
/// chunk's 8-byte header).
pub(crate) const JSON_START: usize = 20;
const CHUNK_BIN: u32 = 0x004E_4942;

/// The JSON and optional BIN chunk of a GLB file.
pub(crate) struct Glb<'a> {
    /// The JSON chunk.
    pub json: &'a [u8],
    /// The first BIN chunk, if any.
    pub bin: Option<&'a [u8]>,
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits a GLB file into its chunks, checking every length against the bytes present.
pub(crate) fn split(bytes: &[u8]) -> Result<Glb<'_>, String> {
    if bytes.len() < 12 {
        return Err(format!(
            "GLB is truncated: {} bytes is shorter than the 12-byte header",
            bytes.len()
        ));
    }
    let version = read_u32(bytes, 4).unwrap_or(0);
    if version != 2 {
        return Err(format!(
            "GLB header: version {version} (at byte 4) is not supported (only glTF 2.0)"
        ));
    }
    let declared = read_u32(bytes, 8).unwrap_or(0) as usize;
    if declared > bytes.len() {
        return Err(format!(
            "GLB is truncated: the header says {declared} bytes but the file has {} \
             (the file was cut short; re-export or re-download it)",
            bytes.len()
        ));
    }
    if declared < 20 {
        return Err(format!(
            "GLB header: length {declared} (at byte 8) is too small to hold a JSON chunk"
        ));
    }
    let body = &bytes[..declared];
    let mut at = 12;
    let mut json_chunk = None;
    let mut bin = None;
    let mut index = 0;
    while at < body.len() {
        let (Some(len), Some(kind)) = (read_u32(body, at), read_u32(body, at + 4)) else {
            return Err(format!(
                "GLB is truncated: chunk {index} header at byte {at} is cut short"
            ));
        };
        let start = at + 8;
        let end = start
            .checked_add(len as usize)
            .filter(|&e| e <= body.len())
            .ok_or_else(|| {
                format!(
                    "GLB is truncated: chunk {index} says {len} bytes from byte {start} but the \
                     file ends at byte {}",
                    body.len()
                )
            })?;
        let data = &body[start..end];
        match (index, kind) {
            (0, CHUNK_JSON) => json_chunk = Some(data),
            (0, _) => {
                return Err(format!(
                "GLB chunk 0 at byte {at} has type 0x{kind:08X}, not JSON (0x{CHUNK_JSON:08X}): \
                     the first chunk must hold the glTF JSON"
            ))
            }
            (1, CHUNK_BIN) => bin = Some(data),
            _ => {} // unknown chunks are skipped, as the spec says
        }
        // Chunks are 4-byte aligned; tolerate writers that forget the padding at the end.
        at = end.div_ceil(4) * 4;
        index += 1;
    }
    let json = json_chunk.ok_or_else(|| "GLB has no JSON chunk".to_string())?;
    Ok(Glb { json, bin })
}

/// Rounds `n` up to a multiple of 4.
pub(crate) fn align4(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// Wraps JSON text and binary data in a GLB container (JSON padded with spaces, BIN with zeros;
/// the BIN chunk is omitted when `bin` is empty).
pub(crate) fn assemble(json: &[u8], bin: &[u8]) -> Result<Vec<u8>, GltfError> {
    let json_len = align4(json.len());
    let bin_len = align4(bin.len());
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let total32 = u32::try_from(total).map_err(|_| GltfError::TooLarge(total))?;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total32.to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(out.len() + json_len - json.len(), b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GLB whose header promises more bytes than present is reported as truncated.
    #[test]
    fn truncated_glb_is_reported() {
        let mut glb = b"glTF".to_vec();
        glb.extend_from_slice(&2u32.to_le_bytes());
        glb.extend_from_slice(&100u32.to_le_bytes());
        glb.extend_from_slice(&[0; 20]);
        let err = split(&glb).err().unwrap_or_default();
        assert!(
            err.contains("header says 100 bytes but the file has 32"),
            "{err}"
        );
    }

    /// GLB header, chunk lengths and padding bytes follow the spec.
    #[test]
    fn glb_layout() {
        let out = assemble(b"{}", &[7]).unwrap();
        assert_eq!(&out[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(out[8..12].try_into().unwrap()), 36);
        assert_eq!(u32::from_le_bytes(out[12..16].try_into().unwrap()), 4);
        assert_eq!(&out[20..24], b"{}  ");
        assert_eq!(&out[24..32], &[4, 0, 0, 0, b'B', b'I', b'N', 0]);
        assert_eq!(&out[32..36], &[7, 0, 0, 0]);
        assert_eq!(out.len(), 36);
    }
}
