//! Retarget nodes: a subgraph of another rig put on the graph's rig. The source here is the
//! mannequin itself, declared as a second rig, so a retarget must give what playing the clip
//! directly gives: pose, root motion, events, snapshots.

use std::sync::Arc;

use crate::graph::{
    ClipNode, Curve, GraphBuilder, GraphError, RetargetNode, RigId, StateMachine, Transition,
};
use crate::retarget::{JointMap, RetargetOptions, Retargeter};
use crate::root_motion::RootMotionMode;
use crate::{mannequin, Skeleton, Transform};

fn model_positions(s: &Skeleton, pose: &[Transform]) -> Vec<glam::Vec3> {
    let mut m = pose.to_vec();
    for (j, p) in s.parents().iter().enumerate() {
        if let Some(p) = p {
            m[j] = m[*p as usize].mul_transform(&pose[j]);
        }
    }
    m.iter().map(|t| t.translation).collect()
}

fn retargeter(target: &Skeleton, source: &Skeleton) -> Arc<Retargeter> {
    let map = JointMap::auto(target, source).map;
    Arc::new(Retargeter::new(
        target,
        source,
        &map,
        &RetargetOptions::default(),
    ))
}

fn close(a: &[glam::Vec3], b: &[glam::Vec3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f32::max)
}

#[test]
fn a_retargeted_clip_plays_as_the_clip() {
    let model = mannequin::build();
    let own = Arc::new(model.skeleton.clone());
    let other = Arc::new(model.skeleton.clone());
    let walk = Arc::new(model.clips[model.find_clip("walk").unwrap()].clone());

    let mut direct = GraphBuilder::new(own.clone());
    let clip = direct.add(ClipNode::new(walk.clone()).event("step", 0.3));
    direct.root_motion("root", RootMotionMode::Ground);
    let mut direct = direct.build(clip).unwrap();

    let mut b = GraphBuilder::new(own.clone());
    let rig = b.source_rig(other.clone());
    assert_eq!(b.source_rig(other.clone()), rig, "one skeleton, one rig");
    let clip = b.add(ClipNode::new(walk).event("step", 0.3));
    let node = b.add(RetargetNode {
        input: clip,
        from: rig,
        retargeter: retargeter(&own, &other),
    });
    b.root_motion("root", RootMotionMode::Ground);
    let mut g = b.build(node).unwrap();

    let mut events = (0, 0);
    for frame in 0..90 {
        direct.advance(1.0 / 60.0);
        g.advance(1.0 / 60.0);
        let (a, b) = (direct.evaluate().to_vec(), g.evaluate().to_vec());
        let d = close(&model_positions(&own, &a), &model_positions(&own, &b));
        assert!(d < 1e-4, "frame {frame}: pose off by {d} m");
        let (ma, mb) = (direct.root_motion_world(), g.root_motion_world());
        assert!(
            ma.translation.distance(mb.translation) < 1e-4,
            "frame {frame}: root motion {} against {}",
            mb.translation,
            ma.translation
        );
        events.0 += direct.events().count();
        events.1 += g.events().count();
    }
    assert!(
        direct.root_motion_world().translation.length() > 0.5,
        "the walk travels"
    );
    assert_eq!(events.0, events.1);
    assert!(events.1 > 0);
}

#[test]
fn a_state_machine_of_the_other_rig_switches_and_snapshots_restore() {
    let model = mannequin::build();
    let own = Arc::new(model.skeleton.clone());
    let other = Arc::new(model.skeleton.clone());
    let clip = |name: &str| Arc::new(model.clips[model.find_clip(name).unwrap()].clone());
    let mut b = GraphBuilder::new(own.clone());
    let go = b.trigger("go").unwrap();
    let rig = b.source_rig(other.clone());
    let idle = b.add(ClipNode::new(clip("idle")));
    let run = b.add(ClipNode::new(clip("run")));
    let mut sm = StateMachine::new();
    let s_idle = sm.state("idle", idle);
    let s_run = sm.state("run", run);
    sm.transition(
        Transition::new(s_idle, s_run)
            .on(go)
            .blend(0.2, Curve::Linear),
    );
    let sm = b.add(sm);
    let node = b.add(RetargetNode {
        input: sm,
        from: rig,
        retargeter: retargeter(&own, &other),
    });
    // and a layer of the character's own rig over it
    let wave = b.add(ClipNode::new(clip("wave")));
    let layer = b.add(crate::graph::LayerNode::new(node, wave).weight(0.5));
    let mut g = b.build(layer).unwrap();
    g.advance(0.5);
    g.params_mut().fire(go).unwrap();
    g.advance(0.1);
    let snap = g.snapshot();
    let later: Vec<Vec<Transform>> = (0..20)
        .map(|_| {
            g.advance(1.0 / 60.0);
            g.evaluate().to_vec()
        })
        .collect();
    g.restore(&snap);
    for (k, want) in later.iter().enumerate() {
        g.advance(1.0 / 60.0);
        assert_eq!(g.evaluate(), &want[..], "frame {k} after restoring");
    }
    assert!(g.evaluate().iter().all(Transform::is_finite));
}

#[test]
fn misuse_is_refused() {
    let model = mannequin::build();
    let own = Arc::new(model.skeleton.clone());
    let walk = Arc::new(model.clips[0].clone());
    // a retarget from the graph's own rig
    let mut b = GraphBuilder::new(own.clone());
    let clip = b.add(ClipNode::new(walk.clone()));
    let node = b.add(RetargetNode {
        input: clip,
        from: RigId::OWN,
        retargeter: retargeter(&own, &own),
    });
    let e = b.build(node).unwrap_err();
    assert!(e.to_string().contains("another rig"), "{e}");
    // a retargeter made for other skeletons
    let mut b = GraphBuilder::new(own.clone());
    let small = Arc::new(crate::graph::tests::skel().as_ref().clone());
    let rig = b.source_rig(small.clone());
    let clip = b.add(ClipNode::new(walk));
    let node = b.add(RetargetNode {
        input: clip,
        from: rig,
        retargeter: retargeter(&own, &own),
    });
    let e = b.build(node).unwrap_err();
    assert!(matches!(e, GraphError::Invalid { .. }), "{e}");
    assert!(e.to_string().contains("joints onto"), "{e}");
}
