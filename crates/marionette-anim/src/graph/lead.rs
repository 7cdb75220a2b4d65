//! A node's leading clip, read without changing anything: the clip a phase is read from (through
//! time scales, mirrors, layers' bases, the largest-weight input of blends and the current state
//! of state machines), its phase and progress; and the playhead arithmetic of a
//! clip player. Used by the update pass (sync), the state machines (exit-time and at-end
//! conditions), the evaluation pass and introspection.

use super::compiled::{Compiled, Node};
use super::node_id::NodeId;
use super::nodes::ClipNode;
use super::state::{GraphState, NodeState};
use crate::WrapMode;

/// The node a phase is read from: a clip, or the input that leads a composite node.
pub(crate) fn lead_input(c: &Compiled, s: &GraphState, id: NodeId) -> Option<NodeId> {
    let i = id.index();
    match (&c.nodes[i], &s.nodes[i]) {
        (Node::Clip { .. }, _) => None,
        (Node::StateMachine(sm), NodeState::Machine(m)) => {
            Some(sm.states()[m.current as usize].node)
        }
        (_, NodeState::Weights(ws)) => {
            let k = (0..ws.len()).fold(0, |b, k| if ws[k] > ws[b] { k } else { b });
            c.inputs[i].get(k).copied()
        }
        _ => c.inputs[i].first().copied(),
    }
}

/// Normalised phase in `[0, 1]` of a node (its leading clip's).
pub(crate) fn phase_of(c: &Compiled, s: &GraphState, id: NodeId) -> Option<f32> {
    let mut id = id;
    loop {
        match (&c.nodes[id.index()], &s.nodes[id.index()]) {
            (Node::Clip { len, spec, .. }, NodeState::Clip(st)) => {
                if *len <= 0.0 {
                    return Some(0.0);
                }
                return Some(playhead(spec.wrap, *len, st.pos) / len);
            }
            _ => id = lead_input(c, s, id)?,
        }
    }
}

/// Normalised time since entry and the end flag of a node's leading clip.
pub(crate) fn progress_of(c: &Compiled, s: &GraphState, id: NodeId) -> (f32, bool) {
    let mut id = id;
    loop {
        if let NodeState::Clip(st) = &s.nodes[id.index()] {
            return (st.norm, st.ended);
        }
        match lead_input(c, s, id) {
            Some(n) => id = n,
            None => return (0.0, false),
        }
    }
}

/// The playhead (seconds into the key range) for a stored position.
pub(crate) fn playhead(wrap: WrapMode, len: f32, pos: f32) -> f32 {
    match wrap {
        WrapMode::PingPong if pos > len => 2.0 * len - pos,
        _ => pos,
    }
}

/// Key time of a stored position.
pub(crate) fn key_time(spec: &ClipNode, len: f32, pos: f32) -> f32 {
    spec.clip.start + playhead(spec.wrap, len, pos).clamp(0.0, len)
}
