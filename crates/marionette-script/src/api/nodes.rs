//! Node constructors: `blend`, `blend1d`, `blend2d`, `additive`, `layer`, `mirror`, `stepped`,
//! `warp`,
//! and the clip modifiers `:once()`, `:loop()`, `:speed(x)`, `:at(t)`, `:event(name, t)`,
//! `:mirror()`. The kinds the graph declares once (`marionette_anim::graph::KindSpec`) are
//! pushed as `NodeSpec::Kind(description.into())`.

use glam::Vec2;
use mlua::{FromLua, Lua, Table, UserData, UserDataMethods, UserDataRef, Value as LuaValue};

use super::{
    caller_location, check_param, err,
    mask::Mask,
    recover,
    strict::{check_keys, check_opts, describe, number, opt_bool},
    with_builder,
};
use crate::spec::{
    BlendNode, BlendSpace1D, BlendSpace2D, LayerSpec, MirrorNode, NodeId, NodeSpec, TimeScaleNode,
    Value,
};
use marionette_anim::graph::SteppedNode;

/// A node handle: an id into the builder's node list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Node(pub NodeId);

impl FromLua for Node {
    fn from_lua(value: LuaValue, _: &Lua) -> mlua::Result<Self> {
        match &value {
            LuaValue::UserData(ud) => ud.borrow::<Node>().map(|n| *n).map_err(|_| {
                err("expected a node (a clip like rig.walk, or blend/layer/state_machine ...)")
            }),
            other => Err(err(format!(
                "expected a node (a clip like rig.walk, or blend/layer/state_machine ...), got {}",
                other.type_name()
            ))),
        }
    }
}

/// A weight or rate: a number, or the name of a float parameter.
pub(crate) fn value_arg(lua: &Lua, v: LuaValue, what: &str) -> mlua::Result<Value> {
    match v {
        LuaValue::Integer(_) | LuaValue::Number(_) => Ok(Value::Const(number(&v, what)?)),
        LuaValue::String(s) => {
            let name = s.to_str()?.to_string();
            check_param(lua, &name, what, true, false)?;
            Ok(Value::Param(name))
        }
        other => Err(err(format!(
            "{what}: expected a number or a float parameter name, got {}",
            other.type_name()
        ))),
    }
}

/// A mirror of `n`, warning when the rig has no left/right pairs to swap.
fn mirror_node(lua: &Lua, n: Node) -> mlua::Result<Node> {
    if super::sides::mirrored_joints(lua)? == 0 {
        let rig = super::current_rig(lua)?;
        super::sides::warn(
            lua,
            format!(
                "mirror: rig {} has no left/right joint pairs, so mirroring only reflects the pose; pair them with marionette.sides {{ ... }}",
                rig.source
            ),
        )?;
    }
    push(lua, NodeSpec::Kind(MirrorNode { input: n.0 }.into()))
}

/// Adds a node made at the calling script line.
pub(crate) fn push(lua: &Lua, node: NodeSpec) -> mlua::Result<Node> {
    let at = caller_location(lua);
    with_builder(lua, |b| Ok(Node(b.push(node, at))))
}

/// True for the placeholder of a call that failed (its mistake is already recorded).
fn is_invalid(lua: &Lua, node: Node) -> mlua::Result<bool> {
    with_builder(lua, |b| {
        Ok(matches!(
            b.spec.nodes.get(node.0.index()),
            Some(NodeSpec::Invalid)
        ))
    })
}

/// Copies a clip node with a change, or errors naming the modifier for non-clip nodes. The
/// placeholder of a failed call is returned as it is.
fn modify_clip(
    lua: &Lua,
    node: Node,
    what: &str,
    f: impl FnOnce(&mut crate::spec::ClipSpec),
) -> mlua::Result<Node> {
    let at = caller_location(lua);
    with_builder(lua, |b| match b.spec.nodes.get(node.0.index()) {
        Some(NodeSpec::Clip(c)) => {
            let mut c = c.clone();
            f(&mut c);
            Ok(Node(b.push(NodeSpec::Clip(c), at)))
        }
        Some(NodeSpec::Invalid) => Ok(node),
        _ => Err(err(format!(
            "{what} applies to clips only (e.g. rig.jump{what})"
        ))),
    })
}

/// The length in seconds of a clip node's clip (errors for other nodes).
fn clip_length(lua: &Lua, node: Node) -> mlua::Result<f32> {
    let clip = with_builder(lua, |b| match b.spec.nodes.get(node.0.index()) {
        Some(NodeSpec::Clip(c)) => Ok(Some((c.rig, c.clip))),
        _ => Ok(None),
    })?;
    if let Some((rig, clip)) = clip {
        let rig = super::rig_at(lua, rig)?;
        return Ok(rig.clips.get(clip).map_or(0.0, |c| c.duration()));
    }
    with_builder(lua, |b| match b.spec.nodes.get(node.0.index()) {
        Some(NodeSpec::Clip(_)) => Ok(0.0),
        _ => Err(err(
            ":event(name, seconds) applies to clips only (e.g. rig.walk:event(\"foot_l\", 0.1))",
        )),
    })
}

/// `:event(name, seconds)` on a clip node.
fn clip_event(lua: &Lua, n: Node, name: LuaValue, t: LuaValue) -> mlua::Result<Node> {
    let LuaValue::String(name) = name else {
        return Err(err(format!(
            ":event(name, seconds): the name must be a string, got {}",
            describe(&name)
        )));
    };
    let name = name.to_str()?.to_string();
    let t = number(&t, ":event(name, seconds)")?;
    if is_invalid(lua, n)? {
        return Ok(n);
    }
    let len = clip_length(lua, n)?;
    if !(0.0..=len).contains(&t) {
        return Err(err(format!(
            ":event('{name}', {t}): the time is outside the clip (0 to {len} s)"
        )));
    }
    modify_clip(lua, n, ":event(name, seconds)", |c| {
        c.events.push((name, t));
        c.events.sort_by(|a, b| a.1.total_cmp(&b.1));
    })
}

/// A Lua function around a node constructor: a mistake is recorded and a placeholder node
/// returned, so the script goes on (see [`recover`]).
/// `what` names it in errors; it takes at most `max` arguments.
pub(crate) fn node_fn<A: mlua::FromLuaMulti>(
    lua: &Lua,
    what: &'static str,
    max: usize,
    f: impl Fn(&Lua, A) -> mlua::Result<Node> + 'static,
) -> mlua::Result<mlua::Function> {
    super::function(lua, what, max, move |lua, args: A| {
        let r = f(lua, args);
        recover(lua, r, invalid_node)
    })
}

impl UserData for Node {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        fn method<A: mlua::FromLuaMulti, M: UserDataMethods<Node>>(
            methods: &mut M,
            (name, what, max): (&'static str, &'static str, usize),
            f: impl Fn(&Lua, Node, A) -> mlua::Result<Node> + 'static,
        ) {
            super::method(methods, name, what, max, move |lua, n: &Node, args: A| {
                let r = f(lua, *n, args);
                recover(lua, r, |_| Ok(*n))
            });
        }
        method(methods, ("once", "node:once()", 0), |lua, n, ()| {
            modify_clip(lua, n, ":once()", |c| c.looping = false)
        });
        method(methods, ("loop", "node:loop()", 0), |lua, n, ()| {
            modify_clip(lua, n, ":loop()", |c| c.looping = true)
        });
        method(
            methods,
            ("at", "node:at(seconds)", 1),
            |lua, n, t: LuaValue| {
                let t = number(&t, ":at(seconds)")?;
                if t < 0.0 {
                    return Err(err(format!(":at({t}): the start offset must be >= 0")));
                }
                modify_clip(lua, n, ":at(seconds)", |c| c.offset = t)
            },
        );
        method(
            methods,
            ("speed", "node:speed(rate)", 1),
            |lua, n, rate: LuaValue| {
                let rate = value_arg(lua, rate, ":speed")?;
                let is_clip = with_builder(lua, |b| {
                    Ok(matches!(
                        b.spec.nodes.get(n.0.index()),
                        Some(NodeSpec::Clip(_) | NodeSpec::Invalid)
                    ))
                })?;
                match (is_clip, &rate) {
                    (true, Value::Const(k)) => {
                        let k = *k;
                        modify_clip(lua, n, ":speed(x)", |c| c.speed = k)
                    }
                    _ => push(
                        lua,
                        NodeSpec::Kind(
                            TimeScaleNode {
                                input: n.0,
                                scale: rate,
                            }
                            .into(),
                        ),
                    ),
                }
            },
        );
        method(
            methods,
            ("event", "node:event(name, seconds)", 2),
            |lua, n, (name, t): (LuaValue, LuaValue)| clip_event(lua, n, name, t),
        );
        method(methods, ("mirror", "node:mirror()", 0), |lua, n, ()| {
            mirror_node(lua, n)
        });
    }
}

/// `{ sync = true }`: the only option of blend spaces; unknown keys and non-booleans are errors.
fn sync_opt(opts: &Option<Table>, what: &str) -> mlua::Result<bool> {
    check_opts(opts, what, &["sync"])?;
    match opts {
        Some(t) => Ok(opt_bool(t, "sync", what)?.unwrap_or(false)),
        None => Ok(false),
    }
}

/// Registers the node constructors as globals.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    g.set(
        "blend",
        node_fn(lua, "blend { ... }", 1, |lua, inputs: Table| {
            let mut list = Vec::new();
            for (i, item) in inputs.sequence_values::<Table>().enumerate() {
                let item = item.map_err(|_| {
                    err(format!("blend: input {} must be {{ node, weight }}", i + 1))
                })?;
                let node: Node = item.get(1)?;
                let w = value_arg(lua, item.get(2)?, "blend weight")?;
                list.push((node.0, w));
            }
            if list.is_empty() {
                return Err(err("blend: needs at least one { node, weight } input"));
            }
            push(lua, NodeSpec::Blend(BlendNode { inputs: list }))
        })?,
    )?;
    g.set(
        "blend1d",
        node_fn(
            lua,
            "blend1d(param, points, opts)",
            3,
            |lua, (param, points, opts): (String, Table, Option<Table>)| {
                check_param(lua, &param, "blend1d", true, false)?;
                let mut list: Vec<(f32, NodeId)> = Vec::new();
                for (i, item) in points.sequence_values::<Table>().enumerate() {
                    let item = item.map_err(|_| {
                        err(format!(
                            "blend1d: point {} must be {{ position, node }}",
                            i + 1
                        ))
                    })?;
                    let pos = number(&item.get(1)?, "blend1d position")?;
                    let node: Node = item.get(2)?;
                    if let Some((prev, _)) = list.last() {
                        if pos <= *prev {
                            return Err(err(format!(
                                "blend1d: positions must increase ({pos} comes after {prev})"
                            )));
                        }
                    }
                    list.push((pos, node.0));
                }
                if list.is_empty() {
                    return Err(err("blend1d: needs at least one { position, node } point"));
                }
                let sync = sync_opt(&opts, "blend1d")?;
                push(
                    lua,
                    NodeSpec::Blend1d(BlendSpace1D {
                        param,
                        samples: list,
                        sync,
                    }),
                )
            },
        )?,
    )?;
    g.set(
        "blend2d",
        node_fn(
            lua,
            "blend2d(x, y, points, opts)",
            4,
            |lua, (x, y, points, opts): (String, String, Table, Option<Table>)| {
                check_param(lua, &x, "blend2d", true, false)?;
                check_param(lua, &y, "blend2d", true, false)?;
                let mut list = Vec::new();
                for (i, item) in points.sequence_values::<Table>().enumerate() {
                    let item = item.map_err(|_| {
                        err(format!("blend2d: point {} must be {{ x, y, node }}", i + 1))
                    })?;
                    let px = number(&item.get(1)?, "blend2d x")?;
                    let py = number(&item.get(2)?, "blend2d y")?;
                    let node: Node = item.get(3)?;
                    list.push((Vec2::new(px, py), node.0));
                }
                if list.is_empty() {
                    return Err(err("blend2d: needs at least one { x, y, node } point"));
                }
                let sync = sync_opt(&opts, "blend2d")?;
                push(
                    lua,
                    NodeSpec::Blend2d(BlendSpace2D {
                        x,
                        y,
                        samples: list,
                        sync,
                    }),
                )
            },
        )?,
    )?;
    g.set(
        "additive",
        node_fn(
            lua,
            "additive(base, add, opts)",
            3,
            |lua, (base, add, opts): (Node, Node, Option<Table>)| {
                check_opts(&opts, "additive", &["weight", "reference"])?;
                let (weight, reference) = match &opts {
                    Some(t) => {
                        let w = match t.get::<LuaValue>("weight")? {
                            LuaValue::Nil => Value::Const(1.0),
                            v => value_arg(lua, v, "additive weight")?,
                        };
                        let r: Option<Node> = t.get("reference")?;
                        (w, r.map(|n| n.0))
                    }
                    None => (Value::Const(1.0), None),
                };
                push(
                    lua,
                    NodeSpec::Additive {
                        base: base.0,
                        add: add.0,
                        reference,
                        weight,
                    },
                )
            },
        )?,
    )?;
    g.set(
        "layer",
        node_fn(
            lua,
            "layer(base, ...)",
            usize::MAX,
            |lua, (base, layers): (Node, mlua::Variadic<Table>)| {
                let mut list = Vec::new();
                for (i, t) in layers.iter().enumerate() {
                    let what = format!("layer {}", i + 1);
                    check_keys(t, &what, &["mask", "weight", "additive"], 1)?;
                    let node: Node = t.get(1).map_err(|_| {
                        err(format!(
                            "layer {}: the first entry must be the layer's node",
                            i + 1
                        ))
                    })?;
                    let mask = match t.get::<Option<UserDataRef<Mask>>>("mask")? {
                        Some(m) => Some(m.weights.clone()),
                        None => None,
                    };
                    let weight = match t.get::<LuaValue>("weight")? {
                        LuaValue::Nil => Value::Const(1.0),
                        v => value_arg(lua, v, "layer weight")?,
                    };
                    if let Value::Const(w) = weight {
                        if !(0.0..=1.0).contains(&w) {
                            return Err(err(format!("layer weight {w} is outside [0, 1]")));
                        }
                    }
                    let additive = opt_bool(t, "additive", &what)?.unwrap_or(false);
                    list.push(LayerSpec {
                        node: node.0,
                        mask,
                        weight,
                        additive,
                    });
                }
                push(
                    lua,
                    NodeSpec::Layer {
                        base: base.0,
                        layers: list,
                    },
                )
            },
        )?,
    )?;
    g.set("mirror", node_fn(lua, "mirror(node)", 1, mirror_node)?)?;
    g.set(
        "stepped",
        node_fn(
            lua,
            "stepped(node, fps)",
            2,
            |lua, (n, fps): (Node, LuaValue)| {
                let fps = value_arg(lua, fps, "stepped fps")?;
                if let Value::Const(k) = fps {
                    if k <= 0.0 {
                        return Err(err(format!(
                            "stepped: fps {k} must be above 0 (12 steps a second is animation on twos)"
                        )));
                    }
                }
                push(lua, NodeSpec::Kind(SteppedNode { input: n.0, fps }.into()))
            },
        )?,
    )?;
    g.set(
        "warp",
        node_fn(
            lua,
            "warp(node, opts)",
            2,
            |lua, (n, opts): (Node, Option<mlua::Table>)| warp(lua, n, &opts),
        )?,
    )?;
    Ok(())
}

/// One end of a warp's window: seconds of the node's own time, or the name of a marker of the
/// clip it plays (`rig.jump:event("land", 0.7)`), turned into the node's time (from its start
/// offset, at its speed).
fn window_end(lua: &Lua, n: Node, v: LuaValue, end: &str) -> mlua::Result<f32> {
    let LuaValue::String(name) = &v else {
        return number(&v, &format!("warp window {end}"));
    };
    let name = name.to_str()?.to_string();
    let clip = with_builder(lua, |b| {
        Ok(match b.spec.nodes.get(n.0.index()) {
            Some(NodeSpec::Clip(c)) => Some(c.clone()),
            _ => None,
        })
    })?;
    let Some(c) = clip else {
        return Err(err(format!(
            "warp: window {end} '{name}' names a marker, but the node is not a clip player: give seconds"
        )));
    };
    let Some(&(_, t)) = c.events.iter().find(|(e, _)| *e == name) else {
        let known: Vec<&str> = c.events.iter().map(|(e, _)| e.as_str()).collect();
        return Err(err(format!(
            "warp: window {end}: the clip has no marker '{name}'{} (add one with :event(\"{name}\", seconds))",
            if known.is_empty() {
                String::new()
            } else {
                format!(" (its markers: {})", known.join(", "))
            }
        )));
    };
    let speed = if c.speed.abs() > 1e-6 {
        c.speed.abs()
    } else {
        1.0
    };
    Ok(((t - c.offset) / speed).max(0.0))
}

/// `warp(node, { target = "landing", window = { from, to }, mode = "skew" })`.
fn warp(lua: &Lua, n: Node, opts: &Option<mlua::Table>) -> mlua::Result<Node> {
    const WHAT: &str = "warp";
    super::strict::check_opts(opts, WHAT, &["target", "window", "mode"])?;
    let Some(t) = opts else {
        return Err(err(
            "warp: give { target = \"vec3 parameter\", window = { from, to } } (seconds of the node's own time)",
        ));
    };
    let target = match t.get::<LuaValue>("target")? {
        LuaValue::Nil => {
            return Err(err(
                "warp: give target = the name of a vec3 parameter: where the character should stand when the window ends (world, metres)",
            ))
        }
        v => super::params::vec3_source(lua, v, "warp target")?,
    };
    let window = match t.get::<LuaValue>("window")? {
        LuaValue::Table(w) => {
            let a = window_end(lua, n, w.raw_get::<LuaValue>(1)?, "from")?;
            let b = window_end(lua, n, w.raw_get::<LuaValue>(2)?, "to")?;
            if !(0.0 <= a && a < b) {
                return Err(err(format!(
                    "warp: window {{{a}, {b}}}: from must be at least 0 and below to (seconds of the node's own time)"
                )));
            }
            [a, b]
        }
        LuaValue::Nil => {
            return Err(err(
                "warp: give window = { from, to }: the seconds of the node's own time over which its root motion bends",
            ))
        }
        other => {
            return Err(err(format!(
                "warp: window must be {{ from, to }} in seconds, got {}",
                other.type_name()
            )))
        }
    };
    match t.get::<LuaValue>("mode")? {
        LuaValue::Nil => {}
        LuaValue::String(m) if &*m.to_str()? == "skew" => {}
        other => {
            return Err(err(format!(
                "warp: mode must be \"skew\" (the only mode), got {}",
                super::strict::describe(&other)
            )))
        }
    }
    push(
        lua,
        NodeSpec::Kind(
            marionette_anim::graph::WarpNode {
                input: n.0,
                target,
                window,
            }
            .into(),
        ),
    )
}

/// The placeholder node of a call that failed ([`NodeSpec::Invalid`]): other calls accept it
/// without further errors; the script is rejected anyway.
pub(crate) fn invalid_node(lua: &Lua) -> mlua::Result<Node> {
    let at = caller_location(lua);
    with_builder(lua, |b| Ok(Node(b.push(NodeSpec::Invalid, at))))
}
