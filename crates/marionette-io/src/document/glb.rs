//! The GLB container: splitting a `.glb` into its JSON and BIN chunks (every length checked
//! against the bytes present) and wrapping JSON and a buffer into one.

use crate::GltfError;

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
    /// The BIN chunk, if any.
    pub bin: Option<&'a [u8]>,
    /// Problems that did not stop reading (a chunk length not a multiple of 4, a second JSON or
    /// BIN chunk ignored, bytes after the declared length), each naming the chunk.
    pub warnings: Vec<String>,
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The name of a chunk type: `JSON`, `BIN`, or its hex value.
fn chunk_name(kind: u32) -> String {
    match kind {
        CHUNK_JSON => format!("JSON (0x{CHUNK_JSON:08X})"),
        CHUNK_BIN => format!("BIN (0x{CHUNK_BIN:08X})"),
        other => format!("of unknown type 0x{other:08X}"),
    }
}

/// Splits a GLB file into its chunks, checking the header and every length against the bytes
/// present.
pub(crate) fn split(bytes: &[u8]) -> Result<Glb<'_>, String> {
    if bytes.len() < 12 {
        return Err(format!(
            "GLB is truncated: {} bytes is shorter than the 12-byte header",
            bytes.len()
        ));
    }
    if !bytes.starts_with(MAGIC) {
        let head: Vec<String> = bytes[..4].iter().map(|b| format!("{b:02X}")).collect();
        return Err(format!(
            "GLB header: the file starts with the bytes {}, not the magic 'glTF' (not a GLB file)",
            head.join(" ")
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
    let mut warnings = Vec::new();
    if declared < bytes.len() {
        warnings.push(format!(
            "GLB header: the file has {} bytes after the declared length of {declared}; ignored",
            bytes.len() - declared
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
        let name = chunk_name(kind);
        if len % 4 != 0 {
            warnings.push(format!(
                "GLB chunk {index}, {name}, at byte {at}: length {len} is not a multiple of 4 \
                 (chunks must be padded)"
            ));
        }
        match (index, kind) {
            (0, CHUNK_JSON) if data.is_empty() => {
                return Err(format!("GLB chunk 0, {name}, at byte {at} is empty"))
            }
            (0, CHUNK_JSON) => json_chunk = Some(data),
            (0, _) => {
                return Err(format!(
                    "GLB chunk 0 at byte {at} is {name}, not JSON (0x{CHUNK_JSON:08X}): the \
                     first chunk must hold the glTF JSON"
                ))
            }
            (1, CHUNK_BIN) => bin = Some(data),
            (_, CHUNK_BIN) if bin.is_none() => {
                return Err(format!(
                    "GLB chunk {index} at byte {at} is {name}, but the BIN chunk must be the \
                     second chunk, right after the JSON chunk"
                ))
            }
            (_, CHUNK_JSON | CHUNK_BIN) => warnings.push(format!(
                "GLB chunk {index} at byte {at} is a second {name} chunk; ignored (a GLB has one)"
            )),
            _ => {} // unknown chunks are skipped, as the spec says
        }
        // Chunks are 4-byte aligned; tolerate writers that forget the padding at the end.
        at = end.div_ceil(4) * 4;
        index += 1;
    }
    let json = json_chunk.ok_or_else(|| "GLB has no JSON chunk".to_string())?;
    Ok(Glb {
        json,
        bin,
        warnings,
    })
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

    /// A second JSON or BIN chunk and an unpadded chunk are warnings naming the chunk; a BIN
    /// chunk that is not second, an empty JSON chunk and a wrong magic are errors.
    #[test]
    fn chunk_rules() {
        let chunk = |kind: u32, data: &[u8]| {
            let mut c = (data.len() as u32).to_le_bytes().to_vec();
            c.extend_from_slice(&kind.to_le_bytes());
            c.extend_from_slice(data);
            c
        };
        let glb = |chunks: &[Vec<u8>]| {
            let body: Vec<u8> = chunks.concat();
            let mut out = MAGIC.to_vec();
            out.extend_from_slice(&2u32.to_le_bytes());
            out.extend_from_slice(&(12 + body.len() as u32).to_le_bytes());
            out.extend_from_slice(&body);
            out
        };
        let json = chunk(CHUNK_JSON, b"{}  ");
        let bin = chunk(CHUNK_BIN, &[1, 2, 3, 4]);
        let other = chunk(0x004B_4E55, &[0; 4]);
        let two_bins = glb(&[json.clone(), bin.clone(), bin.clone()]);
        let split_ok = split(&two_bins).ok();
        let warnings = split_ok.map(|g| g.warnings).unwrap_or_default();
        assert_eq!(
            warnings,
            ["GLB chunk 2 at byte 36 is a second BIN (0x004E4942) chunk; ignored (a GLB has one)"]
        );
        let misplaced = glb(&[json.clone(), other, bin]);
        assert!(split(&misplaced)
            .err()
            .is_some_and(|e| e.contains("the BIN chunk must be the second chunk")));
        let unpadded = glb(&[chunk(CHUNK_JSON, b"{} ")]);
        let warnings = split(&unpadded).map(|g| g.warnings).unwrap_or_default();
        assert!(
            warnings[0].contains("length 3 is not a multiple of 4"),
            "{warnings:?}"
        );
        assert_eq!(
            split(&glb(&[chunk(CHUNK_JSON, b"")])).err().as_deref(),
            Some("GLB chunk 0, JSON (0x4E4F534A), at byte 12 is empty")
        );
        assert!(split(&[0u8; 12])
            .err()
            .is_some_and(|e| e.contains("starts with the bytes 00 00 00 00, not the magic")));
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
