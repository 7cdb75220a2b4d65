//! The character domain type: one skeleton, its skins, meshes, clips and images, as imported
//! from a glTF file (`io`), built in memory (`mannequin`) or drawn (`render`).

use std::path::PathBuf;

use crate::anim::{Clip, Skeleton, Skin, SkinnedMesh};

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
