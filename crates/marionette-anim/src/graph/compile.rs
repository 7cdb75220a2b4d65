//! Building a graph: the [`GraphBuilder`] arena, the checks of its structure (a tree: one user
//! per node, no cycle; errors name the node) and compilation to a post-order evaluation. Each
//! node description is lowered by [`super::lower`].

use std::sync::Arc;

use glam::Vec3;

use super::compiled::{Compiled, Rig};
use super::lower::lower_node;
use super::mask::JointMask;
use super::node_id::NodeId;
use super::nodes::{ClipNode, NodeSpec, RigId};
use super::params::{ParamDef, ParamId, Params};
use super::post::PostOp;
use super::runtime::Graph;
use super::GraphError;

use crate::root_motion::{RootMotionMode, RootSpace};
use crate::{Clip, JointIndex, Skeleton};

fn label(id: NodeId, name: Option<&str>, kind: &str) -> String {
    match name {
        Some(n) => format!("node #{} '{n}' ({kind})", id.0),
        None => format!("node #{} ({kind})", id.0),
    }
}

/// A retarget node's rigs: another rig than its user's, declared, with a retargeter made for
/// those two skeletons.
fn check_retarget(
    r: &super::nodes::RetargetNode,
    rigs: &[Rig],
    user: u16,
    invalid: &dyn Fn(String) -> GraphError,
) -> Result<(), GraphError> {
    let Some(from) = rigs.get(r.from.index()) else {
        return Err(invalid(format!("rig #{} was not declared", r.from.index())));
    };
    if r.from.0 == user {
        return Err(invalid(
            "retargets from the rig it animates: give a node of another rig".into(),
        ));
    }
    let to = &rigs[usize::from(user)];
    if r.retargeter.source_joints() != from.skeleton.len()
        || r.retargeter.target_joints() != to.skeleton.len()
    {
        return Err(invalid(format!(
            "its retargeter maps {} joints onto {}, but the rigs have {} and {}",
            r.retargeter.source_joints(),
            r.retargeter.target_joints(),
            from.skeleton.len(),
            to.skeleton.len()
        )));
    }
    Ok(())
}

/// Builds a [`Graph`]: declare parameters, add nodes (each returns its [`NodeId`]), optionally
/// add post-process ops and root motion, then [`GraphBuilder::build`] with the root node.
pub struct GraphBuilder {
    skeleton: Arc<Skeleton>,
    nodes: Vec<NodeSpec>,
    names: Vec<Option<String>>,
    params: Params,
    post: Vec<PostOp>,
    root_motion: Option<(String, RootMotionMode)>,
    mirror_pairs: Vec<(JointIndex, JointIndex)>,
    /// Rigs retarget nodes read from ([`RigId`] `k` is entry `k - 1`).
    sources: Vec<Arc<Skeleton>>,
}

impl GraphBuilder {
    /// A builder for graphs over `skeleton`.
    pub fn new(skeleton: impl Into<Arc<Skeleton>>) -> Self {
        Self {
            skeleton: skeleton.into(),
            nodes: Vec::new(),
            names: Vec::new(),
            params: Params::default(),
            post: Vec::new(),
            root_motion: None,
            mirror_pairs: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// Declares another rig whose nodes a [`super::RetargetNode`] puts on this graph's rig:
    /// the nodes below that retarget node animate `skeleton` (their clips, masks and
    /// references are that rig's). Declaring one skeleton twice gives the same id.
    pub fn source_rig(&mut self, skeleton: Arc<Skeleton>) -> RigId {
        if let Some(k) = self.sources.iter().position(|s| Arc::ptr_eq(s, &skeleton)) {
            return RigId(k as u16 + 1);
        }
        self.sources.push(skeleton);
        RigId(self.sources.len() as u16)
    }

    /// The skeleton of a rig (the graph's own for [`RigId::OWN`]).
    pub fn rig_skeleton(&self, rig: RigId) -> Option<&Skeleton> {
        match rig.index() {
            0 => Some(&self.skeleton),
            k => self.sources.get(k - 1).map(|s| &**s),
        }
    }

    /// Left/right pairs mirror nodes use on top of the pairs found by name
    /// ([`crate::mirror::MirrorMap::with_pairs`]).
    pub fn mirror_pairs(&mut self, pairs: Vec<(JointIndex, JointIndex)>) {
        self.mirror_pairs = pairs;
    }

    /// The skeleton (for building masks and looking up joints).
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// Declares a parameter (see [`ParamDef`]'s constructors).
    pub fn declare(&mut self, def: ParamDef) -> Result<ParamId, GraphError> {
        self.params.declare(def)
    }

    /// Declares a float parameter clamped to `[min, max]`.
    pub fn float(
        &mut self,
        name: &str,
        default: f32,
        min: f32,
        max: f32,
    ) -> Result<ParamId, GraphError> {
        self.declare(ParamDef::float(name, default, min, max))
    }

    /// Declares a bool parameter.
    pub fn boolean(&mut self, name: &str, default: bool) -> Result<ParamId, GraphError> {
        self.declare(ParamDef::boolean(name, default))
    }

    /// Declares a trigger parameter.
    pub fn trigger(&mut self, name: &str) -> Result<ParamId, GraphError> {
        self.declare(ParamDef::trigger(name))
    }

    /// Declares a vector parameter.
    pub fn vec3(&mut self, name: &str, default: Vec3) -> Result<ParamId, GraphError> {
        self.declare(ParamDef::vec3(name, default))
    }

    /// Finds a declared parameter.
    pub fn param(&self, name: &str) -> Option<ParamId> {
        self.params.find(name)
    }

    /// The parameters declared so far.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Adds a node and returns its handle.
    pub fn add(&mut self, node: impl Into<NodeSpec>) -> NodeId {
        self.nodes.push(node.into());
        self.names.push(None);
        NodeId(self.nodes.len().saturating_sub(1) as u32)
    }

    /// Adds a named node (the name shows in errors and introspection).
    pub fn add_named(&mut self, name: impl Into<String>, node: impl Into<NodeSpec>) -> NodeId {
        let id = self.add(node);
        self.names[id.index()] = Some(name.into());
        id
    }

    /// Names (or renames) a node.
    pub fn set_name(&mut self, id: NodeId, name: impl Into<String>) {
        if let Some(n) = self.names.get_mut(id.index()) {
            *n = Some(name.into());
        }
    }

    /// Adds a looping clip player at speed 1.
    pub fn clip(&mut self, clip: impl Into<Arc<Clip>>) -> NodeId {
        self.add(ClipNode::new(clip))
    }

    /// The node description behind a handle.
    pub fn node(&self, id: NodeId) -> Option<&NodeSpec> {
        self.nodes.get(id.index())
    }

    /// Finds a joint by name.
    pub fn joint(&self, name: &str) -> Result<JointIndex, GraphError> {
        self.skeleton
            .find(name)
            .ok_or_else(|| GraphError::UnknownJoint(name.to_string()))
    }

    /// An empty mask over this skeleton, to build on.
    pub fn mask(&self) -> JointMask {
        JointMask::empty(&self.skeleton)
    }

    /// Appends a post-process operation.
    pub fn post(&mut self, op: PostOp) {
        self.post.push(op);
    }

    /// Extracts root motion from `joint` (a root joint) in `mode`, measured in world space
    /// (the skeleton's armature included); [`RootMotionMode::Off`] extracts none.
    pub fn root_motion(&mut self, joint: &str, mode: RootMotionMode) {
        self.root_motion = Some((joint.to_string(), mode));
    }

    /// Validates and compiles the graph with `root` as its output node.
    pub fn build(self, root: NodeId) -> Result<Graph, GraphError> {
        let (compiled, params) = self.compile(root)?;
        Ok(Graph::new(compiled, params))
    }

    fn compile(self, root: NodeId) -> Result<(Compiled, Params), GraphError> {
        let n = self.nodes.len();
        if n >= u32::MAX as usize {
            return Err(GraphError::TooManyNodes);
        }
        let kinds: Vec<&'static str> = self.nodes.iter().map(|s| s.kind()).collect();
        let inputs: Vec<Vec<NodeId>> = self.nodes.iter().map(|s| s.inputs()).collect();
        let lab = |id: NodeId| label(id, self.names[id.index()].as_deref(), kinds[id.index()]);
        if root.index() >= n {
            return Err(GraphError::UnknownNode {
                node: root.index(),
                referenced_by: "the graph root".into(),
            });
        }
        for (i, ins) in inputs.iter().enumerate() {
            if let Some(bad) = ins.iter().find(|c| c.index() >= n) {
                return Err(GraphError::UnknownNode {
                    node: bad.index(),
                    referenced_by: lab(NodeId(i as u32)),
                });
            }
        }
        // iterative DFS: post-order, single parent, no cycles
        let mut parent: Vec<Option<NodeId>> = vec![None; n];
        let mut mark = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<(NodeId, usize)> = vec![(root, 0)];
        mark[root.index()] = 1;
        while let Some((id, next)) = stack.last().copied() {
            let ins = &inputs[id.index()];
            if next < ins.len() {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                let c = ins[next];
                match mark[c.index()] {
                    1 => return Err(GraphError::Cycle(lab(c))),
                    2 => {
                        let first =
                            parent[c.index()].map_or_else(|| "the graph root".to_string(), lab);
                        return Err(GraphError::SharedNode {
                            node: lab(c),
                            first,
                            second: lab(id),
                        });
                    }
                    _ => {
                        if c == root {
                            return Err(GraphError::Cycle(lab(c)));
                        }
                        parent[c.index()] = Some(id);
                        mark[c.index()] = 1;
                        stack.push((c, 0));
                    }
                }
            } else {
                mark[id.index()] = 2;
                order.push(id);
                stack.pop();
            }
        }
        let mut pos = vec![u32::MAX; n];
        for (p, id) in order.iter().enumerate() {
            pos[id.index()] = p as u32;
        }
        let mut first = vec![u32::MAX; n];
        for (p, id) in order.iter().enumerate() {
            first[id.index()] = match inputs[id.index()].first() {
                Some(c) => first[c.index()],
                None => p as u32,
            };
        }
        let skeleton = self.skeleton;
        let joints = skeleton.len();
        let root_motion = match &self.root_motion {
            None | Some((_, RootMotionMode::Off)) => None,
            Some((name, mode)) => {
                let j = skeleton
                    .find(name)
                    .ok_or_else(|| GraphError::UnknownJoint(name.clone()))?;
                if skeleton.parent(j).is_some() {
                    return Err(GraphError::RootMotionJoint(name.clone()));
                }
                Some((j, *mode))
            }
        };
        let morphs = skeleton.morphs().len();
        for op in &self.post {
            op.check(joints, morphs, &self.params)?;
        }
        // the rig of each node: the root's is the graph's own; a retarget node's input
        // animates the rig it reads from; every other input animates its user's rig
        let mut domain = vec![0u16; n];
        for id in order.iter().rev() {
            let i = id.index();
            let below = match &self.nodes[i] {
                NodeSpec::Retarget(r) => r.from.0,
                _ => domain[i],
            };
            for c in &inputs[i] {
                domain[c.index()] = below;
            }
        }
        let mut rigs = vec![Rig {
            skeleton: skeleton.clone(),
            root_motion,
            root_space: RootSpace::of(&skeleton),
        }];
        for source in &self.sources {
            rigs.push(Rig {
                skeleton: source.clone(),
                root_motion: None,
                root_space: RootSpace::of(source),
            });
        }
        // root motion on a source rig: measured on the joint the retarget puts on the
        // character's root-motion joint (its first retarget node decides)
        for &id in order.iter().rev() {
            let i = id.index();
            let NodeSpec::Retarget(r) = &self.nodes[i] else {
                continue;
            };
            let (Some(user), Some(src)) = (rigs.get(domain[i] as usize), rigs.get(r.from.index()))
            else {
                continue;
            };
            if src.root_motion.is_some() || r.from.index() == 0 {
                continue;
            }
            let Some((j, mode)) = user.root_motion else {
                continue;
            };
            let sk = &src.skeleton;
            let joint = r.retargeter.source_for(j).unwrap_or(0);
            // (root motion is measured on a root joint: the top of the one found)
            let mut top = joint.min(sk.len().saturating_sub(1) as JointIndex);
            while let Some(p) = sk.parent(top) {
                top = p;
            }
            if !sk.is_empty() {
                rigs[r.from.index()].root_motion = Some((top, mode));
            }
        }
        let mut nodes = Vec::with_capacity(n);
        for (i, spec) in self.nodes.into_iter().enumerate() {
            let id = NodeId(i as u32);
            let invalid = |reason: String| GraphError::Invalid {
                id: Some(id),
                node: lab(id),
                reason,
            };
            let rig = &rigs[domain[i] as usize];
            if let NodeSpec::Retarget(r) = &spec {
                check_retarget(r, &rigs, domain[i], &invalid)?;
            }
            // the builder's left/right pairs name joints of the graph's own rig
            let pairs =
                (domain[i] == 0 && !self.mirror_pairs.is_empty()).then_some(&self.mirror_pairs[..]);
            let node = lower_node(
                spec,
                &rig.skeleton,
                &self.params,
                rig.root_motion,
                pairs,
                &invalid,
            )?;
            nodes.push(node);
        }
        let root_space = RootSpace::of(&skeleton);
        let compiled = Compiled {
            skeleton,
            nodes,
            inputs,
            names: self.names,
            kinds,
            order,
            pos,
            first,
            root,
            root_motion,
            root_space,
            post: self.post,
            rigs,
            domain,
        };
        Ok((compiled, self.params))
    }
}
