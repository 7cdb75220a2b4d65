//! The update pass of one fixed step: top-down over the active nodes, advancing playheads,
//! computing blend weights, syncing phases, running state machines, collecting events and root
//! motion. Every visit function takes the [`Visit`] context by `&mut`, the node, and what
//! differs per node (its time step and [`Share`]).
//!
//! **The one recursion.** [`update`] calls itself for a node's inputs, and a state machine's
//! states are nodes (any node may be a state machine, or contain one), so the visit of a state
//! machine is the visit of its states: that recursion is real and stays in this file. The
//! machine's own clock and transitions ([`super::machine_update`]), clip playheads
//! ([`super::clip_player`]) and the phase queries ([`super::lead`]) never call back into it.

use super::blend_space::{weights_1d, weights_2d};
use super::clip_player::move_clip;
use super::compiled::{Compiled, Node};
use super::eval::eval_subtree;
use super::inertia::Poses;
use super::kinds::Walk;
use super::lead::{lead_input, phase_of, playhead};
use super::machine_update::{blend_states, choose, is_inertial, switch, tick};
use super::node_id::NodeId;
use super::params::Params;
use super::scratch::two_pools;
use super::scratch::Scratch;
use super::share::Share;
use super::state::{GraphState, NodeState, Pass};
use super::state_machine::StateMachine;
use super::visit::Visit;
use crate::root_motion::{motion_of, MotionBlend};
use crate::{Transform, WrapMode};

/// One fixed step of the whole graph.
pub(crate) fn step(c: &Compiled, s: &mut GraphState, x: &mut Scratch, dt: f32) {
    s.weights.iter_mut().for_each(|w| *w = 0.0);
    s.active.iter_mut().for_each(|a| *a = false);
    x.motion = Default::default();
    let mut v = Visit {
        c,
        s,
        x,
        pass: Pass::Step,
    };
    update(&mut v, c.root, dt, Share::FULL);
    let Visit { s, x, .. } = v;
    if c.root_motion.is_some() {
        let d = x.motion.result();
        s.root_world = s.root_world.mul_transform(&d);
        s.root_delta = s.root_delta.mul_transform(&d);
    }
    s.params.clear_triggers();
    s.steps += 1;
}

/// Updates `id` for `dt` seconds with `share` of the output.
pub(crate) fn update(v: &mut Visit, id: NodeId, dt: f32, share: Share) {
    let c = v.c;
    let i = id.index();
    v.s.weights[i] = share.pose;
    v.s.active[i] = true;
    let inputs = &c.inputs[i];
    match &c.nodes[i] {
        Node::Clip { spec, .. } => {
            let adv = dt * spec.speed.get(&v.s.params);
            move_clip(v, id, adv, false, share);
        }
        Node::Blend { weights } => {
            let s = &mut *v.s;
            if let NodeState::Weights(ws) = &mut s.nodes[i] {
                let mut sum = 0.0;
                for (k, w) in weights.iter().enumerate() {
                    let raw = w.get(&s.params);
                    ws[k] = if raw > 0.0 { raw } else { 0.0 };
                    sum += ws[k];
                }
                if sum > 0.0 {
                    ws.iter_mut().for_each(|w| *w /= sum);
                } else {
                    ws.iter_mut()
                        .enumerate()
                        .for_each(|(k, w)| *w = (k == 0) as u8 as f32);
                }
            }
            update_members(v, id, false, dt, share);
        }
        Node::Space1D { param, xs, sync } => {
            let p = v.s.params.float(*param);
            if let NodeState::Weights(ws) = &mut v.s.nodes[i] {
                weights_1d(xs, p, ws);
            }
            update_members(v, id, *sync, dt, share);
        }
        Node::Space2D {
            x,
            y,
            points,
            tris,
            sync,
        } => {
            let p = glam::Vec2::new(v.s.params.float(*x), v.s.params.float(*y));
            if let NodeState::Weights(ws) = &mut v.s.nodes[i] {
                weights_2d(points, tris, p, ws);
            }
            update_members(v, id, *sync, dt, share);
        }
        Node::Additive { weight, .. } | Node::Layer { weight, .. } => {
            let lw = weight.get(&v.s.params).clamp(0.0, 1.0);
            v.s.nodes[i] = NodeState::Scalar(lw);
            update(v, inputs[0], dt, share);
            if lw > 0.0 {
                let over = if matches!(c.nodes[i], Node::Layer { .. }) {
                    share.pose * lw
                } else {
                    share.pose
                };
                let layer = Share {
                    pose: over,
                    motion: 0.0,
                };
                update(v, inputs[1], dt, layer);
            }
        }
        Node::Kind(k) => k.update(&mut KindVisit { v: &mut *v, id }, dt, share),
        Node::Retarget { from, retargeter } => {
            // the input's root motion is retargeted too
            let outer = std::mem::take(&mut v.x.motion);
            update(v, inputs[0], dt, share);
            let mut inner = std::mem::replace(&mut v.x.motion, outer);
            if v.pass == Pass::Init {
                // where the character starts: measured on the retargeted first pose (the
                // source's placement is no position of the character's)
                if let Some(m) = start_placement(v, id, from.index(), retargeter) {
                    v.x.motion.add(&m, share.motion);
                }
            } else {
                retargeter.motion(&mut inner);
                v.x.motion.merge(&inner);
            }
        }
        Node::StateMachine(sm) => {
            tick(v, sm, id, dt, share.pose);
            update_states(v, sm, id, dt, share);
            let fired = (v.pass == Pass::Step).then(|| choose(v, sm, id)).flatten();
            if let Some(ti) = fired {
                // an inertial transition starts from the outgoing pose and its velocity
                let outgoing = is_inertial(sm, ti).then(|| probe(v, id, dt, share));
                switch(v, sm, id, share.pose, ti);
                // no time passes: only mark the new states' weights
                let pass = std::mem::replace(&mut v.pass, Pass::Mark);
                update_states(v, sm, id, 0.0, share);
                v.pass = pass;
                if let Some(source) = outgoing {
                    let to = sm.transitions()[ti].to;
                    let target = probe(v, sm.states()[to.index()].node, dt, share);
                    let blend = sm.transitions()[ti].duration;
                    if let NodeState::Machine(m) = &mut v.s.nodes[i] {
                        m.inertia
                            .capture(&source.poses(), &target.poses(), dt.max(1e-6), blend);
                    }
                }
            }
        }
    }
}

/// A node's output now and one step later (its morph weights with it).
struct Probe {
    now: (Vec<Transform>, Vec<f32>),
    next: (Vec<Transform>, Vec<f32>),
}

impl Probe {
    fn poses(&self) -> Poses<'_> {
        Poses {
            now: (&self.now.0, &self.now.1),
            next: (&self.next.0, &self.next.1),
        }
    }
}

/// Evaluates `id` now and `dt` later, leaving the state as it was: the later pose comes from a
/// copy of the state advanced without events, transitions or root motion. Runs only in the
/// step an inertial transition fires (it allocates).
fn probe(v: &mut Visit, id: NodeId, dt: f32, share: Share) -> Probe {
    let (c, d) = (v.c, usize::from(v.c.domain[id.index()]));
    let read = |v: &mut Visit| {
        eval_subtree(c, v.s, v.x, id);
        let pool = &v.x.pools[d];
        (pool.stack[0].clone(), pool.morphs[0].clone())
    };
    let now = read(v);
    let (saved, motion) = (v.s.clone(), v.x.motion);
    let pass = std::mem::replace(&mut v.pass, Pass::Mark);
    update(v, id, dt, share);
    v.pass = pass;
    let next = read(v);
    *v.s = saved;
    v.x.motion = motion;
    Probe { now, next }
}

/// A kind's view of the visit ([`Walk`]): the node being updated.
struct KindVisit<'v, 'a> {
    v: &'v mut Visit<'a>,
    id: NodeId,
}

impl Walk for KindVisit<'_, '_> {
    fn params(&self) -> &Params {
        &self.v.s.params
    }

    fn state(&mut self) -> &mut NodeState {
        &mut self.v.s.nodes[self.id.index()]
    }

    fn motion(&mut self) -> &mut MotionBlend {
        &mut self.v.x.motion
    }

    #[inline]
    fn input(&mut self, k: usize, dt: f32, share: Share) {
        let n = self.v.c.inputs[self.id.index()][k];
        update(self.v, n, dt, share);
    }

    fn has_root_motion(&self) -> bool {
        self.v.c.root_motion.is_some()
    }

    fn ground_only(&self) -> bool {
        matches!(
            self.v.c.root_motion,
            Some((_, crate::root_motion::RootMotionMode::Ground))
        )
    }

    fn placement(&self) -> glam::Vec3 {
        world_of(self.v.c, self.v.s, &self.v.s.root_world)
    }

    fn run_ahead(&mut self, k: usize, dt: f32, steps: u32, share: Share) -> glam::Vec3 {
        let n = self.v.c.inputs[self.id.index()][k];
        let (saved, motion, events) = (self.v.s.clone(), self.v.x.motion, self.v.x.events.len());
        let start = self.v.s.root_world;
        let mut at = start;
        for _ in 0..steps {
            self.v.x.motion = Default::default();
            update(self.v, n, dt, share);
            at = at.mul_transform(&self.v.x.motion.result());
        }
        let moved = world_of(self.v.c, self.v.s, &at) - world_of(self.v.c, self.v.s, &start);
        *self.v.s = saved;
        self.v.x.motion = motion;
        self.v.x.events.truncate(events);
        moved
    }

    fn world_to_step(&self, v: glam::Vec3) -> glam::Vec3 {
        let r = self.v.s.root_world.rotation;
        r.conjugate() * self.v.c.root_space.vector_from_world(v)
    }
}

/// The world position of the character placed at `root_world` (root space): what
/// [`super::Graph::root_motion_world`] reports for it.
fn world_of(c: &Compiled, s: &GraphState, root_world: &crate::Transform) -> glam::Vec3 {
    c.root_space
        .to_world(&s.root_reference.motion_to(root_world))
        .translation
}

/// The root placement of a retarget node's first pose: its input evaluated, retargeted, and
/// the character's root-motion joint measured (`None` without root motion).
fn start_placement(
    v: &mut Visit,
    id: NodeId,
    from: usize,
    r: &crate::retarget::Retargeter,
) -> Option<crate::Transform> {
    let c = v.c;
    let i = id.index();
    let rig = c.rig_of(i);
    let (joint, mode) = rig.root_motion?;
    let input = c.inputs[i][0];
    eval_subtree(c, v.s, v.x, input);
    let d = usize::from(c.domain[i]);
    let (src, dst) = two_pools(&mut v.x.pools, from, d);
    r.apply(
        &src.stack[0],
        &src.morphs[0],
        &mut dst.temp,
        &mut dst.temp_morphs,
        &mut v.x.retarget[i],
    );
    let root = dst.temp.get(usize::from(joint))?;
    Some(motion_of(mode, &rig.root_space, root))
}

/// Updates the current state (and a playing source) of a state machine.
fn update_states(v: &mut Visit, sm: &StateMachine, id: NodeId, dt: f32, share: Share) {
    let Some((current, bw, source)) = blend_states(sm, v.s, id) else {
        return;
    };
    update(v, current, dt, share.scaled(bw));
    if let Some(src) = source {
        update(v, src, dt, share.scaled(1.0 - bw));
    }
}

/// Updates the inputs of a blend or blend space by their weights, with optional phase sync.
fn update_members(v: &mut Visit, id: NodeId, sync: bool, dt: f32, share: Share) {
    let c = v.c;
    let i = id.index();
    let n = c.inputs[i].len();
    let weight = |s: &GraphState, k: usize| match &s.nodes[i] {
        NodeState::Weights(ws) => ws[k],
        _ => 0.0,
    };
    let leader = (0..n).fold(0, |best, k| {
        if weight(v.s, k) > weight(v.s, best) {
            k
        } else {
            best
        }
    });
    let lw = weight(v.s, leader);
    // synced: the leader runs at the weight-blended cycle duration, so the shared phase
    // advances by dt / (sum of w_k * cycle_k) and changes continuously with the weights
    let lead_dt = if sync {
        let s = &*v.s;
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
    update(v, c.inputs[i][leader], lead_dt, share.scaled(lw));
    let phase = if sync {
        phase_of(c, v.s, c.inputs[i][leader])
    } else {
        None
    };
    for k in 0..n {
        let wk = weight(v.s, k);
        if k == leader || wk <= 0.0 {
            continue;
        }
        let child = c.inputs[i][k];
        match phase {
            Some(p) => {
                update(v, child, 0.0, share.scaled(wk));
                set_phase(v, child, p, share.motion * wk);
            }
            None => update(v, child, dt, share.scaled(wk)),
        }
    }
}

/// Seconds one cycle of a node's leading clip takes at its current playback rate (time scales
/// included); `None` for a clip of zero length or a rate of zero.
fn cycle_of(c: &Compiled, s: &GraphState, id: NodeId) -> Option<f32> {
    let mut id = id;
    let mut rate = 1.0f32;
    loop {
        match &c.nodes[id.index()] {
            Node::Clip { len, spec, .. } => {
                let r = (rate * spec.speed.get(&s.params)).abs();
                return (*len > 0.0 && r > 0.0).then(|| len / r);
            }
            Node::Kind(k) => {
                if let Some(r) = k.rate(&s.params) {
                    rate *= r;
                }
                id = *c.inputs[id.index()].first()?;
            }
            _ => id = lead_input(c, s, id)?,
        }
    }
}

/// Sets the phase of every active clip under `id` (followers of a synced blend space); `rm` is
/// the root-motion weight.
fn set_phase(v: &mut Visit, id: NodeId, phase: f32, rm: f32) {
    let c = v.c;
    let i = id.index();
    match &c.nodes[i] {
        Node::Clip { len, spec, .. } => {
            let NodeState::Clip(st) = &v.s.nodes[i] else {
                return;
            };
            let target = phase * len;
            let here = playhead(spec.wrap, *len, st.pos);
            // followers move forwards, wrapping when the phase went round
            let mut adv = target - here;
            if adv < 0.0 && matches!(spec.wrap, WrapMode::Loop) {
                adv += len;
            }
            let share = Share {
                pose: v.s.weights[i],
                motion: rm,
            };
            move_clip(v, id, adv, true, share);
        }
        Node::Additive { .. } | Node::Layer { .. } | Node::Kind(_) => {
            set_phase(v, c.inputs[i][0], phase, rm)
        }
        Node::StateMachine(_) => {
            if let Some(n) = lead_input(c, v.s, id) {
                set_phase(v, n, phase, rm)
            }
        }
        _ => {
            for k in 0..c.inputs[i].len() {
                let child = c.inputs[i][k];
                if v.s.active[child.index()] {
                    set_phase(v, child, phase, rm);
                }
            }
        }
    }
}
