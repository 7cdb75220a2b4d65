//! Writing a document to disk: `.glb`, or `.gltf` with a `.bin` beside it, through temporary
//! files in the target folder that are renamed into place, all or none (a `.gltf` and its `.bin`
//! land together or the old pair stays), so a failure leaves no partial file.
//!
//! Each temporary file is written and flushed to disk, and the folder flushed after the
//! renames, by [`crate::files::atomic`], which also names the temporary files (`.NAME.PID.tmp`,
//! `.NAME.PID.old` for a file being replaced) and cleans those a killed writer left behind.
//! Errors name the target, never a temporary file.

use std::path::{Path, PathBuf};

use super::Document;
use crate::files::atomic::{self, clean_stale, temp_path};
use crate::GltfError;

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
    write_all(&files)?;
    Ok(files.into_iter().map(|(p, _)| p).collect())
}

/// Writes `bytes` to `path` the same way (a temporary file renamed into place, stale temporary
/// files of ours cleaned first), so an interrupted write never leaves a partial file: used for
/// images (`render -o`, `edit --screenshot`). The overwrite rule is the caller's.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), GltfError> {
    write_all(&[(path.to_path_buf(), bytes)])
}

/// Writes every `(path, bytes)` to a temporary file beside it (flushed to disk), after cleaning
/// stale temporary files of ours, then renames them all into place ([`replace_all`]) and
/// flushes their folders; the temporary files are removed whatever happens.
fn write_all<B: AsRef<[u8]>>(files: &[(PathBuf, B)]) -> Result<(), GltfError> {
    for (path, _) in files {
        clean_stale(path);
    }
    let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
    let written = (|| {
        for (path, bytes) in files {
            let tmp = temp_path(path, "tmp");
            temps.push((tmp.clone(), path.clone()));
            atomic::write_temp(&tmp, bytes.as_ref()).map_err(|e| GltfError::Write {
                path: path.display().to_string(),
                what: "write",
                error: e,
            })?;
        }
        Ok(())
    })();
    let result = written.and_then(|()| replace_all(&temps));
    for (tmp, _) in &temps {
        let _ = std::fs::remove_file(tmp);
    }
    result?;
    // the renames are durable once each folder is flushed (once per folder)
    let mut synced: Vec<Option<&Path>> = Vec::new();
    for (path, _) in files {
        if synced.contains(&path.parent()) {
            continue;
        }
        synced.push(path.parent());
        atomic::sync_dir(path).map_err(|e| GltfError::Write {
            path: path.display().to_string(),
            what: "flush the folder of",
            error: e,
        })?;
    }
    Ok(())
}

/// Renames every `(tmp, path)` into place, all or none: existing files are first moved aside
/// (to `.name.<pid>.old`), and if any rename fails the new files are removed and the old ones
/// put back, so a `.gltf` and its `.bin` always stay a matching pair.
fn replace_all(temps: &[(PathBuf, PathBuf)]) -> Result<(), GltfError> {
    // (path, its old file moved aside, if any) for every file renamed into place
    let mut done: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mut step = || -> Result<(), GltfError> {
        for (tmp, path) in temps {
            if path.is_dir() {
                return Err(GltfError::Write {
                    path: path.display().to_string(),
                    what: "replace",
                    error: std::io::Error::other("a folder has this name"),
                });
            }
            let backup = if path.exists() {
                let old = temp_path(path, "old");
                std::fs::rename(path, &old).map_err(|e| GltfError::Write {
                    path: path.display().to_string(),
                    what: "move aside",
                    error: e,
                })?;
                Some(old)
            } else {
                None
            };
            let renamed = std::fs::rename(tmp, path);
            done.push((path.clone(), backup));
            renamed.map_err(|e| GltfError::Write {
                path: path.display().to_string(),
                what: "rename into place",
                error: e,
            })?;
        }
        Ok(())
    };
    let result = step();
    for (path, backup) in done.iter().rev() {
        match (&result, backup) {
            (Ok(()), Some(old)) => {
                let _ = std::fs::remove_file(old);
            }
            (Ok(()), None) => {}
            (Err(_), Some(old)) => {
                if path.is_file() {
                    let _ = std::fs::remove_file(path);
                }
                let _ = std::fs::rename(old, path);
            }
            (Err(_), None) => {
                if path.is_file() {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// `write_file` replaces a file whole, leaves no temporary file, cleans a stale one of ours
    /// and names the target in its error.
    #[test]
    fn write_file_replaces_whole() {
        let dir = std::env::temp_dir().join(format!("marionette-wfile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("shot.png");
        // a temporary file left by a writer that died (a child that has exited)
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        std::fs::write(dir.join(format!(".shot.png.{pid}.tmp")), b"partial").unwrap();
        write_file(&out, b"first").unwrap();
        write_file(&out, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"second, longer");
        assert_eq!(listing(&dir), vec!["shot.png"]);
        let missing = dir.join("no/such/dir/x.png");
        let err = write_file(&missing, b"x").unwrap_err().to_string();
        assert!(err.contains(&missing.display().to_string()), "{err}");
        assert!(!err.contains(".tmp"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
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

    /// When the `.gltf` cannot be renamed into place (here: a folder holds its name), the old
    /// `.bin` is put back: both land or neither does, and no temporary file is left.
    #[test]
    fn gltf_and_bin_land_together() {
        let dir = std::env::temp_dir().join(format!("marionette-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a.gltf/inside")).unwrap();
        std::fs::write(dir.join("a.bin"), b"old bin").unwrap();
        let mut doc = Document::new();
        doc.add_view(&[1, 2, 3, 4], None);
        let out = dir.join("a.gltf");
        let err = write_document(&doc, &out, true, &[]).unwrap_err();
        assert!(matches!(err, GltfError::Write { .. }), "{err}");
        assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), b"old bin");
        assert!(out.is_dir());
        assert_eq!(listing(&dir), vec!["a.bin", "a.gltf"]);
        // the .gltf exists but cannot be moved aside: the new .bin is rolled back too
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::write(&out, b"old gltf").unwrap();
        let blocker = temp_path(&out, "old").join("inside");
        std::fs::create_dir_all(&blocker).unwrap();
        assert!(write_document(&doc, &out, true, &[]).is_err());
        assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), b"old bin");
        assert_eq!(std::fs::read(&out).unwrap(), b"old gltf");
        std::fs::remove_dir_all(temp_path(&out, "old")).unwrap();
        assert_eq!(listing(&dir), vec!["a.bin", "a.gltf"]);
        // with nothing in the way both land
        write_document(&doc, &out, true, &[]).unwrap();
        assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(listing(&dir), vec!["a.bin", "a.gltf"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Temporary files left by a killed writer (`kill -9`) are removed by the next write to the
    /// same target: a dead PID's at once, a live PID's once older than STALE_AFTER; ours and
    /// other targets' are left. A stale `.old` whose target is missing is put back first.
    #[test]
    fn stale_temporary_files_are_cleaned() {
        let dir = std::env::temp_dir().join(format!("marionette-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("a.glb");
        // 4194304 is above Linux's largest PID: no such process
        let dead = ".a.glb.4194305.tmp";
        let live_recent = ".a.glb.1.tmp";
        let live_old = ".a.glb.1.old";
        let other = ".b.glb.4194305.tmp";
        let not_ours = ".a.glb.x1.tmp";
        for f in [dead, live_recent, live_old, other, not_ours] {
            std::fs::write(dir.join(f), b"partial").unwrap();
        }
        let two_hours_ago = std::time::SystemTime::now() - Duration::from_secs(7200);
        let f = std::fs::File::options()
            .write(true)
            .open(dir.join(live_old))
            .unwrap();
        f.set_modified(two_hours_ago).unwrap();
        drop(f);
        let mut doc = Document::new();
        doc.add_view(&[1, 2, 3, 4], None);
        write_document(&doc, &out, false, &[]).unwrap();
        // the stale .old was put back as a.glb (the target was missing), then replaced
        assert_eq!(listing(&dir), vec![live_recent, not_ours, other, "a.glb"]);
        assert_eq!(&std::fs::read(&out).unwrap()[..4], b"glTF");
        // a target whose writer died between moving it aside and renaming: the .old comes back
        std::fs::remove_file(&out).unwrap();
        std::fs::write(dir.join(".a.glb.4194305.old"), b"previous").unwrap();
        clean_stale(&out);
        assert_eq!(std::fs::read(&out).unwrap(), b"previous");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A write that fails names the target (not the temporary file), with the OS error once.
    #[test]
    fn write_errors_name_the_target_once() {
        let out = std::env::temp_dir()
            .join(format!("marionette-missing-{}", std::process::id()))
            .join("a.glb");
        let err = write_document(&Document::new(), &out, false, &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot write '{}': No such file or directory (os error 2)",
                out.display()
            )
        );
        assert!(std::error::Error::source(&err).is_none());
    }
}
