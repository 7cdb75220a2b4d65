//! Import errors: every message names the file and, where there is one, the glTF JSON path.

use std::fmt;

/// Why a glTF file could not be imported.
///
/// `Display` reads like `Fox.glb: animations[1].samplers[3].output: accessor 12 has 5 elements
/// but input has 6`: the file label, the glTF JSON path, then what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file (or a file it references) could not be read.
    #[error("{file}: cannot read '{what}': {source}")]
    Io {
        /// Label of the file being imported.
        file: String,
        /// The path that failed to open.
        what: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The binary container (GLB header and chunks) is broken.
    #[error("{file}: {message}")]
    Container {
        /// Label of the file being imported.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The JSON does not parse or does not follow the glTF schema.
    #[error("{file}: {message}")]
    Json {
        /// Label of the file being imported.
        file: String,
        /// What is wrong (with the JSON line and column).
        message: String,
    },
    /// The glTF content is invalid at a JSON path.
    #[error("{file}: {path}: {message}")]
    Invalid {
        /// Label of the file being imported.
        file: String,
        /// The glTF JSON path, e.g. `animations[1].samplers[3].output`.
        path: String,
        /// What is wrong, and what to do where useful.
        message: String,
    },
}

impl ImportError {
    /// The label of the file the error is about.
    pub fn file(&self) -> &str {
        match self {
            ImportError::Io { file, .. }
            | ImportError::Container { file, .. }
            | ImportError::Json { file, .. }
            | ImportError::Invalid { file, .. } => file,
        }
    }

    /// The glTF JSON path the error is about, when there is one.
    pub fn gltf_path(&self) -> Option<&str> {
        match self {
            ImportError::Invalid { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// A problem found while reading the glTF content, before the file label is attached.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Fault {
    /// The glTF JSON path.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl Fault {
    /// A fault at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }

    /// Attaches the file label.
    pub fn in_file(self, file: &str) -> ImportError {
        ImportError::Invalid {
            file: file.to_string(),
            path: self.path,
            message: self.message,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Result of the internal import steps.
pub(crate) type FaultResult<T> = Result<T, Fault>;
