//! The character domain type: one skeleton, its skins, meshes, clips and images, as imported
//! from a glTF file (`io`), built in memory (`mannequin`) or drawn (`render`).

use std::path::PathBuf;

use crate::{Clip, Skeleton, Skin, SkinnedMesh};

/// An encoded image referenced by a material (PNG or JPEG bytes as stored in the file).
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Image name, if any.
    pub name: Option<String>,
    /// MIME type (`image/png` or `image/jpeg`).
    pub mime_type: String,
    /// The encoded bytes.
    pub data: Vec<u8>,
}

/// A rigged character (or any animated glTF scene) as Marionette sees it.
///
/// The skeleton holds every node that is a skin joint or an animation target, plus any node
/// between two such nodes; the world transform of the nodes above them is the skeleton's
/// armature transform.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Model {
    /// Where the model came from (empty for models built in memory).
    pub source: PathBuf,
    /// The joint hierarchy, parent-first.
    pub skeleton: Skeleton,
    /// glTF node index of each skeleton joint.
    pub joint_nodes: Vec<usize>,
    /// Skins over the skeleton.
    pub skins: Vec<Skin>,
    /// Meshes (one entry per glTF primitive).
    pub meshes: Vec<SkinnedMesh>,
    /// Animations, in the file's order.
    pub clips: Vec<Clip>,
    /// Images referenced by materials.
    pub images: Vec<Image>,
    /// Problems fixed on import, each reported once (per mesh, not per vertex).
    pub warnings: Vec<String>,
}

/// Why [`Model::find_clip`] found no clip.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ClipLookupError {
    /// No clip has this name, and it is not a valid index.
    #[error("no clip named '{name}' (clips: {available})")]
    NoSuchClip {
        /// The name asked for.
        name: String,
        /// The clip names, comma-separated.
        available: String,
    },
    /// A clip index past the end.
    #[error("clip index {index} is out of range (the model has {count} clips)")]
    ClipOutOfRange {
        /// The index asked for.
        index: usize,
        /// Number of clips.
        count: usize,
    },
}

impl Model {
    /// Finds a clip by exact name, or else by index (how every command's `--clip` selects one).
    pub fn find_clip(&self, spec: &str) -> Result<usize, ClipLookupError> {
        if let Some(i) = self.clips.iter().position(|c| c.name == spec) {
            return Ok(i);
        }
        match spec.trim().parse::<usize>() {
            Ok(index) if index < self.clips.len() => Ok(index),
            Ok(index) => Err(ClipLookupError::ClipOutOfRange {
                index,
                count: self.clips.len(),
            }),
            Err(_) => Err(ClipLookupError::NoSuchClip {
                name: spec.to_string(),
                available: self
                    .clips
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }
}
