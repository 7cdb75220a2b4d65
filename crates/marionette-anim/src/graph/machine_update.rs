//! State machines in the update pass, without visiting their states: the clock (transition
//! progress, state time, timed state events), the blend between the current state and a playing
//! source, and the choice and firing of a transition (conditions, trigger consumption, enter and
//! exit events, frozen source capture, interruption, restarting the target state).
//!
//! Visiting the states' nodes is the update pass's own recursion ([`super::update`]: a state
//! machine's states are nodes, and a node may be a state machine); this file only reads and
//! writes the machine's own state, so the recursion stays in one file.

use super::clip_player::reset_subtree;
use super::compiled::Compiled;
use super::eval::eval_subtree;
use super::lead::progress_of;
use super::node_id::NodeId;
use super::scratch::{FiredEvent, Scratch};
use super::state::{ActiveTransition, GraphState, NodeState, Pass};
use super::state_machine::{Condition, ConditionContext, SourceMode, StateEventTime, StateMachine};
use super::visit::Visit;

/// Clears the weights and active flags of every node strictly below `id`.
fn clear_below(c: &Compiled, s: &mut GraphState, id: NodeId) {
    let (first, last) = (c.first[id.index()], c.pos[id.index()]);
    for p in first..last {
        let n = c.order[p as usize].index();
        s.weights[n] = 0.0;
        s.active[n] = false;
    }
}

/// The states to visit: the current state's node with the running transition's weight (1 without
/// one; the curve is evaluated and stored here), and the source state's node when it keeps
/// playing.
pub(crate) fn blend_states(
    sm: &StateMachine,
    s: &mut GraphState,
    id: NodeId,
) -> Option<(NodeId, f32, Option<NodeId>)> {
    let NodeState::Machine(m) = &mut s.nodes[id.index()] else {
        return None;
    };
    let current = sm.states()[m.current as usize].node;
    let (bw, source) = match &mut m.transition {
        Some(t) => {
            let curve = &sm.transitions()[t.index as usize].curve;
            let progress = if t.duration > 0.0 {
                t.elapsed / t.duration
            } else {
                1.0
            };
            if t.inertial {
                // the target at full weight; the weight shown is the offset's progress
                t.weight = progress.min(1.0);
                (1.0, None)
            } else {
                t.weight = curve.eval(progress);
                (
                    t.weight,
                    t.playing.then(|| sm.states()[t.from as usize].node),
                )
            }
        }
        None => (1.0, None),
    };
    Some((current, bw, source))
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

/// Runs the machine's clock by `dt`: the running transition's progress (it ends at its
/// duration), the time in the current state, and (in a step) the timed events it crossed; `w` is
/// the machine's effective weight.
pub(crate) fn tick(v: &mut Visit, sm: &StateMachine, id: NodeId, dt: f32, w: f32) {
    if let NodeState::Machine(m) = &mut v.s.nodes[id.index()] {
        if let Some(t) = &mut m.transition {
            t.elapsed += dt;
            if t.elapsed >= t.duration {
                m.transition = None;
                m.inertia.clear();
            }
        }
        let before = m.state_time;
        m.state_time += dt;
        if v.pass == Pass::Step {
            let (state, now) = (m.current, m.state_time);
            fire(
                sm,
                v.x,
                id,
                w,
                state,
                now,
                |at| matches!(at, StateEventTime::After(t) if before < t && t <= now),
            );
        }
    }
}

/// The first transition whose conditions hold (after the states were updated this step), or
/// `None` (also while the running transition cannot be interrupted).
pub(crate) fn choose(v: &Visit, sm: &StateMachine, id: NodeId) -> Option<usize> {
    let (c, i) = (v.c, id.index());
    let NodeState::Machine(m) = &v.s.nodes[i] else {
        return None;
    };
    let current = m.current;
    if m.transition
        .as_ref()
        .is_some_and(|t| !sm.transitions()[t.index as usize].interruptible)
    {
        return None;
    }
    let state_time = m.state_time;
    let current_node = sm.states()[current as usize].node;
    let (norm, ended) = progress_of(c, v.s, current_node);
    let s = &*v.s;
    let ctx = ConditionContext {
        params: &s.params,
        state: &sm.states()[current as usize].name,
        state_time,
        normalized_time: norm,
    };
    sm.transitions().iter().position(|t| {
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
    })
}

/// Whether transition `ti` blends inertially (it then needs the outgoing pose and its
/// velocity, [`super::update`] measures them).
pub(crate) fn is_inertial(sm: &StateMachine, ti: usize) -> bool {
    let t = &sm.transitions()[ti];
    t.source == SourceMode::Inertial && t.duration > 0.0
}

/// Fires transition `ti` (from [`choose`]): consumes its triggers, reports the exit and enter
/// events, captures the frozen source pose, restarts the target state and starts the
/// transition. The caller then marks the new states' weights (and, for an inertial one, sets
/// its offsets).
pub(crate) fn switch(v: &mut Visit, sm: &StateMachine, id: NodeId, w: f32, ti: usize) {
    let (c, i) = (v.c, id.index());
    let NodeState::Machine(m) = &v.s.nodes[i] else {
        return;
    };
    let (current, state_time) = (m.current, m.state_time);
    let t = &sm.transitions()[ti];
    for cond in &t.conditions {
        if let Condition::Trigger(p) = cond {
            v.s.params.consume(*p);
        }
    }
    let NodeState::Machine(m) = &v.s.nodes[i] else {
        return;
    };
    let interrupting = m.transition.is_some();
    let to = t.to.0;
    fire(sm, v.x, id, w, current, state_time, |at| {
        at == StateEventTime::Exit
    });
    fire(sm, v.x, id, w, to, 0.0, |at| at == StateEventTime::Enter);
    let inertial = is_inertial(sm, ti);
    let freeze = t.duration > 0.0
        && !inertial
        && (interrupting || t.source == SourceMode::Frozen || current == to);
    if freeze {
        eval_subtree(c, v.s, v.x, id);
        let pool = &v.x.pools[usize::from(c.domain[i])];
        if let NodeState::Machine(m) = &mut v.s.nodes[i] {
            m.frozen.clear();
            m.frozen.extend_from_slice(&pool.stack[0]);
            m.frozen_morphs.clear();
            m.frozen_morphs.extend_from_slice(&pool.morphs[0]);
        }
    }
    clear_below(c, v.s, id);
    reset_subtree(c, v.s, v.x, sm.states()[to as usize].node);
    if let NodeState::Machine(m) = &mut v.s.nodes[i] {
        m.current = to;
        m.state_time = 0.0;
        m.inertia.clear();
        m.transition = (t.duration > 0.0).then_some(ActiveTransition {
            index: ti as u16,
            from: current,
            playing: !freeze && !inertial,
            inertial,
            interrupted: interrupting,
            elapsed: 0.0,
            duration: t.duration,
            weight: 0.0,
        });
    }
}
