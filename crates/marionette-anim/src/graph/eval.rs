//! The evaluation pass: the active nodes of a subtree in post-order on a stack of pooled poses
//! and their morph weights (sized once; no allocation per frame afterwards). Every node does to
//! the weights what it does to the joints ([`crate::morph::blend`]).

use super::compiled::{Compiled, Node};
use super::lead::key_time;
use super::node_id::NodeId;
use super::sample::{sample_clip, sample_morphs};
use super::scratch::{two_pools, Scratch};
use super::state::{GraphState, NodeState};
use crate::blend;
use crate::morph::blend as weights;
use crate::retarget::Retargeter;

/// Two distinct stack slots, mutably.
fn pair<T>(stack: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    debug_assert!(a < b);
    let (lo, hi) = stack.split_at_mut(b);
    (&mut lo[a], &mut hi[0])
}

/// Evaluates the subtree of `id`; the result is the top of the pool of `id`'s rig
/// (`x.pools[rig].stack[0]`, morph weights `x.pools[rig].morphs[0]`).
pub(crate) fn eval_subtree(c: &Compiled, s: &GraphState, x: &mut Scratch, id: NodeId) {
    x.pools.iter_mut().for_each(|p| p.top = 0);
    let (first, last) = (c.first[id.index()], c.pos[id.index()]);
    if last != u32::MAX {
        for p in first..=last {
            let n = c.order[p as usize];
            if s.active[n.index()] {
                eval_node(c, s, x, n);
            }
        }
    }
    let rig = c.rig_of(id.index());
    let pool = &mut x.pools[usize::from(c.domain[id.index()])];
    if pool.top == 0 {
        let k = pool.push();
        pool.stack[k].copy_from_slice(rig.skeleton.rest_pose());
        pool.morphs[k].copy_from_slice(rig.skeleton.morphs().defaults());
    }
}

/// A retarget node: pops its input's pose from the source rig's pool, pushes it retargeted.
fn eval_retarget(c: &Compiled, x: &mut Scratch, i: usize, from: usize, r: &Retargeter) {
    let d = usize::from(c.domain[i]);
    let (src, dst) = two_pools(&mut x.pools, from, d);
    let k = dst.push();
    match src.top.checked_sub(1) {
        Some(top) => r.apply(
            &src.stack[top],
            &src.morphs[top],
            &mut dst.stack[k],
            &mut dst.morphs[k],
            &mut x.retarget[i],
        ),
        None => {
            let sk = &c.rigs[d].skeleton;
            dst.stack[k].copy_from_slice(sk.rest_pose());
            dst.morphs[k].copy_from_slice(sk.morphs().defaults());
        }
    }
    let src = &mut x.pools[from];
    src.top = src.top.saturating_sub(1);
}

fn eval_node(c: &Compiled, s: &GraphState, x: &mut Scratch, id: NodeId) {
    let i = id.index();
    if let Node::Retarget { from, retargeter } = &c.nodes[i] {
        eval_retarget(c, x, i, from.index(), retargeter);
        return;
    }
    let skeleton = &c.rig_of(i).skeleton;
    let rest = skeleton.rest_pose();
    let (x, caches) = (&mut x.pools[usize::from(c.domain[i])], &mut x.caches);
    match (&c.nodes[i], &s.nodes[i]) {
        (Node::Clip { spec, len, .. }, NodeState::Clip(st)) => {
            let k = x.push();
            let t = key_time(spec, *len, st.pos);
            sample_clip(&spec.clip, t, rest, &mut caches[i], &mut x.stack[k]);
            sample_morphs(&spec.clip, t, skeleton, &mut caches[i], &mut x.morphs[k]);
        }
        (
            Node::Blend { .. } | Node::Space1D { .. } | Node::Space2D { .. },
            NodeState::Weights(ws),
        ) => {
            let inputs = &c.inputs[i];
            let k = inputs.iter().filter(|n| s.active[n.index()]).count();
            if k == 0 {
                let slot = x.push();
                x.stack[slot].copy_from_slice(rest);
                x.morphs[slot].copy_from_slice(skeleton.morphs().defaults());
                return;
            }
            let base = x.top - k;
            let mut slot = base;
            for (j, n) in inputs.iter().enumerate() {
                if !s.active[n.index()] {
                    continue;
                }
                if slot == base {
                    blend::begin_accumulate(&mut x.stack[base], ws[j]);
                    weights::begin_accumulate(&mut x.morphs[base], ws[j]);
                } else {
                    let (acc, input) = pair(&mut x.stack, base, slot);
                    blend::accumulate(acc, input, ws[j]);
                    let (acc, input) = pair(&mut x.morphs, base, slot);
                    weights::accumulate(acc, input, ws[j]);
                }
                slot += 1;
            }
            blend::normalize_blend(&mut x.stack[base]);
            x.top = base + 1;
        }
        (
            Node::Additive {
                reference,
                reference_morphs,
                mask,
                ..
            },
            NodeState::Scalar(w),
        ) if s.active[c.inputs[i][1].index()] && x.top >= 2 => {
            let (b, a) = pair(&mut x.stack, x.top - 2, x.top - 1);
            blend::additive_delta(reference, a, &mut x.temp);
            let joints = b.len();
            blend::add_in_place(b, &x.temp, *w, mask.as_deref());
            let (b, a) = pair(&mut x.morphs, x.top - 2, x.top - 1);
            let morph_mask = mask.as_deref().map(|m| m.get(joints..).unwrap_or(&[]));
            weights::add_difference(b, a, reference_morphs, *w, morph_mask);
            x.top -= 1;
        }
        (Node::Layer { mask, .. }, NodeState::Scalar(w))
            if s.active[c.inputs[i][1].index()] && x.top >= 2 =>
        {
            let (b, l) = pair(&mut x.stack, x.top - 2, x.top - 1);
            let joints = b.len();
            match mask {
                Some(m) => blend::layer_in_place(b, l, m, *w),
                None => blend::lerp_in_place(b, l, *w),
            }
            let (b, l) = pair(&mut x.morphs, x.top - 2, x.top - 1);
            match mask {
                Some(m) => weights::layer_in_place(b, l, m.get(joints..).unwrap_or(&[]), *w),
                None => weights::lerp_in_place(b, l, *w),
            }
            x.top -= 1;
        }
        (Node::Kind(k), st) => k.eval(st, x),
        (Node::StateMachine(_), NodeState::Machine(m)) => {
            let Some(t) = &m.transition else { return };
            let Some(top) = x.top.checked_sub(1) else {
                return;
            };
            if t.inertial {
                m.inertia
                    .apply(t.elapsed, &mut x.stack[top], &mut x.morphs[top]);
            } else if t.playing && top >= 1 {
                // the lower state index was pushed first
                let (lo, hi) = pair(&mut x.stack, top - 1, top);
                let (src, dst) = if t.from < m.current {
                    (&*lo, &*hi)
                } else {
                    (&*hi, &*lo)
                };
                blend::lerp_into(src, dst, t.weight, &mut x.temp);
                std::mem::swap(&mut x.stack[top - 1], &mut x.temp);
                let (lo, hi) = pair(&mut x.morphs, top - 1, top);
                let (src, dst) = if t.from < m.current {
                    (&*lo, &*hi)
                } else {
                    (&*hi, &*lo)
                };
                weights::lerp_into(src, dst, t.weight, &mut x.temp_morphs);
                std::mem::swap(&mut x.morphs[top - 1], &mut x.temp_morphs);
                x.top -= 1;
            } else if m.frozen.len() == x.stack[top].len() {
                blend::lerp_into(&m.frozen, &x.stack[top], t.weight, &mut x.temp);
                std::mem::swap(&mut x.stack[top], &mut x.temp);
                let frozen = &m.frozen_morphs;
                weights::lerp_into(frozen, &x.morphs[top], t.weight, &mut x.temp_morphs);
                std::mem::swap(&mut x.morphs[top], &mut x.temp_morphs);
            }
        }
        _ => {}
    }
}
