//! Skins (joint lists with inverse bind matrices) and skinned mesh data.

use glam::{Mat4, Vec2, Vec3};

use super::{JointIndex, MorphTarget};

/// A skin: the joints a mesh is bound to and their inverse bind matrices.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    /// Skin name (generated when the file has none).
    pub name: String,
    /// Skeleton joint for each skin joint slot (vertex `JOINTS` index into this list).
    pub joints: Vec<JointIndex>,
    /// Inverse bind matrix per skin joint slot: model space to joint space at bind time.
    pub inverse_bind: Vec<Mat4>,
}

/// A triangle mesh, skinned (four influences per vertex) or rigidly attached to one joint.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SkinnedMesh {
    /// Mesh name (with a primitive suffix when a glTF mesh has several primitives).
    pub name: String,
    /// Skin the vertices are bound to; `None` for a mesh rigidly attached to [`Self::node_joint`].
    pub skin: Option<usize>,
    /// The joint the mesh's node is (or sits under) for non-skinned meshes.
    pub node_joint: Option<JointIndex>,
    /// Bind-pose positions.
    pub positions: Vec<Vec3>,
    /// Bind-pose unit normals (empty when the file has none).
    pub normals: Vec<Vec3>,
    /// Texture coordinates set 0 (empty when the file has none).
    pub uvs: Vec<Vec2>,
    /// Triangle list indices.
    pub indices: Vec<u32>,
    /// Up to four skin joint slots per vertex (indices into the skin's joint list).
    pub joints: Vec<[u16; 4]>,
    /// Weights per vertex matching `joints`, summing to 1.
    pub weights: Vec<[f32; 4]>,
    /// Base colour factor (linear RGBA).
    pub base_color: [f32; 4],
    /// Index of the base colour image in the model's image list, if textured.
    pub base_color_texture: Option<usize>,
    /// The morph set (index into the skeleton's [`crate::Morphs`]) whose weights drive
    /// [`Self::targets`]; `None` without morph targets.
    pub morph_set: Option<usize>,
    /// Morph targets, one per weight of the set (empty without morph targets).
    pub targets: Vec<MorphTarget>,
}
