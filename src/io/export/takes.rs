//! Animations appended to an existing document (a rig read with [`Document::read`], or a
//! skeleton-only document): how baked takes are written.
//!
//! The keys are written by the same code as a model's clips (`export/animation.rs`: rotations
//! normalised, numbers finite, equal key times shared); each animation carries the `extras` it
//! is given, and replaces an animation of the same name already in the document.

use serde_json::{json, Value};

use super::animation::{write_animations, Animation};
use super::nodes::skeleton_nodes;
use crate::anim::Skeleton;
use crate::io::{Document, GltfError};

/// Appends the animations, the tracks of joint `j` targeting node `joint_nodes[j]`. An existing
/// animation of the same name (an unnamed one counts as `animation_<index>`, as the importer
/// names it) is replaced in place, so baking a rig's clips back into it does not duplicate them.
pub fn append_animations(
    doc: &mut Document,
    animations: &[Animation<'_>],
    joint_nodes: &[usize],
) -> Result<(), GltfError> {
    let written = write_animations(doc, animations, joint_nodes)?;
    for (anim, Animation { clip, .. }) in written.into_iter().zip(animations) {
        let existing = doc.json["animations"].as_array().and_then(|a| {
            a.iter()
                .enumerate()
                .position(|(i, x)| match x["name"].as_str() {
                    Some(name) => name == clip.name,
                    // the importer calls an unnamed animation `animation_<index>`
                    None => clip.name == format!("animation_{i}"),
                })
        });
        match existing {
            Some(i) => doc.json["animations"][i] = anim,
            None => {
                doc.push("animations", anim);
            }
        }
    }
    Ok(())
}

/// A document holding only the skeleton's nodes (joint `j` is node `j`; a non-identity
/// armature becomes one more node, [`super::ARMATURE_NODE`], above the root joints), as the
/// model writer lays them out. Returns it with the node of each joint.
pub fn skeleton_document(skeleton: &Skeleton) -> Result<(Document, Vec<usize>), GltfError> {
    let mut doc = Document::new();
    let nodes = skeleton_nodes(skeleton)?;
    doc.json["nodes"] = Value::Array(nodes.nodes);
    doc.json["scenes"] = json!([{"nodes": nodes.scene_nodes}]);
    doc.json["scene"] = json!(0);
    Ok((doc, (0..skeleton.len()).collect()))
}
