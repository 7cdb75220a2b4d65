//! The blend graph: clip players, blends, blend spaces, additive and masked layers, time scale,
//! mirror and state machines, evaluated in fixed time steps into a local pose.
//!
//! Lua configures, Rust evaluates (design property 3): a [`Graph`] is built once by a
//! [`GraphBuilder`] — from Rust or from the script host — as a tree of nodes in an arena
//! ([`NodeId`] handles). [`GraphBuilder::build`] validates it (errors name the node, e.g.
//! `node #3 'move' (blend space 1D): ...`) and compiles it to a post-order evaluation. Then, each
//! frame:
//!
//! ```text
//! set params -> Graph::advance(dt)   fixed steps (default 60 Hz): clip playheads, blend weights,
//!                                    state machines, events, root motion
//!            -> Graph::evaluate()    post-order over the active nodes into pooled poses,
//!                                    root-motion removal, post-process ops (IK, look-at, ...)
//!            -> &[Transform]         the local pose, parent-first
//! ```
//!
//! Nodes are listed in `nodes.rs` ([`NodeSpec`]); state machine rules in `state_machine.rs`
//! ([`StateMachine`]). A node may be the input of one node only (the graph is a tree), so every
//! node has one playhead.
//!
//! **Time.** `advance(dt)` runs whole fixed steps and keeps the remainder
//! ([`crate::time`] holds every step/time conversion); [`Graph::advance_to`] runs to a
//! given step; parameters written between frames take effect at the next step. The evaluated pose is a pure function of the
//! graph state, which [`Graph::snapshot`] captures completely (playheads, state machine states,
//! transition progress, frozen poses, parameter values, root-motion accumulator); a
//! [`Simulation`] replays a [`Take`] deterministically and scrubs backwards from snapshots.
//!
//! **Sync.** A blend space with `sync` keeps its members at one normalised phase: the member with
//! the largest weight (the leader) advances so that the phase moves at the rate of the
//! weight-blended cycle duration `Σ wₖ · cycleₖ` (as Unity and Godot do), so the cadence changes
//! continuously with the weights; every other member is set to `phase × its own duration`, so
//! walk and run feet stay in step. Members are matched through
//! time scales and mirrors, the largest-weight input of blends, the base of layers, and the
//! current state of state machines.
//!
//! **Root motion** ([`GraphBuilder::root_motion`], seed 004; modes and the world-space measure in
//! [`crate::root_motion`]). Each clip player samples the root
//! joint's tracks at its playhead and reports the step's motion delta (across loop wraps too);
//! deltas are blended by the players' weights (layers and additive inputs contribute none, a
//! frozen transition source contributes none) and accumulated into
//! [`Graph::root_motion_world`]; [`Graph::root_motion_delta`] is the last frame's delta. Motion
//! is measured from the graph's first frame ([`crate::root_motion::Reference`]): at the
//! start the accumulated motion is the identity, wherever the root stands. The
//! evaluated pose has the motion part of the root removed from every root joint (it stands
//! where the first frame stood), so a preview
//! either applies the accumulated transform (walk through the scene: [`Graph::pose_with_root_motion`],
//! or place the drawn character at the world-space [`Graph::root_motion_world`]) or not (stay
//! in place).
//! A [`MirrorNode`] mirrors the root motion of its input as well as the pose; a [`SteppedNode`]
//! passes it on in its steps.
//!
//! **Weights.** After each step [`Graph::node_weight`] is each node's effective weight in the
//! output (the product of the blend weights above it); [`Graph::nodes`] and
//! [`Graph::state_machines`] report it with active states and transition progress.
//!
//! **Files, bottom to top.** Dependencies point one way (no file imports one above it):
//!
//! | layer | files |
//! |---|---|
//! | handles, values | [`NodeId`] (`node_id`), `params`, `curve`, `key_curve` (a take's keys and their [`Ease`]), `mask`, `sample`, `blend_space`, `post`, `share`, `pool`, `state` |
//! | kinds | `kinds` (one file per kind declared once, [`KindSpec`]; they see the passes only through the `Walk`, `Pool` and `LowerCx` views) |
//! | descriptions | `state_machine` (states hold [`NodeId`]s, not nodes), `nodes` ([`NodeSpec`]) |
//! | compiled data | `compiled` (`Node`, `Compiled`: what does not change while the graph runs; a fresh `GraphState`) |
//! | scratch | `scratch` (`Scratch`, `FiredEvent`) |
//! | lowering, queries | `lower` (a spec checked and lowered into a `Node`), `lead` (a node's leading clip, playheads), `visit` (the `Visit` context) |
//! | passes | `eval`, `clip_player`, `machine_update` (a machine's clock and transitions), `update` (the visit) |
//! | on top | `runtime` ([`Graph`]), `compile` ([`GraphBuilder`]), `info`, `provenance`, `structure` (inputs, sync leaders, joints driven: the graph view), `simulation`, `take` |
//!
//! The one mutual recursion is inside `update`: a state machine's states are nodes and any node
//! may be a state machine, so visiting a machine visits its states through `update`'s own
//! recursion; `machine_update` only advances the machine's clock and fires its transitions and
//! never calls back.
//!
//! **How to add a node kind.** A kind that passes time and phase through its first input
//! (time scale, mirror, stepped) is declared once, in a file of its own under `kinds/`: four
//! files in all, listed in `kinds/mod.rs` (its file, its line in the `kinds!` registry, its Lua
//! constructor in the script crate's `api/nodes.rs`, its stub in `scripts/marionette.d.lua`),
//! besides its tests and its prose. The passes reach those kinds through one `Node::Kind` arm
//! each; a test fails when a kind's Lua name is missing from the stubs or the guide.
//!
//! A core kind (it mixes inputs by weight, plays a clip, runs a state machine or reads another
//! rig) has its own arms instead; places marked *(compiler)* fail to build until they handle it:
//! 1. `nodes.rs`: the description struct (public API), its `NodeSpec` variant *(compiler:
//!    `NodeSpec::inputs`, `NodeSpec::kind`)*, its `spec_from!` entry and its row in the table;
//!    re-export it here in `mod.rs`.
//! 2. `compiled.rs`: its `Node` variant (what lowering precomputes) and its initial
//!    `NodeState` in `GraphState::new` *(compiler)*.
//! 3. `lower.rs`: its arm in `lower_node` *(compiler)*: check the description (errors through
//!    `invalid`) and build the `Node`.
//! 4. `update.rs`: its arm in `update` *(compiler)*: its weights, and which inputs are visited
//!    with which time step and `Share`; and, when it passes time or phase through to one
//!    input, `cycle_of` and `set_phase`.
//! 5. Only if it changes the pose: its arm in `eval.rs`'s `eval_node` (a node without one passes
//!    its input's pose through). Only if it reads a phase through anything but its first input:
//!    `lead.rs`'s `lead_input`. Only if it lays joints over its base, or passes its base through
//!    unchanged in joints: `provenance.rs` (`layer_weights`, `base_node`).
//! 6. In the script crate: `spec.rs` (the script's description, its `edges` and `lua_name`),
//!    `compile/mod.rs` (spec to builder) and `api/nodes.rs` (the Lua constructor).
//!
//! ```
//! use std::sync::Arc;
//! use glam::{Mat4, Quat, Vec3};
//! use marionette_anim::graph::{BlendSpace1D, ClipNode, GraphBuilder};
//! use marionette_anim::{Clip, Interpolation, JointTracks, Skeleton, Track, Transform};
//!
//! // one joint; "walk" moves it from x=0 to x=1 over 1 s, "run" from x=0 to x=3
//! let skel = Skeleton::new(vec!["root".into()], vec![None], vec![Transform::IDENTITY], Mat4::IDENTITY)
//!     .unwrap()
//!     .skeleton;
//! let slide = |name: &str, x: f32| {
//!     let mut jt = JointTracks::new(0);
//!     jt.translation = Some(Track { interpolation: Interpolation::Linear, times: vec![0.0, 1.0], values: vec![Vec3::ZERO, Vec3::X * x] });
//!     Clip::new(name, vec![jt])
//! };
//! let mut b = GraphBuilder::new(skel);
//! let speed = b.float("speed", 0.0, 0.0, 1.0).unwrap();
//! let walk = b.add(ClipNode::new(slide("walk", 1.0)));
//! let run = b.add(ClipNode::new(slide("run", 3.0)));
//! let locomotion = b.add(BlendSpace1D::new(speed).sample(0.0, walk).sample(1.0, run));
//! let mut graph = b.build(locomotion).unwrap();
//! graph.params_mut().set_float(speed, 0.5).unwrap();
//! graph.advance(0.25); // 15 steps of 1/60 s
//! let pose = graph.evaluate();
//! // both clips at 0.25 s: x = 0.5 * 0.25 + 0.5 * 0.75
//! assert!((pose[0].translation.x - 0.5).abs() < 1e-5);
//! ```

#![warn(missing_docs)]

mod blend_space;
mod clip_player;
mod compile;
mod compiled;
mod curve;
mod eval;
pub(crate) mod foot_lock;
mod inertia;
mod info;
mod key_curve;
mod kinds;
mod lead;
mod lower;
mod machine_update;
mod mask;
mod node_id;
mod nodes;
mod params;
mod pool;
mod post;
mod provenance;
mod rig_op;
mod runtime;
mod sample;
mod scratch;
mod share;
mod simulation;
mod state;
mod state_machine;
mod structure;
mod take;
mod update;
mod visit;

#[cfg(test)]
mod tests;

pub use blend_space::{triangulate, weights_1d, weights_2d};
pub use compile::GraphBuilder;
pub use curve::{sample_curve, Curve, CurveFn};
pub use info::{EventInfo, NodeInfo, RetargetInfo, StateMachineInfo, TransitionInfo};
// every kind of kinds/ (a new one needs no line here): KindSpec, MirrorNode, SteppedNode, ...
pub use key_curve::{key_slopes, Ease, KeyInterpolation};
pub use kinds::*;
pub use mask::JointMask;
pub use node_id::NodeId;
pub use nodes::{
    AdditiveNode, BlendNode, BlendSpace1D, BlendSpace2D, ClipEvent, ClipNode, LayerNode, NodeSpec,
    Reference, RetargetNode, RigId,
};
pub use params::{Input, ParamDef, ParamId, ParamKind, ParamValue, Params, Value, Vec3Value};
pub use post::{FootLock, LockedFoot, PostOp};
pub use provenance::{JointSource, LayerWeight, Writer};
pub use rig_op::{Gizmo, RigMemory, RigOp, Target};
pub use runtime::{Graph, DEFAULT_STEP_HZ, MAX_STEPS_PER_ADVANCE};
pub use simulation::{Cursor, Simulation};
pub use state::GraphState;
pub use state_machine::{
    CompareOp, Condition, ConditionContext, Predicate, SourceMode, State, StateEvent,
    StateEventTime, StateId, StateMachine, Transition,
};
pub use take::{ParamTrack, Take, TakeError, TakeTrigger};

/// Errors building a graph or writing its parameters. Node errors name the node as
/// `#index 'name' (kind)`.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum GraphError {
    /// Two parameters with one name.
    #[error("parameter '{0}' is declared twice")]
    DuplicateParam(String),
    /// A float parameter with an empty or infinite range.
    #[error("parameter '{name}' has range [{min}, {max}]")]
    BadParamRange {
        /// Parameter name.
        name: String,
        /// Lower bound given.
        min: f32,
        /// Upper bound given.
        max: f32,
    },
    /// More than 65535 parameters.
    #[error("too many parameters")]
    TooManyParams,
    /// A parameter name that is not declared.
    #[error("unknown parameter '{0}'")]
    UnknownParam(String),
    /// A value of the wrong kind for a parameter.
    #[error("parameter '{name}' is a {} but got a {}", expected.name(), found.name())]
    ParamKind {
        /// Parameter name.
        name: String,
        /// The parameter's kind.
        expected: ParamKind,
        /// The kind given.
        found: ParamKind,
    },
    /// NaN or infinity written to a parameter.
    #[error("parameter '{0}' was given a value that is not a finite number")]
    NotFinite(String),
    /// A joint name not in the skeleton.
    #[error("unknown joint '{0}'")]
    UnknownJoint(String),
    /// A morph target or morph set name the rig does not have.
    #[error("unknown morph target '{0}'")]
    UnknownMorph(String),
    /// A node id that does not exist.
    #[error("{referenced_by} uses node #{node}, which does not exist")]
    UnknownNode {
        /// The bad index.
        node: usize,
        /// The node (or "the graph root") that refers to it.
        referenced_by: String,
    },
    /// A node used as the input of two nodes.
    #[error("{node} is an input of both {first} and {second}; a node can feed only one node (make a second node)")]
    SharedNode {
        /// The shared node.
        node: String,
        /// Its first user.
        first: String,
        /// Its second user.
        second: String,
    },
    /// Inputs that loop back.
    #[error("{0} is its own input (through a cycle)")]
    Cycle(String),
    /// A node whose settings are invalid.
    #[error("{node}: {reason}")]
    Invalid {
        /// The node's id (`None`: the post-process).
        id: Option<NodeId>,
        /// The node.
        node: String,
        /// What is wrong.
        reason: String,
    },
    /// Root motion asked of a joint that has a parent.
    #[error("root motion joint '{0}' must be a root joint (no parent)")]
    RootMotionJoint(String),
    /// More nodes than a [`NodeId`] can address.
    #[error("too many nodes")]
    TooManyNodes,
}
