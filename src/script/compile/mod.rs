//! Turns a script's [`GraphSpec`] into the pure-Rust [`Graph`].
//!
//! Translation walks the spec from its root, so a node a script uses twice (say `rig.walk` kept
//! in a local and put in two blends) becomes two graph nodes with their own playheads, which the
//! graph's one-parent rule requires. Lua predicates become graph predicates that call the
//! script's function under the per-call instruction budget; Lua curves were sampled at load and
//! are evaluated here without Lua.

mod post;

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Function, Table};

use super::error::ScriptError;
use super::host::LoadedScript;
use super::sandbox::Env;
use super::spec::{
    self, Compare, Condition, Curve, GraphSpec, NodeSpec, ParamKind, RootMotionMode, Source,
};
use crate::anim::graph::{
    self as g, AdditiveNode, BlendNode, BlendSpace1D, BlendSpace2D, ClipNode, CompareOp,
    ConditionContext, Graph, GraphBuilder, JointMask, LayerNode, MirrorNode, NodeId, Reference,
    SourceMode, StateMachine, TimeScaleNode, Transition,
};
use crate::anim::WrapMode;

/// The first error raised by a Lua predicate during evaluation (predicates then read false).
pub type PredicateError = Rc<RefCell<Option<ScriptError>>>;

struct Ctx<'a> {
    script: &'a LoadedScript,
    b: GraphBuilder,
    predicate_error: PredicateError,
}

pub(crate) fn graph_err(script: &LoadedScript, e: impl std::fmt::Display) -> ScriptError {
    ScriptError {
        location: script.graph_line.clone(),
        message: e.to_string(),
        traceback: String::new(),
    }
}

fn value(ctx: &Ctx, v: &spec::Value) -> Result<g::Value, ScriptError> {
    Ok(match v {
        spec::Value::Const(c) => g::Value::Const(*c),
        spec::Value::Param(name) => g::Value::Param(
            ctx.b
                .param(name)
                .ok_or_else(|| graph_err(ctx.script, format!("unknown parameter '{name}'")))?,
        ),
    })
}

fn curve(c: &Curve) -> g::Curve {
    match c {
        Curve::Linear => g::Curve::Linear,
        Curve::Smoothstep => g::Curve::SmoothStep,
        Curve::EaseIn => g::Curve::EaseIn,
        Curve::EaseOut => g::Curve::EaseOut,
        Curve::EaseInOut => g::Curve::EaseInOut,
        Curve::Bezier([a, b, c, d]) => g::Curve::Bezier(*a, *b, *c, *d),
        Curve::Sampled(samples) => {
            let samples = samples.clone();
            g::Curve::Custom(Box::new(move |t| sample_curve(&samples, t)))
        }
    }
}

/// Linear interpolation in evenly spaced samples over `[0, 1]`.
pub(crate) fn sample_curve(samples: &[f32], t: f32) -> f32 {
    let n = samples.len();
    if n == 0 {
        return t;
    }
    if n == 1 {
        return samples[0];
    }
    let x = t.clamp(0.0, 1.0) * (n - 1) as f32;
    let i = (x.floor() as usize).min(n - 2);
    let f = x - i as f32;
    samples[i] + (samples[i + 1] - samples[i]) * f
}

fn compare(op: Compare) -> CompareOp {
    match op {
        Compare::Less => CompareOp::Lt,
        Compare::LessEq => CompareOp::Le,
        Compare::Greater => CompareOp::Gt,
        Compare::GreaterEq => CompareOp::Ge,
        Compare::Eq => CompareOp::Eq,
        Compare::NotEq => CompareOp::Ne,
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
                let name = names[i].as_str();
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
        env.start_budget(budget);
        let r = fill().and_then(|_| f.call::<bool>(&scratch));
        env.start_budget(u64::MAX);
        match r {
            Ok(b) => b,
            Err(e) => {
                *error.borrow_mut() = Some(ScriptError::from_lua(&e));
                false
            }
        }
    }
}

fn node(ctx: &mut Ctx, spec: &GraphSpec, id: spec::NodeId) -> Result<NodeId, ScriptError> {
    let Some(n) = spec.nodes.get(id) else {
        return Err(graph_err(ctx.script, format!("node {id} does not exist")));
    };
    Ok(match n {
        NodeSpec::Clip(c) => {
            let clip = ctx.script.rig.clips[c.clip].clone();
            let name = clip.name.clone();
            let mut player = ClipNode::new(clip).speed(c.speed).start(c.offset);
            player = if c.looping {
                player.wrap(WrapMode::Loop)
            } else {
                player.once()
            };
            ctx.b.add_named(name, player)
        }
        NodeSpec::Blend { inputs } => {
            let mut blend = BlendNode::new();
            for (child, w) in inputs {
                let child = node(ctx, spec, *child)?;
                blend = blend.input(child, value(ctx, w)?);
            }
            ctx.b.add(blend)
        }
        NodeSpec::Blend1d {
            param,
            points,
            sync,
        } => {
            let p = ctx
                .b
                .param(param)
                .ok_or_else(|| graph_err(ctx.script, format!("unknown parameter '{param}'")))?;
            let mut space = BlendSpace1D::new(p).sync(*sync);
            for (pos, child) in points {
                let child = node(ctx, spec, *child)?;
                space = space.sample(*pos, child);
            }
            ctx.b.add(space)
        }
        NodeSpec::Blend2d { x, y, points, sync } => {
            let px = ctx
                .b
                .param(x)
                .ok_or_else(|| graph_err(ctx.script, format!("unknown parameter '{x}'")))?;
            let py = ctx
                .b
                .param(y)
                .ok_or_else(|| graph_err(ctx.script, format!("unknown parameter '{y}'")))?;
            let mut space = BlendSpace2D::new(px, py).sync(*sync);
            for (pos, child) in points {
                let child = node(ctx, spec, *child)?;
                space = space.sample(*pos, child);
            }
            ctx.b.add(space)
        }
        NodeSpec::Additive {
            base,
            add,
            reference,
            weight,
        } => {
            let reference = match reference.and_then(|r| spec.nodes.get(r)) {
                Some(NodeSpec::Clip(c)) => {
                    Reference::ClipAt(ctx.script.rig.clips[c.clip].clone(), c.offset)
                }
                Some(_) => {
                    return Err(graph_err(
                        ctx.script,
                        "additive: the reference must be a clip",
                    ))
                }
                None => match spec.nodes.get(*add) {
                    Some(NodeSpec::Clip(c)) => {
                        Reference::ClipAt(ctx.script.rig.clips[c.clip].clone(), 0.0)
                    }
                    _ => Reference::RestPose,
                },
            };
            let base = node(ctx, spec, *base)?;
            let add = node(ctx, spec, *add)?;
            let w = value(ctx, weight)?;
            ctx.b.add(AdditiveNode::new(base, add, reference).weight(w))
        }
        NodeSpec::Layer { base, layers } => {
            let mut out = node(ctx, spec, *base)?;
            for l in layers {
                let child = node(ctx, spec, l.node)?;
                let mask = match &l.mask {
                    Some(w) => JointMask::from_weights(w.clone()),
                    None => JointMask::full(ctx.b.skeleton()),
                };
                let w = value(ctx, &l.weight)?;
                out = if l.additive {
                    let reference = match spec.nodes.get(l.node) {
                        Some(NodeSpec::Clip(c)) => {
                            Reference::ClipAt(ctx.script.rig.clips[c.clip].clone(), 0.0)
                        }
                        _ => Reference::RestPose,
                    };
                    ctx.b.add(
                        AdditiveNode::new(out, child, reference)
                            .weight(w)
                            .mask(mask),
                    )
                } else {
                    ctx.b.add(LayerNode::new(out, child).weight(w).mask(mask))
                };
            }
            out
        }
        NodeSpec::Speed { input, rate } => {
            let input = node(ctx, spec, *input)?;
            let scale = value(ctx, rate)?;
            ctx.b.add(TimeScaleNode { input, scale })
        }
        NodeSpec::Mirror { input } => {
            let input = node(ctx, spec, *input)?;
            ctx.b.add(MirrorNode { input })
        }
        NodeSpec::StateMachine(m) => {
            let mut sm = StateMachine::new();
            let mut ids = Vec::new();
            for (name, child) in &m.states {
                let child = node(ctx, spec, *child)?;
                ids.push(sm.state(name.clone(), child));
            }
            sm.initial(ids[m.start]);
            for t in &m.transitions {
                let mut tr = match t.from {
                    Some(f) => Transition::new(ids[f], ids[t.to]),
                    None => Transition::from_any(ids[t.to]),
                };
                if let Some(trig) = &t.on {
                    let p = ctx.b.param(trig).ok_or_else(|| {
                        graph_err(ctx.script, format!("unknown parameter '{trig}'"))
                    })?;
                    tr = tr.on(p);
                }
                for c in &t.when {
                    tr = match c {
                        Condition::Compare { param, op, value } => {
                            let p = ctx.b.param(param).ok_or_else(|| {
                                graph_err(ctx.script, format!("unknown parameter '{param}'"))
                            })?;
                            tr.compare(p, compare(*op), *value)
                        }
                        Condition::Flag { param, value } => {
                            let p = ctx.b.param(param).ok_or_else(|| {
                                graph_err(ctx.script, format!("unknown parameter '{param}'"))
                            })?;
                            tr.compare(p, CompareOp::Eq, if *value { 1.0 } else { 0.0 })
                        }
                        Condition::Predicate(i) => {
                            let f = ctx.script.predicates[*i].clone();
                            let scratch = ctx
                                .script
                                .lua
                                .create_table()
                                .map_err(|e| ScriptError::from_lua(&e))?;
                            let names = ctx
                                .b
                                .params()
                                .defs()
                                .iter()
                                .map(|d| d.name.clone())
                                .collect();
                            tr.predicate(lua_predicate(
                                f,
                                scratch,
                                ctx.script.env.clone(),
                                ctx.script.limits.call_instructions,
                                names,
                                ctx.predicate_error.clone(),
                            ))
                        }
                    };
                }
                if t.at_end {
                    tr = tr.at_end();
                }
                if let Some(e) = t.exit_time {
                    tr = tr.exit_time(e);
                }
                let source = match t.source {
                    Source::Frozen => SourceMode::Frozen,
                    Source::Live => SourceMode::Playing,
                };
                tr = tr.blend(t.blend, curve(&t.curve)).source(source);
                sm.transition(tr);
            }
            ctx.b.add_named("state_machine", sm)
        }
    })
}

/// Builds the graph a loaded script describes. Errors point at the script's `graph { }` call.
pub fn build(script: &LoadedScript) -> Result<(Graph, PredicateError), ScriptError> {
    let mut b = GraphBuilder::new(script.rig.skeleton.clone());
    for p in &script.spec.params {
        let r = match &p.kind {
            ParamKind::Float { default, min, max } => b.float(&p.name, *default, *min, *max),
            ParamKind::Bool(v) => b.boolean(&p.name, *v),
            ParamKind::Trigger => b.trigger(&p.name),
            ParamKind::Vec3(v) => b.vec3(&p.name, *v),
        };
        r.map_err(|e| graph_err(script, e))?;
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
    for op in &script.spec.post {
        let post = post::post_op(&b, script, op)?;
        b.post(post);
    }
    let mut ctx = Ctx {
        script,
        b,
        predicate_error: Rc::default(),
    };
    let root = node(&mut ctx, &script.spec, script.spec.root)?;
    let graph = ctx.b.build(root).map_err(|e| graph_err(script, e))?;
    Ok((graph, ctx.predicate_error))
}

#[cfg(test)]
mod tests {
    use super::sample_curve;

    /// Sampled curves interpolate linearly between samples and clamp outside [0, 1].
    #[test]
    fn sampled_curve_interpolates() {
        let s = [0.0, 0.5, 1.0];
        assert_eq!(sample_curve(&s, 0.25), 0.25);
        assert_eq!(sample_curve(&s, 0.75), 0.75);
        assert_eq!(sample_curve(&s, 2.0), 1.0);
        assert_eq!(sample_curve(&[0.0, 1.0, 0.0], 0.5), 1.0);
    }
}
