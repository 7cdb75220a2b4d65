//! State events: on enter and exit (in the step a transition enters or leaves the state) and at
//! a time in the state (once per entry), reported by `Graph::events` with their state.

use super::{skel, slide};
use crate::graph::*;

/// A and B loop on the root; `go` moves A -> B, `back` B -> A, both cuts. B has events on
/// enter, 0.25 s in and on exit.
fn machine(
    events: &[(u16, &str, StateEventTime)],
) -> Result<(Graph, ParamId, ParamId), GraphError> {
    let mut b = GraphBuilder::new(skel());
    let go = b.trigger("go")?;
    let back = b.trigger("back")?;
    let a = b.clip(slide("a", 0, 10.0, 0.0, 10.0));
    let bn = b.clip(slide("b", 0, 10.0, 100.0, 110.0));
    let mut sm = StateMachine::new();
    let (sa, sb) = (sm.state("A", a), sm.state("B", bn));
    sm.transition(Transition::new(sa, sb).on(go));
    sm.transition(Transition::new(sb, sa).on(back));
    for (state, name, at) in events {
        sm.event(StateId(*state), *name, *at);
    }
    let root = b.add_named("body", sm);
    Ok((b.build(root)?, go, back))
}

fn fired(g: &Graph) -> Vec<(String, Option<String>, f32)> {
    g.events()
        .map(|e| (e.name.to_string(), e.state.map(str::to_string), e.time))
        .collect()
}

#[test]
fn enter_time_and_exit_fire_once_per_entry() {
    let (mut g, go, back) = machine(&[
        (1, "in", StateEventTime::Enter),
        (1, "quarter", StateEventTime::After(0.25)),
        (1, "out", StateEventTime::Exit),
    ])
    .expect("builds");
    let b = |s: &str, t: f32| (s.to_string(), Some("B".to_string()), t);
    // the start state is not entered at time 0, and A has no events
    g.advance(0.1);
    assert_eq!(fired(&g), vec![]);
    g.params_mut().fire(go).expect("trigger");
    g.advance(0.1);
    assert_eq!(fired(&g), vec![b("in", 0.0)]);
    g.advance(0.1);
    assert_eq!(fired(&g), vec![]);
    // (60 Hz steps) B's time goes from 11/60 to 17/60 s here, crossing 0.25 s
    g.advance(0.1);
    assert_eq!(fired(&g), vec![b("quarter", 0.25)]);
    // once per entry: B keeps playing, nothing more
    g.advance(1.0);
    assert_eq!(fired(&g), vec![]);
    g.params_mut().fire(back).expect("trigger");
    g.advance(0.1);
    let out = fired(&g);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!((out[0].0.as_str(), out[0].1.as_deref()), ("out", Some("B")));
    // the exit reports the time spent in B: 78 steps of 1/60 s (5 + 6 + 6 + 60, and the step
    // the transition fires in)
    assert!((out[0].2 - 1.3).abs() < 1e-4, "{out:?}");
    // entering again fires the enter and, later, the timed event again
    g.params_mut().fire(go).expect("trigger");
    g.advance(0.1);
    assert_eq!(fired(&g), vec![b("in", 0.0)]);
    g.advance(0.3);
    assert_eq!(fired(&g), vec![b("quarter", 0.25)]);
}

#[test]
fn bad_events_are_rejected() {
    let e = machine(&[(1, "never", StateEventTime::After(0.0))]).err();
    assert_eq!(
        e.map(|e| e.to_string()),
        Some("node #2 'body' (state machine): event 'never' of state 'B' is at 0 s (it must be a number > 0)".to_string())
    );
    let e = machine(&[(5, "nowhere", StateEventTime::Enter)]).err();
    assert_eq!(
        e.map(|e| e.to_string()),
        Some(
            "node #2 'body' (state machine): event 'nowhere' is on a state that does not exist"
                .to_string()
        )
    );
}
