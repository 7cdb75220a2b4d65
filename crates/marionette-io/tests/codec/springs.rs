//! `VRMC_springBone` read leniently: the springs are extra, so a malformed extension is a
//! warning naming its path and the model imports without them; a node that is not a joint is
//! left out of its spring, a shape that is neither a sphere nor a capsule left out of the
//! colliders, each with a warning; and a model's springs are written back as read.

use marionette_io::{import_slice, to_document};
use serde_json::json;

/// The creature's document with its extension replaced by `ext`, imported: its springs and
/// warnings.
fn with(ext: serde_json::Value) -> marionette_anim::Model {
    let mut doc = to_document(&marionette_anim::mannequin::creature::build()).expect("document");
    doc.json["extensions"]["VRMC_springBone"] = ext;
    let glb = doc.to_glb().expect("glb");
    import_slice(&glb, None, "creature.glb").expect("imports")
}

#[test]
fn springs_round_trip_through_the_codec() {
    let model = marionette_anim::mannequin::creature::build();
    let doc = to_document(&model).expect("document");
    assert!(doc.json["extensionsUsed"]
        .as_array()
        .is_some_and(|u| u.iter().any(|e| e == "VRMC_springBone")));
    let back = import_slice(&doc.to_glb().expect("glb"), None, "c.glb").expect("imports");
    assert_eq!(back.skeleton.springs(), model.skeleton.springs());
}

#[test]
fn malformed_springs_are_warnings_not_failures() {
    // not an object: nothing read, one warning with its path
    let m = with(json!("springs"));
    assert!(m.skeleton.springs().is_empty());
    let w = m.warnings.join("\n");
    assert!(
        w.contains("extensions.VRMC_springBone") && w.contains("spring bones are not read"),
        "{w}"
    );
    // a node that is no joint (the face mesh's node), and a shape of neither kind
    let face_node = 36 + 1;
    let m = with(json!({
        "specVersion": "1.0",
        "colliders": [
            { "node": 6, "shape": { "box": { "size": [1, 1, 1] } } },
            { "node": 6, "shape": { "sphere": { "offset": [0, 0.1, 0], "radius": 0.1 } } }
        ],
        "colliderGroups": [ { "name": "head", "colliders": [0, 1] } ],
        "springs": [ { "name": "ear", "joints": [ { "node": 30 }, { "node": face_node } ], "colliderGroups": [0] } ]
    }));
    let s = m.skeleton.springs();
    assert_eq!(s.colliders.len(), 1, "the box is left out");
    assert_eq!(s.groups[0].colliders, [0], "the group points at the sphere");
    assert_eq!(s.springs[0].joints.len(), 1, "the mesh node is left out");
    // (defaults where the file says nothing)
    assert_eq!(s.springs[0].joints[0].stiffness, 1.0);
    let w = m.warnings.join("\n");
    assert!(
        w.contains("colliders[0].shape: neither a sphere nor a capsule"),
        "{w}"
    );
    assert!(w.contains("is not a joint of the skeleton"), "{w}");
    // a wrong type inside: the path names it
    let m = with(json!({ "springs": [ { "joints": [ { "node": 30, "stiffness": "stiff" } ] } ] }));
    assert!(m.skeleton.springs().is_empty());
    let w = m.warnings.join("\n");
    assert!(w.contains("springs[0].joints[0].stiffness"), "{w}");
}
