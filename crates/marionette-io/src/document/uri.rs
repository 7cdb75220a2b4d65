//! What a glTF document references: buffers and images by URI (base64 `data:` URIs or files
//! relative to the document, `%XX`-escaped) or by the GLB BIN chunk, and image MIME types.

use std::path::{Path, PathBuf};

use base64::Engine;

use crate::error::{Fault, FaultResult};
use crate::files::confine::{ReadError, Scope, ScopeKind};

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
/// file is read only under the rule of [`crate::files::confine`]: inside the glTF's folder, a regular
/// file, at most `limit` bytes (a buffer's declared `byteLength`). `path` is the glTF JSON path
/// of the URI, for errors.
pub(crate) fn load_uri(
    uri: &str,
    base_dir: Option<&Path>,
    path: &str,
    limit: Option<u64>,
) -> FaultResult<Loaded> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (mime, bytes) = data_uri(rest, path)?;
        return Ok(Loaded {
            bytes,
            mime,
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

/// Decodes the part of a `data:` URI after `data:`: `[<media type>][;<name>=<value>]*
/// [;base64],<payload>` (RFC 2397: a base64 payload, as glTF writers use, or `%XX`-escaped
/// bytes). Returns the media type, if named, and the bytes.
fn data_uri(rest: &str, path: &str) -> FaultResult<(Option<String>, Vec<u8>)> {
    let Some((header, payload)) = rest.split_once(',') else {
        return Err(Fault::new(path, "data URI has no ',' before its payload"));
    };
    let (header, base64) = match header.strip_suffix(";base64") {
        Some(h) => (h, true),
        None => (header, false),
    };
    let mut parts = header.split(';');
    let mime = parts.next().filter(|m| !m.is_empty());
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b))
    };
    let mime_ok = mime.is_none_or(|m| m.split_once('/').is_some_and(|(t, s)| token(t) && token(s)));
    let params_ok = parts.all(|p| p.split_once('=').is_some_and(|(k, _)| token(k)));
    if !mime_ok || !params_ok {
        return Err(Fault::new(
            path,
            format!("data URI header 'data:{header}' is malformed (RFC 2397)"),
        ));
    }
    let bytes = if base64 {
        base64::engine::general_purpose::STANDARD
            .decode(payload.trim())
            .map_err(|e| Fault::new(path, format!("data URI is not valid base64: {e}")))?
    } else {
        percent_decode_bytes(payload)
    };
    Ok((mime.map(str::to_string), bytes))
}

/// Decodes `%XX` escapes in a URI path (invalid escapes are kept as written).
pub(crate) fn percent_decode(uri: &str) -> String {
    String::from_utf8_lossy(&percent_decode_bytes(uri)).into_owned()
}

/// Decodes `%XX` escapes to bytes (invalid escapes are kept as written).
fn percent_decode_bytes(uri: &str) -> Vec<u8> {
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
    out
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

/// The loaded buffers.
pub(crate) struct Buffers {
    /// The bytes of each buffer (at least its declared length), or why it has none: a buffer
    /// without a uri that the GLB BIN chunk does not supply. glTF allows such a buffer (an
    /// extension may provide it); it is an error only where a view of it is read.
    pub data: Vec<Result<Vec<u8>, Fault>>,
    /// The files read.
    pub files: Vec<PathBuf>,
    /// Problems that did not stop reading (a data URI's media type), naming the buffer.
    pub warnings: Vec<String>,
}

/// The media types glTF allows for a buffer's data URI.
const BUFFER_MIME: [&str; 2] = ["application/octet-stream", "application/gltf-buffer"];

/// Loads every buffer: `buffers[0]` without a URI is the GLB BIN chunk (`bin`, for a GLB);
/// each is checked to be at least its declared length. A GLB whose `buffers[0]` has no uri and
/// no BIN chunk is refused; other buffers without a uri are left without data.
pub(crate) fn load_buffers(
    buffers: &[BufferRef<'_>],
    bin: Option<&[u8]>,
    glb: bool,
    base_dir: Option<&Path>,
) -> FaultResult<Buffers> {
    let mut out = Buffers {
        data: Vec::with_capacity(buffers.len()),
        files: Vec::new(),
        warnings: Vec::new(),
    };
    for (b, buffer) in buffers.iter().enumerate() {
        let path = format!("buffers[{b}]");
        let data = match buffer.uri {
            None => match (b, bin) {
                (0, Some(bin)) => bin.to_vec(),
                (0, None) if glb => {
                    return Err(Fault::new(
                        path,
                        "has no uri and the file has no GLB BIN chunk to supply it",
                    ))
                }
                (0, None) => {
                    let why = "has no uri (only a GLB's BIN chunk can stand in for one)";
                    out.data.push(Err(Fault::new(path, why)));
                    continue;
                }
                _ => {
                    let why = "has no uri; only buffers[0] of a GLB may use the BIN chunk";
                    out.data.push(Err(Fault::new(path, why)));
                    continue;
                }
            },
            Some(uri) => {
                let uri_path = format!("{path}.uri");
                let loaded = load_uri(uri, base_dir, &uri_path, buffer.byte_length)?;
                if let Some(m) = loaded
                    .mime
                    .filter(|m| !BUFFER_MIME.contains(&m.to_ascii_lowercase().as_str()))
                {
                    out.warnings.push(format!(
                        "{uri_path}: the data URI's media type '{m}' is not \
                         application/octet-stream or application/gltf-buffer; read anyway"
                    ));
                }
                out.files.extend(loaded.file);
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
        out.data.push(Ok(data));
    }
    Ok(out)
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
        let err = |uri: &str| load_uri(uri, None, "p", None).err().map(|f| f.message);
        assert!(err("data:application/octet-stream;;base64,AQID")
            .is_some_and(|m| m.contains("malformed")));
        assert!(err("data:;base64,AQID").is_none());
        assert!(err("data:text/plain;charset=utf-8;base64,AQID").is_none());
        let plain = load_uri("data:application/gltf-buffer,0%01", None, "p", None).ok();
        assert_eq!(plain.map(|l| l.bytes), Some(vec![b'0', 1]));
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
