//! What a script describes, as plain data: nodes, parameters, takes and options.
//!
//! The Lua API (`script::api`) fills a [`GraphSpec`]; `script::compile` turns it into the pure-Rust
//! blend graph. Keeping this layer as data means a script's meaning can be printed, compared
//! and tested without a Lua state, and Lua never touches the graph during evaluation.

use glam::{Vec2, Vec3};

/// Index of a node in [`GraphSpec::nodes`].
pub type NodeId = usize;

/// A weight or rate that is either fixed or read from a float parameter each frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A constant.
    Const(f32),
    /// The current value of the named float parameter.
    Param(String),
}

/// A clip player.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipSpec {
    /// Index into the rig's clips.
    pub clip: usize,
    /// Playback rate (1 = authored speed).
    pub speed: f32,
    /// Loop (true) or play once and hold the last frame (false).
    pub looping: bool,
    /// Start offset in seconds.
    pub offset: f32,
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

/// A node of the blend graph.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeSpec {
    /// Plays one clip.
    Clip(ClipSpec),
    /// Weighted blend of N inputs (weights normalised at evaluation).
    Blend {
        /// Inputs and their weights.
        inputs: Vec<(NodeId, Value)>,
    },
    /// 1D blend space over a float parameter.
    Blend1d {
        /// The parameter read.
        param: String,
        /// Sample positions (strictly increasing) and their nodes.
        points: Vec<(f32, NodeId)>,
        /// Keep the members' phases matched.
        sync: bool,
    },
    /// 2D blend space over two float parameters (or a vec3's x and z).
    Blend2d {
        /// Parameter for the x axis.
        x: String,
        /// Parameter for the y axis.
        y: String,
        /// Sample points and their nodes.
        points: Vec<(Vec2, NodeId)>,
        /// Keep the members' phases matched.
        sync: bool,
    },
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
    /// Plays a subtree faster or slower.
    Speed {
        /// The node retimed.
        input: NodeId,
        /// Rate.
        rate: Value,
    },
    /// Swaps left and right.
    Mirror {
        /// The node mirrored.
        input: NodeId,
    },
    /// A state machine.
    StateMachine(MachineSpec),
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
}

/// Comparison in a parameter condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// `<`
    Less,
    /// `<=`
    LessEq,
    /// `>`
    Greater,
    /// `>=`
    GreaterEq,
    /// `==`
    Eq,
    /// `~=` / `!=`
    NotEq,
}

/// A condition on a parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// A float parameter compared with a number.
    Compare {
        /// Parameter name.
        param: String,
        /// Operator.
        op: Compare,
        /// Right-hand side.
        value: f32,
    },
    /// A bool parameter equal to a value.
    Flag {
        /// Parameter name.
        param: String,
        /// Required value.
        value: bool,
    },
    /// The script's Lua predicate with this index returns true.
    Predicate(usize),
}

/// Weight curve of a transition over its normalised time.
#[derive(Debug, Clone, PartialEq)]
pub enum Curve {
    /// `t`
    Linear,
    /// `t*t*(3-2t)`
    Smoothstep,
    /// CSS `ease-in`.
    EaseIn,
    /// CSS `ease-out`.
    EaseOut,
    /// CSS `ease-in-out`.
    EaseInOut,
    /// CSS-style cubic bezier with control points (x1, y1, x2, y2).
    Bezier([f32; 4]),
    /// A Lua function sampled at load at `n` evenly spaced points on `[0, 1]` (linear between).
    Sampled(Vec<f32>),
}

/// What the outgoing state does while a transition blends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The outgoing pose is frozen at the moment of the switch (seed 003).
    Frozen,
    /// The outgoing state keeps playing.
    Live,
}

/// A transition between two states.
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionSpec {
    /// Source state index; `None` = from any state.
    pub from: Option<usize>,
    /// Target state index.
    pub to: usize,
    /// Fire when this trigger parameter is set (consumes it).
    pub on: Option<String>,
    /// All of these must hold.
    pub when: Vec<Condition>,
    /// Fire when the source state reaches its end (one-shot clips).
    pub at_end: bool,
    /// Fire once the source state's normalised phase passes this value.
    pub exit_time: Option<f32>,
    /// Blend duration in seconds.
    pub blend: f32,
    /// Blend weight curve.
    pub curve: Curve,
    /// Frozen or live source.
    pub source: Source,
}

/// Kind, default and range of a parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamKind {
    /// A float clamped to `[min, max]`.
    Float {
        /// Initial value.
        default: f32,
        /// Lower bound.
        min: f32,
        /// Upper bound.
        max: f32,
    },
    /// A flag.
    Bool(bool),
    /// A one-frame event, consumed by the transition it fires.
    Trigger,
    /// A point or direction.
    Vec3(Vec3),
}

/// A declared parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSpec {
    /// Name used in conditions, blend spaces, takes and `ctx`.
    pub name: String,
    /// Kind and default.
    pub kind: ParamKind,
}

/// Keys of one parameter inside a take.
#[derive(Debug, Clone, PartialEq)]
pub enum TakeTrack {
    /// Float keys `(time, value)`; linear unless `step`.
    Float {
        /// Parameter name.
        param: String,
        /// Keys, sorted by time.
        keys: Vec<(f32, f32)>,
        /// Hold each value until the next key.
        step: bool,
    },
    /// Bool keys (always step).
    Bool {
        /// Parameter name.
        param: String,
        /// Keys, sorted by time.
        keys: Vec<(f32, bool)>,
    },
    /// Vec3 keys; linear unless `step`.
    Vec3 {
        /// Parameter name.
        param: String,
        /// Keys, sorted by time.
        keys: Vec<(f32, Vec3)>,
        /// Hold each value until the next key.
        step: bool,
    },
    /// Times at which a trigger fires.
    Trigger {
        /// Parameter name.
        param: String,
        /// Firing times, sorted.
        times: Vec<f32>,
    },
}

/// A named scenario: parameter keys and triggers over time.
#[derive(Debug, Clone, PartialEq)]
pub struct TakeSpec {
    /// Take name.
    pub name: String,
    /// Length in seconds.
    pub duration: f32,
    /// Simulation rate (steps per second).
    pub fps: f32,
    /// Keys per parameter.
    pub tracks: Vec<TakeTrack>,
}

/// How root motion is treated: the runtime's one mode enum (`"off"`, `"ground"`, `"whole"`).
pub use crate::anim::root_motion::RootMotionMode;

/// Everything a script describes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GraphSpec {
    /// Nodes; children always have smaller ids than their parents.
    pub nodes: Vec<NodeSpec>,
    /// Output node.
    pub root: NodeId,
    /// Declared parameters, sorted by name within each `params { }` call.
    pub params: Vec<ParamSpec>,
    /// Takes, sorted by name.
    pub takes: Vec<TakeSpec>,
    /// Root motion option.
    pub root_motion: RootMotionMode,
    /// Declarative post-process operations, in order.
    pub post: Vec<PostSpec>,
}

impl GraphSpec {
    /// Finds a declared parameter.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Finds a take.
    pub fn take(&self, name: &str) -> Option<&TakeSpec> {
        self.takes.iter().find(|t| t.name == name)
    }
}

/// A point given as a constant or by a vec3 parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Vec3Source {
    /// A constant.
    Const(Vec3),
    /// The named vec3 parameter.
    Param(String),
}

/// What a declarative post-process operation does.
#[derive(Debug, Clone, PartialEq)]
pub enum PostKind {
    /// Aim `joint`'s `axis` at a model-space target, up to `limit` degrees.
    LookAt {
        /// Target.
        target: Vec3Source,
        /// Largest rotation in degrees.
        limit: f32,
        /// Local aim axis.
        axis: Vec3,
        /// Local up axis.
        up: Vec3,
    },
    /// Two-bone IK ending at `joint`.
    TwoBone {
        /// Model-space target.
        target: Vec3Source,
        /// Model-space pole.
        pole: Vec3Source,
    },
    /// Add an XYZ-euler rotation (degrees).
    Rotate {
        /// Degrees about X, Y, Z.
        degrees: Vec3,
        /// Model space (true) or local (false).
        model: bool,
    },
    /// Add an offset.
    Translate {
        /// The offset.
        offset: Vec3,
        /// Model space (true) or local (false).
        model: bool,
    },
}

/// A declarative post-process operation (`ik.look_at(...)` in `graph { post = { ... } }`):
/// evaluated in Rust every frame with no Lua call.
#[derive(Debug, Clone, PartialEq)]
pub struct PostSpec {
    /// The joint changed (the tip for two-bone IK).
    pub joint: String,
    /// Operation.
    pub kind: PostKind,
    /// Blend weight.
    pub weight: Value,
}
