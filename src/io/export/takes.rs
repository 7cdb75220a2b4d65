//! Animations appended to an existing document (a rig read with [`Document::read`], or a
//! skeleton-only document): how baked takes are written.
//!
//! The keys are written by the same code as a model's clips (`export/animation.rs`: rotations
//! normalised, numbers finite, equal key times shared); each animation carries the `extras` it
//! is given, and replaces an animation of the same name already in the document.

use serde_json::{json, Value};

use super::animation::write_animations;
use super::nodes::skeleton_nodes;
use crate::anim::{Clip, Skeleton};
use crate::io::{Document, GltfError};

/// Appends one animation per clip, the tracks of joint `j` targeting node `joint_nodes[j]`,
/// with `extras` (`Value::Null`: none). An existing animation of the same name (an unnamed one
/// counts as `animation_<index>`, as the importer names it) is replaced in place, so baking a
/// rig's clips back into it does not duplicate them.
pub fn append_animations(
    doc: &mut Document,
    animations: &[(Clip, Value)],
    joint_nodes: &[usize],
) -> Result<(), GltfError> {
    let clips: Vec<Clip> = animations.iter().map(|(c, _)| c.clone()).collect();
    let written = write_animations(doc, &clips, joint_nodes)?;
    for (mut anim, (clip, extras)) in written.into_iter().zip(animations) {
        if !extras.is_null() {
            anim["extras"] = extras.clone();
        }
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
