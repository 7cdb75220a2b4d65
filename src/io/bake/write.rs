//! Writing a document to disk: `.glb`, or `.gltf` with a `.bin` beside it, through temporary
//! files in the target folder that are renamed into place, so a failure leaves no partial file.

use std::path::{Path, PathBuf};

use super::document::Document;
use super::ExportError;

/// Output container, chosen by the file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Binary glTF (`.glb`).
    Glb,
    /// JSON glTF (`.gltf`) with its buffer in a `.bin` of the same stem.
    Gltf,
}

impl Format {
    /// The format for `path`'s extension (case-insensitive).
    pub fn of(path: &Path) -> Result<Self, ExportError> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("glb") => Ok(Format::Glb),
            Some("gltf") => Ok(Format::Gltf),
            _ => Err(ExportError::UnknownFormat {
                path: path.display().to_string(),
            }),
        }
    }
}

/// True when `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Writes `doc` to `out` (and its `.bin` for `.gltf`); refuses to replace any of `inputs`
/// unless `force`. Returns the files written.
pub fn write_document(
    doc: &Document,
    out: &Path,
    force: bool,
    inputs: &[PathBuf],
) -> Result<Vec<PathBuf>, ExportError> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    match Format::of(out)? {
        Format::Glb => files.push((out.to_path_buf(), doc.to_glb()?)),
        Format::Gltf => {
            let bin_path = out.with_extension("bin");
            let bin_name = bin_path
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| ExportError::UnknownFormat {
                    path: out.display().to_string(),
                })?
                .to_string();
            let (text, bin) = doc.to_gltf(&bin_name)?;
            if !bin.is_empty() {
                files.push((bin_path, bin));
            }
            files.push((out.to_path_buf(), text.into_bytes()));
        }
    }
    if !force {
        for (path, _) in &files {
            if let Some(i) = inputs.iter().find(|i| same_file(path, i)) {
                return Err(ExportError::WouldOverwriteInput {
                    path: i.display().to_string(),
                });
            }
        }
    }
    let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = (|| {
        for (path, bytes) in &files {
            let tmp = temp_path(path);
            temps.push((tmp.clone(), path.clone()));
            std::fs::write(&tmp, bytes).map_err(|e| ExportError::Io {
                path: tmp.display().to_string(),
                what: "write",
                source: e,
            })?;
        }
        for (tmp, path) in &temps {
            std::fs::rename(tmp, path).map_err(|e| ExportError::Io {
                path: path.display().to_string(),
                what: "rename into place",
                source: e,
            })?;
        }
        Ok(())
    })();
    if result.is_err() {
        for (tmp, _) in &temps {
            let _ = std::fs::remove_file(tmp);
        }
    }
    result.map(|()| files.into_iter().map(|(p, _)| p).collect())
}

/// `dir/.name.<pid>.tmp` beside `path`.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}
