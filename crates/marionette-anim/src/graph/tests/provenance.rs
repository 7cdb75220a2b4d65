//! Joint provenance: the last writer of each joint (post op, masked layer, base node) and each
//! layer's mask weight at a joint.

use glam::Quat;

use super::{hold, skel};
use crate::graph::*;
use crate::ik::Space;
use crate::mirror::Side;

/// A base clip, a layer masked to the left side at 0.5, and a rotation post op on the right
/// arm: the root comes from the base, the left arm from the layer, the right arm from the op;
/// with the op's weight at 0 the right arm falls back to the base.
#[test]
fn last_writer_of_each_joint() {
    let mut b = GraphBuilder::new(skel());
    let w = b.float("twist", 1.0, 0.0, 1.0).unwrap();
    let base = b.clip(hold("base", 1, 0.0));
    let layer = b.clip(hold("wave", 1, 10.0));
    let mask = b.mask().side(b.skeleton(), Side::Left, 1.0);
    let node = b.add(LayerNode::new(base, layer).weight(0.5).mask(mask));
    b.set_name(node, "arms");
    b.post(PostOp::SetRotation {
        joint: 2,
        rotation: Quat::from_rotation_y(0.5),
        space: Space::Local,
        weight: Value::Param(w),
    });
    let mut g = b.build(node).unwrap();
    g.advance(1.0 / 30.0);
    g.evaluate();

    let root = g.joint_source(0).unwrap();
    assert!(
        matches!(root.writer, Writer::Node { kind: "clip", .. }),
        "{root:?}"
    );
    assert_eq!(root.layers.len(), 1);
    assert_eq!(root.layers[0].mask, 0.0);

    let left = g.joint_source(1).unwrap();
    match &left.writer {
        Writer::Layer(l) => {
            assert_eq!(l.name, Some("arms"));
            assert_eq!((l.mask, l.weight), (1.0, 0.5));
        }
        other => panic!("left arm written by {other:?}"),
    }

    let right = g.joint_source(2).unwrap();
    assert_eq!(
        right.writer,
        Writer::Post {
            index: 0,
            kind: "set rotation",
            weight: 1.0,
        }
    );
    g.params_mut().set(w, ParamValue::Float(0.4)).unwrap();
    let right = g.joint_source(2).unwrap();
    assert!(
        matches!(right.writer, Writer::Post { weight, .. } if weight == 0.4),
        "{right:?}"
    );
    g.params_mut().set(w, ParamValue::Float(0.0)).unwrap();
    let right = g.joint_source(2).unwrap();
    assert!(matches!(right.writer, Writer::Node { .. }), "{right:?}");
    assert!(g.joint_source(3).is_none());
}
