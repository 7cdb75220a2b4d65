//! Writing a document to disk: `.glb`, or `.gltf` with a `.bin` beside it, through temporary
//! files in the target folder that are renamed into place, so a failure leaves no partial file.

use std::path::{Path, PathBuf};

use super::Document;
use crate::io::GltfError;

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
    pub fn of(path: &Path) -> Result<Self, GltfError> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("glb") => Ok(Format::Glb),
            Some("gltf") => Ok(Format::Gltf),
            _ => Err(GltfError::UnknownFormat {
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
) -> Result<Vec<PathBuf>, GltfError> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    match Format::of(out)? {
        Format::Glb => files.push((out.to_path_buf(), doc.to_glb()?)),
        Format::Gltf => {
            let bin_path = out.with_extension("bin");
            let bin_name = bin_path
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| GltfError::UnknownFormat {
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
                return Err(GltfError::WouldOverwriteInput {
                    path: i.display().to_string(),
                });
            }
        }
    }
    let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
    // files renamed into place that did not exist before: removed again if a later step fails
    let mut created: Vec<PathBuf> = Vec::new();
    let result = (|| {
        for (path, bytes) in &files {
            let tmp = temp_path(path);
            temps.push((tmp.clone(), path.clone()));
            std::fs::write(&tmp, bytes).map_err(|e| GltfError::Write {
                path: tmp.display().to_string(),
                what: "write",
                source: e,
            })?;
        }
        for (tmp, path) in &temps {
            let existed = path.exists();
            std::fs::rename(tmp, path).map_err(|e| GltfError::Write {
                path: path.display().to_string(),
                what: "rename into place",
                source: e,
            })?;
            if !existed {
                created.push(path.clone());
            }
        }
        Ok(())
    })();
    if result.is_err() {
        for (tmp, _) in &temps {
            let _ = std::fs::remove_file(tmp);
        }
        for path in &created {
            let _ = std::fs::remove_file(path);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// A .gltf write leaves exactly the .gltf and its .bin; an input is refused without force.
    #[test]
    fn writes_pair_and_protects_inputs() {
        let dir = std::env::temp_dir().join(format!("marionette-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut doc = Document::new();
        doc.add_view(&[1, 2, 3, 4], None);
        let out = dir.join("a.gltf");
        let written = write_document(&doc, &out, false, &[]).unwrap();
        assert_eq!(written, vec![dir.join("a.bin"), out.clone()]);
        assert_eq!(listing(&dir), vec!["a.bin", "a.gltf"]);
        let err = write_document(&doc, &out, false, std::slice::from_ref(&out)).unwrap_err();
        assert!(matches!(err, GltfError::WouldOverwriteInput { .. }));
        write_document(&doc, &out, true, std::slice::from_ref(&out)).unwrap();
        assert_eq!(listing(&dir), vec!["a.bin", "a.gltf"]);
        assert!(matches!(
            write_document(&doc, &dir.join("a.fbx"), false, &[]),
            Err(GltfError::UnknownFormat { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
