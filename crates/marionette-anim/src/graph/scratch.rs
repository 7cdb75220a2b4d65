//! The graph's scratch: buffers reused across frames ([`Scratch`]: the pose stack and its
//! morph weights, clip key cursors, the frame's [`FiredEvent`]s and root-motion blend). Not
//! part of the graph state: nothing here changes a result.

use super::compiled::{Compiled, Node};
use super::node_id::NodeId;
use super::sample::{sample_clip, sample_morphs, ClipCache};
use crate::root_motion::MotionBlend;
use crate::Transform;

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
    /// Pose stack; `stack[..top]` are live.
    pub stack: Vec<Vec<Transform>>,
    /// The morph weights of each pose of the stack (empty vectors for a rig without morph
    /// targets); `morphs[k]` goes with `stack[k]`.
    pub morphs: Vec<Vec<f32>>,
    pub top: usize,
    pub temp: Vec<Transform>,
    pub temp_morphs: Vec<f32>,
    pub caches: Vec<ClipCache>,
    pub root_caches: Vec<ClipCache>,
    pub events: Vec<FiredEvent>,
    pub motion: MotionBlend,
    joints: usize,
    /// The rig's default morph weights (what a fresh stack slot holds).
    defaults: Vec<f32>,
}

impl Scratch {
    /// Buffers for a compiled graph, sized up front: the pose stack to the deepest the
    /// post-order can get, and every clip's key cursors (so the first frame that plays a clip
    /// does not allocate either).
    pub fn new(c: &Compiled) -> Self {
        let nodes = c.nodes.len();
        let joints = c.skeleton.len();
        let rest = c.skeleton.rest_pose();
        let (mut depth, mut max_depth) = (0usize, 1usize);
        for id in &c.order {
            depth = depth + 1 - c.inputs[id.index()].len().min(depth);
            max_depth = max_depth.max(depth);
        }
        let defaults = c.skeleton.morphs().defaults();
        let mut x = Self::empty(nodes, joints, defaults);
        x.stack = vec![rest.to_vec(); max_depth];
        x.morphs = vec![defaults.to_vec(); max_depth];
        let mut out = rest.to_vec();
        let mut out_morphs = defaults.to_vec();
        for (i, node) in c.nodes.iter().enumerate() {
            if let Node::Clip { spec, .. } = node {
                let t = spec.clip.start;
                sample_clip(&spec.clip, t, rest, &mut x.caches[i], &mut out);
                let cache = &mut x.caches[i];
                sample_morphs(&spec.clip, t, &c.skeleton, cache, &mut out_morphs);
            }
        }
        x
    }

    fn empty(nodes: usize, joints: usize, defaults: &[f32]) -> Self {
        Self {
            stack: Vec::new(),
            morphs: Vec::new(),
            top: 0,
            temp: vec![Transform::IDENTITY; joints],
            temp_morphs: defaults.to_vec(),
            caches: vec![ClipCache::default(); nodes],
            root_caches: vec![ClipCache::default(); nodes],
            events: Vec::with_capacity(16),
            motion: MotionBlend::default(),
            joints,
            defaults: defaults.to_vec(),
        }
    }

    /// Pushes a pose slot (and its morph weights) and returns its index.
    pub fn push(&mut self) -> usize {
        if self.top == self.stack.len() {
            self.stack.push(vec![Transform::IDENTITY; self.joints]);
        }
        if self.top == self.morphs.len() {
            self.morphs.push(self.defaults.clone());
        }

        self.top += 1;
        self.top - 1
    }
}
