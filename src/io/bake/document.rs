//! A glTF document held as JSON plus one binary buffer: read from `.glb`/`.gltf` (every buffer
//! and image folded into the one buffer), extended, and written back as `.glb` or `.gltf`+`.bin`.
//!
//! The JSON is kept as a generic [`serde_json::Value`], so everything Marionette does not
//! understand (extensions, extras, materials, cameras, ...) survives untouched. Object keys are
//! written in sorted order, so the output depends on the content only.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{json, Value};

use super::ExportError;

/// A glTF document whose buffers have been packed into one (`buffers[0]`, held in `bin`).
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The glTF JSON.
    pub json: Value,
    /// The contents of the single buffer.
    pub bin: Vec<u8>,
    /// Files the document was read from (the glTF and every external buffer or image).
    pub inputs: Vec<PathBuf>,
}

fn invalid(file: &Path, path: impl Into<String>, message: impl Into<String>) -> ExportError {
    ExportError::Source {
        file: file.display().to_string(),
        path: path.into(),
        message: message.into(),
    }
}

/// Splits a GLB into its JSON and BIN chunks.
fn split_glb(file: &Path, bytes: &[u8]) -> Result<(Value, Option<Vec<u8>>), ExportError> {
    let word = |at: usize| -> Option<u32> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    if word(4) != Some(2) {
        return Err(invalid(file, "GLB header", "not a glTF 2.0 binary"));
    }
    let mut at = 12;
    let mut json = None;
    let mut bin = None;
    while let (Some(len), Some(kind)) = (word(at), word(at + 4)) {
        let start = at + 8;
        let chunk = bytes
            .get(start..start + len as usize)
            .ok_or_else(|| invalid(file, "GLB chunk", "chunk runs past the end of the file"))?;
        match kind {
            0x4E4F_534A if json.is_none() => {
                json = Some(serde_json::from_slice(chunk).map_err(|e| {
                    invalid(file, "GLB JSON chunk", format!("JSON does not parse: {e}"))
                })?)
            }
            0x004E_4942 if bin.is_none() => bin = Some(chunk.to_vec()),
            _ => {}
        }
        at = start + len as usize;
    }
    let json = json.ok_or_else(|| invalid(file, "GLB", "no JSON chunk"))?;
    Ok((json, bin))
}

/// What a URI resolved to: the bytes, the MIME type of a data URI, and the file read (if any).
type Loaded = (Vec<u8>, Option<String>, Option<PathBuf>);

/// Bytes of a `uri`: a base64 data URI or a file relative to `base`.
fn load_uri(file: &Path, base: &Path, where_: &str, uri: &str) -> Result<Loaded, ExportError> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (head, data) = rest
            .split_once(',')
            .ok_or_else(|| invalid(file, where_, "data URI without a comma"))?;
        let mime = head.split(';').next().unwrap_or("").to_string();
        if !head.ends_with(";base64") {
            return Err(invalid(file, where_, "data URI is not base64"));
        }
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| invalid(file, where_, format!("bad base64: {e}")))?;
        return Ok((bytes, Some(mime), None));
    }
    let decoded = percent_decode(uri);
    let path = base.join(&decoded);
    let bytes = std::fs::read(&path).map_err(|e| {
        invalid(
            file,
            where_,
            format!("cannot read '{}': {e}", path.display()),
        )
    })?;
    Ok((bytes, None, Some(path)))
}

/// Decodes `%XX` escapes in a relative URI.
fn percent_decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Rounds `n` up to a multiple of 4.
pub(crate) fn align4(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// MIME type of encoded image bytes, from their signature.
fn sniff_mime(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0x89, b'P', b'N', b'G']) {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.len() > 12 && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

impl Document {
    /// An empty document (`asset` only).
    pub fn new() -> Self {
        Self {
            json: json!({"asset": {"version": "2.0", "generator": "marionette bake"}}),
            bin: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// Reads a `.glb` or `.gltf` and packs all its buffers, and every image stored by URI, into
    /// the one buffer.
    pub fn read(file: &Path) -> Result<Self, ExportError> {
        let bytes = std::fs::read(file).map_err(|e| ExportError::Io {
            path: file.display().to_string(),
            what: "read",
            source: e,
        })?;
        let (json, glb_bin) = if bytes.starts_with(b"glTF") {
            split_glb(file, &bytes)?
        } else {
            let v: Value = serde_json::from_slice(&bytes)
                .map_err(|e| invalid(file, "", format!("JSON does not parse: {e}")))?;
            (v, None)
        };
        if !json.is_object() {
            return Err(invalid(file, "", "the glTF JSON is not an object"));
        }
        let base = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let mut doc = Document {
            json,
            bin: Vec::new(),
            inputs: vec![file.to_path_buf()],
        };
        doc.pack_buffers(file, &base, glb_bin)?;
        doc.pack_images(file, &base)?;
        Ok(doc)
    }

    /// Folds every buffer into `self.bin` and points every buffer view at buffer 0.
    fn pack_buffers(
        &mut self,
        file: &Path,
        base: &Path,
        mut glb_bin: Option<Vec<u8>>,
    ) -> Result<(), ExportError> {
        let buffers = self.json["buffers"].as_array().cloned().unwrap_or_default();
        let mut offsets = Vec::with_capacity(buffers.len());
        for (i, b) in buffers.iter().enumerate() {
            let where_ = format!("buffers[{i}]");
            let data = match b.get("uri").and_then(Value::as_str) {
                Some(uri) => {
                    let (data, _, path) = load_uri(file, base, &where_, uri)?;
                    self.inputs.extend(path);
                    data
                }
                None if i == 0 => glb_bin
                    .take()
                    .ok_or_else(|| invalid(file, &where_, "no uri and no GLB binary chunk"))?,
                None => return Err(invalid(file, &where_, "buffer has no uri")),
            };
            let len = b["byteLength"].as_u64().unwrap_or(data.len() as u64) as usize;
            if data.len() < len {
                return Err(invalid(
                    file,
                    where_,
                    format!("byteLength {len} but only {} bytes", data.len()),
                ));
            }
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
    fn pack_images(&mut self, file: &Path, base: &Path) -> Result<(), ExportError> {
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
            let (data, mime, path) = load_uri(file, base, &where_, &uri)?;
            self.inputs.extend(path);
            let mime = self.json["images"][i]["mimeType"]
                .as_str()
                .map(str::to_string)
                .or(mime.filter(|m| m.starts_with("image/")))
                .or(sniff_mime(&data).map(str::to_string))
                .ok_or_else(|| invalid(file, &where_, "unknown image type"))?;
            let view = self.add_view(&data, None);
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
    pub fn to_glb(&self) -> Result<Vec<u8>, ExportError> {
        let mut js = serde_json::to_vec(&self.finish(None)).map_err(ExportError::Json)?;
        js.resize(align4(js.len()), b' ');
        let bin_len = align4(self.bin.len());
        let total = 12 + 8 + js.len() + if self.bin.is_empty() { 0 } else { 8 + bin_len };
        let total32 = u32::try_from(total).map_err(|_| ExportError::TooLarge(total))?;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&total32.to_le_bytes());
        out.extend_from_slice(&(js.len() as u32).to_le_bytes());
        out.extend_from_slice(&0x4E4F_534Au32.to_le_bytes());
        out.extend_from_slice(&js);
        if !self.bin.is_empty() {
            out.extend_from_slice(&(bin_len as u32).to_le_bytes());
            out.extend_from_slice(&0x004E_4942u32.to_le_bytes());
            out.extend_from_slice(&self.bin);
            out.resize(total, 0);
        }
        Ok(out)
    }

    /// The document as `.gltf` JSON text referencing `bin_name`, and the `.bin` bytes.
    pub fn to_gltf(&self, bin_name: &str) -> Result<(String, Vec<u8>), ExportError> {
        let uri = (!self.bin.is_empty()).then_some(bin_name);
        let mut text =
            serde_json::to_string_pretty(&self.finish(uri)).map_err(ExportError::Json)?;
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
        let (json, bin) = split_glb(Path::new("x.glb"), &glb).unwrap();
        assert_eq!(json["buffers"][0]["byteLength"], 5);
        assert_eq!(&bin.unwrap()[..5], &[1, 2, 3, 4, 5]);
    }

    /// Percent escapes in URIs are decoded; plain text is kept.
    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b.bin"), "a b.bin");
        assert_eq!(percent_decode("100%"), "100%");
    }

    /// PNG and JPEG signatures are recognised.
    #[test]
    fn sniffing() {
        assert_eq!(sniff_mime(&[0x89, b'P', b'N', b'G', 0]), Some("image/png"));
        assert_eq!(sniff_mime(&[0xFF, 0xD8, 0xFF, 0]), Some("image/jpeg"));
        assert_eq!(sniff_mime(b"nope"), None);
    }
}
