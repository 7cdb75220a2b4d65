//! Durable, atomic file writes: the one way the crate replaces a file (baked glTF, images,
//! the editor's sidecar).
//!
//! The new bytes go to a temporary file beside the target, which is flushed to disk (`fsync`)
//! before it is renamed over the target, and the folder is flushed after the rename (on unix),
//! so after a crash or power loss the target is either the old file or the new one, whole. A
//! failed write removes its temporary file and leaves the old file as it was.
//!
//! Temporary files are `.NAME.PID.tmp` (and `.NAME.PID.old` for a file moved aside by the
//! glTF writer's all-or-nothing replace) beside the target. A process killed mid-write
//! (`kill -9`) leaves them behind; the next write to the same target removes those that are
//! **stale**: their PID names no running process, or they are older than [`STALE_AFTER`]. A
//! stale `.old` whose target is missing is the only copy of the previous file (the writer died
//! between moving it aside and renaming the new one into place): it is put back instead.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Writes `bytes` to `path` atomically and durably (see the module documentation). Errors are
/// the operating system's; the caller names the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    clean_stale(path);
    let tmp = temp_path(path, "tmp");
    write_temp(&tmp, bytes)?;
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(path)
}

/// Writes `bytes` to the temporary file `tmp` (created anew: whatever has its name is removed
/// first, a link is never followed) and flushes it to disk. On failure `tmp` is removed.
pub(crate) fn write_temp(tmp: &Path, bytes: &[u8]) -> io::Result<()> {
    let result = (|| {
        let mut file = create_new(tmp)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    result
}

/// A new file at `path`; a file (or link) already there is one of ours left behind (the PID in
/// its name is ours), removed first.
fn create_new(path: &Path) -> io::Result<File> {
    let open = || File::options().write(true).create_new(true).open(path);
    match open() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(path)?;
            open()
        }
        other => other,
    }
}

/// Flushes the folder holding `target` to disk, so that a rename into it survives a crash (unix;
/// nothing elsewhere). A file system that cannot flush a folder is not an error.
pub(crate) fn sync_dir(target: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        match File::open(folder_of(target)).and_then(|d| d.sync_all()) {
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOTSUP)) => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = target;
        Ok(())
    }
}

/// The folder `target` is in (`.` for a bare file name).
fn folder_of(target: &Path) -> &Path {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// `dir/.name.<pid>.<suffix>` beside `path`.
pub(crate) fn temp_path(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.{suffix}", std::process::id()))
}

/// A temporary file of ours older than this is stale even if its PID is running (PIDs are
/// reused, and no write takes this long).
pub const STALE_AFTER: Duration = Duration::from_secs(60 * 60);

/// The PID and suffix (`tmp` or `old`) of `file_name` when it is one of our temporary files
/// for the target called `target`.
fn temp_of(file_name: &str, target: &str) -> Option<(u32, &'static str)> {
    let rest = file_name
        .strip_prefix('.')?
        .strip_prefix(target)?
        .strip_prefix('.')?;
    let (pid, suffix) = rest.split_once('.')?;
    let suffix = match suffix {
        "tmp" => "tmp",
        "old" => "old",
        _ => return None,
    };
    let digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    Some((pid.parse().ok().filter(|_| digits)?, suffix))
}

/// True when no process has this PID.
fn dead(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let alive = unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH);
        !alive
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Removes the stale temporary files of ours beside `target` (see the module documentation);
/// a stale `.old` is put back when `target` is missing. Best effort: what cannot be removed
/// stays.
pub(crate) fn clean_stale(target: &Path) {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(folder_of(target)) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some((pid, suffix)) = file_name.to_str().and_then(|f| temp_of(f, name)) else {
            continue;
        };
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if !meta.is_file() || !(old || dead(pid)) {
            continue;
        }
        if suffix == "old" && target.symlink_metadata().is_err() {
            let _ = std::fs::rename(entry.path(), target);
        } else {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("marionette-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// The target gets the new bytes whole (replacing a longer old file), and nothing else is
    /// left in the folder.
    #[test]
    fn replaces_whole_and_leaves_no_temporary() {
        let dir = scratch("whole");
        let out = dir.join("x.json");
        write_atomic(&out, b"a first, longer content").unwrap();
        write_atomic(&out, b"second").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"second");
        assert_eq!(listing(&dir), vec!["x.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A write that fails leaves the old file as it was and no temporary file: here the
    /// temporary file's name is taken by a folder (it cannot be created), then the target is a
    /// folder (the rename fails after the temporary file was written).
    #[test]
    fn failure_keeps_the_old_file() {
        let dir = scratch("fail");
        let out = dir.join("x.json");
        std::fs::write(&out, b"old").unwrap();
        let blocker = temp_path(&out, "tmp");
        std::fs::create_dir_all(blocker.join("inside")).unwrap();
        assert!(write_atomic(&out, b"new").is_err());
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
        std::fs::remove_dir_all(&blocker).unwrap();
        assert_eq!(listing(&dir), vec!["x.json"]);

        let folder = dir.join("y.json");
        std::fs::create_dir_all(folder.join("inside")).unwrap();
        assert!(write_atomic(&folder, b"new").is_err());
        assert!(folder.join("inside").is_dir());
        assert_eq!(listing(&dir), vec!["x.json", "y.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A link (or file) already holding the temporary file's name is replaced, never written
    /// through: the file it points at is untouched.
    #[cfg(unix)]
    #[test]
    fn temporary_name_never_followed() {
        let dir = scratch("link");
        let out = dir.join("x.json");
        let victim = dir.join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        std::os::unix::fs::symlink(&victim, temp_path(&out, "tmp")).unwrap();
        write_atomic(&out, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::read(&out).unwrap(), b"new");
        assert_eq!(listing(&dir), vec!["victim", "x.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A missing folder is an error, with nothing created.
    #[test]
    fn missing_folder_is_an_error() {
        let dir = scratch("missing");
        let out = dir.join("no/such/x.json");
        let e = write_atomic(&out, b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(listing(&dir).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
