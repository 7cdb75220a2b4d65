//! Clip playheads: moving them (wrap modes, crossed events, root-motion deltas) and
//! restarting subtrees.

use super::compiled::{Compiled, Node};
use super::lead::key_time;
use super::node_id::NodeId;
use super::sample::sample_clip;
use super::scratch::{FiredEvent, Scratch};
use super::share::Share;
use super::state::{ClipState, GraphState, NodeState, Pass};
use super::visit::Visit;
use crate::root_motion::{delta, motion_of};
use crate::{Transform, WrapMode};

/// Moves a clip's position by `adv` seconds of playhead travel (ping-pong: of cycle travel),
/// reporting crossed events and root motion (by `share`). `synced`: a follower of a synced blend
/// space set to its phase (the end flag is not reset).
pub(crate) fn move_clip(v: &mut Visit, id: NodeId, adv: f32, synced: bool, share: Share) {
    let Visit { c, s, x, pass } = v;
    let (c, pass) = (*c, *pass);
    let (w, rm) = (share.pose, share.motion);
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
                    time: ev.time,
                });
            }
        }
    }
    if let Some(root) = root {
        let t = key_time(spec, len, new);
        let rig = c.rig_of(i);
        let joint = rig.root_motion.map_or(0, |r| r.0) as usize;
        let mut out = [rig.skeleton.rest_pose()[joint]];
        let rest = out;
        sample_clip(&root.clip, t, &rest, &mut x.root_caches[i], &mut out);
        let mode = rig.root_motion.map(|r| r.1).unwrap_or_default();
        let m = motion_of(mode, &rig.root_space, &out[0]);
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
                let rig = c.rig_of(i);
                if let (Some(root), Some((j, mode))) = (root, rig.root_motion) {
                    let mut out = [rig.skeleton.rest_pose()[j as usize]];
                    let rest = out;
                    sample_clip(
                        &root.clip,
                        key_time(spec, len, pos),
                        &rest,
                        &mut x.root_caches[i],
                        &mut out,
                    );
                    st.motion = motion_of(mode, &rig.root_space, &out[0]);
                }
            }
            (Node::StateMachine(sm), NodeState::Machine(m)) => {
                m.current = sm.initial_state().0;
                m.state_time = 0.0;
                m.transition = None;
            }
            // a warp's clock starts again with its input
            (Node::Kind(k), st @ NodeState::Warp { .. }) => *st = k.state(),
            _ => {}
        }
    }
}
