//! Morph weights through the graph, as joints go: clip players sample them (a set without a
//! track holds its defaults), blends and blend spaces mix them, layers blend them by their mask
//! (the face follows the joint its mesh follows), additive layers add their difference,
//! transitions fade them (playing and frozen sources), mirror swaps sided targets, and
//! `PostOp::SetMorph` sets them.

use std::sync::Arc;

use super::{close, hold, skel};
use crate::graph::*;
use crate::{Clip, Interpolation, MorphSet, MorphTrack, Morphs, Skeleton};

/// The three-joint rig with a `face` (smile_L, smile_R, blink) following `L_arm` (defaults
/// 0, 0, 0.25).
fn face_skel() -> Arc<Skeleton> {
    let face = MorphSet {
        name: "face".into(),
        targets: vec!["smile_L".into(), "smile_R".into(), "blink".into()],
        defaults: vec![0.0, 0.0, 0.25],
        joint: Some(1),
        node: None,
    };
    Arc::new(Skeleton::clone(&skel()).with_morphs(Morphs::new(vec![face])))
}

/// A 1 s clip holding the root at x = 0 and the face at `w` (LINEAR from `w` to `w`).
fn face(name: &str, w: [f32; 3]) -> Arc<Clip> {
    let base = hold(name, 0, 0.0);
    let track = MorphTrack {
        set: 0,
        targets: 3,
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: [w, w].concat(),
    };
    Arc::new(Clip::clone(&base).with_morphs(vec![track]))
}

fn weights(g: &mut Graph) -> Vec<f32> {
    g.evaluate();
    g.morphs().to_vec()
}

#[track_caller]
fn close_all(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (a, b) in got.iter().zip(want) {
        close(*a, *b);
    }
}

/// A clip without weights holds the defaults; a blend mixes two faces by weight.
#[test]
fn sampling_and_blends() {
    let mut b = GraphBuilder::new(face_skel());
    let still = b.clip(hold("still", 0, 0.0));
    let mut g = b.build(still).unwrap();
    close_all(&weights(&mut g), &[0.0, 0.0, 0.25]);
    let mut b = GraphBuilder::new(face_skel());
    let w = b.float("w", 0.25, 0.0, 1.0).unwrap();
    let a = b.clip(face("a", [1.0, 0.0, 0.0]));
    let c = b.clip(face("c", [0.0, 1.0, 1.0]));
    let space = b.add(BlendSpace1D::new(w).sample(0.0, a).sample(1.0, c));
    let mut g = b.build(space).unwrap();
    g.advance(1.0 / 60.0);
    close_all(&weights(&mut g), &[0.75, 0.25, 0.25]);
}

/// A layer over the L_arm subtree moves the face with it; a layer masked to the other side
/// leaves it; additive adds its difference from the rest (the defaults).
#[test]
fn layers_masks_and_additive() {
    for (joint, want) in [("L_arm", [0.5, 0.0, 0.625]), ("R_arm", [0.0, 0.0, 0.25])] {
        let mut b = GraphBuilder::new(face_skel());
        let base = b.clip(hold("base", 0, 0.0));
        let over = b.clip(face("over", [1.0, 0.0, 1.0]));
        let mask = b.mask().subtree(b.skeleton(), joint, 1.0).unwrap();
        let node = b.add(LayerNode::new(base, over).weight(0.5).mask(mask));
        let mut g = b.build(node).unwrap();
        close_all(&weights(&mut g), &want);
    }
    let mut b = GraphBuilder::new(face_skel());
    let base = b.clip(face("base", [0.0, 0.5, 0.25]));
    let add = b.clip(face("add", [1.0, 0.0, 0.75]));
    let node = b.add(AdditiveNode::new(base, add, Reference::RestPose).weight(0.5));
    let mut g = b.build(node).unwrap();
    // base + 0.5 * (add - defaults) = (0.5, 0.5, 0.5)
    close_all(&weights(&mut g), &[0.5, 0.5, 0.5]);
}

/// A transition fades the face from the source to the target, playing or frozen.
#[test]
fn transitions_fade_weights() {
    for source in [SourceMode::Playing, SourceMode::Frozen] {
        let mut b = GraphBuilder::new(face_skel());
        let go = b.trigger("go").unwrap();
        let a = b.clip(face("a", [1.0, 0.0, 0.0]));
        let c = b.clip(face("c", [0.0, 1.0, 1.0]));
        let mut sm = StateMachine::new();
        let (sa, sc) = (sm.state("A", a), sm.state("C", c));
        sm.transition(
            Transition::new(sa, sc)
                .on(go)
                .blend(1.0, Curve::Linear)
                .source(source),
        );
        let root = b.add(sm);
        let mut g = b.build(root).unwrap();
        g.params_mut().fire(go).unwrap();
        g.advance(1.0 / 60.0);
        g.advance(0.5);
        let w = weights(&mut g);
        assert!(w[0] > 0.3 && w[0] < 0.7, "{source:?}: {w:?}");
        close(w[0] + w[1], 1.0);
    }
}

/// Mirror swaps smile_L and smile_R and keeps blink; a SetMorph post op sets a target from a
/// parameter, blended by its weight, clamped to 0..1.
#[test]
fn mirror_and_post() {
    let mut b = GraphBuilder::new(face_skel());
    let a = b.clip(face("a", [1.0, 0.2, 0.5]));
    let m = b.add(MirrorNode { input: a });
    let p = b.float("grin", 0.0, 0.0, 1.0).unwrap();
    b.post(PostOp::SetMorph {
        targets: vec![2],
        value: Value::Param(p),
        weight: Value::Const(0.5),
    });
    let mut g = b.build(m).unwrap();
    close_all(&weights(&mut g), &[0.2, 1.0, 0.25]);
    g.params_mut().set_float(p, 1.0).unwrap();
    g.advance(1.0 / 60.0);
    close_all(&weights(&mut g), &[0.2, 1.0, 0.75]);
    let mut b = GraphBuilder::new(face_skel());
    let a = b.clip(face("a", [0.0; 3]));
    b.post(PostOp::SetMorph {
        targets: vec![9],
        value: Value::Const(1.0),
        weight: Value::Const(1.0),
    });
    assert!(matches!(b.build(a), Err(GraphError::UnknownMorph(_))));
}
