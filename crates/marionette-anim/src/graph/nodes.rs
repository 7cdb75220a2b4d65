//! Node descriptions: what a graph is built from. Each node reads the poses of its inputs
//! (other nodes, by [`NodeId`]) and writes one local pose.
//!
//! | node | inputs | output |
//! |---|---|---|
//! | [`ClipNode`] | none | the clip sampled at its own playhead (speed, wrap, start offset, events) |
//! | [`BlendNode`] | N nodes with weights | weighted blend (weights normalised; weights may be params) |
//! | [`BlendSpace1D`] | samples at positions on a float param | blend of the two samples around the param |
//! | [`BlendSpace2D`] | samples at 2D points, two float params | barycentric blend in a Delaunay triangle |
//! | [`AdditiveNode`] | base, additive | base + (additive − reference) × weight × mask |
//! | [`LayerNode`] | base, layer | lerp(base, layer, weight × mask\[joint\]) |
//! | [`KindSpec`] | one node or more | a kind declared in `kinds/`: [`TimeScaleNode`] (the input's time `scale` times as fast), [`MirrorNode`] (mirrored left/right), [`SteppedNode`] (the input's time in whole steps) |
//! | [`StateMachine`] | one node per state | the current state, blended during transitions |
//! | [`RetargetNode`] | one node of another rig | the input's pose put on this rig ([`crate::retarget`]) |
//!
//! [`TimeScaleNode`]: super::TimeScaleNode
//! [`MirrorNode`]: super::MirrorNode
//! [`SteppedNode`]: super::SteppedNode

use std::sync::Arc;

use glam::Vec2;

use super::kinds::{IntoKind, KindSpec};
use super::mask::JointMask;
use super::node_id::NodeId;
use super::params::{ParamId, Value};
use super::state_machine::StateMachine;
use crate::retarget::Retargeter;
use crate::{Clip, Transform, WrapMode};

/// A named marker on a clip's timeline, reported when the playhead crosses it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipEvent {
    /// Event name (e.g. `"foot_l"`).
    pub name: String,
    /// Time in seconds from the start of the clip's key range.
    pub time: f32,
}

/// Plays one clip. The playhead runs over the clip's key range `[clip.start, clip.end]` (a clip
/// whose first key is after 0 is trimmed, seed 004), measured from 0.
#[derive(Clone, Debug)]
pub struct ClipNode {
    /// The clip.
    pub clip: Arc<Clip>,
    /// Playback speed (1 = authored speed, negative plays backwards).
    pub speed: Value,
    /// What happens at the ends (default: loop).
    pub wrap: WrapMode,
    /// Where the playhead starts (and restarts when a state is entered), in seconds.
    pub start: f32,
    /// Markers reported when crossed.
    pub events: Vec<ClipEvent>,
}

impl ClipNode {
    /// A looping player at speed 1 from the start.
    pub fn new(clip: impl Into<Arc<Clip>>) -> Self {
        Self {
            clip: clip.into(),
            speed: Value::Const(1.0),
            wrap: WrapMode::Loop,
            start: 0.0,
            events: Vec::new(),
        }
    }

    /// Sets the speed.
    pub fn speed(mut self, speed: impl Into<Value>) -> Self {
        self.speed = speed.into();
        self
    }

    /// Sets the wrap mode.
    pub fn wrap(mut self, wrap: WrapMode) -> Self {
        self.wrap = wrap;
        self
    }

    /// Plays once and holds the last frame.
    pub fn once(self) -> Self {
        self.wrap(WrapMode::Once)
    }

    /// Sets the start offset in seconds.
    pub fn start(mut self, seconds: f32) -> Self {
        self.start = seconds;
        self
    }

    /// Adds a named event at `time` seconds.
    pub fn event(mut self, name: impl Into<String>, time: f32) -> Self {
        self.events.push(ClipEvent {
            name: name.into(),
            time,
        });
        self
    }
}

/// Blends N inputs by weight; weights are normalised to sum to 1 each step (all zero: the
/// first input).
///
/// `P` refers to parameters as in [`Value`]: ids in a graph, names in a script's spec (the same
/// holds for the other nodes generic over `P`).
#[derive(Clone, Debug, PartialEq)]
pub struct BlendNode<P = ParamId> {
    /// Inputs and their weights.
    pub inputs: Vec<(NodeId, Value<P>)>,
}

impl<P> Default for BlendNode<P> {
    fn default() -> Self {
        Self { inputs: Vec::new() }
    }
}

impl BlendNode {
    /// A blend with no inputs yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an input.
    pub fn input(mut self, node: NodeId, weight: impl Into<Value>) -> Self {
        self.inputs.push((node, weight.into()));
        self
    }
}

/// Samples placed on a line and blended by a float parameter: the two samples around the value
/// share the weight linearly; outside the range the end sample has all of it.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendSpace1D<P = ParamId> {
    /// The parameter giving the position.
    pub param: P,
    /// `(position, node)` pairs; positions must be distinct.
    pub samples: Vec<(f32, NodeId)>,
    /// Keep the members' normalised phases matched (see the graph docs, "Sync").
    pub sync: bool,
}

impl BlendSpace1D {
    /// An empty blend space on `param`.
    pub fn new(param: ParamId) -> Self {
        Self {
            param,
            samples: Vec::new(),
            sync: false,
        }
    }

    /// Adds a sample at `position`.
    pub fn sample(mut self, position: f32, node: NodeId) -> Self {
        self.samples.push((position, node));
        self
    }

    /// Turns phase sync on or off.
    pub fn sync(mut self, on: bool) -> Self {
        self.sync = on;
        self
    }
}

/// Samples placed on a plane and blended by two float parameters. The points are Delaunay
/// triangulated when the graph is built; the parameter point is clamped to the nearest point of
/// the triangulation (its convex hull) and the three corners of its triangle get barycentric
/// weights.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendSpace2D<P = ParamId> {
    /// Parameter for the x coordinate.
    pub x: P,
    /// Parameter for the y coordinate.
    pub y: P,
    /// `(point, node)` pairs: at least three, not all on one line, all distinct.
    pub samples: Vec<(Vec2, NodeId)>,
    /// Keep the members' normalised phases matched.
    pub sync: bool,
}

impl BlendSpace2D {
    /// An empty blend space on `(x, y)`.
    pub fn new(x: ParamId, y: ParamId) -> Self {
        Self {
            x,
            y,
            samples: Vec::new(),
            sync: false,
        }
    }

    /// Adds a sample at `point`.
    pub fn sample(mut self, point: Vec2, node: NodeId) -> Self {
        self.samples.push((point, node));
        self
    }

    /// Turns phase sync on or off.
    pub fn sync(mut self, on: bool) -> Self {
        self.sync = on;
        self
    }
}

/// The pose an additive input is measured against.
#[derive(Clone, Debug)]
pub enum Reference {
    /// The skeleton's rest pose.
    RestPose,
    /// A clip sampled at a time (seconds from its first key), e.g. its first frame.
    ClipAt(Arc<Clip>, f32),
    /// An explicit pose (one transform per joint).
    Pose(Vec<Transform>),
}

/// Adds the difference between `additive` and a reference pose on top of `base`.
#[derive(Clone, Debug)]
pub struct AdditiveNode {
    /// The pose added to.
    pub base: NodeId,
    /// The pose whose difference from `reference` is added.
    pub additive: NodeId,
    /// The reference pose.
    pub reference: Reference,
    /// Scale of the difference (0 = base only).
    pub weight: Value,
    /// Optional per-joint scale.
    pub mask: Option<JointMask>,
}

impl AdditiveNode {
    /// `base + (additive - reference)` at weight 1, no mask.
    pub fn new(base: NodeId, additive: NodeId, reference: Reference) -> Self {
        Self {
            base,
            additive,
            reference,
            weight: Value::Const(1.0),
            mask: None,
        }
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: impl Into<Value>) -> Self {
        self.weight = weight.into();
        self
    }

    /// Sets the mask.
    pub fn mask(mut self, mask: JointMask) -> Self {
        self.mask = Some(mask);
        self
    }
}

/// Overrides `base` with `layer`, per joint, by `weight × mask[joint]`.
#[derive(Clone, Debug)]
pub struct LayerNode {
    /// The pose underneath.
    pub base: NodeId,
    /// The pose laid over it.
    pub layer: NodeId,
    /// Overall weight.
    pub weight: Value,
    /// Per-joint weights (`None`: every joint 1).
    pub mask: Option<JointMask>,
}

impl LayerNode {
    /// A layer at weight 1 over every joint.
    pub fn new(base: NodeId, layer: NodeId) -> Self {
        Self {
            base,
            layer,
            weight: Value::Const(1.0),
            mask: None,
        }
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: impl Into<Value>) -> Self {
        self.weight = weight.into();
        self
    }

    /// Sets the mask.
    pub fn mask(mut self, mask: JointMask) -> Self {
        self.mask = Some(mask);
        self
    }
}

/// A rig other than the graph's own, declared with [`super::GraphBuilder::source_rig`]: the
/// nodes under a [`RetargetNode`] animate it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RigId(pub(crate) u16);

impl RigId {
    /// The graph's own rig.
    pub const OWN: RigId = RigId(0);

    /// Index of the rig (0: the graph's own).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Puts the pose of `input`, a node of rig `from` (any subgraph of it: its clips, blends,
/// state machines), on this node's rig with `retargeter`, whose root motion and morph weights
/// carry over too (see [`crate::retarget`]).
#[derive(Clone, Debug)]
pub struct RetargetNode {
    /// A node of rig `from`.
    pub input: NodeId,
    /// The rig the input animates.
    pub from: RigId,
    /// From `from`'s skeleton onto the user's rig's.
    pub retargeter: Arc<Retargeter>,
}

/// Any node description, as stored by the builder.
#[derive(Debug)]
pub enum NodeSpec {
    /// A clip player.
    Clip(ClipNode),
    /// An N-way blend.
    Blend(BlendNode),
    /// A 1D blend space.
    BlendSpace1D(BlendSpace1D),
    /// A 2D blend space.
    BlendSpace2D(BlendSpace2D),
    /// An additive node.
    Additive(AdditiveNode),
    /// A masked layer.
    Layer(LayerNode),
    /// A node of a kind declared in `kinds/` (time scale, mirror, stepped, ...).
    Kind(KindSpec),
    /// A state machine.
    StateMachine(StateMachine),
    /// A retarget from another rig.
    Retarget(RetargetNode),
}

impl NodeSpec {
    /// The node's inputs, in evaluation order.
    pub fn inputs(&self) -> Vec<NodeId> {
        match self {
            NodeSpec::Clip(_) => Vec::new(),
            NodeSpec::Blend(b) => b.inputs.iter().map(|i| i.0).collect(),
            NodeSpec::BlendSpace1D(b) => b.samples.iter().map(|s| s.1).collect(),
            NodeSpec::BlendSpace2D(b) => b.samples.iter().map(|s| s.1).collect(),
            NodeSpec::Additive(a) => vec![a.base, a.additive],
            NodeSpec::Layer(l) => vec![l.base, l.layer],
            NodeSpec::Kind(k) => k.inputs(),
            NodeSpec::StateMachine(s) => s.states().iter().map(|s| s.node).collect(),
            NodeSpec::Retarget(r) => vec![r.input],
        }
    }

    /// A short name of the node's kind, for messages and introspection.
    pub fn kind(&self) -> &'static str {
        match self {
            NodeSpec::Clip(_) => "clip",
            NodeSpec::Blend(_) => "blend",
            NodeSpec::BlendSpace1D(_) => "blend space 1D",
            NodeSpec::BlendSpace2D(_) => "blend space 2D",
            NodeSpec::Additive(_) => "additive",
            NodeSpec::Layer(_) => "layer",
            NodeSpec::Kind(k) => k.name(),
            NodeSpec::StateMachine(_) => "state machine",
            NodeSpec::Retarget(_) => "retarget",
        }
    }
}

macro_rules! spec_from {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for NodeSpec {
            fn from(n: $t) -> Self {
                NodeSpec::$v(n)
            }
        }
    )*};
}

spec_from!(ClipNode => Clip, BlendNode => Blend, BlendSpace1D => BlendSpace1D, BlendSpace2D => BlendSpace2D,
    AdditiveNode => Additive, LayerNode => Layer, StateMachine => StateMachine,
    RetargetNode => Retarget, KindSpec => Kind);

/// Every kind of `kinds/` converts (`builder.add(MirrorNode { input })`).
impl<K: IntoKind> From<K> for NodeSpec {
    fn from(k: K) -> Self {
        NodeSpec::Kind(k.into_kind())
    }
}
