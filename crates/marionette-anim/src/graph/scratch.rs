//! The graph's scratch: buffers reused across frames ([`Scratch`]: a pose stack per rig with
//! its morph weights (`Pool`), clip key cursors, retarget buffers, the frame's
//! [`FiredEvent`]s and root-motion blend). Not part of the graph state: nothing here changes a
//! result.

use super::compiled::{Compiled, Node};
use super::node_id::NodeId;
use super::pool::Pool;
use super::sample::{sample_clip, sample_morphs, ClipCache};
use crate::retarget::RetargetScratch;
use crate::root_motion::MotionBlend;

/// An event crossed during the current frame.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FiredEvent {
    /// The clip player or state machine.
    pub node: NodeId,
    /// Index into the player's clip events or the machine's state events.
    pub event: usize,
    pub weight: f32,
    /// The event's time in the clip, or in the state (seconds since it was entered).
    pub time: f32,
}

/// Buffers reused across frames (not part of the graph state: nothing here changes a result).
pub(crate) struct Scratch {
    /// One pose stack per rig ([`Compiled::rigs`] order).
    pub pools: Vec<Pool>,
    pub caches: Vec<ClipCache>,
    pub root_caches: Vec<ClipCache>,
    /// Buffers of each retarget node (empty for other nodes).
    pub retarget: Vec<RetargetScratch>,
    pub events: Vec<FiredEvent>,
    pub motion: MotionBlend,
}

/// A shared and a mutable pool of two different rigs.
pub(crate) fn two_pools(pools: &mut [Pool], read: usize, write: usize) -> (&Pool, &mut Pool) {
    debug_assert_ne!(read, write);
    if read < write {
        let (lo, hi) = pools.split_at_mut(write);
        (&lo[read], &mut hi[0])
    } else {
        let (lo, hi) = pools.split_at_mut(read);
        (&hi[0], &mut lo[write])
    }
}

impl Scratch {
    /// Buffers for a compiled graph, sized up front: each rig's pose stack to the deepest the
    /// post-order can get, and every clip's key cursors (so the first frame that plays a clip
    /// does not allocate either).
    pub fn new(c: &Compiled) -> Self {
        let nodes = c.nodes.len();
        let mut depth = vec![0usize; c.rigs.len()];
        let mut max_depth = vec![1usize; c.rigs.len()];
        for id in &c.order {
            let i = id.index();
            let d = usize::from(c.domain[i]);
            match &c.nodes[i] {
                Node::Retarget { from, .. } => {
                    let f = from.index();
                    depth[f] = depth[f].saturating_sub(1);
                    depth[d] += 1;
                }
                _ => depth[d] = depth[d] + 1 - c.inputs[i].len().min(depth[d]),
            }
            max_depth[d] = max_depth[d].max(depth[d]);
        }
        let pools = c
            .rigs
            .iter()
            .zip(&max_depth)
            .map(|(rig, &k)| {
                Pool::new(
                    rig.skeleton.rest_pose(),
                    rig.skeleton.morphs().defaults(),
                    k,
                )
            })
            .collect();
        let mut x = Scratch {
            pools,
            caches: vec![ClipCache::default(); nodes],
            root_caches: vec![ClipCache::default(); nodes],
            retarget: c
                .nodes
                .iter()
                .map(|n| match n {
                    Node::Retarget { retargeter, .. } => retargeter.scratch(),
                    _ => RetargetScratch::default(),
                })
                .collect(),
            events: Vec::with_capacity(16),
            motion: MotionBlend::default(),
        };
        for (i, node) in c.nodes.iter().enumerate() {
            if let Node::Clip { spec, .. } = node {
                let sk = &c.rig_of(i).skeleton;
                let rest = sk.rest_pose();
                let mut out = rest.to_vec();
                let mut out_morphs = sk.morphs().defaults().to_vec();
                let t = spec.clip.start;
                sample_clip(&spec.clip, t, rest, &mut x.caches[i], &mut out);
                sample_morphs(&spec.clip, t, sk, &mut x.caches[i], &mut out_morphs);
            }
        }
        x
    }
}
