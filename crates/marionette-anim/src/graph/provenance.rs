//! Where a joint's value comes from in the last evaluated pose: each layer's mask weight at the
//! joint, and the last stage that wrote it (a post-process op, a layer or additive node laid over
//! it, or the node underneath), for the editor's outliner ("why does this bone move?").
//!
//! Derived from the graph's structure and its state after the last step, in evaluation order:
//! post ops run last, so the last op that targets the joint with a non-zero weight wins; below
//! them, from the root down, the first layer or additive node whose effective weight at the joint
//! (node weight × mask) is non-zero; failing that, the node that produced the base pose. Root
//! motion extraction is reported separately ([`JointSource::root_motion`]).

use super::compiled::Node;
use super::node_id::NodeId;
use super::runtime::Graph;
use super::state::NodeState;

/// A layer (or additive) node's weight at one joint.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerWeight<'a> {
    /// The node.
    pub node: NodeId,
    /// Its name, if given.
    pub name: Option<&'a str>,
    /// `layer` or `additive`.
    pub kind: &'static str,
    /// The mask's weight at the joint (1 without a mask).
    pub mask: f32,
    /// The node's overall weight after the last step (its `weight` value).
    pub weight: f32,
}

impl LayerWeight<'_> {
    /// How much of the layer reaches the joint: `mask × weight`.
    pub fn effective(&self) -> f32 {
        self.mask * self.weight
    }
}

/// The stage that last wrote a joint.
#[derive(Clone, Debug, PartialEq)]
pub enum Writer<'a> {
    /// Post-process op `index` of the graph's `post` list.
    Post {
        /// Position in the list.
        index: usize,
        /// What it does (`look at`, `two-bone IK`, `spring`, ...).
        kind: &'static str,
        /// Its weight this frame (0..1).
        weight: f32,
    },
    /// A layer or additive node laid over the base.
    Layer(LayerWeight<'a>),
    /// The node that produced the pose underneath.
    Node {
        /// The node.
        node: NodeId,
        /// Its name, if given.
        name: Option<&'a str>,
        /// Its kind.
        kind: &'static str,
    },
}

/// Where a joint's value comes from. See the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct JointSource<'a> {
    /// The last stage that wrote the joint.
    pub writer: Writer<'a>,
    /// Every layer and additive node the graph evaluates, outermost first, with its weight at
    /// the joint.
    pub layers: Vec<LayerWeight<'a>>,
    /// True when root motion is extracted from this joint.
    pub root_motion: bool,
}

/// What a post op is called in the UI.
impl Graph {
    /// Where `joint`'s value in the last evaluated pose comes from; `None` for a joint the
    /// skeleton does not have.
    pub fn joint_source(&self, joint: usize) -> Option<JointSource<'_>> {
        let parents = self.c.skeleton.parents();
        if joint >= parents.len() {
            return None;
        }
        let layers = self.layer_weights(joint);
        let root_motion = self.c.root_motion.is_some_and(|(j, _)| j as usize == joint);
        let writer = self
            .post_writer(joint)
            .or_else(|| {
                layers
                    .iter()
                    .find(|l| l.effective() > 0.0 && self.node_weight(l.node) > 0.0)
                    .cloned()
                    .map(Writer::Layer)
            })
            .unwrap_or_else(|| {
                let node = self.base_node();
                Writer::Node {
                    node,
                    name: self.c.names[node.index()].as_deref(),
                    kind: self.c.kinds[node.index()],
                }
            });
        Some(JointSource {
            writer,
            layers,
            root_motion,
        })
    }

    /// The last post op that writes `joint` with a non-zero weight.
    fn post_writer(&self, joint: usize) -> Option<Writer<'_>> {
        let parents = self.c.skeleton.parents();
        let params = &self.s.params;
        self.c
            .post
            .iter()
            .enumerate()
            .rev()
            .find_map(|(index, op)| {
                let writes = op.writes(parents, joint);
                let weight = op.weight().get(params);
                (writes && weight != 0.0).then(|| Writer::Post {
                    index,
                    kind: op.name(),
                    weight: weight.clamp(0.0, 1.0),
                })
            })
    }

    /// Layer and additive nodes in reverse evaluation order (outermost first) with their
    /// weight at `joint`.
    fn layer_weights(&self, joint: usize) -> Vec<LayerWeight<'_>> {
        self.c
            .order
            .iter()
            .rev()
            // (layers of the character's own rig: those under a retarget node mask another's)
            .filter(|id| self.c.domain[id.index()] == 0)
            .filter_map(|&id| {
                let (kind, mask) = match &self.c.nodes[id.index()] {
                    Node::Layer { mask, .. } => ("layer", mask),
                    Node::Additive { mask, .. } => ("additive", mask),
                    _ => return None,
                };
                let weight = match &self.s.nodes[id.index()] {
                    NodeState::Scalar(w) => *w,
                    _ => 0.0,
                };
                Some(LayerWeight {
                    node: id,
                    name: self.c.names[id.index()].as_deref(),
                    kind,
                    mask: mask
                        .as_ref()
                        .map_or(1.0, |m| m.get(joint).copied().unwrap_or(0.0)),
                    weight,
                })
            })
            .collect()
    }

    /// The node producing the base pose: from the root, down through layers, additive and
    /// time-scale nodes (their first input), to the first node that makes a pose itself.
    fn base_node(&self) -> NodeId {
        let mut id = self.c.root;
        while match &self.c.nodes[id.index()] {
            Node::Layer { .. } | Node::Additive { .. } => true,
            Node::Kind(k) => k.same_joints(),
            _ => false,
        } {
            match self.c.inputs[id.index()].first() {
                Some(&base) => id = base,
                None => break,
            }
        }
        id
    }
}
