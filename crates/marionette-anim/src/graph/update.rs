//! The update pass of one fixed step: top-down over the active nodes, advancing playheads,
//! computing blend weights, syncing phases, running state machines, collecting events and root
//! motion.

use super::blend_space::{weights_1d, weights_2d};
use super::clip_player::move_clip;
use super::compile::{Compiled, Node};
use super::eval::Scratch;
use super::machine_update::update_machine;
use super::nodes::NodeId;
use super::runtime::{GraphState, NodeState};
use crate::WrapMode;

/// What an update visit does besides marking weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// A real step: events, transitions and root motion deltas.
    Step,
    /// Only mark weights (after a switch; no time passes).
    Mark,
    /// Like `Mark`, and add each player's absolute root motion (graph start).
    Init,
}

/// One fixed step of the whole graph.
pub(crate) fn step(c: &Compiled, s: &mut GraphState, x: &mut Scratch, dt: f32) {
    s.weights.iter_mut().for_each(|w| *w = 0.0);
    s.active.iter_mut().for_each(|a| *a = false);
    x.motion = Default::default();
    update(c, s, x, c.root, dt, 1.0, 1.0, Pass::Step);
    if c.root_motion.is_some() {
        let d = x.motion.result();
        s.root_world = s.root_world.mul_transform(&d);
        s.root_delta = s.root_delta.mul_transform(&d);
    }
    s.params.clear_triggers();
    s.steps += 1;
}

/// Updates `id` for `dt` seconds at effective weight `w`; `rm` is its root-motion weight.
#[allow(clippy::too_many_arguments)]
pub(crate) fn update(
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
    s.weights[i] = w;
    s.active[i] = true;
    let inputs = &c.inputs[i];
    match &c.nodes[i] {
        Node::Clip { spec, .. } => {
            let adv = dt * spec.speed.get(&s.params);
            move_clip(c, s, x, id, adv, false, w, rm, pass);
        }
        Node::Blend { weights } => {
            if let NodeState::Weights(ws) = &mut s.nodes[i] {
                let mut sum = 0.0;
                for (k, v) in weights.iter().enumerate() {
                    let raw = v.get(&s.params);
                    ws[k] = if raw > 0.0 { raw } else { 0.0 };
                    sum += ws[k];
                }
                if sum > 0.0 {
                    ws.iter_mut().for_each(|v| *v /= sum);
                } else {
                    ws.iter_mut()
                        .enumerate()
                        .for_each(|(k, v)| *v = (k == 0) as u8 as f32);
                }
            }
            update_members(c, s, x, id, false, dt, w, rm, pass);
        }
        Node::Space1D { param, xs, sync } => {
            let p = s.params.float(*param);
            if let NodeState::Weights(ws) = &mut s.nodes[i] {
                weights_1d(xs, p, ws);
            }
            update_members(c, s, x, id, *sync, dt, w, rm, pass);
        }
        Node::Space2D {
            x: px,
            y: py,
            points,
            tris,
            sync,
        } => {
            let p = glam::Vec2::new(s.params.float(*px), s.params.float(*py));
            if let NodeState::Weights(ws) = &mut s.nodes[i] {
                weights_2d(points, tris, p, ws);
            }
            update_members(c, s, x, id, *sync, dt, w, rm, pass);
        }
        Node::Additive { weight, .. } | Node::Layer { weight, .. } => {
            let lw = weight.get(&s.params).clamp(0.0, 1.0);
            s.nodes[i] = NodeState::Scalar(lw);
            update(c, s, x, inputs[0], dt, w, rm, pass);
            if lw > 0.0 {
                let over = if matches!(c.nodes[i], Node::Layer { .. }) {
                    w * lw
                } else {
                    w
                };
                update(c, s, x, inputs[1], dt, over, 0.0, pass);
            }
        }
        Node::TimeScale { scale } => {
            let k = scale.get(&s.params);
            update(c, s, x, inputs[0], dt * k, w, rm, pass);
        }
        Node::Mirror { .. } => {
            // the input's root motion is mirrored too
            let outer = std::mem::take(&mut x.motion);
            update(c, s, x, inputs[0], dt, w, rm, pass);
            x.motion.reflect_x();
            let inner = std::mem::replace(&mut x.motion, outer);
            x.motion.merge(&inner);
        }
        Node::StateMachine(_) => update_machine(c, s, x, id, dt, w, rm, pass),
    }
}

/// Updates the inputs of a blend or blend space by their weights, with optional phase sync.
#[allow(clippy::too_many_arguments)]
fn update_members(
    c: &Compiled,
    s: &mut GraphState,
    x: &mut Scratch,
    id: NodeId,
    sync: bool,
    dt: f32,
    w: f32,
    rm: f32,
    pass: Pass,
) {
    let i = id.index();
    let n = c.inputs[i].len();
    let weight = |s: &GraphState, k: usize| match &s.nodes[i] {
        NodeState::Weights(ws) => ws[k],
        _ => 0.0,
    };
    let leader = (0..n).fold(0, |best, k| {
        if weight(s, k) > weight(s, best) {
            k
        } else {
            best
        }
    });
    let lw = weight(s, leader);
    // synced: the leader runs at the weight-blended cycle duration, so the shared phase
    // advances by dt / (sum of w_k * cycle_k) and changes continuously with the weights
    let lead_dt = if sync {
        let lead_cycle = cycle_of(c, s, c.inputs[i][leader]);
        let blended: f32 = (0..n)
            .filter_map(|k| Some(weight(s, k) * cycle_of(c, s, c.inputs[i][k])?))
            .sum();
        match lead_cycle {
            Some(lc) if blended > 0.0 => dt * lc / blended,
            _ => dt,
        }
    } else {
        dt
    };
    update(c, s, x, c.inputs[i][leader], lead_dt, w * lw, rm * lw, pass);
    let phase = if sync {
        phase_of(c, s, c.inputs[i][leader])
    } else {
        None
    };
    for k in 0..n {
        let wk = weight(s, k);
        if k == leader || wk <= 0.0 {
            continue;
        }
        let child = c.inputs[i][k];
        match phase {
            Some(p) => {
                update(c, s, x, child, 0.0, w * wk, rm * wk, pass);
                set_phase(c, s, x, child, p, rm * wk, pass);
            }
            None => update(c, s, x, child, dt, w * wk, rm * wk, pass),
        }
    }
}

/// The node a phase is read from: a clip, or the input that leads a composite node.
fn lead_input(c: &Compiled, s: &GraphState, id: NodeId) -> Option<NodeId> {
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

/// Seconds one cycle of a node's leading clip takes at its current playback rate (time scales
/// included); `None` for a clip of zero length or a rate of zero.
pub(crate) fn cycle_of(c: &Compiled, s: &GraphState, id: NodeId) -> Option<f32> {
    let mut id = id;
    let mut rate = 1.0f32;
    loop {
        match &c.nodes[id.index()] {
            Node::Clip { len, spec, .. } => {
                let r = (rate * spec.speed.get(&s.params)).abs();
                return (*len > 0.0 && r > 0.0).then(|| len / r);
            }
            Node::TimeScale { scale } => {
                rate *= scale.get(&s.params);
                id = c.inputs[id.index()][0];
            }
            _ => id = lead_input(c, s, id)?,
        }
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

/// Sets the phase of every active clip under `id` (followers of a synced blend space).
fn set_phase(
    c: &Compiled,
    s: &mut GraphState,
    x: &mut Scratch,
    id: NodeId,
    phase: f32,
    rm: f32,
    pass: Pass,
) {
    let i = id.index();
    match &c.nodes[i] {
        Node::Clip { len, spec, .. } => {
            let NodeState::Clip(st) = &s.nodes[i] else {
                return;
            };
            let target = phase * len;
            let here = playhead(spec.wrap, *len, st.pos);
            // followers move forwards, wrapping when the phase went round
            let mut adv = target - here;
            if adv < 0.0 && matches!(spec.wrap, WrapMode::Loop) {
                adv += len;
            }
            let w = s.weights[i];
            move_clip(c, s, x, id, adv, true, w, rm, pass);
        }
        Node::Additive { .. }
        | Node::Layer { .. }
        | Node::TimeScale { .. }
        | Node::Mirror { .. } => set_phase(c, s, x, c.inputs[i][0], phase, rm, pass),
        Node::StateMachine(_) => {
            if let Some(n) = lead_input(c, s, id) {
                set_phase(c, s, x, n, phase, rm, pass)
            }
        }
        _ => {
            for k in 0..c.inputs[i].len() {
                let child = c.inputs[i][k];
                if s.active[child.index()] {
                    set_phase(c, s, x, child, phase, rm, pass);
                }
            }
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
