//! Files a command may read: the one rule, for every file an input names.
//!
//! - **Files named on the command line** (a script, a rig, a glTF to inspect or bake) are read
//!   where they are: the user chose them.
//! - **Files an input names** are read only if their real location (symlinks and `..` resolved)
//!   lies inside the input's [`Scope`]:
//!   - a glTF's buffer and image URIs: inside **the glTF's own folder** (or below it);
//!   - a script's `require`, `io.open` and `marionette.rig("file.glb")`: inside **the project
//!     folder**, the folder of the script unless the host is given another
//!     ([`project_folder`]).
//!
//!   An absolute path, a `..` or a symlink is judged by where it leads; anything else is
//!   refused, and the message names the path as written, where it leads and why.
//! - **Only regular files** are read, never a FIFO, device, socket or folder: those are refused
//!   before anything is read from them (and opened non-blocking, so even a file swapped for a
//!   FIFO in between cannot block).
//! - **Never more than declared**: a buffer is read up to the `byteLength` its JSON declares,
//!   a script's file up to the script memory limit.
//! - **Trusted input**: the environment variable `MARIONETTE_ALLOW_READ` lists further folders
//!   (separated like `PATH`) whose files any input may name, e.g.
//!   `MARIONETTE_ALLOW_READ=/srv/textures marionette bake rig.gltf`.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The most bytes a script's file (the script, a `require`d module, an `io.open`ed file) may
/// have: the default script memory limit.
pub const SCRIPT_FILE_LIMIT: u64 = 64 << 20;

/// The environment variable listing folders every input may read from (trusted input).
pub const ALLOW_READ_VAR: &str = "MARIONETTE_ALLOW_READ";

/// What a [`Scope`] is, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// The folder of a glTF file: where its URIs may point.
    GltfFolder,
    /// The project folder of a script: where `require`, `io.open` and `marionette.rig` may read.
    Project,
}

impl ScopeKind {
    fn name(self) -> &'static str {
        match self {
            ScopeKind::GltfFolder => "the glTF's folder",
            ScopeKind::Project => "the project folder",
        }
    }

    fn rule(self) -> &'static str {
        match self {
            ScopeKind::GltfFolder => "a glTF may only name files in its own folder",
            ScopeKind::Project => "the script sandbox reads only files inside the project folder",
        }
    }
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file lies outside the scope.
    #[error("{}", outside_message(.shown, .real, *.link, *.kind, .root))]
    Outside {
        /// The path as written.
        shown: String,
        /// Where it leads (symlinks and `..` resolved).
        real: PathBuf,
        /// True when the path itself is a symbolic link.
        link: bool,
        /// The scope it left.
        kind: ScopeKind,
        /// The scope's folder (canonical).
        root: PathBuf,
    },
    /// The file is a FIFO, device, socket or folder.
    #[error(
        "'{shown}' is {what}, not a regular file: refused (reading it could block or never end)"
    )]
    NotRegular {
        /// The path as written.
        shown: String,
        /// `a FIFO`, `a folder`, `a character device`, ...
        what: &'static str,
    },
    /// The file could not be opened or read.
    #[error("cannot read '{shown}': {error}")]
    Io {
        /// The path as written.
        shown: String,
        /// The operating system's error.
        error: std::io::Error,
    },
}

fn outside_message(shown: &str, real: &Path, link: bool, kind: ScopeKind, root: &Path) -> String {
    let how = if link {
        format!("is a link to {}, outside", real.display())
    } else if Path::new(shown) == real {
        "is outside".to_string()
    } else {
        format!("leads to {}, outside", real.display())
    };
    format!(
        "'{shown}' {how} {} {}: refused ({}; to trust it, add its folder to {ALLOW_READ_VAR})",
        kind.name(),
        root.display(),
        kind.rule()
    )
}

impl ReadError {
    /// True when the file exists but the rule refused it (outside, or not a regular file).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, ReadError::Io { .. })
    }

    /// True when the file does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io { error, .. } if error.kind() == std::io::ErrorKind::NotFound)
    }
}

/// A folder whose files an input may name, plus the trusted folders of [`ALLOW_READ_VAR`].
#[derive(Clone, Debug)]
pub struct Scope {
    kind: ScopeKind,
    root: PathBuf,
    trusted: Vec<PathBuf>,
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.root.display())
    }
}

/// The project folder of a script at `script`: the folder it lies in (`.` for a bare name).
pub fn project_folder(script: &Path) -> PathBuf {
    match script.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl Scope {
    /// The scope `root` (resolved now), with the trusted folders of [`ALLOW_READ_VAR`].
    pub fn new(kind: ScopeKind, root: &Path) -> Result<Scope, ReadError> {
        let root = if root.as_os_str().is_empty() {
            Path::new(".")
        } else {
            root
        };
        let canonical = root.canonicalize().map_err(|error| ReadError::Io {
            shown: root.display().to_string(),
            error,
        })?;
        let trusted = std::env::var_os(ALLOW_READ_VAR)
            .map(|v| {
                std::env::split_paths(&v)
                    .filter(|p| !p.as_os_str().is_empty())
                    .filter_map(|p| p.canonicalize().ok())
                    .collect()
            })
            .unwrap_or_default();
        Ok(Scope {
            kind,
            root: canonical,
            trusted,
        })
    }

    /// The scope's folder, resolved.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `path` really leads, if the rule allows reading it; `shown` is the path as the
    /// input wrote it, for messages. A missing file is judged by its folder (so `../missing`
    /// is refused as outside, not reported as missing).
    pub fn check(&self, path: &Path, shown: &str) -> Result<PathBuf, ReadError> {
        let link = path.symlink_metadata().is_ok_and(|m| m.is_symlink());
        let real = match path.canonicalize() {
            Ok(real) => real,
            Err(error) => {
                let parent = path.parent().and_then(|p| {
                    if p.as_os_str().is_empty() {
                        Path::new(".").canonicalize().ok()
                    } else {
                        p.canonicalize().ok()
                    }
                });
                match (parent, path.file_name()) {
                    (Some(p), Some(name)) if !self.allows(&p) => p.join(name),
                    _ => {
                        return Err(ReadError::Io {
                            shown: shown.to_string(),
                            error,
                        })
                    }
                }
            }
        };
        if !self.allows(&real) {
            return Err(ReadError::Outside {
                shown: shown.to_string(),
                real,
                link,
                kind: self.kind,
                root: self.root.clone(),
            });
        }
        Ok(real)
    }

    fn allows(&self, real: &Path) -> bool {
        real.starts_with(&self.root) || self.trusted.iter().any(|t| real.starts_with(t))
    }

    /// Reads `path` if the rule allows it (inside the scope, a regular file), at most `limit`
    /// bytes. Returns the bytes and the real path read.
    pub fn read(
        &self,
        path: &Path,
        shown: &str,
        limit: Option<u64>,
    ) -> Result<(Vec<u8>, PathBuf), ReadError> {
        let real = self.check(path, shown)?;
        let bytes = read_regular(&real, shown, limit)?;
        Ok((bytes, real))
    }
}

/// What kind of non-regular file `t` is, or `None` for a regular file.
fn not_regular(t: std::fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Opens `path` for reading if it is a regular file: its type is checked before opening and
/// again on the open file (opened non-blocking on Unix, so a FIFO cannot block the open).
pub fn open_regular(path: &Path, shown: &str) -> Result<File, ReadError> {
    let io = |error| ReadError::Io {
        shown: shown.to_string(),
        error,
    };
    let refuse = |what| ReadError::NotRegular {
        shown: shown.to_string(),
        what,
    };
    if let Some(what) = not_regular(std::fs::metadata(path).map_err(io)?.file_type()) {
        return Err(refuse(what));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    if let Some(what) = not_regular(file.metadata().map_err(io)?.file_type()) {
        return Err(refuse(what));
    }
    Ok(file)
}

/// Reads a regular file (see [`open_regular`]), at most `limit` bytes when given.
pub fn read_regular(path: &Path, shown: &str, limit: Option<u64>) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path, shown)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let cap = limit.map_or(size, |l| l.min(size));
    let mut bytes = Vec::with_capacity(usize::try_from(cap).unwrap_or(0));
    let read = match limit {
        Some(l) => file.take(l).read_to_end(&mut bytes),
        None => (&file).read_to_end(&mut bytes),
    };
    read.map_err(|error| ReadError::Io {
        shown: shown.to_string(),
        error,
    })?;
    Ok(bytes)
}

/// Reads a regular file as UTF-8 text, at most `limit` bytes (a larger file is an error naming
/// the limit).
pub fn read_text(path: &Path, shown: &str, limit: u64) -> Result<String, ReadError> {
    let bytes = read_regular(path, shown, Some(limit.saturating_add(1)))?;
    let io = |error| ReadError::Io {
        shown: shown.to_string(),
        error,
    };
    if bytes.len() as u64 > limit {
        return Err(io(std::io::Error::other(format!(
            "the file is larger than {limit} bytes"
        ))));
    }
    String::from_utf8(bytes).map_err(|_| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

#[cfg(test)]
#[path = "confine_tests.rs"]
mod tests;
