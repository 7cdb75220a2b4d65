//! The importer's view of a file: the GLB chunks and buffers come from the document layer
//! ([`crate::io::document`]); the JSON is parsed and schema-validated by the `gltf` crate.

use std::path::Path;

use gltf::json;

use crate::io::document::{glb, json_pos, uri};
use crate::io::error::{Fault, FaultResult};
use crate::io::GltfError;

/// A parsed and schema-validated glTF document with its buffers loaded.
pub(crate) struct Parsed {
    /// The glTF JSON.
    pub root: json::Root,
    /// Bytes of each `buffers[i]`, at least `byteLength` long.
    pub buffers: Vec<Vec<u8>>,
}

/// Parses JSON (or GLB) bytes, validates the schema and loads every buffer.
pub(crate) fn load(bytes: &[u8], base_dir: Option<&Path>, file: &str) -> Result<Parsed, GltfError> {
    let (json_bytes, bin, base) = if bytes.starts_with(glb::MAGIC) {
        let glb = glb::split(bytes).map_err(|message| GltfError::Container {
            file: file.to_string(),
            message,
        })?;
        (glb.json, glb.bin, glb::JSON_START)
    } else {
        // Tolerate a UTF-8 byte order mark before the JSON.
        match bytes.strip_prefix(b"\xEF\xBB\xBF") {
            Some(rest) => (rest, None, 3),
            None => (bytes, None, 0),
        }
    };
    let root: json::Root = json::deserialize::from_slice(json_bytes)
        .map_err(|e| json_pos::json_error(file, &e, json_bytes, base))?;
    precheck(&root).map_err(|f| f.in_file(file))?;
    let root = match gltf::Document::from_json(root) {
        Ok(doc) => doc.into_json(),
        Err(gltf::Error::Validation(errors)) => return Err(validation_error(file, &errors)),
        Err(other) => {
            return Err(GltfError::Json {
                file: file.to_string(),
                message: other.to_string(),
            })
        }
    };
    let refs: Vec<uri::BufferRef<'_>> = root
        .buffers
        .iter()
        .map(|b| uri::BufferRef {
            uri: b.uri.as_deref(),
            byte_length: Some(b.byte_length.0),
        })
        .collect();
    let (buffers, _) = uri::load_buffers(&refs, bin, base_dir).map_err(|f| f.in_file(file))?;
    Ok(Parsed { root, buffers })
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
fn validation_error(file: &str, errors: &[(json::Path, json::validation::Error)]) -> GltfError {
    use json::validation::Error as E;
    let describe = |e: &E| match e {
        E::IndexOutOfBounds => "index out of range (refers to something the file does not have)",
        E::Invalid => "invalid value",
        E::Missing => "required property is missing",
        E::Oversize => "size exceeds system limits",
        E::Unsupported => "required extension is not supported by Marionette",
    };
    let Some((path, first)) = errors.first() else {
        return GltfError::Json {
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
    GltfError::Invalid {
        file: file.to_string(),
        path: path.to_string(),
        message,
    }
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
