//! What a node kind is ([`Kind`], [`Refs`]) and the views of the passes a kind's file works
//! through: [`LowerCx`] (lowering), [`Walk`] (an update visit) and the pose pool (evaluation);
//! [`Resolve`] is how a description's references become a graph's.

use crate::graph::node_id::NodeId;
use crate::graph::params::{check_number, ParamId, Params, Value};
use crate::graph::pool::Pool;
use crate::graph::share::Share;
use crate::graph::state::NodeState;
use crate::graph::GraphError;
use crate::root_motion::MotionBlend;
use crate::{JointIndex, Skeleton};

/// How a description's references become a graph's: parameter names to ids and a script's node
/// ids to the graph's (made on the way). The script host implements it when it builds a graph.
pub trait Resolve<P> {
    /// What a failed reference reports.
    type Error;
    /// The id of parameter `p`.
    fn param(&mut self, p: &P) -> Result<ParamId, Self::Error>;
    /// The graph's node for input `n` of the description.
    fn input(&mut self, n: NodeId) -> Result<NodeId, Self::Error>;
}

/// A description's references: its inputs (in evaluation order, each one level below it) and
/// how its parameter references resolve.
pub(crate) trait Refs<P> {
    /// The description with parameter ids.
    type Graph;
    /// The inputs, in evaluation order: the one list of them.
    fn inputs(&self) -> Vec<NodeId>;
    /// The description with its references resolved (in source order, so errors come out in
    /// the order the script wrote them).
    fn resolve<R: Resolve<P>>(&self, r: &mut R) -> Result<Self::Graph, R::Error>;
}

/// What lowering a kind may read: the rig of the node, the parameters, the graph's explicit
/// left/right pairs (for a node of the graph's own rig), and how to name the node in an error.
pub(crate) struct LowerCx<'a> {
    pub skeleton: &'a Skeleton,
    pub params: &'a Params,
    /// The builder's left/right pairs (`None`: none given, or a node of another rig).
    pub mirror_pairs: Option<&'a [(JointIndex, JointIndex)]>,
    pub invalid: &'a dyn Fn(String) -> GraphError,
}

impl LowerCx<'_> {
    /// Checks a number the node reads (finite, or a declared float or flag parameter); the
    /// error names `what` at the node.
    pub fn number(&self, v: &Value, what: &str) -> Result<(), GraphError> {
        check_number(v, self.params, what).map_err(|m| (self.invalid)(m))
    }
}

/// What a kind's update may do: read the parameters and its own state, take part in root
/// motion, and visit its inputs.
pub(crate) trait Walk {
    /// The parameters now.
    fn params(&self) -> &Params;
    /// The node's own running state.
    fn state(&mut self) -> &mut NodeState;
    /// The step's root-motion blend the visit collects into.
    fn motion(&mut self) -> &mut MotionBlend;
    /// Updates input `k` for `dt` seconds with `share` of the output.
    fn input(&mut self, k: usize, dt: f32, share: Share);
    /// Whether the graph extracts root motion.
    fn has_root_motion(&self) -> bool;
    /// Whether root motion is on the ground plane only ([`crate::root_motion::RootMotionMode::Ground`]).
    fn ground_only(&self) -> bool;
    /// Where the character stands now, in the world it walks in (its start is the origin).
    fn placement(&self) -> glam::Vec3;
    /// How far input `k`'s root motion would move the character over `steps` more steps of
    /// `dt` (world, metres), measured on a copy of the state: nothing it does is kept (no
    /// event, no transition).
    fn run_ahead(&mut self, k: usize, dt: f32, steps: u32, share: Share) -> glam::Vec3;
    /// The translation of a step's root-motion delta that moves the character by `v` (world).
    fn world_to_step(&self, v: glam::Vec3) -> glam::Vec3;
}

/// A node kind: its names, and what each pass does with it. Implemented by the description
/// with parameter ids.
pub(crate) trait Kind: Sized {
    /// Its name in messages (`node #3 'x' (mirror)`), introspection and `run --json`.
    const NAME: &'static str;
    /// Its Lua name: a global function (`mirror`) or, with a leading `:`, a node method
    /// (`:speed`).
    const SCRIPT: &'static str;
    /// Its pose has the same joints as its first input's (provenance looks through it).
    const SAME_JOINTS: bool = false;
    /// What lowering keeps.
    type Data: std::fmt::Debug;
    /// Checks the description (errors through `cx.invalid`) and keeps what runs.
    fn lower(self, cx: &LowerCx) -> Result<Self::Data, GraphError>;
    /// The running state of a fresh graph.
    fn state(_: &Self::Data) -> NodeState {
        NodeState::None
    }
    /// One update visit: its inputs' time steps and shares, its state.
    fn update<W: Walk>(d: &Self::Data, w: &mut W, dt: f32, share: Share);
    /// The evaluation: its inputs' poses are on top of `pool` (the first deepest); it leaves
    /// its own in their place. The default passes its one input's pose through.
    fn eval(_: &Self::Data, _: &NodeState, _: &mut Pool) {}
    /// The rate its first input's time runs at, for the cycle lengths of phase sync (`None`:
    /// the node's own).
    fn rate(_: &Self::Data, _: &Params) -> Option<f32> {
        None
    }
}
