//! The state of a running graph: everything a snapshot holds ([`GraphState`]: each node's
//! [`NodeState`], weights, parameters, the step count and root placement), and [`Pass`], what an
//! update visit does. Pure data: the passes that change it are [`super::update`] and the files
//! below it.

use super::foot_lock::FootState;
use super::inertia::Inertia;
use super::params::Params;
use super::rig_op::RigMemory;
use crate::root_motion::Reference;
use crate::Transform;

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

/// Playhead of a clip player.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ClipState {
    /// Position: seconds into the key range (ping-pong: into the 2×length cycle).
    pub pos: f32,
    /// Normalised time since the player was (re)started (cumulative over loops).
    pub norm: f32,
    /// Reached its end (once / clamp-to-first: stays set) or completed a cycle this step.
    pub ended: bool,
    /// Root motion at `pos`.
    pub motion: Transform,
}

/// A running transition.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ActiveTransition {
    /// Index of the transition in its machine.
    pub index: u16,
    /// The state it left.
    pub from: u16,
    /// True when the source keeps playing (otherwise the frozen pose is the source).
    pub playing: bool,
    /// True when the target plays at full weight and the outgoing pose's offset decays
    /// ([`super::inertia`]).
    pub inertial: bool,
    /// True when it interrupted another transition.
    pub interrupted: bool,
    pub elapsed: f32,
    pub duration: f32,
    /// Curve output at `elapsed` (the target's weight).
    pub weight: f32,
}

/// State of a state machine.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MachineState {
    pub current: u16,
    pub state_time: f32,
    pub transition: Option<ActiveTransition>,
    /// The source pose captured at the last frozen switch.
    pub frozen: Vec<Transform>,
    /// Its morph weights.
    pub frozen_morphs: Vec<f32>,
    /// The decaying offsets of a running inertial transition.
    pub inertia: Inertia,
}

/// Per-node running state.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeState {
    None,
    Clip(ClipState),
    /// Normalised weight of each input (blend, blend spaces).
    Weights(Vec<f32>),
    /// Layer or additive weight.
    Scalar(f32),
    Machine(MachineState),
    /// A warp's time since its input started and, inside its window, where its input's motion
    /// lands the character (world).
    Warp {
        time: f32,
        landing: Option<glam::Vec3>,
    },
}

/// The complete state of a running graph: restoring it reproduces every later pose bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphState {
    pub(crate) nodes: Vec<NodeState>,
    /// Effective weight of each node after the last step.
    pub(crate) weights: Vec<f32>,
    /// Whether each node took part in the last step.
    pub(crate) active: Vec<bool>,
    pub(crate) params: Params,
    pub(crate) steps: u64,
    pub(crate) accumulator: f64,
    /// Accumulated root placement, in the root joints' parent space: the start placement
    /// ([`GraphState::root_reference`]) followed by every step's delta.
    pub(crate) root_world: Transform,
    /// The placement deltas of the last `advance`, accumulated.
    pub(crate) root_delta: Transform,
    /// Where root motion is measured from: the root placement at the graph's start (its first
    /// frame), so the motion is the identity there and the in-place pose stands where the
    /// first frame does.
    pub(crate) root_reference: Reference,
    /// The memory of each post-process operation.
    pub(crate) post: Vec<PostMemory>,
}

/// What one post-process operation remembers between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum PostMemory {
    /// Nothing (an operation without memory, or before its first frame).
    #[default]
    None,
    /// A foot lock's feet.
    Feet(Vec<FootState>),
    /// A rigging operation's.
    Rig(RigMemory),
}
