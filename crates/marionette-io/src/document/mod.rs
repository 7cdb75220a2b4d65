//! The one glTF document layer, under import, model export and bake export.
//!
//! - Reading: `glb::split` (GLB chunks), `uri` (buffers and images by data URI, file or
//!   BIN chunk, `%XX` escapes, MIME sniffing). The importer reads the JSON with its own typed
//!   schema (`import::schema`); [`Document::read`] keeps it generic.
//! - [`Document`]: JSON plus one binary buffer, to extend and write. The JSON is kept as a
//!   generic [`serde_json::Value`], so everything Marionette does not understand (extensions,
//!   extras, materials, cameras, ...) survives untouched. Object keys are written in sorted
//!   order, so the output depends on the content only.
//! - Writing: [`Document::to_glb`] / [`Document::to_gltf`] and [`write_document`] (temporary
//!   file + rename; `.gltf` with a `.bin` beside it).

pub(crate) mod glb;
pub(crate) mod json_pos;
mod prune;
pub(crate) mod uri;
mod write;

pub use write::{write_document, write_file, Format};

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::GltfError;
use glb::align4;
use uri::{load_buffers, load_uri, sniff_mime, BufferRef};

/// A glTF document whose buffers have been packed into one (`buffers[0]`, held in `bin`).
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The glTF JSON (without `buffers`: they are written from `bin`).
    pub json: Value,
    /// The contents of the single buffer.
    pub bin: Vec<u8>,
    /// Files the document was read from (the glTF and every external buffer or image).
    pub inputs: Vec<PathBuf>,
    /// What was read around: an image that cannot be read keeps its URI, as the source has it
    /// (a bake says so; the importer draws its meshes untextured).
    pub warnings: Vec<String>,
}

fn invalid(file: &Path, path: impl Into<String>, message: impl Into<String>) -> GltfError {
    GltfError::Invalid {
        file: file.display().to_string(),
        path: path.into(),
        message: message.into(),
    }
}

impl Document {
    /// An empty document (`asset` only).
    pub fn new() -> Self {
        Self {
            json: json!({"asset": {"version": "2.0", "generator": "Marionette"}}),
            bin: Vec::new(),
            inputs: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Reads a `.glb` or `.gltf` and packs all its buffers, and every image stored by URI, into
    /// the one buffer.
    pub fn read(file: &Path) -> Result<Self, GltfError> {
        let label = file.display().to_string();
        let bytes = crate::files::confine::read_regular(file, &label, None).map_err(|error| {
            GltfError::Io {
                file: label.clone(),
                error,
            }
        })?;
        let (json_bytes, glb_bin, base) = if bytes.starts_with(glb::MAGIC) {
            let glb = glb::split(&bytes).map_err(|message| GltfError::Container {
                file: label.clone(),
                message,
            })?;
            (glb.json, glb.bin, glb::JSON_START)
        } else {
            (bytes.as_slice(), None, 0)
        };
        let json: Value = serde_json::from_slice(json_bytes)
            .map_err(|e| json_pos::json_error(&label, &e, json_bytes, base))?;
        if !json.is_object() {
            return Err(invalid(file, "", "the glTF JSON is not an object"));
        }
        let mut doc = Document {
            json,
            bin: Vec::new(),
            inputs: vec![file.to_path_buf()],
            warnings: Vec::new(),
        };
        doc.pack_buffers(file, glb_bin)?;
        doc.pack_images(file)?;
        Ok(doc)
    }

    /// Folds every buffer into `self.bin` and points every buffer view at buffer 0.
    fn pack_buffers(&mut self, file: &Path, glb_bin: Option<&[u8]>) -> Result<(), GltfError> {
        let buffers = self.json["buffers"].as_array().cloned().unwrap_or_default();
        let refs: Vec<BufferRef<'_>> = buffers
            .iter()
            .map(|b| BufferRef {
                uri: b.get("uri").and_then(Value::as_str),
                byte_length: b.get("byteLength").and_then(Value::as_u64),
            })
            .collect();
        let label = file.display().to_string();
        // every buffer is packed, so each must have its data (as if the file were a GLB)
        let loaded =
            load_buffers(&refs, glb_bin, true, file.parent()).map_err(|f| f.in_file(&label))?;
        self.inputs.extend(loaded.files);
        let data = loaded
            .data
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|f| f.in_file(&label))?;
        let mut offsets = Vec::with_capacity(data.len());
        for (data, r) in data.iter().zip(&refs) {
            let len = r.byte_length.unwrap_or(data.len() as u64) as usize;
            self.bin.resize(self.bin.len().next_multiple_of(16), 0);
            offsets.push(self.bin.len());
            self.bin.extend_from_slice(&data[..len]);
        }
        if let Some(views) = self.json["bufferViews"].as_array_mut() {
            for (i, v) in views.iter_mut().enumerate() {
                let b = v["buffer"].as_u64().unwrap_or(u64::MAX) as usize;
                let base_off = *offsets.get(b).ok_or_else(|| {
                    invalid(file, format!("bufferViews[{i}].buffer"), "no such buffer")
                })?;
                let off = v["byteOffset"].as_u64().unwrap_or(0) as usize + base_off;
                v["buffer"] = json!(0);
                if off == 0 {
                    if let Some(o) = v.as_object_mut() {
                        o.remove("byteOffset");
                    }
                } else {
                    v["byteOffset"] = json!(off);
                }
            }
        }
        Ok(())
    }

    /// Stores every image given by URI in the buffer (a buffer view with a MIME type).
    fn pack_images(&mut self, file: &Path) -> Result<(), GltfError> {
        let count = self.json["images"].as_array().map_or(0, Vec::len);
        for i in 0..count {
            let where_ = format!("images[{i}]");
            let Some(uri) = self.json["images"][i]
                .get("uri")
                .and_then(Value::as_str)
                .map(str::to_string)
            else {
                continue;
            };
            // an image that cannot be read (a texture left behind) keeps its URI: the
            // output refers to it as the source does, and says so
            let kept = |why: String| {
                format!(
                    "{}: {where_}.uri: {why}; the output keeps the reference '{}' as the source has \
                     it (place the image beside the output, or fix the path in the source)",
                    file.display(),
                    if uri.len() > 80 { &uri[..uri.floor_char_boundary(80)] } else { &uri }
                )
            };
            let loaded = match load_uri(&uri, file.parent(), &format!("{where_}.uri"), None) {
                Ok(loaded) => loaded,
                Err(f) => {
                    self.warnings.push(kept(f.message));
                    continue;
                }
            };
            self.inputs.extend(loaded.file);
            let mime = self.json["images"][i]["mimeType"]
                .as_str()
                .map(str::to_string)
                .or(loaded.mime.filter(|m| m.starts_with("image/")))
                .or(sniff_mime(&loaded.bytes, None).map(str::to_string));
            let Some(mime) = mime else {
                self.warnings
                    .push(kept("not a PNG or JPEG image (unknown image type)".into()));
                continue;
            };
            let view = self.add_view(&loaded.bytes, None);
            let img = &mut self.json["images"][i];
            if let Some(o) = img.as_object_mut() {
                o.remove("uri");
            }
            img["bufferView"] = json!(view);
            img["mimeType"] = json!(mime);
        }
        Ok(())
    }

    /// Appends `bytes` (4-aligned) as a new buffer view and returns its index.
    pub fn add_view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        self.bin.resize(align4(self.bin.len()), 0);
        let mut view = json!({"buffer": 0, "byteLength": bytes.len()});
        if !self.bin.is_empty() {
            view["byteOffset"] = json!(self.bin.len());
        }
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        self.bin.extend_from_slice(bytes);
        self.push("bufferViews", view)
    }

    /// Appends `item` to the top-level array `key` (created if missing) and returns its index.
    pub fn push(&mut self, key: &str, item: Value) -> usize {
        let arr = &mut self.json[key];
        if !arr.is_array() {
            *arr = json!([]);
        }
        match arr.as_array_mut() {
            Some(a) => {
                a.push(item);
                a.len() - 1
            }
            None => 0,
        }
    }

    /// Sets `buffers` to the one packed buffer (with `uri` for `.gltf` output).
    fn finish(&self, uri: Option<&str>) -> Value {
        let mut json = self.json.clone();
        if self.bin.is_empty() {
            if let Some(o) = json.as_object_mut() {
                o.remove("buffers");
            }
        } else {
            let mut b = json!({"byteLength": self.bin.len()});
            if let Some(u) = uri {
                b["uri"] = json!(u);
            }
            json["buffers"] = json!([b]);
        }
        json
    }

    /// The document as GLB bytes.
    pub fn to_glb(&self) -> Result<Vec<u8>, GltfError> {
        let js = serde_json::to_vec(&self.finish(None))?;
        glb::assemble(&js, &self.bin)
    }

    /// The document as `.gltf` JSON text referencing `bin_name`, and the `.bin` bytes.
    pub fn to_gltf(&self, bin_name: &str) -> Result<(String, Vec<u8>), GltfError> {
        let uri = (!self.bin.is_empty()).then_some(bin_name);
        let mut text = serde_json::to_string_pretty(&self.finish(uri))?;
        text.push('\n');
        Ok((text, self.bin.clone()))
    }
}

impl Default for Document {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document written as GLB reads back with the same JSON and buffer.
    #[test]
    fn glb_round_trip() {
        let mut d = Document::new();
        let v = d.add_view(&[1, 2, 3, 4, 5], None);
        assert_eq!(v, 0);
        let glb = d.to_glb().unwrap();
        assert_eq!(&glb[..4], b"glTF");
        assert_eq!(glb.len() % 4, 0);
        let split = glb::split(&glb).unwrap();
        let json: Value = serde_json::from_slice(split.json).unwrap();
        assert_eq!(json["buffers"][0]["byteLength"], 5);
        assert_eq!(&split.bin.unwrap()[..5], &[1, 2, 3, 4, 5]);
    }
}
