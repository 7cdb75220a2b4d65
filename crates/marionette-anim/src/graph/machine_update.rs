//! State machines in the update pass: transition progress, conditions, firing (with frozen
//! source capture and interruption).

use super::clip_player::reset_subtree;
use super::compile::{Compiled, Node};
use super::eval::{eval_subtree, FiredEvent, Scratch};
use super::nodes::NodeId;
use super::runtime::{ActiveTransition, GraphState, NodeState};
use super::state_machine::{Condition, ConditionContext, SourceMode, StateEventTime, StateMachine};
use super::update::{progress_of, update, Pass};

/// Clears the weights and active flags of every node strictly below `id`.
fn clear_below(c: &Compiled, s: &mut GraphState, id: NodeId) {
    let (first, last) = (c.first[id.index()], c.pos[id.index()]);
    for p in first..last {
        let n = c.order[p as usize].index();
        s.weights[n] = 0.0;
        s.active[n] = false;
    }
}

/// Updates the current state (and a playing source) of a state machine.
#[allow(clippy::too_many_arguments)]
fn update_states(
    c: &Compiled,
    s: &mut GraphState,
    x: &mut Scratch,
    id: NodeId,
    dt: f32,
    w: f32,
    rm: f32,
    pass: Pass,
) {
    let i = id.index();
    let Node::StateMachine(sm) = &c.nodes[i] else {
        return;
    };
    let NodeState::Machine(m) = &mut s.nodes[i] else {
        return;
    };
    let current = sm.states()[m.current as usize].node;
    let (bw, source) = match &mut m.transition {
        Some(t) => {
            let curve = &sm.transitions()[t.index as usize].curve;
            t.weight = curve.eval(if t.duration > 0.0 {
                t.elapsed / t.duration
            } else {
                1.0
            });
            (
                t.weight,
                t.playing.then(|| sm.states()[t.from as usize].node),
            )
        }
        None => (1.0, None),
    };
    update(c, s, x, current, dt, w * bw, rm * bw, pass);
    if let Some(src) = source {
        update(c, s, x, src, dt, w * (1.0 - bw), rm * (1.0 - bw), pass);
    }
}

/// Reports the events of `state` that `when` selects: at state time `time`, or for a timed
/// event at its own time.
fn fire(
    sm: &StateMachine,
    x: &mut Scratch,
    id: NodeId,
    w: f32,
    state: u16,
    time: f32,
    when: impl Fn(StateEventTime) -> bool,
) {
    for (k, e) in sm.events().iter().enumerate() {
        if e.state.0 == state && when(e.at) {
            x.events.push(FiredEvent {
                node: id,
                event: k,
                weight: w,
                time: match e.at {
                    StateEventTime::After(t) => t,
                    _ => time,
                },
            });
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn update_machine(
    c: &Compiled,
    s: &mut GraphState,
    x: &mut Scratch,
    id: NodeId,
    dt: f32,
    w: f32,
    rm: f32,
    pass: Pass,
) {
    let i = id.index();
    let Node::StateMachine(sm) = &c.nodes[i] else {
        return;
    };
    if let NodeState::Machine(m) = &mut s.nodes[i] {
        if let Some(t) = &mut m.transition {
            t.elapsed += dt;
            if t.elapsed >= t.duration {
                m.transition = None;
            }
        }
        let before = m.state_time;
        m.state_time += dt;
        if pass == Pass::Step {
            let (state, now) = (m.current, m.state_time);
            fire(
                sm,
                x,
                id,
                w,
                state,
                now,
                |at| matches!(at, StateEventTime::After(t) if before < t && t <= now),
            );
        }
    }
    update_states(c, s, x, id, dt, w, rm, pass);
    if pass != Pass::Step {
        return;
    }
    // find the first transition that fires
    let NodeState::Machine(m) = &s.nodes[i] else {
        return;
    };
    let (current, blocked) = (
        m.current,
        m.transition
            .as_ref()
            .is_some_and(|t| !sm.transitions()[t.index as usize].interruptible),
    );
    if blocked {
        return;
    }
    let state_time = m.state_time;
    let current_node = sm.states()[current as usize].node;
    let (norm, ended) = progress_of(c, s, current_node);
    let ctx = ConditionContext {
        params: &s.params,
        state: &sm.states()[current as usize].name,
        state_time,
        normalized_time: norm,
    };
    let fired = sm.transitions().iter().position(|t| {
        let from_ok = match t.from {
            Some(f) => f.0 == current,
            None => t.to.0 != current,
        };
        from_ok
            && t.conditions.iter().all(|cond| match cond {
                Condition::Trigger(p) => s.params.is_set(*p),
                Condition::Compare(p, op, v) => op.test(s.params.float(*p), *v),
                Condition::Flag(p, v) => s.params.float(*p) == f32::from(u8::from(*v)),
                Condition::Predicate(f) => f(&ctx),
                Condition::AtEnd => ended,
                Condition::ExitTime(e) => norm >= *e,
            })
    });
    let Some(ti) = fired else { return };
    let t = &sm.transitions()[ti];
    for cond in &t.conditions {
        if let Condition::Trigger(p) = cond {
            s.params.consume(*p);
        }
    }
    let NodeState::Machine(m) = &s.nodes[i] else {
        return;
    };
    let interrupting = m.transition.is_some();
    let to = t.to.0;
    fire(sm, x, id, w, current, state_time, |at| {
        at == StateEventTime::Exit
    });
    fire(sm, x, id, w, to, 0.0, |at| at == StateEventTime::Enter);
    let freeze =
        t.duration > 0.0 && (interrupting || t.source == SourceMode::Frozen || current == to);
    if freeze {
        eval_subtree(c, s, x, id);
        let result = &x.stack[0];
        if let NodeState::Machine(m) = &mut s.nodes[i] {
            m.frozen.clear();
            m.frozen.extend_from_slice(result);
        }
    }
    clear_below(c, s, id);
    reset_subtree(c, s, x, sm.states()[to as usize].node);
    if let NodeState::Machine(m) = &mut s.nodes[i] {
        m.current = to;
        m.state_time = 0.0;
        m.transition = (t.duration > 0.0).then_some(ActiveTransition {
            index: ti as u16,
            from: current,
            playing: !freeze,
            interrupted: interrupting,
            elapsed: 0.0,
            duration: t.duration,
            weight: 0.0,
        });
    }
    update_states(c, s, x, id, 0.0, w, rm, Pass::Mark);
}
