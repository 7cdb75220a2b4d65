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

impl SkinnedMesh {
    /// Checks that each morph target moves every vertex or none: its position and normal
    /// deltas are empty or one per vertex. The message names the target and what is off.
    pub fn check_targets(&self) -> Result<(), String> {
        let n = self.positions.len();
        for (t, target) in self.targets.iter().enumerate() {
            for (len, what) in [
                (target.positions.len(), "position"),
                (target.normals.len(), "normal"),
            ] {
                if len != 0 && len != n {
                    return Err(format!(
                        "morph target {t} has {len} {what} deltas for {n} vertices"
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_move_every_vertex_or_none() {
        let mut mesh = SkinnedMesh {
            positions: vec![Vec3::ZERO; 3],
            targets: vec![
                MorphTarget {
                    positions: vec![Vec3::X; 3],
                    ..MorphTarget::default()
                },
                MorphTarget {
                    normals: vec![Vec3::Y; 3],
                    ..MorphTarget::default()
                },
            ],
            ..SkinnedMesh::default()
        };
        assert_eq!(mesh.check_targets(), Ok(()));
        mesh.targets[1].normals.pop();
        assert_eq!(
            mesh.check_targets(),
            Err("morph target 1 has 2 normal deltas for 3 vertices".to_string())
        );
    }
}
