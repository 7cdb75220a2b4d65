//! Turns a script's [`GraphSpec`] into the pure-Rust [`Graph`].
//!
//! Translation walks the spec from its root, so a node a script uses twice (say `rig.walk` kept
//! in a local and put in two blends) becomes two graph nodes with their own playheads, which the
//! graph's one-parent rule requires. Lua predicates become graph predicates that call the
//! script's function under the per-call instruction budget; Lua curves were sampled at load and
//! are evaluated here without Lua.

mod errors;
pub mod limits;
mod post;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Function, Table};

use super::error::ScriptError;
use super::host::LoadedScript;
use super::sandbox::Env;
use super::spec::{self, GraphSpec, NodeSpec, RootMotionMode};
use errors::{at_node, graph_err, lua_name, param_id};
use marionette_anim::graph::{
    self as g, AdditiveNode, BlendNode, BlendSpace1D, BlendSpace2D, ClipNode, ConditionContext,
    Graph, GraphBuilder, JointMask, LayerNode, NodeId, ParamId, Predicate, Reference, RetargetNode,
    RigId, StateMachine, Transition,
};
use marionette_anim::{Clip, WrapMode};

/// Resolves a kind's references while spec node `id` is built: parameter names to ids, input
/// spec nodes to graph nodes (built on the way).
struct Resolver<'c, 'a, 's> {
    ctx: &'c mut Ctx<'a>,
    spec: &'s GraphSpec,
    id: spec::NodeId,
}

impl g::Resolve<String> for Resolver<'_, '_, '_> {
    type Error = ScriptError;

    fn param(&mut self, name: &String) -> Result<ParamId, ScriptError> {
        self.ctx.param(self.id, name)
    }

    fn input(&mut self, n: spec::NodeId) -> Result<NodeId, ScriptError> {
        node(self.ctx, self.spec, n)
    }
}

/// The first error raised by a Lua predicate during evaluation (predicates then read false).
pub type PredicateError = Rc<RefCell<Option<ScriptError>>>;

struct Ctx<'a> {
    script: &'a LoadedScript,
    b: GraphBuilder,
    /// The rig the nodes being built animate (0: the character; `k`: `script.sources[k - 1]`).
    rig: usize,
    /// The graph's id of each of the script's other rigs, once declared.
    rig_ids: Vec<Option<RigId>>,
    predicate_error: PredicateError,
    /// The spec node each graph node was made for (errors found by the graph's validation
    /// point at that node's script line).
    origin: Vec<spec::NodeId>,
}

impl Ctx<'_> {
    /// Adds a graph node made for spec node `from`.
    fn add(&mut self, from: spec::NodeId, node: impl Into<g::NodeSpec>) -> NodeId {
        self.origin.push(from);
        self.b.add(node)
    }

    /// Adds a named graph node made for spec node `from`.
    fn add_named(
        &mut self,
        from: spec::NodeId,
        name: impl Into<String>,
        node: impl Into<g::NodeSpec>,
    ) -> NodeId {
        self.origin.push(from);
        self.b.add_named(name, node)
    }

    /// An error about spec node `id`, at the line that made it.
    fn err(&self, id: spec::NodeId, e: impl std::fmt::Display) -> ScriptError {
        at_node(self.script, id, graph_err(self.script, e))
    }

    /// The id of a declared parameter used by spec node `id`.
    fn param(&self, id: spec::NodeId, name: &str) -> Result<ParamId, ScriptError> {
        param_id(&self.b, self.script, name).map_err(|e| at_node(self.script, id, e))
    }

    fn value(&self, id: spec::NodeId, v: &spec::Value) -> Result<g::Value, ScriptError> {
        v.try_map(|name| self.param(id, name))
    }

    /// The script's rig `k` (0: the character).
    fn rig(&self, id: spec::NodeId, k: usize) -> Result<&crate::Rig, ScriptError> {
        match k {
            0 => Ok(&self.script.rig),
            k => self
                .script
                .sources
                .get(k - 1)
                .map(|r| &**r)
                .ok_or_else(|| self.err(id, format!("rig #{k} was not loaded"))),
        }
    }

    /// How messages name rig `k`.
    fn rig_name(&self, k: usize) -> String {
        match (k, self.rig(spec::NodeId::new(0), k)) {
            (0, Ok(r)) => format!("the character ({})", r.short_name()),
            (_, Ok(r)) => r.short_name().to_string(),
            (k, Err(_)) => format!("rig #{k}"),
        }
    }

    /// Clip `index` of rig `rig`, used by spec node `id` (a script's clip indices are its rig's:
    /// an index past them is a spec changed since, an error rather than a panic).
    fn clip(&self, id: spec::NodeId, rig: usize, index: usize) -> Result<Arc<Clip>, ScriptError> {
        let rig = self.rig(id, rig)?;
        rig.clips.get(index).cloned().ok_or_else(|| {
            self.err(
                id,
                format!("clip {index} does not exist in rig {}", rig.source),
            )
        })
    }
}

/// Wraps a Lua predicate: it gets a table of parameter values (`p.speed`, `p.state`,
/// `p.state_time`) and runs under the per-call budget; an error makes it false and is kept.
fn lua_predicate(
    f: Function,
    scratch: Table,
    env: Env,
    budget: u64,
    names: Vec<String>,
    error: PredicateError,
) -> impl Fn(&ConditionContext) -> bool + 'static {
    move |c: &ConditionContext| {
        if error.borrow().is_some() {
            return false;
        }
        let fill = || -> mlua::Result<()> {
            for (i, v) in c.params.values().iter().enumerate() {
                // (the graph's parameters are those it was built with, so never more)
                let Some(name) = names.get(i).map(String::as_str) else {
                    return Err(mlua::Error::runtime(
                        "internal: the predicate was prepared for other parameters",
                    ));
                };
                match v {
                    g::ParamValue::Float(x) => scratch.raw_set(name, *x)?,
                    g::ParamValue::Bool(b) | g::ParamValue::Trigger(b) => {
                        scratch.raw_set(name, *b)?
                    }
                    g::ParamValue::Vec3(v) => scratch.raw_set(name, [v.x, v.y, v.z])?,
                }
            }
            scratch.raw_set("state", c.state)?;
            scratch.raw_set("state_time", c.state_time)?;
            Ok(())
        };
        let r = env.enter(budget, || fill().and_then(|_| f.call::<bool>(&scratch)));
        match r {
            Ok(b) => b,
            Err(e) => {
                *error.borrow_mut() = Some(ScriptError::from_lua(&e));
                false
            }
        }
    }
}

/// The graph predicate calling the script's Lua predicate number `index`.
fn lua_condition(
    b: &GraphBuilder,
    script: &LoadedScript,
    index: usize,
    error: &PredicateError,
) -> Result<Predicate, ScriptError> {
    let f = script.predicates.get(index).cloned().ok_or_else(|| {
        graph_err(
            script,
            format!("transition predicate {index} does not exist"),
        )
    })?;
    let scratch = script
        .lua
        .create_table()
        .map_err(|e| ScriptError::from_lua(&e))?;
    let names: Vec<String> = b.params().defs().iter().map(|d| d.name.clone()).collect();
    let mut fields = vec!["state".to_string(), "state_time".to_string()];
    fields.extend(names.iter().cloned());
    let meta = crate::api::strict::strict_fields(&script.lua, "p", fields)
        .map_err(|e| ScriptError::from_lua(&e))?;
    scratch
        .set_metatable(Some(meta))
        .map_err(|e| ScriptError::from_lua(&e))?;
    Ok(Box::new(lua_predicate(
        f,
        scratch,
        script.env.clone(),
        script.limits.call_instructions,
        names,
        error.clone(),
    )))
}

fn node(ctx: &mut Ctx, spec: &GraphSpec, id: spec::NodeId) -> Result<NodeId, ScriptError> {
    let Some(n) = spec.nodes.get(id.index()) else {
        let id = id.index();
        return Err(graph_err(ctx.script, format!("node {id} does not exist")));
    };
    Ok(match n {
        NodeSpec::Clip(c) => {
            if c.rig != ctx.rig {
                let (clip_rig, here) = (ctx.rig_name(c.rig), ctx.rig_name(ctx.rig));
                let how = if ctx.rig == 0 {
                    "put it on the character with retarget(clip, { from = rig })".to_string()
                } else {
                    format!("a retarget from {here} plays {here}'s clips only")
                };
                return Err(ctx.err(
                    id,
                    format!("a clip of {clip_rig} is used where {here} is animated: {how}"),
                ));
            }
            let clip = ctx.clip(id, c.rig, c.clip)?;
            let name = clip.name.clone();
            let mut player = ClipNode::new(clip).speed(c.speed).start(c.offset);
            for (event, time) in &c.events {
                player = player.event(event.clone(), *time);
            }
            player = if c.looping {
                player.wrap(WrapMode::Loop)
            } else {
                player.once()
            };
            ctx.add_named(id, name, player)
        }
        NodeSpec::Blend(b) => {
            let mut blend = BlendNode::new();
            for (child, w) in &b.inputs {
                let child = node(ctx, spec, *child)?;
                blend = blend.input(child, ctx.value(id, w)?);
            }
            ctx.add(id, blend)
        }
        NodeSpec::Blend1d(b) => {
            let p = ctx.param(id, &b.param)?;
            let mut space = BlendSpace1D::new(p).sync(b.sync);
            for (pos, child) in &b.samples {
                let child = node(ctx, spec, *child)?;
                space = space.sample(*pos, child);
            }
            ctx.add(id, space)
        }
        NodeSpec::Blend2d(b) => {
            let px = ctx.param(id, &b.x)?;
            let py = ctx.param(id, &b.y)?;
            let mut space = BlendSpace2D::new(px, py).sync(b.sync);
            for (pos, child) in &b.samples {
                let child = node(ctx, spec, *child)?;
                space = space.sample(*pos, child);
            }
            ctx.add(id, space)
        }
        NodeSpec::Additive {
            base,
            add,
            reference,
            weight,
        } => {
            let reference = match reference.and_then(|r| spec.nodes.get(r.index())) {
                Some(NodeSpec::Clip(c)) => {
                    Reference::ClipAt(ctx.clip(id, c.rig, c.clip)?, c.offset)
                }
                Some(_) => return Err(ctx.err(id, "additive: the reference must be a clip")),
                None => match spec.nodes.get(add.index()) {
                    Some(NodeSpec::Clip(c)) => Reference::ClipAt(ctx.clip(id, c.rig, c.clip)?, 0.0),
                    _ => Reference::RestPose,
                },
            };
            let base = node(ctx, spec, *base)?;
            let add = node(ctx, spec, *add)?;
            let w = ctx.value(id, weight)?;
            ctx.add(id, AdditiveNode::new(base, add, reference).weight(w))
        }
        NodeSpec::Layer { base, layers } => {
            let mut out = node(ctx, spec, *base)?;
            for l in layers {
                let child = node(ctx, spec, l.node)?;
                let mask = match (&l.mask, ctx.rig) {
                    (Some(w), 0) => JointMask::from_weights(w.clone()),
                    (Some(_), k) => {
                        return Err(ctx.err(
                            id,
                            format!(
                                "layer: a mask names the character's joints, but this layer animates {} (under a retarget): layer the retarget's result instead",
                                ctx.rig_name(k)
                            ),
                        ))
                    }
                    (None, k) => JointMask::full(ctx.rig(id, k)?.skeleton.as_ref()),
                };
                let w = ctx.value(id, &l.weight)?;
                out = if l.additive {
                    let reference = match spec.nodes.get(l.node.index()) {
                        Some(NodeSpec::Clip(c)) => {
                            Reference::ClipAt(ctx.clip(id, c.rig, c.clip)?, 0.0)
                        }
                        _ => Reference::RestPose,
                    };
                    let additive = AdditiveNode::new(out, child, reference)
                        .weight(w)
                        .mask(mask);
                    ctx.add(id, additive)
                } else {
                    ctx.add(id, LayerNode::new(out, child).weight(w).mask(mask))
                };
            }
            out
        }
        NodeSpec::Kind(k) => {
            let k = k.resolve(&mut Resolver {
                ctx: &mut *ctx,
                spec,
                id,
            })?;
            ctx.add(id, k)
        }
        NodeSpec::StateMachine(m) => {
            let mut sm = StateMachine::new();
            let mut ids = Vec::new();
            for (name, child) in &m.states {
                let child = node(ctx, spec, *child)?;
                ids.push(sm.state(name.clone(), child));
            }
            // (a script's state indices are positions in `states`; past them, the spec changed)
            let state = |i: usize| {
                ids.get(i)
                    .copied()
                    .ok_or_else(|| ctx.err(id, format!("state_machine: state {i} does not exist")))
            };
            sm.initial(state(m.start)?);
            for t in &m.transitions {
                let mut tr = match t.from {
                    Some(f) => Transition::new(state(f)?, state(t.to)?),
                    None => Transition::from_any(state(t.to)?),
                };
                for c in &t.conditions {
                    let error = &ctx.predicate_error;
                    let c = c.try_map(
                        |name| ctx.param(id, name),
                        |&i| {
                            lua_condition(&ctx.b, ctx.script, i, error)
                                .map_err(|e| at_node(ctx.script, id, e))
                        },
                    )?;
                    tr = tr.when(c);
                }
                tr = tr.blend(t.blend, t.curve.clone()).source(t.source);
                sm.transition(tr);
            }
            for e in &m.events {
                sm.event(state(e.state)?, e.name.clone(), e.at);
            }
            ctx.add_named(id, "state_machine", sm)
        }
        NodeSpec::Retarget(r) => {
            if ctx.rig != 0 {
                return Err(ctx.err(
                    id,
                    "retarget: puts another rig's clips on the character, so it cannot sit under another retarget",
                ));
            }
            let (target, source) = (ctx.script.rig.clone(), ctx.rig(id, r.rig)?.clone());
            if r.rig == 0 {
                return Err(ctx.err(id, "retarget: the source already animates the character"));
            }
            let whose = (ctx.rig_name(0), source.source.clone());
            let retargeter = crate::retarget_map::retargeter(
                r,
                &target.skeleton,
                (&source.skeleton, &source.clips),
                (&whose.0, &whose.1),
                spec::first_clip(&spec.nodes, r.input),
            )
            .map_err(|e| ctx.err(id, format!("retarget: {e}")))?;
            let rig_id = match ctx.rig_ids.get(r.rig - 1).copied().flatten() {
                Some(k) => k,
                None => {
                    let k = ctx.b.source_rig(source.skeleton.clone());
                    if let Some(slot) = ctx.rig_ids.get_mut(r.rig - 1) {
                        *slot = Some(k);
                    }
                    k
                }
            };
            let outer = std::mem::replace(&mut ctx.rig, r.rig);
            let input = node(ctx, spec, r.input);
            ctx.rig = outer;
            let input = input?;
            // named after the source and, for a clip, the clip (two retargets of one rig differ)
            let clip = match spec.nodes.get(r.input.index()) {
                Some(NodeSpec::Clip(c)) => {
                    source.clips.get(c.clip).map(|c| format!(" ({})", c.name))
                }
                _ => None,
            };
            ctx.add_named(
                id,
                format!(
                    "retarget from {}{}",
                    source.short_name(),
                    clip.unwrap_or_default()
                ),
                RetargetNode {
                    input,
                    from: rig_id,
                    retargeter: Arc::new(retargeter),
                },
            )
        }
        NodeSpec::Invalid => {
            return Err(ctx.err(
                id,
                "internal: a node that failed to load was built (please report)",
            ))
        }
    })
}

/// Builds the graph a loaded script describes, with the spec node each graph node was made for
/// (indexed by graph node). Errors point at the script line that made the node (or
/// post-process operation) concerned, else at the script's `graph { }` call.
pub fn build(
    script: &LoadedScript,
) -> Result<(Graph, PredicateError, Vec<spec::NodeId>), ScriptError> {
    let mut b = GraphBuilder::new(script.rig.skeleton.clone());
    for p in &script.spec.params {
        b.declare(p.clone()).map_err(|e| graph_err(script, e))?;
    }
    if script.spec.root_motion != RootMotionMode::Off {
        let root = script
            .rig
            .skeleton
            .names()
            .first()
            .cloned()
            .unwrap_or_default();
        b.root_motion(&root, script.spec.root_motion);
    }
    let mut pairs = Vec::new();
    for (l, r) in &script.spec.mirror_pairs {
        let l = b.joint(l).map_err(|e| graph_err(script, e))?;
        let r = b.joint(r).map_err(|e| graph_err(script, e))?;
        pairs.push((l, r));
    }
    b.mirror_pairs(pairs);
    for (i, op) in script.spec.post.iter().enumerate() {
        let at = script.spec.sources.post.get(i).cloned().flatten();
        let post = post::post_op(&b, script, op).map_err(|e| match at {
            Some(loc) => ScriptError {
                location: Some(loc),
                ..e
            },
            None => e,
        })?;
        b.post(post);
    }
    limits::check(&script.spec).map_err(|m| graph_err(script, m))?;
    let mut ctx = Ctx {
        script,
        b,
        rig: 0,
        rig_ids: vec![None; script.sources.len()],
        predicate_error: Rc::default(),
        origin: Vec::new(),
    };
    let root = node(&mut ctx, &script.spec, script.spec.root)?;
    let origin = std::mem::take(&mut ctx.origin);
    let graph = ctx.b.build(root).map_err(|e| match &e {
        // a node's own problem: at the line that made it, named as the script wrote it
        g::GraphError::Invalid {
            id: Some(n),
            reason,
            ..
        } => match origin.get(n.index()) {
            Some(&from) => at_node(
                script,
                from,
                graph_err(
                    script,
                    format!("{}: {reason}", lua_name(&script.spec, from)),
                ),
            ),
            None => graph_err(script, e),
        },
        _ => graph_err(script, e),
    })?;
    Ok((graph, ctx.predicate_error, origin))
}
