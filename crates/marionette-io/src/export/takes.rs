//! Animations appended to an existing document (a rig read with [`Document::read`], or a
//! skeleton-only document): how baked takes are written.
//!
//! The keys are written by the same code as a model's clips (`export/animation.rs`: rotations
//! normalised, numbers finite, equal key times shared); each animation carries the `extras` it
//! is given, and replaces an animation of the same name already in the document.

use serde_json::{json, Value};

use super::animation::{write_animations, Animation};
use super::nodes::skeleton_nodes;
use crate::{Document, GltfError};
use marionette_anim::Skeleton;

/// Appends the animations, the tracks of joint `j` targeting node `joint_nodes[j]` and the
/// weights of morph set `s` the nodes `morph_nodes[s]` (a rig's sets: the node each came
/// from, [`marionette_anim::MorphSet::node`]). An existing
/// animation of the same name (an unnamed one counts as `animation_<index>`, as the importer
/// names it) is replaced in place, so baking a rig's clips back into it does not duplicate them,
/// and the data nothing references any more is dropped ([`Document::prune`]).
pub fn append_animations(
    doc: &mut Document,
    animations: &[Animation<'_>],
    joint_nodes: &[usize],
    morph_nodes: &[Vec<usize>],
) -> Result<(), GltfError> {
    let written = write_animations(doc, animations, joint_nodes, morph_nodes)?;
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
    // the keys of replaced animations (and anything else unreferenced) are not written
    doc.prune();
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

#[cfg(test)]
mod tests {
    use glam::{Mat4, Quat, Vec3};

    use super::*;
    use marionette_anim::{Clip, Interpolation, JointTracks, Track, Transform};

    /// Two joints under an armature; the child's rest rotation is off unit length.
    fn skeleton(rotation: Quat) -> Skeleton {
        Skeleton::new(
            vec!["hips".into(), "spine".into()],
            vec![None, Some(0)],
            vec![
                Transform::IDENTITY,
                Transform::new(Vec3::Y, rotation, Vec3::ONE),
            ],
            Mat4::from_translation(Vec3::new(0.0, 0.0, 2.0)),
        )
        .unwrap()
        .skeleton
    }

    /// The skeleton document lays nodes out as the model writer does (`Armature` above the
    /// roots) and writes rotations unit length; a NaN is an error naming the joint.
    #[test]
    fn skeleton_document_matches_the_model_writer() {
        let (doc, nodes) = skeleton_document(&skeleton(Quat::from_xyzw(0.0, 0.0, 2.0, 0.0)))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(nodes, vec![0, 1]);
        assert_eq!(doc.json["nodes"][2]["name"], super::super::ARMATURE_NODE);
        assert_eq!(doc.json["nodes"][2]["translation"], json!([0.0, 0.0, 2.0]));
        assert_eq!(doc.json["scenes"][0]["nodes"], json!([2]));
        assert_eq!(
            doc.json["nodes"][1]["rotation"],
            json!([0.0, 0.0, 1.0, 0.0])
        );
        let nan = skeleton(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0));
        let e = skeleton_document(&nan).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("joint 'spine' is not finite"));
    }

    /// Appending replaces an animation of the same name, keeps its extras, and rejects a track
    /// on a joint with no node.
    #[test]
    fn append_replaces_by_name() {
        let (mut doc, nodes) = skeleton_document(&skeleton(Quat::IDENTITY)).unwrap();
        let mut jt = JointTracks::new(1);
        jt.translation = Some(Track {
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![Vec3::ZERO, Vec3::X],
        });
        let clip = Clip::new("walk", vec![jt]);
        let anim = |n: u32| Animation {
            clip: &clip,
            rate: Some(30.0),
            extras: json!({ "n": n }),
            snorm_rotations: false,
        };
        append_animations(&mut doc, &[anim(1)], &nodes, &[]).unwrap();
        append_animations(&mut doc, &[anim(2)], &nodes, &[]).unwrap();
        let anims = doc.json["animations"].as_array().unwrap();
        assert_eq!(anims.len(), 1);
        assert_eq!(anims[0]["extras"], json!({ "n": 2 }));
        assert_eq!(anims[0]["channels"][0]["target"]["node"], 1);
        let e = append_animations(&mut doc, &[anim(3)], &nodes[..1], &[]).unwrap_err();
        assert!(
            matches!(e, GltfError::BadTrackJoint { joint: 1, .. }),
            "{e}"
        );
    }
}
