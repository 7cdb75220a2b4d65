//! What a script describes, as plain data: nodes, parameters, takes and options.
//!
//! The Lua API (`script::api`) fills a [`GraphSpec`]; `script::compile` turns it into the pure-Rust
//! blend graph. Keeping this layer as data means a script's meaning can be printed, compared
//! and tested without a Lua state, and Lua never touches the graph during evaluation.
//!
//! The spec refers to parameters, states and joints by name (resolved when the graph is built)
//! and otherwise reuses the graph's own types: [`Value`], [`Vec3Value`], [`BlendNode`],
//! [`BlendSpace1D`], [`BlendSpace2D`] and the kinds declared once ([`KindSpec`]: [`TimeScaleNode`],
//! [`MirrorNode`], `stepped`, ...) are the graph's with a parameter name in place of an id, [`Condition`] the graph's with names and Lua predicate indices;
//! comparisons, curves, source modes, parameter declarations, takes and
//! post-process spaces are the runtime's [`CompareOp`], [`Curve`],
//! [`SourceMode`], [`ParamDef`], [`Take`] and [`Space`] themselves. Only what a script says
//! differently from the graph has its own type here: clips by rig index, additive references
//! and layer lists by node, state machines with states by name, post-process operations by
//! joint name, and options.

use glam::Vec3;
use marionette_anim::motion::MotionAsserts;

pub use crate::post_kind::{PostKind, PostSpec};
pub use crate::rig_kind::{AimSpec, ChainLimits, ColliderSpec, RigKind, TargetSpec};
use marionette_anim::graph::{self as g};
pub use marionette_anim::graph::{
    CompareOp, Curve, MirrorNode, NodeId, ParamDef, SourceMode, Take,
};
pub use marionette_anim::ik::Space;

/// A weight or rate that is either fixed or read from the named float parameter each frame.
pub type Value = g::Value<String>;

/// A weighted blend of N inputs, weights by name.
pub type BlendNode = g::BlendNode<String>;

/// A 1D blend space over the named float parameter.
pub type BlendSpace1D = g::BlendSpace1D<String>;

/// A 2D blend space over two named float parameters (or a vec3's x and z).
pub type BlendSpace2D = g::BlendSpace2D<String>;

/// A node of a kind the graph declares once (`marionette_anim::graph::KindSpec`: time scale,
/// mirror, stepped, ...), its parameters by name.
pub type KindSpec = g::KindSpec<String>;

/// Plays a subtree faster or slower, at a rate that may be a named parameter.
pub type TimeScaleNode = g::TimeScaleNode<String>;

/// A point given as a constant or by the named vec3 parameter.
pub type Vec3Value = g::Vec3Value<String>;

/// A clip player.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipSpec {
    /// The rig the clip belongs to: 0 for the character, `k` for the script's `k`-th other
    /// rig ([`crate::LoadedScript::sources`]).
    pub rig: usize,
    /// Index into the rig's clips.
    pub clip: usize,
    /// Playback rate (1 = authored speed).
    pub speed: f32,
    /// Loop (true) or play once and hold the last frame (false).
    pub looping: bool,
    /// Start offset in seconds.
    pub offset: f32,
    /// Named events `(name, clip time in seconds)` reported when the playhead crosses them.
    pub events: Vec<(String, f32)>,
}

/// One input of a layer node.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerSpec {
    /// The node blended over the base.
    pub node: NodeId,
    /// Per-joint weights in `[0, 1]` (one per rig joint); `None` means every joint.
    pub mask: Option<Vec<f32>>,
    /// Overall weight.
    pub weight: Value,
    /// Add the layer (relative to its first frame) instead of blending towards it.
    pub additive: bool,
}

/// A node of the blend graph. Node ids ([`NodeId`]) index [`GraphSpec::nodes`]; nodes that
/// mean the same as a graph node are that node with parameters by name.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeSpec {
    /// Plays one clip.
    Clip(ClipSpec),
    /// Weighted blend of N inputs (weights normalised at evaluation).
    Blend(BlendNode),
    /// 1D blend space over a float parameter (positions strictly increasing).
    Blend1d(BlendSpace1D),
    /// 2D blend space over two float parameters.
    Blend2d(BlendSpace2D),
    /// `base + weight * (add - reference)`.
    Additive {
        /// The pose added to.
        base: NodeId,
        /// The additive clip or node.
        add: NodeId,
        /// Reference pose subtracted from `add`; `None` uses `add`'s first frame.
        reference: Option<NodeId>,
        /// Scale of the difference.
        weight: Value,
    },
    /// A base pose with layers blended over it in order.
    Layer {
        /// The base node.
        base: NodeId,
        /// Layers, applied in order.
        layers: Vec<LayerSpec>,
    },
    /// A node of a kind declared once in the graph (`node:speed`, `mirror`, `stepped`, ...).
    Kind(KindSpec),
    /// A state machine.
    StateMachine(MachineSpec),
    /// A subgraph of another rig put on the character.
    Retarget(RetargetSpec),
    /// What a call that failed returns, so the script can go on and its other mistakes be
    /// found; a spec with one is never built (the script is rejected).
    Invalid,
}

/// Which character joint takes its motion from which source joint.
#[derive(Debug, Clone, PartialEq)]
pub enum MapSpec {
    /// The map proposed from both skeletons ([`marionette_anim::retarget::JointMap::auto`]).
    Auto,
    /// The script's own: `(character joint, source joint)` pairs and chains.
    Joints {
        /// Pairs, sorted by character joint.
        pairs: Vec<(String, String)>,
        /// Chains of different lengths: `(character joints, source joints)`, top first.
        chains: Vec<(Vec<String>, Vec<String>)>,
    },
}

/// `retarget(source, { from = rig, map = ..., ... })`.
#[derive(Debug, Clone, PartialEq)]
pub struct RetargetSpec {
    /// A node of the source rig.
    pub input: NodeId,
    /// The source rig (an index as [`ClipSpec::rig`], never 0).
    pub rig: usize,
    /// The joint map.
    pub map: MapSpec,
    /// The pose both rigs are aligned in.
    pub reference: ReferencePose,
    /// Translation scale per axis; `None`: the ratio of leg lengths.
    pub scale: Option<Vec3>,
    /// IK on the feet and on the hands.
    pub ik_feet: bool,
    /// IK on the hands.
    pub ik_hands: bool,
}

pub use marionette_anim::retarget::ReferencePose;

/// One input of a node and the levels it adds below it: 1 for most, one per layered input
/// for a layer's base and layers, 0 for an additive's reference (read when the graph is built,
/// not compiled under the node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The input.
    pub node: NodeId,
    /// Levels it adds below the node.
    pub levels: u32,
}

impl NodeSpec {
    /// What the script calls each kind of node: the core kinds here, then the graph's kinds
    /// declared once ([`g::SCRIPT_NAMES`]; `:name` for a node method).
    pub const CORE_NAMES: [&'static str; 8] = [
        "clip",
        "blend",
        "blend1d",
        "blend2d",
        "additive",
        "layer",
        "state_machine",
        "retarget",
    ];

    /// Every kind's Lua name ([`NodeSpec::CORE_NAMES`] and the graph's kinds).
    pub fn lua_names() -> impl Iterator<Item = &'static str> {
        Self::CORE_NAMES
            .into_iter()
            .chain(g::SCRIPT_NAMES.iter().copied())
    }

    /// The nodes this one reads with the levels each adds: the one list of a node's inputs
    /// (the size limits and the rig checks read it).
    pub fn edges(&self) -> Vec<Edge> {
        let one = |node: NodeId| Edge { node, levels: 1 };
        match self {
            NodeSpec::Clip(_) | NodeSpec::Invalid => Vec::new(),
            NodeSpec::Blend(b) => b.inputs.iter().map(|i| one(i.0)).collect(),
            NodeSpec::Blend1d(b) => b.samples.iter().map(|s| one(s.1)).collect(),
            NodeSpec::Blend2d(b) => b.samples.iter().map(|s| one(s.1)).collect(),
            NodeSpec::Additive {
                base,
                add,
                reference,
                ..
            } => {
                let mut v = vec![one(*base), one(*add)];
                v.extend(reference.map(|node| Edge { node, levels: 0 }));
                v
            }
            NodeSpec::Layer { base, layers } => {
                // (exact: a Lua call passes at most a million arguments, one layer each)
                let k = layers.len() as u32;
                let mut v = vec![Edge {
                    node: *base,
                    levels: k.max(1),
                }];
                v.extend(layers.iter().enumerate().map(|(i, l)| Edge {
                    node: l.node,
                    levels: k - i as u32,
                }));
                v
            }
            NodeSpec::Kind(k) => k.inputs().into_iter().map(one).collect(),
            NodeSpec::StateMachine(m) => m.states.iter().map(|s| one(s.1)).collect(),
            NodeSpec::Retarget(r) => vec![one(r.input)],
        }
    }

    /// The nodes this one reads, in order.
    pub fn inputs(&self) -> Vec<NodeId> {
        self.edges().into_iter().map(|e| e.node).collect()
    }

    /// What the script calls this kind of node (`blend2d`, `clip`, `:speed`, ...).
    pub fn lua_name(&self) -> &'static str {
        match self {
            NodeSpec::Clip(_) => "clip",
            NodeSpec::Blend(_) => "blend",
            NodeSpec::Blend1d(_) => "blend1d",
            NodeSpec::Blend2d(_) => "blend2d",
            NodeSpec::Additive { .. } => "additive",
            NodeSpec::Layer { .. } => "layer",
            NodeSpec::Kind(k) => k.script_name(),
            NodeSpec::StateMachine(_) => "state_machine",
            NodeSpec::Retarget(_) => "retarget",
            NodeSpec::Invalid => "node",
        }
    }
}

/// A state machine's states and transitions.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineSpec {
    /// States (name, node), sorted by name.
    pub states: Vec<(String, NodeId)>,
    /// Index of the start state.
    pub start: usize,
    /// Transitions, checked in order.
    pub transitions: Vec<TransitionSpec>,
    /// Named events of states (`events = { jump = { {"enter", "takeoff"}, {0.3, "apex"} } }`).
    pub events: Vec<StateEventSpec>,
}

/// When a state's event fires: the runtime's [`StateEventTime`].
pub use marionette_anim::graph::StateEventTime;

/// A named event of a state machine's state.
#[derive(Debug, Clone, PartialEq)]
pub struct StateEventSpec {
    /// Index of the state in [`MachineSpec::states`].
    pub state: usize,
    /// Event name.
    pub name: String,
    /// When it fires.
    pub at: StateEventTime,
}

/// A transition condition: the graph's, with parameters by name and Lua predicates by their
/// index in the script's predicate list.
pub type Condition = g::Condition<String, usize>;

/// A transition between two states.
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionSpec {
    /// Source state index; `None` = from any state.
    pub from: Option<usize>,
    /// Target state index.
    pub to: usize,
    /// All of these must hold, in this order: the `on` trigger (consumed when the transition
    /// fires), the `when` conditions, `at_end`, `exit_time`.
    pub conditions: Vec<Condition>,
    /// Blend duration in seconds.
    pub blend: f32,
    /// Blend weight curve (a Lua curve function is kept as [`Curve::Sampled`]).
    pub curve: Curve,
    /// Frozen or playing (`"live"`) source, or an inertial transition (`mode = "inertial"`).
    pub source: SourceMode,
}

/// How root motion is treated: the runtime's one mode enum (`"off"`, `"ground"`, `"whole"`).
pub use marionette_anim::root_motion::RootMotionMode;

/// The first clip under `from` (depth first, inputs in order): what a retarget over it starts
/// with.
pub fn first_clip(nodes: &[NodeSpec], from: NodeId) -> Option<&ClipSpec> {
    let mut stack = vec![from];
    let mut seen = 0usize;
    while let Some(id) = stack.pop() {
        seen += 1;
        if seen > nodes.len() {
            return None;
        }
        match nodes.get(id.index())? {
            NodeSpec::Clip(c) => return Some(c),
            other => stack.extend(other.edges().iter().rev().map(|e| e.node)),
        }
    }
    None
}

/// Everything a script describes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GraphSpec {
    /// Nodes; children always have smaller ids than their parents.
    pub nodes: Vec<NodeSpec>,
    /// Output node.
    pub root: NodeId,
    /// Declared parameters, sorted by name within each `params { }` call.
    pub params: Vec<ParamDef>,
    /// Takes, sorted by name.
    pub takes: Vec<Take>,
    /// Root motion option.
    pub root_motion: RootMotionMode,
    /// Declarative post-process operations, in order.
    pub post: Vec<PostSpec>,
    /// Left/right joint pairs the script gave (`marionette.sides { ... }`), as (left, right)
    /// names; they take precedence over the pairs found by name.
    pub mirror_pairs: Vec<(String, String)>,
    /// Where in the script each node and post-process operation was made, so errors found
    /// when the graph is built point at that line.
    pub sources: SourceMap,
    /// `assert_motion { ... }`: what every take's frames must keep.
    pub assert_motion: Option<MotionAsserts>,
    /// Takes with their own `assert_motion = { ... }` (replacing the global one), by name.
    pub take_asserts: Vec<(String, MotionAsserts)>,
    /// `graph { passes = { ... } }`: bake passes run over every take's frames.
    pub passes: Vec<PassSpec>,
    /// Takes with their own `passes = { ... }` (replacing the graph's), by name.
    pub take_passes: Vec<(String, Vec<PassSpec>)>,
}

/// One bake pass of a script (`pass.*` or a Lua `function(frames)`) and where it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct PassSpec {
    /// What it does.
    pub kind: PassKind,
    /// The line that made it.
    pub at: Option<crate::Location>,
}

/// A bake pass: built in (Rust) or a Lua function.
#[derive(Debug, Clone, PartialEq)]
pub enum PassKind {
    /// `pass.loop_close { }`, `pass.smooth { }`, ...
    Builtin(marionette_anim::passes::Pass),
    /// A `function(frames) ... end`: the script's `k`-th pass function.
    Lua(usize),
}

impl PassSpec {
    /// The pass's name as messages print it (`pass.smooth`, `function(frames)`).
    pub fn name(&self) -> String {
        match &self.kind {
            PassKind::Builtin(p) => format!("pass.{}", p.name()),
            PassKind::Lua(_) => "function(frames)".to_string(),
        }
    }
}

impl GraphSpec {
    /// The motion assertions of take `take`: its own, else the script's (`None`: none given).
    pub fn asserts_for(&self, take: &str) -> Option<&MotionAsserts> {
        self.take_asserts
            .iter()
            .find(|(name, _)| name == take)
            .map(|(_, a)| a)
            .or(self.assert_motion.as_ref())
    }

    /// The bake passes of take `take`: its own `passes`, else the graph's (maybe none).
    pub fn passes_for(&self, take: &str) -> &[PassSpec] {
        self.take_passes
            .iter()
            .find(|(name, _)| name == take)
            .map_or(&self.passes, |(_, p)| p)
    }
}

/// Script lines of a spec's parts (`None` where unknown, e.g. a spec built in Rust).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SourceMap {
    /// The call that made each node, indexed like [`GraphSpec::nodes`].
    pub nodes: Vec<Option<crate::Location>>,
    /// The call that made each operation, indexed like [`GraphSpec::post`].
    pub post: Vec<Option<crate::Location>>,
    /// Where each take is defined (its name's line), by name.
    pub takes: Vec<(String, Option<crate::Location>)>,
}

impl SourceMap {
    /// Where node `id` was made.
    pub fn node(&self, id: NodeId) -> Option<&crate::Location> {
        self.nodes.get(id.index()).and_then(Option::as_ref)
    }
}

impl GraphSpec {
    /// Finds a declared parameter.
    pub fn param(&self, name: &str) -> Option<&ParamDef> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Finds a take.
    pub fn take(&self, name: &str) -> Option<&Take> {
        self.takes.iter().find(|t| t.name == name)
    }

    /// The takes' names in the order the script defines them (by file and line; a take whose
    /// line is unknown after those, by name). [`GraphSpec::takes`] is sorted by name.
    pub fn takes_in_script_order(&self) -> Vec<&str> {
        let at = |name: &str| {
            self.sources
                .takes
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, l)| l.as_ref())
        };
        let mut names: Vec<&str> = self.takes.iter().map(|t| t.name.as_str()).collect();
        names.sort_by(|a, b| match (at(a), at(b)) {
            (Some(x), Some(y)) => (&x.file, x.line).cmp(&(&y.file, y.line)).then(a.cmp(b)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.cmp(b),
        });
        names
    }
}

/// `unknown take 'NAME' (the script has: a, b) (did you mean 'a'?)` for a take not among
/// `names`.
pub fn unknown_take<'a>(name: &str, names: impl IntoIterator<Item = &'a str> + Clone) -> String {
    let list: Vec<&str> = names.clone().into_iter().collect();
    let has = if list.is_empty() {
        "none".to_string()
    } else {
        list.join(", ")
    };
    format!(
        "unknown take '{name}' (the script has: {has}){}",
        crate::names::did_you_mean(name, names)
    )
}

/// `" (did you mean 'x'?)"` when a candidate is close to `name`, else empty (for messages
/// about names outside scripts: a command-line selection, say).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> String {
    crate::names::did_you_mean(name, candidates)
}
