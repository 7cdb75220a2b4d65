//! State machine transitions: triggers, conditions, predicates, end of clip, exit time, curves,
//! frozen and playing sources, interruption.

use super::{close, skel, slide};
use crate::graph::*;

const DT: f32 = 1.0 / 60.0;

/// A: x = t (10 s), B: x = 100 + t, C: x = -50 + t, all on the root, looping.
struct Rig {
    graph: Graph,
    go: ParamId,
    back: ParamId,
}

fn rig(to_b: Transition, b_to_c: Option<Transition>) -> Rig {
    let mut b = GraphBuilder::new(skel());
    let go = b.trigger("go").unwrap();
    let back = b.trigger("back").unwrap();
    let a = b.clip(slide("a", 0, 10.0, 0.0, 10.0));
    let bn = b.clip(slide("b", 0, 10.0, 100.0, 110.0));
    let cn = b.clip(slide("c", 0, 10.0, -50.0, -40.0));
    let mut sm = StateMachine::new();
    let (sa, sb, sc) = (sm.state("A", a), sm.state("B", bn), sm.state("C", cn));
    let fix = |t: Transition| Transition {
        from: Some(sa),
        to: sb,
        ..t
    };
    sm.transition(fix(to_b).on(go));
    if let Some(t) = b_to_c {
        sm.transition(
            Transition {
                from: Some(sb),
                to: sc,
                ..t
            }
            .on(back),
        );
    }
    let root = b.add_named("body", sm);
    Rig {
        graph: b.build(root).unwrap(),
        go,
        back,
    }
}

fn x(g: &mut Graph) -> f32 {
    g.evaluate()[0].translation.x
}

fn placeholder() -> Transition {
    Transition::new(StateId::default(), StateId::default())
}

/// Frozen source (seed 003): A is captured at the switch; B starts at 0 and is not stretched.
#[test]
fn trigger_frozen_linear() {
    let mut r = rig(placeholder().blend(0.5, Curve::Linear), None);
    r.graph.advance(0.5);
    r.graph.params_mut().fire(r.go).unwrap();
    r.graph.advance(DT); // A reaches 0.5 + DT, then the switch captures it
    let frozen = 0.5 + DT;
    r.graph.advance(0.25);
    // B has played 0.25 s (it started at 0 when the transition started), weight 0.25 / 0.5
    let expected = 0.5 * frozen + 0.5 * (100.0 + 0.25);
    close(x(&mut r.graph), expected);
    let info = r.graph.state_machines().next().unwrap();
    assert_eq!(info.current, "B");
    let t = info.transition.unwrap();
    assert_eq!((t.from, t.frozen), ("A", true));
    close(t.progress, 0.5);
    // B's phase: 0.25 s of 10 s
    let b_phase = r
        .graph
        .nodes()
        .find(|n| n.id.index() == 1)
        .unwrap()
        .phase
        .unwrap();
    close(b_phase, 0.025);
    // after the blend, B alone, still at its own speed
    r.graph.advance(0.5);
    close(x(&mut r.graph), 100.75);
    assert!(r
        .graph
        .state_machines()
        .next()
        .unwrap()
        .transition
        .is_none());
}

/// Playing source: A keeps moving while it fades out; smoothstep weight at 1/4 progress = 0.15625.
#[test]
fn playing_source_smoothstep() {
    let mut r = rig(
        placeholder()
            .blend(0.4, Curve::SmoothStep)
            .source(SourceMode::Playing),
        None,
    );
    r.graph.advance(0.5);
    r.graph.params_mut().fire(r.go).unwrap();
    r.graph.advance(DT);
    r.graph.advance(0.1);
    let a = 0.5 + DT + 0.1;
    let w = 0.15625;
    close(x(&mut r.graph), (1.0 - w) * a + w * (100.0 + 0.1));
    assert_eq!(r.graph.node_weight(NodeId(0)), 1.0 - w);
}

/// Interruption: B -> C fires mid-blend; the blended pose at that moment becomes the frozen source.
#[test]
fn interruption_freezes_blended_pose() {
    let mut r = rig(
        placeholder().blend(0.5, Curve::Linear),
        Some(placeholder().blend(0.5, Curve::Linear)),
    );
    r.graph.advance(0.5);
    r.graph.params_mut().fire(r.go).unwrap();
    r.graph.advance(DT);
    let frozen_a = 0.5 + DT;
    r.graph.advance(0.25);
    r.graph.params_mut().fire(r.back).unwrap();
    r.graph.advance(DT);
    // at the interrupting step the A->B blend had progressed 0.25 + DT
    let e = 0.25 + DT;
    let blended = (1.0 - e / 0.5) * frozen_a + (e / 0.5) * (100.0 + e);
    // right after the switch C has weight 0: the pose is the captured blend
    close(x(&mut r.graph), blended);
    let info = r.graph.state_machines().next().unwrap();
    assert_eq!(info.current, "C");
    let t = info.transition.unwrap();
    assert!(t.interrupted && t.frozen);
    assert_eq!(t.from, "B");
    r.graph.advance(0.25);
    close(x(&mut r.graph), 0.5 * blended + 0.5 * (-50.0 + 0.25));
}

/// A non-interruptible transition ignores later transitions until it completes.
#[test]
fn non_interruptible() {
    let mut r = rig(
        placeholder().blend(0.5, Curve::Linear).interruptible(false),
        Some(placeholder().blend(0.0, Curve::Linear)),
    );
    r.graph.params_mut().fire(r.go).unwrap();
    r.graph.advance(DT);
    r.graph.params_mut().fire(r.back).unwrap();
    r.graph.advance(DT);
    assert_eq!(r.graph.state_machines().next().unwrap().current, "B");
}

/// Parameter comparison, predicate, end of clip and exit time each fire their transition.
#[test]
fn condition_kinds() {
    let build = |cond: Condition, once: bool| {
        let mut b = GraphBuilder::new(skel());
        let speed = b.float("speed", 0.0, 0.0, 10.0).unwrap();
        let mut a = ClipNode::new(slide("a", 0, 1.0, 0.0, 1.0));
        if once {
            a = a.once();
        }
        let a = b.add(a);
        let bn = b.clip(slide("b", 0, 1.0, 5.0, 5.0));
        let mut sm = StateMachine::new();
        let (sa, sb) = (sm.state("A", a), sm.state("B", bn));
        let cond = match cond {
            Condition::Compare(_, op, v) => Condition::Compare(speed, op, v),
            other => other,
        };
        sm.transition(Transition::new(sa, sb).when(cond));
        let root = b.add(sm);
        (b.build(root).unwrap(), speed)
    };
    let current = |g: &Graph| g.state_machines().next().unwrap().current.to_string();
    // speed > 1
    let (mut g, speed) = build(Condition::Compare(ParamId(0), CompareOp::Gt, 1.0), false);
    g.advance(0.1);
    assert_eq!(current(&g), "A");
    g.params_mut().set_float(speed, 1.5).unwrap();
    g.advance(DT);
    assert_eq!(current(&g), "B");
    close(x(&mut g), 5.0);
    // a predicate reading the state time
    let (mut g, _) = build(
        Condition::Predicate(Box::new(|c: &ConditionContext| c.state_time > 0.3)),
        false,
    );
    g.advance(0.29);
    assert_eq!(current(&g), "A");
    g.advance(3.0 * DT);
    assert_eq!(current(&g), "B");
    // end of a once clip (1 s)
    let (mut g, _) = build(Condition::AtEnd, true);
    g.advance(1.0 - 2.0 * DT);
    assert_eq!(current(&g), "A");
    g.advance(3.0 * DT);
    assert_eq!(current(&g), "B");
    // exit time 1.5 on a looping clip: halfway through the second loop
    let (mut g, _) = build(Condition::ExitTime(1.5), false);
    g.advance(1.45);
    assert_eq!(current(&g), "A");
    g.advance(0.1);
    assert_eq!(current(&g), "B");
}

/// A transition without conditions is rejected, naming the state machine and the states.
#[test]
fn transition_needs_a_condition() {
    let mut b = GraphBuilder::new(skel());
    let a = b.clip(slide("a", 0, 1.0, 0.0, 1.0));
    let mut sm = StateMachine::new();
    let s = sm.state("A", a);
    sm.transition(Transition::new(s, s));
    let root = b.add_named("body", sm);
    let err = b.build(root).unwrap_err().to_string();
    assert_eq!(
        err,
        "node #1 'body' (state machine): transition 0 (A -> A) has no condition"
    );
}

/// An any-state transition fires from every other state, but not from its own target.
#[test]
fn any_state_transition() {
    let mut b = GraphBuilder::new(skel());
    let go = b.trigger("go").unwrap();
    let stop = b.trigger("stop").unwrap();
    let a = b.clip(slide("a", 0, 1.0, 0.0, 0.0));
    let bn = b.clip(slide("b", 0, 1.0, 1.0, 1.0));
    let cn = b.clip(slide("c", 0, 1.0, 2.0, 2.0));
    let mut sm = StateMachine::new();
    let (sa, sb, sc) = (sm.state("A", a), sm.state("B", bn), sm.state("C", cn));
    sm.transition(Transition::new(sa, sb).on(go));
    sm.transition(Transition::from_any(sc).on(stop));
    let root = b.add(sm);
    let mut g = b.build(root).unwrap();
    let current = |g: &Graph| g.state_machines().next().unwrap().current.to_string();
    g.params_mut().fire(go).unwrap();
    g.advance(DT);
    assert_eq!(current(&g), "B");
    g.params_mut().fire(stop).unwrap();
    g.advance(DT);
    assert_eq!(current(&g), "C");
    close(x(&mut g), 2.0);
    // firing again while in C restarts nothing (C -> C is excluded); the trigger just clears
    g.params_mut().fire(stop).unwrap();
    g.advance(DT);
    assert_eq!(current(&g), "C");
    assert!(!g.params().is_set(stop));
}

/// A custom curve callback drives the blend weight (here: a step at half time).
#[test]
fn custom_curve_transition() {
    let step = Curve::custom(|t| if t < 0.5 { 0.0 } else { 1.0 });
    let mut r = rig(placeholder().blend(0.5, step), None);
    r.graph.params_mut().fire(r.go).unwrap();
    r.graph.advance(DT);
    r.graph.advance(0.2);
    close(x(&mut r.graph), DT); // A frozen at DT, weight 0
    r.graph.advance(0.1);
    close(x(&mut r.graph), 100.3); // weight 1: B alone at 0.3 s
}

/// A flag condition fires while its bool reads the wanted value (and not otherwise), and
/// mapping a by-name condition to ids keeps its meaning.
#[test]
fn flag_condition() {
    let mut b = GraphBuilder::new(skel());
    let crouch = b.boolean("crouch", false).unwrap();
    let a = b.clip(slide("a", 0, 1.0, 0.0, 1.0));
    let bn = b.clip(slide("b", 0, 1.0, 5.0, 5.0));
    let mut sm = StateMachine::new();
    let (sa, sb) = (sm.state("A", a), sm.state("B", bn));
    let by_name: Condition<&str, ()> = Condition::Flag("crouch", true);
    let cond = by_name
        .try_map(|_| Ok::<_, ()>(crouch), |_| Err(()))
        .unwrap();
    assert_eq!(format!("{cond:?}"), format!("Flag({crouch:?} true)"));
    sm.transition(Transition::new(sa, sb).when(cond));
    let root = b.add(sm);
    let mut g = b.build(root).unwrap();
    let current = |g: &Graph| g.state_machines().next().unwrap().current.to_string();
    g.advance(0.1);
    assert_eq!(current(&g), "A");
    g.params_mut().set_bool(crouch, true).unwrap();
    g.advance(DT);
    assert_eq!(current(&g), "B");
}
