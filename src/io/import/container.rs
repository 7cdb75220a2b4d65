//! The file container: GLB chunks, JSON parsing and schema validation, buffers and URIs.

use std::path::Path;

use base64::Engine;
use gltf::json;

use crate::io::error::{Fault, FaultResult};
use crate::io::ImportError;

/// A parsed and schema-validated glTF document with its buffers loaded.
pub(crate) struct Document {
    /// The glTF JSON.
    pub root: json::Root,
    /// Bytes of each `buffers[i]`, at least `byteLength` long.
    pub buffers: Vec<Vec<u8>>,
}

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// The JSON and optional BIN chunk of a GLB file.
struct Glb<'a> {
    json: &'a [u8],
    bin: Option<&'a [u8]>,
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits a GLB file into its chunks, checking every length against the bytes present.
fn parse_glb(bytes: &[u8]) -> Result<Glb<'_>, String> {
    if bytes.len() < 12 {
        return Err(format!(
            "GLB is truncated: {} bytes is shorter than the 12-byte header",
            bytes.len()
        ));
    }
    let version = read_u32(bytes, 4).unwrap_or(0);
    if version != 2 {
        return Err(format!(
            "GLB version {version} is not supported (only glTF 2.0)"
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
            "GLB header length {declared} is too small to hold a JSON chunk"
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
            (0, _) => return Err("GLB's first chunk is not JSON".to_string()),
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

/// Parses JSON (or GLB) bytes, validates the schema and loads every buffer.
pub(crate) fn load(
    bytes: &[u8],
    base_dir: Option<&Path>,
    file: &str,
) -> Result<Document, ImportError> {
    let (json_bytes, bin) = if bytes.starts_with(GLB_MAGIC) {
        let glb = parse_glb(bytes).map_err(|message| ImportError::Container {
            file: file.to_string(),
            message,
        })?;
        (glb.json, glb.bin)
    } else {
        // Tolerate a UTF-8 byte order mark before the JSON.
        (bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes), None)
    };
    let root: json::Root =
        json::deserialize::from_slice(json_bytes).map_err(|e| ImportError::Json {
            file: file.to_string(),
            message: format!("not valid glTF JSON: {e}"),
        })?;
    precheck(&root).map_err(|f| f.in_file(file))?;
    let root = match gltf::Document::from_json(root) {
        Ok(doc) => doc.into_json(),
        Err(gltf::Error::Validation(errors)) => return Err(validation_error(file, &errors)),
        Err(other) => {
            return Err(ImportError::Json {
                file: file.to_string(),
                message: other.to_string(),
            })
        }
    };
    let buffers = load_buffers(&root, bin, base_dir).map_err(|f| f.in_file(file))?;
    Ok(Document { root, buffers })
}

/// Checks the crate's validation would otherwise index out of bounds on (it assumes
/// `POSITION` accessors exist).
fn precheck(root: &json::Root) -> FaultResult<()> {
    let semantic = json::validation::Checked::Valid(json::mesh::Semantic::Positions);
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            if let Some(index) = prim.attributes.get(&semantic) {
                if index.value() >= root.accessors.len() {
                    return Err(Fault::new(
                        format!("meshes[{m}].primitives[{p}].attributes[\"POSITION\"]"),
                        format!(
                            "accessor {} does not exist (the file has {} accessors)",
                            index.value(),
                            root.accessors.len()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Turns the crate's validation errors (which carry JSON paths) into one error naming the first.
fn validation_error(file: &str, errors: &[(json::Path, json::validation::Error)]) -> ImportError {
    use json::validation::Error as E;
    let describe = |e: &E| match e {
        E::IndexOutOfBounds => "index out of range (refers to something the file does not have)",
        E::Invalid => "invalid value",
        E::Missing => "required property is missing",
        E::Oversize => "size exceeds system limits",
        E::Unsupported => "required extension is not supported by Marionette",
    };
    let Some((path, first)) = errors.first() else {
        return ImportError::Json {
            file: file.to_string(),
            message: "invalid glTF".to_string(),
        };
    };
    let mut message = describe(first).to_string();
    if errors.len() > 1 {
        let rest: Vec<String> = errors[1..]
            .iter()
            .take(4)
            .map(|(p, e)| format!("{p}: {}", describe(e)))
            .collect();
        message.push_str(&format!(
            " ({} more problem(s): {}{})",
            errors.len() - 1,
            rest.join("; "),
            if errors.len() > 5 { "; ..." } else { "" }
        ));
    }
    ImportError::Invalid {
        file: file.to_string(),
        path: path.to_string(),
        message,
    }
}

fn load_buffers(
    root: &json::Root,
    bin: Option<&[u8]>,
    base_dir: Option<&Path>,
) -> FaultResult<Vec<Vec<u8>>> {
    let mut out = Vec::with_capacity(root.buffers.len());
    for (b, buffer) in root.buffers.iter().enumerate() {
        let path = format!("buffers[{b}]");
        let data = match &buffer.uri {
            None => match (b, bin) {
                (0, Some(bin)) => bin.to_vec(),
                (0, None) => {
                    return Err(Fault::new(
                        path,
                        "has no uri and the file has no GLB BIN chunk to supply it",
                    ))
                }
                _ => {
                    return Err(Fault::new(
                        path,
                        "has no uri; only buffers[0] of a GLB may use the BIN chunk",
                    ))
                }
            },
            Some(uri) => load_uri(uri, base_dir, &format!("{path}.uri"))?.0,
        };
        let declared = buffer.byte_length.0;
        if (data.len() as u64) < declared {
            return Err(Fault::new(
                path,
                format!(
                    "byteLength is {declared} but only {} bytes are available",
                    data.len()
                ),
            ));
        }
        out.push(data);
    }
    Ok(out)
}

/// Reads a URI: a base64 `data:` URI or a file relative to `base_dir`. Returns the bytes and the
/// MIME type named by a data URI.
pub(crate) fn load_uri(
    uri: &str,
    base_dir: Option<&Path>,
    path: &str,
) -> FaultResult<(Vec<u8>, Option<String>)> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let Some((header, payload)) = rest.split_once(',') else {
            return Err(Fault::new(path, "data URI has no ',' before its payload"));
        };
        let Some(mime) = header.strip_suffix(";base64") else {
            return Err(Fault::new(path, "only base64 data URIs are supported"));
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(payload.trim())
            .map_err(|e| Fault::new(path, format!("data URI is not valid base64: {e}")))?;
        let mime = (!mime.is_empty()).then(|| mime.to_string());
        return Ok((bytes, mime));
    }
    if uri.contains("://") {
        return Err(Fault::new(
            path,
            format!("URI '{uri}' is not a relative file path; only files and data URIs are read"),
        ));
    }
    let Some(dir) = base_dir else {
        return Err(Fault::new(
            path,
            format!(
                "refers to the external file '{uri}', but the glTF was read from memory with no \
                 directory to look in"
            ),
        ));
    };
    let relative = percent_decode(uri);
    let full = dir.join(&relative);
    let bytes = std::fs::read(&full)
        .map_err(|e| Fault::new(path, format!("cannot read '{}': {e}", full.display())))?;
    Ok((bytes, None))
}

/// Decodes `%XX` escapes in a URI path (invalid escapes are kept as written).
pub(crate) fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The bytes of `bufferViews[view]`, bounds-checked against its buffer.
pub(crate) fn view_bytes<'a>(doc: &'a Document, view: usize, path: &str) -> FaultResult<&'a [u8]> {
    let v = doc.root.buffer_views.get(view).ok_or_else(|| {
        Fault::new(
            path,
            format!(
                "bufferView {view} does not exist (the file has {})",
                doc.root.buffer_views.len()
            ),
        )
    })?;
    let buffer = doc.buffers.get(v.buffer.value()).ok_or_else(|| {
        Fault::new(
            format!("bufferViews[{view}].buffer"),
            format!("buffer {} does not exist", v.buffer.value()),
        )
    })?;
    let start = v.byte_offset.map_or(0, |o| o.0);
    let end = start.checked_add(v.byte_length.0);
    match end {
        Some(end) if end <= buffer.len() as u64 => Ok(&buffer[start as usize..end as usize]),
        _ => Err(Fault::new(
            format!("bufferViews[{view}]"),
            format!(
                "bytes {start}..{} lie outside buffer {} ({} bytes)",
                start.saturating_add(v.byte_length.0),
                v.buffer.value(),
                buffer.len()
            ),
        )),
    }
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
        let err = parse_glb(&glb).err().unwrap_or_default();
        assert!(
            err.contains("header says 100 bytes but the file has 32"),
            "{err}"
        );
    }

    /// `%20` decodes to a space; a broken escape is kept as written.
    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("my%20file.bin"), "my file.bin");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("a%zz"), "a%zz");
    }

    /// A base64 data URI decodes to its bytes and MIME type.
    #[test]
    fn data_uri() {
        let (bytes, mime) = load_uri(
            "data:application/octet-stream;base64,AQID",
            None,
            "buffers[0].uri",
        )
        .unwrap_or_default();
        assert_eq!(bytes, vec![1, 2, 3]);
        assert_eq!(mime.as_deref(), Some("application/octet-stream"));
    }
}
