//! The importer's view of a file: the GLB chunks and buffers come from the document layer
//! ([`crate::document`]); the JSON is parsed, its version and required extensions checked
//! ([`super::asset`]), and the parts Marionette reads are typed ([`super::schema`]).

use std::path::Path;

use serde_json::Value;

use super::schema::Root;
use super::schema_read;
use crate::document::{glb, json_pos, uri};
use crate::error::{Fault, FaultResult};
use crate::GltfError;

/// A parsed glTF document with its buffers loaded.
pub(crate) struct Parsed {
    /// The typed glTF JSON.
    pub root: Root,
    /// Bytes of each `buffers[i]`, at least `byteLength` long, or why it has none (an error
    /// where a view of it is read).
    pub buffers: Vec<Result<Vec<u8>, Fault>>,
    /// Whether the file uses KHR_mesh_quantization (integer vertex attributes).
    pub quantized: bool,
    /// Problems found while reading that did not stop it (GLB chunks, the JSON, buffers).
    pub warnings: Vec<String>,
}

/// The JSON bytes of a file, the GLB BIN chunk, the byte of the file the JSON starts at, and
/// whether the file is a GLB.
type Split<'a> = (&'a [u8], Option<&'a [u8]>, usize, bool);

/// Splits GLB bytes into JSON and BIN (a `.glb` that is not JSON is read as GLB, so its broken
/// header is reported as such), or takes the bytes as JSON.
fn split<'a>(
    bytes: &'a [u8],
    file: &str,
    warnings: &mut Vec<String>,
) -> Result<Split<'a>, GltfError> {
    let json_like = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{' || b == b'[' || b == 0xEF);
    let glb_name = file.to_ascii_lowercase().ends_with(".glb");
    let is_glb = bytes.starts_with(glb::MAGIC) || (glb_name && !json_like);
    let (json, bin, base) = if is_glb {
        let glb = glb::split(bytes).map_err(|message| GltfError::Container {
            file: file.to_string(),
            message,
        })?;
        warnings.extend(glb.warnings);
        (glb.json, glb.bin, glb::JSON_START)
    } else {
        (bytes, None, 0)
    };
    match json.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => {
            warnings.push(
                "the JSON starts with a UTF-8 byte order mark, which glTF does not allow; ignored"
                    .to_string(),
            );
            Ok((rest, bin, base + 3, is_glb))
        }
        None => Ok((json, bin, base, is_glb)),
    }
}

/// Parses JSON (or GLB) bytes, checks the version, required extensions and the parts Marionette
/// reads, and loads every buffer.
pub(crate) fn load(bytes: &[u8], base_dir: Option<&Path>, file: &str) -> Result<Parsed, GltfError> {
    let mut warnings = Vec::new();
    let (json_bytes, bin, base, is_glb) = split(bytes, file, &mut warnings)?;
    let json_error = |message: &str| GltfError::Json {
        file: file.to_string(),
        message: message.to_string(),
    };
    if json_bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(json_error("the glTF JSON is empty"));
    }
    let json: Value = serde_json::from_slice(json_bytes)
        .map_err(|e| json_pos::json_error(file, &e, json_bytes, base))?;
    if !json.is_object() {
        let found = super::json_obj::describe(&json);
        return Err(json_error(&format!(
            "the glTF JSON must be an object ({{\"asset\": ...}}), not {found}"
        )));
    }
    let fault = |f: Fault| f.in_file(file);
    super::asset::check_version(&json).map_err(fault)?;
    let quantized = super::asset::check_extensions(&json, &mut warnings).map_err(fault)?;
    let root = schema_read::parse(json, &mut warnings).map_err(fault)?;
    views_within_buffers(&root).map_err(fault)?;
    let refs: Vec<uri::BufferRef<'_>> = root
        .buffers
        .iter()
        .map(|b| uri::BufferRef {
            uri: b.uri.as_deref(),
            byte_length: Some(b.byte_length),
        })
        .collect();
    let loaded = uri::load_buffers(&refs, bin, is_glb, base_dir).map_err(fault)?;
    warnings.extend(loaded.warnings);
    Ok(Parsed {
        root,
        buffers: loaded.data,
        quantized,
        warnings,
    })
}

/// Every buffer view lies within its buffer's declared `byteLength`.
fn views_within_buffers(root: &Root) -> FaultResult<()> {
    for (i, v) in root.buffer_views.iter().enumerate() {
        let Some(buffer) = root.buffers.get(v.buffer) else {
            continue; // checked with the references
        };
        let end = v.byte_offset.checked_add(v.byte_length);
        if end.is_none_or(|end| end > buffer.byte_length) {
            return Err(Fault::new(
                format!("bufferViews[{i}]"),
                format!(
                    "bytes {}..{} lie outside buffer {} ({} bytes)",
                    v.byte_offset,
                    v.byte_offset.saturating_add(v.byte_length),
                    v.buffer,
                    buffer.byte_length
                ),
            ));
        }
    }
    Ok(())
}

/// The bytes of `bufferViews[view]`, bounds-checked against its buffer.
pub(crate) fn view_bytes<'a>(doc: &'a Parsed, view: usize, path: &str) -> FaultResult<&'a [u8]> {
    let v = doc.root.buffer_views.get(view).ok_or_else(|| {
        Fault::new(
            path,
            format!(
                "bufferView {view} does not exist (the file has {})",
                doc.root.buffer_views.len()
            ),
        )
    })?;
    let buffer = match doc.buffers.get(v.buffer) {
        Some(Ok(bytes)) => bytes,
        Some(Err(why)) => {
            return Err(Fault::new(
                path,
                format!("reads bufferView {view}, but {why}"),
            ))
        }
        None => {
            return Err(Fault::new(
                format!("bufferViews[{view}].buffer"),
                format!("buffer {} does not exist", v.buffer),
            ))
        }
    };
    let start = v.byte_offset;
    let end = start.checked_add(v.byte_length);
    match end {
        Some(end) if end <= buffer.len() as u64 => Ok(&buffer[start as usize..end as usize]),
        _ => Err(Fault::new(
            format!("bufferViews[{view}]"),
            format!(
                "bytes {start}..{} lie outside buffer {} ({} bytes)",
                start.saturating_add(v.byte_length),
                v.buffer,
                buffer.len()
            ),
        )),
    }
}
