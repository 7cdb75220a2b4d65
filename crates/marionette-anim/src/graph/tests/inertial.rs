//! Inertial transitions: the target plays at full weight at once, the outgoing pose's offset
//! decays over the blend, continuous in position and velocity; the source is not evaluated after
//! the switch; interruption and snapshots.

use super::{close, skel, slide};
use crate::graph::*;

const DT: f32 = 1.0 / 60.0;

/// A: x = t, B: x = 0.3 + 2t (both 10 s, looping); A -> B on `go`, inertial over `blend`.
fn machine(blend: f32, mode: SourceMode) -> (Graph, ParamId) {
    let mut b = GraphBuilder::new(skel());
    let go = b.trigger("go").unwrap();
    let a = b.clip(slide("a", 0, 10.0, 0.0, 10.0));
    let bn = b.clip(slide("b", 0, 10.0, 0.3, 20.3));
    let mut sm = StateMachine::new();
    let (sa, sb) = (sm.state("A", a), sm.state("B", bn));
    sm.transition(
        Transition::new(sa, sb)
            .on(go)
            .blend(blend, Curve::Linear)
            .source(mode),
    );
    let root = b.add_named("body", sm);
    (b.build(root).unwrap(), go)
}

/// x of the root, frame by frame for `frames` frames, the trigger fired before frame `at`.
fn track(g: &mut Graph, go: ParamId, at: usize, frames: usize) -> Vec<f32> {
    (0..frames)
        .map(|k| {
            if k == at {
                g.params_mut().fire(go).unwrap();
            }
            g.advance(DT);
            g.evaluate()[0].translation.x
        })
        .collect()
}

#[test]
fn the_switch_keeps_the_outgoing_position_and_velocity() {
    let (mut g, go) = machine(0.5, SourceMode::Inertial);
    let xs = track(&mut g, go, 30, 70);
    // the switch frame shows A where it is (31 steps in), nothing of B yet
    close(xs[30], 31.0 * DT);
    let speed = |k: usize| (xs[k + 1] - xs[k]) / DT;
    // A moves at 1/s; across the switch the speed changes by little (B moves at 2/s)
    assert!((speed(29) - 1.0).abs() < 1e-3, "{}", speed(29));
    assert!(
        (speed(30) - 1.0).abs() < 0.05,
        "speed after the switch {}",
        speed(30)
    );
    // after the blend, B alone: 0.3 + 2 t, t since the switch
    close(xs[69], 0.3 + 2.0 * 39.0 * DT);
    let info = g.state_machines().next().unwrap();
    assert!(info.transition.is_none());
}

#[test]
fn during_the_blend_only_the_target_is_evaluated() {
    let (mut g, go) = machine(0.5, SourceMode::Inertial);
    track(&mut g, go, 5, 12);
    let t = g.state_machines().next().unwrap().transition.unwrap();
    assert!(t.inertial && !t.frozen);
    assert_eq!(g.node_weight(NodeId(0)), 0.0, "A is not played");
    assert_eq!(g.node_weight(NodeId(1)), 1.0, "B at full weight");
}

#[test]
fn a_crossfade_breaks_the_velocity_an_inertial_transition_keeps() {
    let jump = |mode| {
        let (mut g, go) = machine(0.5, mode);
        let xs = track(&mut g, go, 30, 40);
        let v: Vec<f32> = xs.windows(2).map(|w| (w[1] - w[0]) / DT).collect();
        v.windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max)
    };
    let (frozen, inertial) = (jump(SourceMode::Frozen), jump(SourceMode::Inertial));
    assert!(inertial < 0.1, "inertial {inertial}");
    assert!(
        frozen > 10.0 * inertial,
        "frozen {frozen} inertial {inertial}"
    );
}

#[test]
fn a_snapshot_mid_blend_replays_the_same_poses() {
    let (mut g, go) = machine(0.4, SourceMode::Inertial);
    track(&mut g, go, 3, 8);
    let snap = g.snapshot();
    let a = track(&mut g, go, usize::MAX, 10);
    g.restore(&snap);
    let b = track(&mut g, go, usize::MAX, 10);
    assert_eq!(a, b);
}

#[test]
fn an_inertial_interruption_starts_from_the_blended_pose() {
    let mut b = GraphBuilder::new(skel());
    let go = b.trigger("go").unwrap();
    let a = b.clip(slide("a", 0, 10.0, 0.0, 10.0));
    let bn = b.clip(slide("b", 0, 10.0, 5.0, 5.0));
    let mut sm = StateMachine::new();
    let (sa, sb) = (sm.state("A", a), sm.state("B", bn));
    sm.transition(Transition::new(sa, sb).on(go).blend(0.5, Curve::Linear));
    sm.transition(
        Transition::new(sb, sa)
            .on(go)
            .blend(0.3, Curve::Linear)
            .source(SourceMode::Inertial),
    );
    let root = b.add(sm);
    let mut g = b.build(root).unwrap();
    let xs = track(&mut g, go, 10, 20);
    // at frame 15 the crossfade A -> B is half way; the trigger again interrupts it
    let mut tail = track(&mut g, go, 0, 2);
    let before = xs[19];
    let switch = tail.remove(0);
    let step = (xs[19] - xs[18]).abs();
    assert!(
        (switch - before).abs() < 2.0 * step + 1e-3,
        "{before} -> {switch}"
    );
    let t = g.state_machines().next().unwrap().transition.unwrap();
    assert!(t.inertial && t.interrupted);
}
