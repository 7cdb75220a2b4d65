//! glTF 2.0 import: `.gltf` (external `.bin` files and data URIs) and `.glb` to a [`Model`].
//!
//! Every problem with the input is a [`GltfError`] naming the file and the glTF JSON path
//! (`Fox.glb: animations[1].samplers[3].output: accessor 12 has 5 elements but input has 6`)
//! or the GLB chunk; no input makes the importer panic. Problems that can be fixed or read
//! around (too many influences, weights outside [0, 1], duplicate names, unsupported
//! primitives, rotations that are not unit length, a sheared node matrix, a second GLB chunk)
//! become [`Model::warnings`] naming the glTF path, one per mesh, animation or entry rather
//! than one per vertex.
//!
//! The skeleton holds every node that is a skin joint or the target of a translation, rotation
//! or scale channel, plus any node between two of those, plus a node whose mesh's morph
//! weights are animated when nothing else would carry the mesh (it is neither skinned nor under
//! a joint); see [`Model`]. Its morph targets ([`marionette_anim::Morphs`], one set per node
//! whose mesh has targets) are the skeleton's [`marionette_anim::Skeleton::morphs`].

use std::path::Path;

use super::import::{
    animations, container, material::Images, meshes, nodes, skeleton, springs, unread,
};
use super::GltfError;
use marionette_anim::Model;

/// Imports glTF JSON or GLB bytes. External files are looked up in `base_dir` (an error names
/// them when it is `None`); `label` names the file in errors and warnings.
pub fn import_slice(
    bytes: &[u8],
    base_dir: Option<&Path>,
    label: &str,
) -> Result<Model, GltfError> {
    let doc = container::load(bytes, base_dir, label)?;
    let fault = |f: crate::error::Fault| f.in_file(label);
    let mut warnings = doc.warnings.clone();
    let graph = nodes::NodeGraph::new(&doc.root, &mut warnings).map_err(fault)?;
    let joints = skeleton::build(&doc.root, &graph).map_err(fault)?;
    warnings.extend_from_slice(joints.skeleton.warnings());
    let skins = skeleton::skins(&doc, &graph, &joints, &mut warnings).map_err(fault)?;
    let mut images = Images::new(&doc);
    let inputs = meshes::MeshInputs {
        doc: &doc,
        base_dir,
        graph: &graph,
        joints: &joints,
        skins: &skins,
    };
    let (meshes, sets) = meshes::meshes(&inputs, &mut images, &mut warnings).map_err(fault)?;
    let clips = animations::clips(&doc, &joints, &sets, &mut warnings).map_err(fault)?;
    unread::check(&doc, &mut warnings);
    let springs = springs::read(&doc.root.json, &joints.node_joint, &mut warnings);
    Ok(Model {
        source: Default::default(),
        skeleton: joints
            .skeleton
            .with_morphs(marionette_anim::Morphs::new(sets))
            .with_springs(springs),

        joint_nodes: joints.joint_nodes,
        skins,
        meshes,
        clips,
        images: images.images,
        warnings,
    })
}
