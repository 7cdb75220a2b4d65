//! Building a graph: the [`GraphBuilder`] arena, validation (errors name the node) and
//! compilation to a post-order evaluation.

use std::sync::Arc;

use glam::{Vec2, Vec3};

use super::blend_space::triangulate;
use super::mask::JointMask;
use super::nodes::{ClipNode, NodeId, NodeSpec, Reference};
use super::params::{ParamDef, ParamId, ParamKind, ParamValue, Params, Value, Vec3Value};
use super::post::PostOp;
use super::runtime::Graph;
use super::sample::{sample_clip, ClipCache};
use super::state_machine::{Condition, StateMachine};
use super::GraphError;
use crate::anim::mirror::MirrorMap;
use crate::anim::root_motion::{motion_of, RootMotionMode};
use crate::anim::{Clip, JointIndex, JointTracks, Skeleton, Transform};

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
        weight: Value,
        mask: Option<Vec<f32>>,
    },
    Layer {
        weight: Value,
        mask: Option<Vec<f32>>,
    },
    TimeScale {
        scale: Value,
    },
    Mirror {
        map: MirrorMap,
    },
    StateMachine(StateMachine),
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
    pub root_motion: Option<(JointIndex, RootMotionMode)>,
    pub post: Vec<PostOp>,
}

fn label(id: NodeId, name: Option<&str>, kind: &str) -> String {
    match name {
        Some(n) => format!("node #{} '{n}' ({kind})", id.0),
        None => format!("node #{} ({kind})", id.0),
    }
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
        }
    }

    /// The skeleton (for building masks and looking up joints).
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// Declares a float parameter with a default and range.
    pub fn float(
        &mut self,
        name: &str,
        default: f32,
        min: f32,
        max: f32,
    ) -> Result<ParamId, GraphError> {
        self.params.declare(ParamDef {
            name: name.into(),
            default: ParamValue::Float(default),
            min,
            max,
        })
    }

    /// Declares a bool parameter.
    pub fn boolean(&mut self, name: &str, default: bool) -> Result<ParamId, GraphError> {
        self.params.declare(ParamDef {
            name: name.into(),
            default: ParamValue::Bool(default),
            min: 0.0,
            max: 1.0,
        })
    }

    /// Declares a trigger parameter.
    pub fn trigger(&mut self, name: &str) -> Result<ParamId, GraphError> {
        self.params.declare(ParamDef {
            name: name.into(),
            default: ParamValue::Trigger(false),
            min: 0.0,
            max: 1.0,
        })
    }

    /// Declares a vector parameter.
    pub fn vec3(&mut self, name: &str, default: Vec3) -> Result<ParamId, GraphError> {
        self.params.declare(ParamDef {
            name: name.into(),
            default: ParamValue::Vec3(default),
            min: 0.0,
            max: 0.0,
        })
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

    /// Extracts root motion from `joint` (a root joint) in `mode`.
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
            None => None,
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
        for op in &self.post {
            if op.joint() as usize >= joints {
                return Err(GraphError::UnknownJoint(format!("#{}", op.joint())));
            }
            check_post(op, &self.params)?;
        }
        let mut nodes = Vec::with_capacity(n);
        for (i, spec) in self.nodes.into_iter().enumerate() {
            let id = NodeId(i as u32);
            let invalid = |reason: String| GraphError::Invalid {
                node: lab(id),
                reason,
            };
            nodes.push(compile_node(
                spec,
                &skeleton,
                &self.params,
                root_motion,
                &invalid,
            )?);
        }
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
            post: self.post,
        };
        Ok((compiled, self.params))
    }
}

fn check_number(v: &Value, params: &Params, what: &str) -> Result<(), String> {
    match v {
        Value::Const(c) if !c.is_finite() => Err(format!("{what} is not a finite number")),
        Value::Param(p) if p.index() >= params.defs().len() => {
            Err(format!("{what} uses an unknown parameter"))
        }
        Value::Param(p) if params.def(*p).default.kind() == ParamKind::Vec3 => Err(format!(
            "{what} uses vec3 parameter '{}' as a number",
            params.def(*p).name
        )),
        _ => Ok(()),
    }
}

fn check_vec(v: &Vec3Value, params: &Params) -> Result<(), GraphError> {
    if let Vec3Value::Param(p) = v {
        let def = params
            .defs()
            .get(p.index())
            .ok_or_else(|| GraphError::UnknownParam(format!("#{}", p.index())))?;
        if def.default.kind() != ParamKind::Vec3 {
            return Err(GraphError::ParamKind {
                name: def.name.clone(),
                expected: ParamKind::Vec3,
                found: def.default.kind(),
            });
        }
    }
    Ok(())
}

fn check_post(op: &PostOp, params: &Params) -> Result<(), GraphError> {
    let (weight, targets): (&Value, Vec<&Vec3Value>) = match op {
        PostOp::SetRotation { weight, .. }
        | PostOp::AddRotation { weight, .. }
        | PostOp::SetTranslation { weight, .. }
        | PostOp::AddTranslation { weight, .. } => (weight, vec![]),
        PostOp::LookAt { target, weight, .. } => (weight, vec![target]),
        PostOp::TwoBoneIk {
            target,
            pole,
            weight,
            ..
        } => (weight, vec![target, pole]),
    };
    check_number(weight, params, "post-process weight").map_err(|r| GraphError::Invalid {
        node: "post-process".into(),
        reason: r,
    })?;
    targets.into_iter().try_for_each(|t| check_vec(t, params))
}

fn check_param_kind(
    p: ParamId,
    params: &Params,
    kinds: &[ParamKind],
    what: &str,
) -> Result<(), String> {
    let def = params
        .defs()
        .get(p.index())
        .ok_or_else(|| format!("{what} uses an unknown parameter"))?;
    if kinds.contains(&def.default.kind()) {
        Ok(())
    } else {
        Err(format!(
            "{what} parameter '{}' is a {}",
            def.name,
            def.default.kind().name()
        ))
    }
}

fn check_mask(mask: Option<JointMask>, joints: usize) -> Result<Option<Vec<f32>>, String> {
    match mask {
        Some(m) if m.weights().len() != joints => Err(format!(
            "mask has {} weights for {joints} joints",
            m.weights().len()
        )),
        Some(m) => Ok(Some(m.weights().to_vec())),
        None => Ok(None),
    }
}

fn compile_node(
    spec: NodeSpec,
    skeleton: &Skeleton,
    params: &Params,
    root_motion: Option<(JointIndex, RootMotionMode)>,
    invalid: &dyn Fn(String) -> GraphError,
) -> Result<Node, GraphError> {
    let joints = skeleton.len();
    let numeric = [ParamKind::Float, ParamKind::Bool, ParamKind::Trigger];
    Ok(match spec {
        NodeSpec::Clip(c) => {
            check_number(&c.speed, params, "speed").map_err(invalid)?;
            if !c.start.is_finite() {
                return Err(invalid("start offset is not a finite number".into()));
            }
            if let Some(e) = c.events.iter().find(|e| !e.time.is_finite()) {
                return Err(invalid(format!(
                    "event '{}' has a time that is not finite",
                    e.name
                )));
            }
            let len = (c.clip.end - c.clip.start).max(0.0);
            let root = root_motion.map(|(j, mode)| root_tracks(&c.clip, j, mode, skeleton));
            Node::Clip { spec: c, len, root }
        }
        NodeSpec::Blend(b) => {
            if b.inputs.is_empty() {
                return Err(invalid("a blend needs at least one input".into()));
            }
            for (_, w) in &b.inputs {
                check_number(w, params, "weight").map_err(invalid)?;
            }
            Node::Blend {
                weights: b.inputs.iter().map(|i| i.1).collect(),
            }
        }
        NodeSpec::BlendSpace1D(b) => {
            check_param_kind(b.param, params, &numeric, "position").map_err(invalid)?;
            if b.samples.is_empty() {
                return Err(invalid("a blend space needs at least one sample".into()));
            }
            let xs: Vec<f32> = b.samples.iter().map(|s| s.0).collect();
            if xs.iter().any(|x| !x.is_finite()) {
                return Err(invalid("a sample position is not finite".into()));
            }
            if xs.windows(2).any(|w| w[0] >= w[1]) {
                return Err(invalid(format!(
                    "sample positions must be distinct and increasing, got {xs:?}"
                )));
            }
            Node::Space1D {
                param: b.param,
                xs,
                sync: b.sync,
            }
        }
        NodeSpec::BlendSpace2D(b) => {
            check_param_kind(b.x, params, &numeric, "x").map_err(invalid)?;
            check_param_kind(b.y, params, &numeric, "y").map_err(invalid)?;
            let points: Vec<Vec2> = b.samples.iter().map(|s| s.0).collect();
            if points.iter().any(|p| !p.is_finite()) {
                return Err(invalid("a sample point is not finite".into()));
            }
            for (i, p) in points.iter().enumerate() {
                if points[..i].contains(p) {
                    return Err(invalid(format!("two samples at {p}")));
                }
            }
            let tris = triangulate(&points);
            if tris.is_empty() {
                return Err(invalid(
                    "a 2D blend space needs three samples not all on one line".into(),
                ));
            }
            Node::Space2D {
                x: b.x,
                y: b.y,
                points,
                tris,
                sync: b.sync,
            }
        }
        NodeSpec::Additive(a) => {
            check_number(&a.weight, params, "weight").map_err(invalid)?;
            let reference = match a.reference {
                Reference::RestPose => skeleton.rest_pose().to_vec(),
                Reference::Pose(p) if p.len() == joints => p,
                Reference::Pose(p) => {
                    return Err(invalid(format!(
                        "reference pose has {} joints, skeleton {joints}",
                        p.len()
                    )))
                }
                Reference::ClipAt(clip, t) => {
                    let mut out = skeleton.rest_pose().to_vec();
                    sample_clip(
                        &clip,
                        clip.start + t,
                        skeleton.rest_pose(),
                        &mut ClipCache::default(),
                        &mut out,
                    );
                    out
                }
            };
            Node::Additive {
                reference,
                weight: a.weight,
                mask: check_mask(a.mask, joints).map_err(invalid)?,
            }
        }
        NodeSpec::Layer(l) => {
            check_number(&l.weight, params, "weight").map_err(invalid)?;
            Node::Layer {
                weight: l.weight,
                mask: check_mask(l.mask, joints).map_err(invalid)?,
            }
        }
        NodeSpec::TimeScale(t) => {
            check_number(&t.scale, params, "scale").map_err(invalid)?;
            Node::TimeScale { scale: t.scale }
        }
        NodeSpec::Mirror(_) => Node::Mirror {
            map: MirrorMap::new(skeleton),
        },
        NodeSpec::StateMachine(sm) => {
            check_state_machine(&sm, params).map_err(invalid)?;
            Node::StateMachine(sm)
        }
    })
}

fn check_state_machine(sm: &StateMachine, params: &Params) -> Result<(), String> {
    let states = sm.states();
    if states.is_empty() {
        return Err("a state machine needs at least one state".into());
    }
    for (i, s) in states.iter().enumerate() {
        if states[..i].iter().any(|o| o.name == s.name) {
            return Err(format!("two states named '{}'", s.name));
        }
    }
    if sm.initial_state().index() >= states.len() {
        return Err("the initial state does not exist".into());
    }
    let name = |i: usize| states.get(i).map_or("?", |s| s.name.as_str()).to_string();
    for (k, t) in sm.transitions().iter().enumerate() {
        let what = format!(
            "transition {k} ({} -> {})",
            t.from
                .map_or_else(|| "any".to_string(), |f| name(f.index())),
            name(t.to.index())
        );
        if t.to.index() >= states.len() || t.from.is_some_and(|f| f.index() >= states.len()) {
            return Err(format!("{what} names a state that does not exist"));
        }
        if t.conditions.is_empty() {
            return Err(format!("{what} has no condition"));
        }
        if !(t.duration.is_finite() && t.duration >= 0.0) {
            return Err(format!("{what} has blend duration {}", t.duration));
        }
        for c in &t.conditions {
            match c {
                Condition::Trigger(p) => {
                    check_param_kind(*p, params, &[ParamKind::Trigger], &what)?
                }
                Condition::Compare(p, _, v) => {
                    check_param_kind(
                        *p,
                        params,
                        &[ParamKind::Float, ParamKind::Bool, ParamKind::Trigger],
                        &what,
                    )?;
                    if !v.is_finite() {
                        return Err(format!("{what} compares with a value that is not finite"));
                    }
                }
                Condition::ExitTime(x) if !x.is_finite() => {
                    return Err(format!("{what} has exit time {x}"))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The root joint's tracks of `clip` as a one-joint clip, with the motion at its first and last
/// key.
fn root_tracks(
    clip: &Clip,
    joint: JointIndex,
    mode: RootMotionMode,
    skeleton: &Skeleton,
) -> RootTracks {
    let tracks = clip
        .tracks
        .iter()
        .filter(|t| t.joint == joint)
        .map(|t| JointTracks {
            joint: 0,
            ..t.clone()
        })
        .collect();
    let sub = Clip::new(format!("{}:root", clip.name), tracks);
    let rest = [skeleton.rest_pose()[joint as usize]];
    let mut out = rest;
    let mut cache = ClipCache::default();
    sample_clip(&sub, clip.start, &rest, &mut cache, &mut out);
    let start = motion_of(mode, &out[0]);
    sample_clip(&sub, clip.end, &rest, &mut cache, &mut out);
    let end = motion_of(mode, &out[0]);
    RootTracks {
        clip: sub,
        start,
        end,
    }
}
