//! The codec's one error type: reading errors name the file and, where there is one, the glTF
//! JSON path; writing errors name the part of the model at fault or the file.

use std::fmt;

/// Why a glTF file could not be read or written: the one error type of the codec.
///
/// Reading: `Display` reads like `Fox.glb: animations[1].samplers[3].output: accessor 12 has 5
/// elements but input has 6`: the file label, the glTF JSON path, then what is wrong. Writing:
/// the part of the model at fault (`meshes[0] 'tri': ...`, `clips[2] 'walk', joint 1
/// rotation: ...`) or the file that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum GltfError {
    /// The file could not be read, or was refused (not a regular file; see [`crate::files::confine`]).
    #[error("{error}")]
    Io {
        /// Label of the file being imported.
        file: String,
        /// Why it was not read (names the file).
        error: crate::files::confine::ReadError,
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
    /// A BVH file does not follow the grammar (`line` 0: about the whole file).
    #[error("{file}:{line}: {message}", line = if *line > 0 { line.to_string() } else { "-".into() })]
    Bvh {
        /// Label of the file being imported.
        file: String,
        /// The line (1-based), 0 when the problem is not on one line.
        line: usize,
        /// What is wrong, and what to do where useful.
        message: String,
    },
    /// An FBX file could not be read or converted.
    #[error("{file}: {path}{sep}{message}", sep = if path.is_empty() { "" } else { ": " })]
    Fbx {
        /// Label of the file being imported.
        file: String,
        /// The FBX object path (`Objects/Model 'Hips'`), empty for the whole file.
        path: String,
        /// What is wrong, and what to do where useful.
        message: String,
    },
    /// A skin is inconsistent with the skeleton.
    #[error("skins[{skin}] '{name}': {what}")]
    BadSkin {
        /// Skin index.
        skin: usize,
        /// Skin name.
        name: String,
        /// What is wrong.
        what: String,
    },
    /// A mesh's arrays disagree or point outside the model.
    #[error("meshes[{mesh}] '{name}': {what}")]
    BadMesh {
        /// Mesh index.
        mesh: usize,
        /// Mesh name.
        name: String,
        /// What is wrong.
        what: String,
    },
    /// A clip without channels (glTF animations need at least one).
    #[error("clips[{clip}] '{name}' has no animated channels")]
    EmptyClip {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
    },
    /// A track targets a joint the skeleton (or the rig's node list) does not have.
    #[error("clips[{clip}] '{name}' animates joint {joint}, but the skeleton has {count} joints")]
    BadTrackJoint {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
        /// Joint index found.
        joint: usize,
        /// Joint count.
        count: usize,
    },
    /// A track's keys are invalid.
    #[error("clips[{clip}] '{name}', joint {joint} {channel}: {source}")]
    BadTrack {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
        /// Joint index.
        joint: usize,
        /// glTF channel path.
        channel: &'static str,
        /// The key problem.
        source: marionette_anim::ClipError,
    },
    /// A morph weights track whose keys are unusable.
    #[error("clip {clip} '{name}': weights of morph set {set}: {source}")]
    BadMorphTrack {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
        /// Morph set index.
        set: usize,
        /// The key problem.
        source: marionette_anim::ClipError,
    },
    /// A morph weights track whose mesh has no node in the file being written.
    #[error(
        "clip {clip} '{name}': the weights of morph set {set} have no node to animate in this \
         file (it holds no mesh with those morph targets)"
    )]
    NoMorphNode {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
        /// Morph set index.
        set: usize,
    },
    /// A NaN or infinite number where glTF needs a finite one.
    #[error("{0} is not finite")]
    NotFinite(String),
    /// The output would not fit a GLB's 32-bit length fields.
    #[error("output of {0} bytes exceeds the GLB size limit of 4 GiB")]
    TooLarge(usize),
    /// JSON serialisation failed.
    #[error("writing glTF JSON: {0}")]
    Serialise(#[from] serde_json::Error),
    /// An output file could not be written. The message names the output file (never a
    /// temporary file) and the operating system's error once.
    #[error("cannot {what} '{path}': {error}")]
    Write {
        /// The output file.
        path: String,
        /// What was being done.
        what: &'static str,
        /// The underlying error (not a `source`: it is in the message already).
        error: std::io::Error,
    },
    /// The output would replace an input file.
    #[error("'{path}' is an input; refusing to overwrite it (use --force)")]
    WouldOverwriteInput {
        /// The input file.
        path: String,
    },
    /// The output extension is neither `.glb` nor `.gltf`.
    #[error("'{path}': output must end in .glb or .gltf")]
    UnknownFormat {
        /// The output path.
        path: String,
    },
}

impl GltfError {
    /// The label of the file being read, for errors about an input file.
    pub fn file(&self) -> Option<&str> {
        match self {
            GltfError::Io { file, .. }
            | GltfError::Container { file, .. }
            | GltfError::Json { file, .. }
            | GltfError::Invalid { file, .. }
            | GltfError::Bvh { file, .. }
            | GltfError::Fbx { file, .. } => Some(file),
            _ => None,
        }
    }

    /// The glTF JSON path the error is about, when there is one: where the input is invalid,
    /// or the entry of the output a model error is about (`skins[0]`, `meshes[2]`).
    pub fn gltf_path(&self) -> Option<String> {
        match self {
            GltfError::Invalid { path, .. } => Some(path.clone()),
            GltfError::BadSkin { skin, .. } => Some(format!("skins[{skin}]")),
            GltfError::BadMesh { mesh, .. } => Some(format!("meshes[{mesh}]")),
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

    /// Attaches the file label (a fault without a path, about the whole JSON, is a `Json`
    /// error).
    pub fn in_file(self, file: &str) -> GltfError {
        if self.path.is_empty() {
            return GltfError::Json {
                file: file.to_string(),
                message: self.message,
            };
        }
        GltfError::Invalid {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A fault read in a file reads `file: path: message` and keeps its JSON path.
    #[test]
    fn errors_carry_the_gltf_path() {
        let e = Fault::new("animations[2].samplers[0].output", "too short").in_file("Fox.glb");
        assert_eq!(
            e.to_string(),
            "Fox.glb: animations[2].samplers[0].output: too short"
        );
        assert_eq!(e.file(), Some("Fox.glb"));
        assert_eq!(
            e.gltf_path().as_deref(),
            Some("animations[2].samplers[0].output")
        );
        let skin = GltfError::BadSkin {
            skin: 1,
            name: "body".into(),
            what: "no joints".into(),
        };
        assert_eq!(skin.gltf_path().as_deref(), Some("skins[1]"));
        assert_eq!(skin.file(), None);
    }
}
