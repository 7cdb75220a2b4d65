//! Clip player, blends, blend spaces, additive, layer, time scale, mirror, sync, post ops.

use glam::{Vec2, Vec3};

use super::{close, hold, skel, slide, turn};
use crate::graph::*;
use crate::ik::LookAt;
use crate::mirror::Side;
use crate::WrapMode;

/// Clip player: speed 2 and start offset 0.25 loop to 0.25 after 0.5 s; phase and events report.
#[test]
fn clip_player_speed_offset_loop_events() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.add_named(
        "c",
        ClipNode::new(slide("a", 0, 1.0, 0.0, 1.0))
            .speed(2.0)
            .start(0.25)
            .event("step", 0.6)
            .event("never", 0.1),
    );
    let mut g = b.build(clip).unwrap();
    close(g.evaluate()[0].translation.x, 0.25);
    g.advance(0.5);
    close(g.evaluate()[0].translation.x, 0.25);
    let info = g.nodes().next().unwrap();
    close(info.phase.unwrap(), 0.25);
    assert_eq!(info.name, Some("c"));
    // 0.25 -> 1.25 crosses 0.6 once, and 0.1 is only crossed at 1.1
    let names: Vec<&str> = g.events().map(|e| e.name).collect();
    assert_eq!(names, vec!["step", "never"]);
    g.advance(0.1);
    assert_eq!(g.events().count(), 0);
}

/// A huge or invalid dt runs at most MAX_STEPS_PER_ADVANCE steps, or none.
#[test]
fn advance_is_bounded() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.clip(slide("a", 0, 1.0, 0.0, 1.0));
    let mut g = b.build(clip).unwrap();
    assert_eq!(g.advance(1.0e9), MAX_STEPS_PER_ADVANCE);
    assert_eq!(g.advance(f32::NAN), 0);
    assert_eq!(g.advance(-1.0), 0);
    assert_eq!(g.advance(1.0 / 60.0), 1);
    assert_eq!(g.steps(), MAX_STEPS_PER_ADVANCE as u64 + 1);
}

/// A once-player stops at its end; ping-pong comes back.
#[test]
fn clip_player_once_and_ping_pong() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.add(ClipNode::new(slide("a", 0, 1.0, 0.0, 2.0)).once());
    let mut g = b.build(clip).unwrap();
    g.advance(1.5);
    close(g.evaluate()[0].translation.x, 2.0);
    let mut b = GraphBuilder::new(skel());
    let clip = b.add(ClipNode::new(slide("a", 0, 1.0, 0.0, 2.0)).wrap(WrapMode::PingPong));
    let mut g = b.build(clip).unwrap();
    g.advance(1.25);
    close(g.evaluate()[0].translation.x, 1.5);
}

/// N-way blend with a param weight: weights 1 and 3 normalise to 0.25 / 0.75: x = 0.25*4 + 0.75*8.
#[test]
fn blend_with_param_weight() {
    let mut b = GraphBuilder::new(skel());
    let w = b.float("w", 3.0, 0.0, 10.0).unwrap();
    let a = b.clip(hold("a", 0, 4.0));
    let c = b.clip(hold("c", 0, 8.0));
    let blend = b.add(BlendNode::new().input(a, 1.0).input(c, w));
    let mut g = b.build(blend).unwrap();
    g.advance(1.0 / 60.0);
    close(g.evaluate()[0].translation.x, 7.0);
    close(g.node_weight(a), 0.25);
    close(g.node_weight(c), 0.75);
}

/// 2D blend space: (0.5, 0.5) in the triangle (0,0), (2,0), (0,2) weighs 0.5, 0.25, 0.25.
#[test]
fn blend_space_2d() {
    let mut b = GraphBuilder::new(skel());
    let px = b.float("x", 0.5, -5.0, 5.0).unwrap();
    let py = b.float("y", 0.5, -5.0, 5.0).unwrap();
    let n0 = b.clip(hold("a", 0, 0.0));
    let n1 = b.clip(hold("b", 0, 1.0));
    let n2 = b.clip(hold("c", 0, 2.0));
    let space = b.add(
        BlendSpace2D::new(px, py)
            .sample(Vec2::ZERO, n0)
            .sample(Vec2::new(2.0, 0.0), n1)
            .sample(Vec2::new(0.0, 2.0), n2),
    );
    let mut g = b.build(space).unwrap();
    close(g.evaluate()[0].translation.x, 0.75);
    // outside the hull: (5, -5) clamps to the corner (2, 0)
    g.params_mut().set_float(px, 5.0).unwrap();
    g.params_mut().set_float(py, -5.0).unwrap();
    g.advance(1.0 / 60.0);
    close(g.evaluate()[0].translation.x, 1.0);
}

/// Additive: base x=1 plus half of (x=3 minus rest x=0) gives 2.5; a mask of 0 on the joint gives 1.
#[test]
fn additive_node() {
    for (mask_weight, expected) in [(1.0, 2.5), (0.0, 1.0)] {
        let mut b = GraphBuilder::new(skel());
        let base = b.clip(hold("base", 0, 1.0));
        let add = b.clip(hold("add", 0, 3.0));
        let mask = b.mask().joint(b.skeleton(), "root", mask_weight).unwrap();
        let node = b.add(
            AdditiveNode::new(base, add, Reference::RestPose)
                .weight(0.5)
                .mask(mask),
        );
        let mut g = b.build(node).unwrap();
        close(g.evaluate()[0].translation.x, expected);
    }
}

/// Layer with a left-side mask at weight 0.5: the left arm goes halfway, the right arm stays.
#[test]
fn layer_with_side_mask() {
    let mut b = GraphBuilder::new(skel());
    let base = b.clip(hold("base", 1, 0.0));
    let layer = b.clip(both_arms(10.0));
    let mask = b.mask().side(b.skeleton(), Side::Left, 1.0);
    let node = b.add(LayerNode::new(base, layer).weight(0.5).mask(mask));
    let mut g = b.build(node).unwrap();
    let pose = g.evaluate();
    close(pose[1].translation.x, 5.0);
    close(pose[2].translation.x, 0.0);
}

/// A clip holding both arms at x.
fn both_arms(x: f32) -> std::sync::Arc<crate::Clip> {
    let mut tracks = hold("l", 1, x).tracks.clone();
    tracks.extend(hold("r", 2, x).tracks.iter().cloned());
    std::sync::Arc::new(crate::Clip::new("both", tracks))
}

/// Time scale 0.5: after 0.5 s the clip is at 0.25 s.
#[test]
fn time_scale() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.clip(slide("a", 0, 1.0, 0.0, 1.0));
    let slow = b.add(TimeScaleNode {
        input: clip,
        scale: 0.5.into(),
    });
    let mut g = b.build(slow).unwrap();
    g.advance(0.5);
    close(g.evaluate()[0].translation.x, 0.25);
}

/// Mirror: the left arm's motion shows on the right arm, with x negated.
#[test]
fn mirror_node() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.clip(hold("a", 1, 1.0));
    let m = b.add(MirrorNode { input: clip });
    let mut g = b.build(m).unwrap();
    let pose = g.evaluate();
    close(pose[2].translation.x, -1.0);
    close(pose[1].translation.x, 0.0);
}

/// Sync: walk (1 s, weight 0.6) and run (2 s, weight 0.4) share one phase that advances at the
/// weight-blended cycle of 0.6 × 1 + 0.4 × 2 = 1.4 s, so after 0.25 s both are at 0.25 / 1.4;
/// without sync each runs at its own rate (0.25 and 0.125).
#[test]
fn sync_keeps_phase() {
    for sync in [true, false] {
        let mut b = GraphBuilder::new(skel());
        let speed = b.float("speed", 0.4, 0.0, 1.0).unwrap();
        let walk = b.clip(slide("walk", 0, 1.0, 0.0, 1.0));
        let run = b.clip(slide("run", 1, 2.0, 0.0, 1.0));
        let space = b.add(
            BlendSpace1D::new(speed)
                .sample(0.0, walk)
                .sample(1.0, run)
                .sync(sync),
        );
        let mut g = b.build(space).unwrap();
        g.advance(0.25);
        let phases: Vec<f32> = g.nodes().take(2).map(|n| n.phase.unwrap()).collect();
        let synced = 0.25 / 1.4;
        close(phases[0], if sync { synced } else { 0.25 });
        close(phases[1], if sync { synced } else { 0.125 });
        // the run clip's pose: joint 1 at x = phase (its clip moves 0 -> 1 over 2 s), weighted 0.4
        close(
            g.evaluate()[1].translation.x,
            0.4 * if sync { synced } else { 0.125 },
        );
    }
}

/// Post ops: a look-at on the root turns +Z towards a target on +X (param driven).
#[test]
fn post_look_at() {
    let mut b = GraphBuilder::new(skel());
    let target = b.vec3("look", Vec3::new(3.0, 0.0, 0.0)).unwrap();
    let clip = b.clip(turn("still", 0, 0.0));
    b.post(PostOp::LookAt {
        joint: 0,
        target: target.into(),
        settings: LookAt::default(),
        weight: 1.0.into(),
    });
    let mut g = b.build(clip).unwrap();
    let q = g.evaluate()[0].rotation;
    assert!(
        q.abs_diff_eq(
            glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            1e-5
        ),
        "{q:?}"
    );
}

/// Validation names the node: a shared input, a bad blend space, a wrongly kinded parameter.
#[test]
fn validation_errors_name_the_node() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.add_named("idle", ClipNode::new(hold("a", 0, 0.0)));
    let b1 = b.add(BlendNode::new().input(clip, 1.0));
    let b2 = b.add(BlendNode::new().input(clip, 1.0).input(b1, 1.0));
    let err = b.build(b2).unwrap_err();
    assert!(err.to_string().contains("node #0 'idle' (clip)"), "{err}");

    let mut b = GraphBuilder::new(skel());
    let p = b.float("p", 0.0, 0.0, 1.0).unwrap();
    let x = b.clip(hold("a", 0, 0.0));
    let y = b.clip(hold("b", 0, 0.0));
    let space = b.add_named("move", BlendSpace1D::new(p).sample(1.0, x).sample(1.0, y));
    let err = b.build(space).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("node #2 'move' (blend space 1D): sample positions"),
        "{err}"
    );

    let mut b = GraphBuilder::new(skel());
    let v = b.vec3("v", Vec3::ZERO).unwrap();
    let x = b.clip(hold("a", 0, 0.0));
    let space = b.add(BlendSpace1D::new(v).sample(0.0, x));
    assert!(matches!(b.build(space), Err(GraphError::Invalid { .. })));
}

/// Additive against a clip frame: base x=1 plus (slide at 0.5 s: x=0.5, minus its frame at 0: x=0).
#[test]
fn additive_clip_reference() {
    let mut b = GraphBuilder::new(skel());
    let base = b.clip(hold("base", 0, 1.0));
    let moving = slide("add", 0, 1.0, 0.0, 1.0);
    let add = b.clip(moving.clone());
    let node = b.add(AdditiveNode::new(base, add, Reference::ClipAt(moving, 0.0)));
    let mut g = b.build(node).unwrap();
    g.advance(0.5);
    close(g.evaluate()[0].translation.x, 1.5);
}

/// Node introspection names the clip a clip player plays (for weight lanes and reports).
#[test]
fn node_info_names_clips() {
    let mut b = GraphBuilder::new(skel());
    let a = b.clip(hold("idle", 1, 0.0));
    let c = b.clip(hold("walk", 1, 1.0));
    let blend = b.add(BlendNode::new().input(a, 0.5).input(c, 0.5));
    let g = b.build(blend).unwrap();
    let clips: Vec<Option<&str>> = g.nodes().map(|n| n.clip).collect();
    assert_eq!(clips, vec![Some("idle"), Some("walk"), None]);
}
