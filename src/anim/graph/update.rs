//! The update pass of one fixed step: top-down over the active nodes, advancing playheads,
//! computing blend weights, syncing phases, running state machines, collecting events and root
//! motion.

use super::blend_space::{weights_1d, weights_2d};
use super::compile::{Compiled, Node};
use super::eval::{eval_subtree, FiredEvent, Scratch};
use super::nodes::NodeId;
use super::runtime::{ActiveTransition, ClipState, GraphState, NodeState};
use super::sample::sample_clip;
use super::state_machine::{Condition, ConditionContext, SourceMode};
use crate::anim::root_motion::{delta, motion_of};
use crate::anim::{Transform, WrapMode};

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
    update(c, s, x, c.inputs[i][leader], dt, w * lw, rm * lw, pass);
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
fn progress_of(c: &Compiled, s: &GraphState, id: NodeId) -> (f32, bool) {
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

/// Moves a clip's position by `adv` seconds of playhead travel (ping-pong: of cycle travel),
/// reporting crossed events and root motion.
#[allow(clippy::too_many_arguments)]
fn move_clip(
    c: &Compiled,
    s: &mut GraphState,
    x: &mut Scratch,
    id: NodeId,
    adv: f32,
    synced: bool,
    w: f32,
    rm: f32,
    pass: Pass,
) {
    let i = id.index();
    let Node::Clip { spec, len, root } = &c.nodes[i] else {
        return;
    };
    let NodeState::Clip(st) = &mut s.nodes[i] else {
        return;
    };
    let len = *len;
    if !synced {
        st.ended &= matches!(spec.wrap, WrapMode::Once | WrapMode::ClampToFirst);
    }
    if len <= 0.0 || adv == 0.0 || !adv.is_finite() {
        if len <= 0.0 {
            st.ended = true;
        }
        if pass == Pass::Init {
            x.motion.add(&st.motion, rm);
        }
        return;
    }
    let old = st.pos;
    let (period, raw) = match spec.wrap {
        WrapMode::PingPong => (2.0 * len, old + adv),
        _ => (len, old + adv),
    };
    let mut wraps = 0i32;
    let new = match spec.wrap {
        WrapMode::Loop | WrapMode::PingPong => {
            let k = (raw / period).floor();
            wraps = k.clamp(-1000.0, 1000.0) as i32;
            let p = raw - k * period;
            if p >= period {
                0.0
            } else {
                p.max(0.0)
            }
        }
        WrapMode::Once => raw.clamp(0.0, len),
        WrapMode::ClampToFirst => {
            if st.ended {
                old
            } else if raw >= len || raw < 0.0 {
                0.0
            } else {
                raw
            }
        }
    };
    let moved = match spec.wrap {
        WrapMode::Once => new - old,
        WrapMode::ClampToFirst if st.ended => 0.0,
        _ => adv,
    };
    st.norm += moved / len;
    match spec.wrap {
        WrapMode::Loop | WrapMode::PingPong => st.ended = wraps != 0,
        WrapMode::Once => st.ended = if adv > 0.0 { new >= len } else { new <= 0.0 },
        WrapMode::ClampToFirst => st.ended |= raw >= len || raw < 0.0,
    }
    st.pos = new;
    if pass == Pass::Step {
        // events: crossings of each event position in "raw" coordinates
        let (lo, hi) = if moved >= 0.0 {
            (old, old + moved)
        } else {
            (old + moved, old)
        };
        for (e, ev) in spec.events.iter().enumerate() {
            let positions = [ev.time, 2.0 * len - ev.time];
            let count = if spec.wrap == WrapMode::PingPong {
                2
            } else {
                1
            };
            let crossed = positions[..count].iter().any(|&q| match spec.wrap {
                WrapMode::Loop | WrapMode::PingPong => {
                    let k = ((lo - q) / period).floor() + 1.0;
                    q + k * period <= hi
                }
                _ => lo < q && q <= hi,
            });
            if crossed && moved != 0.0 {
                x.events.push(FiredEvent {
                    node: id,
                    event: e,
                    weight: w,
                });
            }
        }
    }
    if let Some(root) = root {
        let t = c_time(spec, len, new);
        let mut out = [c.skeleton.rest_pose()[c.root_motion.map_or(0, |r| r.0) as usize]];
        let rest = out;
        sample_clip(&root.clip, t, &rest, &mut x.root_caches[i], &mut out);
        let mode = c.root_motion.map(|r| r.1).unwrap_or_default();
        let m = motion_of(mode, &out[0]);
        if pass == Pass::Step && rm > 0.0 {
            let d = if spec.wrap == WrapMode::Loop && wraps != 0 {
                let cycle = if wraps > 0 {
                    delta(&root.start, &root.end)
                } else {
                    delta(&root.end, &root.start)
                };
                let (edge_out, edge_in) = if wraps > 0 {
                    (root.end, root.start)
                } else {
                    (root.start, root.end)
                };
                let mut d = delta(&st.motion, &edge_out);
                for _ in 1..wraps.unsigned_abs().min(1000) {
                    d = d.mul_transform(&cycle);
                }
                d.mul_transform(&delta(&edge_in, &m))
            } else {
                delta(&st.motion, &m)
            };
            x.motion.add(&d, rm);
        }
        st.motion = m;
        if pass == Pass::Init {
            x.motion.add(&m, rm);
        }
    }
}

/// Key time of a stored position.
pub(crate) fn c_time(spec: &super::nodes::ClipNode, len: f32, pos: f32) -> f32 {
    spec.clip.start + playhead(spec.wrap, len, pos).clamp(0.0, len)
}

/// Puts every node under `id` at its start: playheads at their start offset, state machines in
/// their initial state.
pub(crate) fn reset_subtree(c: &Compiled, s: &mut GraphState, x: &mut Scratch, id: NodeId) {
    let (first, last) = (c.first[id.index()], c.pos[id.index()]);
    if last == u32::MAX {
        return;
    }
    for p in first..=last {
        let n = c.order[p as usize];
        let i = n.index();
        match (&c.nodes[i], &mut s.nodes[i]) {
            (Node::Clip { spec, len, root }, NodeState::Clip(st)) => {
                let len = *len;
                let pos = if len > 0.0 {
                    match spec.wrap {
                        WrapMode::Loop => spec.start.rem_euclid(len),
                        WrapMode::PingPong => spec.start.rem_euclid(2.0 * len),
                        _ => spec.start.clamp(0.0, len),
                    }
                } else {
                    0.0
                };
                *st = ClipState {
                    pos,
                    norm: if len > 0.0 { pos / len } else { 0.0 },
                    ended: false,
                    motion: Transform::IDENTITY,
                };
                if let (Some(root), Some((j, mode))) = (root, c.root_motion) {
                    let mut out = [c.skeleton.rest_pose()[j as usize]];
                    let rest = out;
                    sample_clip(
                        &root.clip,
                        c_time(spec, len, pos),
                        &rest,
                        &mut x.root_caches[i],
                        &mut out,
                    );
                    st.motion = motion_of(mode, &out[0]);
                }
            }
            (Node::StateMachine(sm), NodeState::Machine(m)) => {
                m.current = sm.initial_state().0;
                m.state_time = 0.0;
                m.transition = None;
            }
            _ => {}
        }
    }
}

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

#[allow(clippy::too_many_arguments)]
fn update_machine(
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
        m.state_time += dt;
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
