//! The compiled graph's data: [`Node`] (a node description plus what lowering precomputed from
//! it) and [`Compiled`], everything about a graph that does not change while it runs. Built by
//! [`super::compile`] (through [`super::lower`]); read by every pass.

use std::sync::Arc;

use glam::Vec2;

use super::kinds::KindData;
use super::node_id::NodeId;
use super::nodes::{ClipNode, RigId};
use super::params::Params;
use super::params::{ParamId, Value};
use super::post::PostOp;
use super::state::{ClipState, GraphState, MachineState, NodeState};
use super::state_machine::StateMachine;
use crate::retarget::Retargeter;
use crate::root_motion::Reference;
use crate::root_motion::{RootMotionMode, RootSpace};
use crate::{Clip, JointIndex, Skeleton, Transform};

/// A compiled node: the description plus what was precomputed from it.
#[derive(Debug)]
pub(crate) enum Node {
    Clip {
        spec: ClipNode,
        /// Length of the key range.
        len: f32,
        /// The root joint's tracks as a one-joint clip (root motion only).
        root: Option<RootTracks>,
    },
    Blend {
        weights: Vec<Value>,
    },
    Space1D {
        param: ParamId,
        xs: Vec<f32>,
        sync: bool,
    },
    Space2D {
        x: ParamId,
        y: ParamId,
        points: Vec<Vec2>,
        tris: Vec<[usize; 3]>,
        sync: bool,
    },
    Additive {
        reference: Vec<Transform>,
        /// The reference's morph weights.
        reference_morphs: Vec<f32>,
        weight: Value,
        mask: Option<Vec<f32>>,
    },
    Layer {
        weight: Value,
        mask: Option<Vec<f32>>,
    },
    /// A kind declared in `kinds/`: what lowering kept of it.
    Kind(KindData),
    StateMachine(StateMachine),
    Retarget {
        from: RigId,
        retargeter: Arc<Retargeter>,
    },
}

/// A rig the graph animates: its own (index 0) or one a retarget node reads from.
#[derive(Debug)]
pub(crate) struct Rig {
    pub skeleton: Arc<Skeleton>,
    /// The root joint and mode of root motion on this rig (never [`RootMotionMode::Off`]).
    pub root_motion: Option<(JointIndex, RootMotionMode)>,
    /// Where its root joints hang in the world.
    pub root_space: RootSpace,
}

/// Root-joint tracks of a clip, for root motion.
#[derive(Debug)]
pub(crate) struct RootTracks {
    pub clip: Clip,
    /// Motion at the first and last key.
    pub start: Transform,
    pub end: Transform,
}

/// Everything about a graph that does not change while it runs.
pub(crate) struct Compiled {
    pub skeleton: Arc<Skeleton>,
    pub nodes: Vec<Node>,
    pub inputs: Vec<Vec<NodeId>>,
    pub names: Vec<Option<String>>,
    pub kinds: Vec<&'static str>,
    /// Reachable nodes in post-order (inputs before users).
    pub order: Vec<NodeId>,
    /// Position of each node in `order` (`u32::MAX` when unreachable).
    pub pos: Vec<u32>,
    /// Position in `order` of the first node of each node's subtree.
    pub first: Vec<u32>,
    pub root: NodeId,
    /// The root joint and mode of root motion (never [`RootMotionMode::Off`]).
    pub root_motion: Option<(JointIndex, RootMotionMode)>,
    /// Where the root joints hang in the world (root motion is measured there).
    pub root_space: RootSpace,
    pub post: Vec<PostOp>,
    /// Every rig: the graph's own first (its skeleton and root motion repeat the fields
    /// above), then those retarget nodes read from.
    pub rigs: Vec<Rig>,
    /// The rig each node animates (index into `rigs`).
    pub domain: Vec<u16>,
}

impl Compiled {
    /// The rig node `i` animates.
    pub fn rig_of(&self, i: usize) -> &Rig {
        &self.rigs[usize::from(self.domain[i])]
    }
}

impl GraphState {
    /// The state of a freshly built graph: every node at rest, nothing active yet (the runtime
    /// then puts the nodes at their start).
    pub(crate) fn new(c: &Compiled, params: Params) -> GraphState {
        let n = c.nodes.len();
        let nodes = c
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| match node {
                Node::Clip { .. } => NodeState::Clip(ClipState {
                    pos: 0.0,
                    norm: 0.0,
                    ended: false,
                    motion: Transform::IDENTITY,
                }),
                Node::Blend { weights } => NodeState::Weights(vec![0.0; weights.len()]),
                Node::Space1D { xs, .. } => NodeState::Weights(vec![0.0; xs.len()]),
                Node::Space2D { points, .. } => NodeState::Weights(vec![0.0; points.len()]),
                Node::Additive { .. } | Node::Layer { .. } => NodeState::Scalar(0.0),
                Node::StateMachine(sm) => NodeState::Machine(MachineState {
                    current: sm.initial_state().0,
                    state_time: 0.0,
                    transition: None,
                    frozen: Vec::with_capacity(c.rig_of(i).skeleton.len()),
                    frozen_morphs: c.rig_of(i).skeleton.morphs().defaults().to_vec(),
                    inertia: Default::default(),
                }),
                Node::Kind(k) => k.state(),
                Node::Retarget { .. } => NodeState::None,
            })
            .collect();
        GraphState {
            nodes,
            weights: vec![0.0; n],
            active: vec![false; n],
            params,
            steps: 0,
            accumulator: 0.0,
            root_world: Transform::IDENTITY,
            root_delta: Transform::IDENTITY,
            root_reference: Reference::ORIGIN,
            post: vec![Default::default(); c.post.len()],
        }
    }
}
