//! What a glTF document references: buffers and images by URI (base64 `data:` URIs or files
//! relative to the document, `%XX`-escaped) or by the GLB BIN chunk, and image MIME types.

use std::path::{Path, PathBuf};

use base64::Engine;

use crate::confine::{ReadError, Scope, ScopeKind};
use crate::io::error::{Fault, FaultResult};

/// What a URI resolved to: the bytes, the MIME type named by a data URI, and the file read.
pub(crate) struct Loaded {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The MIME type of a data URI (`None` for files and data URIs without one).
    pub mime: Option<String>,
    /// The file the bytes came from (`None` for data URIs).
    pub file: Option<PathBuf>,
}

/// Reads a URI: a base64 `data:` URI or a file relative to `base_dir`, the glTF's folder. A
/// file is read only under the rule of [`crate::confine`]: inside the glTF's folder, a regular
/// file, at most `limit` bytes (a buffer's declared `byteLength`). `path` is the glTF JSON path
/// of the URI, for errors.
pub(crate) fn load_uri(
    uri: &str,
    base_dir: Option<&Path>,
    path: &str,
    limit: Option<u64>,
) -> FaultResult<Loaded> {
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
        let mime = mime.split(';').next().filter(|m| !m.is_empty());
        return Ok(Loaded {
            bytes,
            mime: mime.map(str::to_string),
            file: None,
        });
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
    let fault = |e: ReadError| Fault::new(path, e.to_string());
    let scope = Scope::new(ScopeKind::GltfFolder, dir).map_err(fault)?;
    let decoded = percent_decode(uri);
    let (bytes, real) = scope
        .read(&dir.join(&decoded), &decoded, limit)
        .map_err(fault)?;
    Ok(Loaded {
        bytes,
        mime: None,
        file: Some(real),
    })
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

/// Guesses an image MIME type from the first bytes (PNG, JPEG, WebP) or the file extension
/// (PNG, JPEG).
pub(crate) fn sniff_mime(bytes: &[u8], uri: Option<&str>) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some("image/png");
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Some("image/jpeg");
    }
    if bytes.len() > 12 && &bytes[8..12] == b"WEBP" {
        return Some("image/webp");
    }
    let ext = uri?.rsplit('.').next()?.to_ascii_lowercase();
    match ext.as_str() {
        "png" => Some("image/png"),
        "jpg" | "jpeg" => Some("image/jpeg"),
        _ => None,
    }
}

/// One `buffers[i]` entry: its `uri` and declared `byteLength`.
pub(crate) struct BufferRef<'a> {
    /// The URI, `None` for the GLB BIN chunk.
    pub uri: Option<&'a str>,
    /// The declared length (`None` when the JSON has none: the bytes found are taken).
    pub byte_length: Option<u64>,
}

/// Loads every buffer: `buffers[0]` without a URI is the GLB BIN chunk; each is checked to be
/// at least its declared length. Returns the bytes of each and the files read.
pub(crate) fn load_buffers(
    buffers: &[BufferRef<'_>],
    bin: Option<&[u8]>,
    base_dir: Option<&Path>,
) -> FaultResult<(Vec<Vec<u8>>, Vec<PathBuf>)> {
    let mut out = Vec::with_capacity(buffers.len());
    let mut files = Vec::new();
    for (b, buffer) in buffers.iter().enumerate() {
        let path = format!("buffers[{b}]");
        let data = match buffer.uri {
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
            Some(uri) => {
                let loaded = load_uri(uri, base_dir, &format!("{path}.uri"), buffer.byte_length)?;
                files.extend(loaded.file);
                loaded.bytes
            }
        };
        let declared = buffer.byte_length.unwrap_or(data.len() as u64);
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
    Ok((out, files))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `%20` decodes to a space; a broken escape is kept as written.
    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("my%20file.bin"), "my file.bin");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("a%zz"), "a%zz");
        assert_eq!(percent_decode("100%"), "100%");
    }

    /// A base64 data URI decodes to its bytes and MIME type.
    #[test]
    fn data_uri() {
        let loaded = load_uri(
            "data:application/octet-stream;base64,AQID",
            None,
            "buffers[0].uri",
            None,
        )
        .ok();
        let (bytes, mime) = loaded.map(|l| (l.bytes, l.mime)).unwrap_or_default();
        assert_eq!(bytes, vec![1, 2, 3]);
        assert_eq!(mime.as_deref(), Some("application/octet-stream"));
    }

    /// PNG and JPEG are recognised by magic bytes, otherwise by extension; unknown bytes are not.
    #[test]
    fn mime_sniffing() {
        assert_eq!(
            sniff_mime(b"\x89PNG\r\n\x1a\nrest", None),
            Some("image/png")
        );
        assert_eq!(
            sniff_mime(&[0xFF, 0xD8, 0xFF, 0xE0], None),
            Some("image/jpeg")
        );
        assert_eq!(sniff_mime(b"????", Some("tex.JPG")), Some("image/jpeg"));
        assert_eq!(sniff_mime(b"RIFF", Some("tex.webp")), None);
        assert_eq!(sniff_mime(b"nope", None), None);
    }
}
