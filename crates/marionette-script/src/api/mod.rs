//! The Lua API, one `register(lua)` per area (rig, params, nodes, masks, state machines, graph,
//! post-process). Userdata values wrap ids into the [`Builder`], never references, so a script
//! can keep them anywhere without borrowing Rust data.

pub(crate) mod clips;
pub(crate) mod graph;
pub(crate) mod ik;
pub(crate) mod locate;
pub(crate) mod machine;
pub(crate) mod mask;
pub(crate) mod morph;
pub(crate) mod nodes;
pub(crate) mod params;
pub(crate) mod post;
pub(crate) mod post_args;
pub(crate) mod post_fast;
pub(crate) mod retarget;
pub(crate) mod rig;
pub(crate) mod sides;
pub(crate) mod state_events;
pub(crate) mod strict;
pub(crate) mod takes;
pub(crate) mod vec3_view;

use std::rc::Rc;

use mlua::{Lua, RegistryKey};

use super::rig::{Rig, RigLoader};
use super::spec::{GraphSpec, NodeId, NodeSpec};
use marionette_anim::graph::ParamKind;

/// State collected while a script's main chunk runs.
pub(crate) struct Builder {
    /// Loads the character and the files the script names.
    pub loader: RigLoader,
    /// The character, loaded on first need.
    pub rig: Option<Rc<Rig>>,
    /// Other rigs the script named (`marionette.rig("other.glb")`): rig `k` of a clip is
    /// `sources[k - 1]` (0 is the character).
    pub sources: Vec<Rc<Rig>>,
    /// Set once the character is settled by the script: its first `marionette.rig(file)` (the
    /// file, unless `--rig` named one) or `marionette.rig()` ran.
    pub named_character: bool,
    /// Set once the script named any file with `marionette.rig(file)`.
    pub named_file: bool,
    /// The rig each node animates (`None` for a placeholder or a node mixing rigs).
    pub node_rigs: Vec<Option<usize>>,
    /// The description being built.
    pub spec: GraphSpec,
    /// Lua predicates of transitions (`Condition::Predicate(i)` is entry `i`).
    pub predicates: Vec<RegistryKey>,
    /// Where `graph { ... }` was called (build errors point here).
    pub graph_line: Option<crate::Location>,
    /// The `post(pose, ctx)` function, if any.
    pub post: Option<RegistryKey>,
    /// Set once a mask, an ik/adjust operation or side pairs were made from the rig: like a
    /// clip node, they hold its joints, so `marionette.rig(path)` may no longer replace it.
    pub rig_used: bool,
    /// Set once `graph { ... }` ran.
    pub finished: bool,
    /// Warnings (`file:line: warning: ...`) for things that load but likely do nothing.
    pub warnings: Vec<String>,
    /// Mistakes found so far (see [`record`]); the script is rejected with all of them.
    pub errors: Vec<crate::ScriptError>,
}

impl Builder {
    /// A builder that loads rigs with `loader`.
    pub fn new(loader: RigLoader) -> Self {
        Builder {
            loader,
            rig: None,
            sources: Vec::new(),
            named_character: false,
            named_file: false,
            node_rigs: Vec::new(),
            spec: GraphSpec::default(),
            predicates: Vec::new(),
            graph_line: None,
            post: None,
            rig_used: false,
            finished: false,
            warnings: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Adds a node made at `at` (the script line of the call) and returns its id (its index in
    /// the spec's nodes).
    pub fn push(&mut self, node: NodeSpec, at: Option<crate::Location>) -> NodeId {
        let rig = self.rig_of_new(&node, &at);
        self.node_rigs.push(rig);
        self.spec.nodes.push(node);
        self.spec.sources.nodes.push(at);
        // (exact: each node costs a Lua call; far fewer than 2^32 fit in a load budget or memory)
        NodeId::new((self.spec.nodes.len() - 1).min(u32::MAX as usize) as u32)
    }
}

impl Builder {
    /// The rig `k` (0: the character, once loaded).
    pub fn rig_at(&self, k: usize) -> Option<&Rc<Rig>> {
        match k {
            0 => self.rig.as_ref(),
            k => self.sources.get(k - 1),
        }
    }

    /// How messages name rig `k`: `the character (mannequin)`, `RobotExpressive.glb`.
    pub fn rig_name(&self, k: usize) -> String {
        match (k, self.rig_at(k)) {
            (0, Some(r)) => format!("the character ({})", r.short_name()),
            (0, None) => "the character".to_string(),
            (_, Some(r)) => r.short_name().to_string(),
            (k, None) => format!("rig #{k}"),
        }
    }

    /// The rig a new node animates: a clip's, the character for a retarget, else its inputs'
    /// (a node mixing rigs is a mistake, recorded at `at`).
    fn rig_of_new(&mut self, node: &NodeSpec, at: &Option<crate::Location>) -> Option<usize> {
        match node {
            NodeSpec::Clip(c) => return Some(c.rig),
            NodeSpec::Retarget(_) => return Some(0),
            NodeSpec::Invalid => return None,
            _ => {}
        }
        let mut found: Option<usize> = None;
        for input in node.inputs() {
            let r = self.node_rigs.get(input.index()).copied().flatten()?;
            match found {
                Some(f) if f != r => {
                    let (a, b) = (self.rig_name(f.min(r)), self.rig_name(f.max(r)));
                    let other = self.rig_name(f.max(r).max(1));
                    self.errors.push(crate::ScriptError {
                        location: at.clone(),
                        message: format!(
                            "{} mixes poses of {a} and of {b}: one node animates one rig; put {other}'s on the character with retarget(node, {{ from = ... }}) first",
                            node.lua_name()
                        ),
                        ..Default::default()
                    });
                    return None;
                }
                _ => found = Some(r),
            }
        }
        found
    }
}

/// At most this many mistakes are collected; the script stops at the next one.
pub(crate) const MAX_ERRORS: usize = 20;

/// A mistake in what a script asked for (an unknown name or option, a value of the wrong type
/// or range), raised by the API with [`err`]. Unlike a Lua runtime error it does not have to
/// stop the script: [`recover`] records it and the script goes on, so that one `check` reports
/// every such mistake.
#[derive(Debug, Clone)]
pub(crate) struct Invalid(pub String);

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Invalid {}

/// The message of an API mistake ([`Invalid`]), or `None` for any other error (a Lua runtime
/// error, the instruction budget, memory), which must stop the script.
pub(crate) fn invalid_message(e: &mlua::Error) -> Option<String> {
    match e {
        mlua::Error::ExternalError(x) => x.downcast_ref::<Invalid>().map(|i| i.0.clone()),
        mlua::Error::WithContext { context, cause } => {
            invalid_message(cause).map(|m| format!("{context}: {m}"))
        }
        _ => None,
    }
}

/// Records an API mistake at `at` (the caller's script line when `None`) and returns `Ok`, so
/// the caller can go on with a placeholder; any other error is returned as it is. Past
/// [`MAX_ERRORS`] the script is stopped.
pub(crate) fn record(lua: &Lua, at: Option<crate::Location>, e: mlua::Error) -> mlua::Result<()> {
    let Some(message) = invalid_message(&e) else {
        return Err(e);
    };
    let location = at.or_else(|| caller_location(lua));
    with_builder(lua, |b| {
        if b.errors.len() >= MAX_ERRORS {
            return Err(mlua::Error::runtime(format!(
                "stopped after {MAX_ERRORS} errors; fix these first"
            )));
        }
        b.errors.push(crate::ScriptError {
            location,
            message,
            ..Default::default()
        });
        Ok(())
    })
}

/// `r`, or, when it is an API mistake, the mistake recorded (see [`record`]) and `fallback`'s
/// placeholder returned so the script goes on.
pub(crate) fn recover<T>(
    lua: &Lua,
    r: mlua::Result<T>,
    fallback: impl FnOnce(&Lua) -> mlua::Result<T>,
) -> mlua::Result<T> {
    match r {
        Ok(v) => Ok(v),
        Err(e) => {
            record(lua, None, e)?;
            fallback(lua)
        }
    }
}

/// The placeholder node of a call that failed ([`NodeSpec::Invalid`]): other calls accept it
/// without further errors; the script is rejected anyway.
pub(crate) fn invalid_node(lua: &Lua) -> mlua::Result<nodes::Node> {
    let at = caller_location(lua);
    with_builder(lua, |b| Ok(nodes::Node(b.push(NodeSpec::Invalid, at))))
}

/// The innermost user-script location on the Lua stack (skips `[C]` and the prelude).
pub(crate) fn caller_location(lua: &Lua) -> Option<crate::Location> {
    for level in 1..32 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            let file = src
                .source
                .as_deref()
                .and_then(|s| s.strip_prefix('@'))
                .map(str::to_string);
            (file, d.current_line())
        });
        match found {
            None => return None,
            Some((Some(file), Some(line))) => {
                return Some(crate::Location {
                    file,
                    // (a chunk of 2^32 lines is past any memory limit; it would read the last)
                    line: u32::try_from(line).unwrap_or(u32::MAX),
                });
            }
            Some(_) => {}
        }
    }
    None
}

/// Checks a call's argument count: a call with more arguments than `what` takes (`max`) is a
/// mistake — Lua would drop the extra ones silently and hide it (`rig.jump:once(true)`). While
/// the script loads it is recorded ([`record`]) and the call goes on with the arguments it
/// takes; later (inside `post`) it is raised. Trailing `nil`s count, as Lua passes them.
pub(crate) fn check_count(
    lua: &Lua,
    args: &mut mlua::MultiValue,
    max: usize,
    what: &str,
) -> mlua::Result<()> {
    if args.len() <= max {
        return Ok(());
    }
    let takes = match max {
        0 => "no arguments".to_string(),
        1 => "1 argument".to_string(),
        n => format!("{n} arguments"),
    };
    let e = err(format!("{what} takes {takes}, {} given", args.len()));
    if lua.app_data_ref::<Builder>().is_none() {
        return Err(e);
    }
    record(lua, None, e)?;
    args.truncate(max);
    Ok(())
}

/// A Lua function of the API taking at most `max` arguments ([`check_count`]), as `A`.
pub(crate) fn function<A: mlua::FromLuaMulti, R: mlua::IntoLuaMulti>(
    lua: &Lua,
    what: impl Into<String>,
    max: usize,
    f: impl Fn(&Lua, A) -> mlua::Result<R> + 'static,
) -> mlua::Result<mlua::Function> {
    let what = what.into();
    lua.create_function(move |lua, mut args: mlua::MultiValue| {
        check_count(lua, &mut args, max, &what)?;
        f(lua, A::from_lua_multi(args, lua)?)
    })
}

/// A method of the API's userdata `T` taking at most `max` arguments after `self`
/// ([`check_count`]), as `A`.
pub(crate) fn method<T, M, A, R>(
    methods: &mut M,
    name: &'static str,
    what: &'static str,
    max: usize,
    f: impl Fn(&Lua, &T, A) -> mlua::Result<R> + 'static,
) where
    T: mlua::UserData + 'static,
    M: mlua::UserDataMethods<T>,
    A: mlua::FromLuaMulti,
    R: mlua::IntoLuaMulti,
{
    methods.add_method(name, move |lua, this, mut args: mlua::MultiValue| {
        check_count(lua, &mut args, max, what)?;
        f(lua, this, A::from_lua_multi(args, lua)?)
    });
}

/// A name argument: a Lua string, never a number converted to one (`clip(12345, ...)` is a
/// mistake, not a clip named "12345").
pub(crate) struct Name(pub String);

impl mlua::FromLua for Name {
    fn from_lua(value: mlua::Value, _: &Lua) -> mlua::Result<Self> {
        match value {
            mlua::Value::String(s) => Ok(Name(s.to_str()?.to_string())),
            other => Err(mlua::Error::FromLuaConversionError {
                from: other.type_name(),
                to: "string".into(),
                message: Some("expected a name (a string)".into()),
            }),
        }
    }
}

/// An API mistake ([`Invalid`]) with a message; [`recover`] records it at the script line, or
/// the host finds the line in the traceback.
pub(crate) fn err(msg: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::external(Invalid(msg.to_string()))
}

/// Runs `f` with the builder (errors if the state has none, which would be a host bug).
pub(crate) fn with_builder<R>(
    lua: &Lua,
    f: impl FnOnce(&mut Builder) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let mut b = lua
        .app_data_mut::<Builder>()
        .ok_or_else(|| err("the graph can only be built while the script loads"))?;
    f(&mut b)
}

/// Notes that something holding the rig's joints was made (see [`Builder::rig_used`]).
pub(crate) fn use_rig(lua: &Lua) -> mlua::Result<()> {
    with_builder(lua, |b| {
        b.rig_used = true;
        Ok(())
    })
}

/// The current rig, loading the default one on first use.
pub(crate) fn current_rig(lua: &Lua) -> mlua::Result<Rc<Rig>> {
    with_builder(lua, |b| {
        if let Some(r) = &b.rig {
            return Ok(r.clone());
        }
        // not a mistake to go on from: nothing can be checked without the rig
        let rig = b.loader.character().map_err(mlua::Error::runtime)?;
        b.rig = Some(rig.clone());
        Ok(rig)
    })
}

/// Rig `index` of the script (0: the character, loaded on first need).
pub(crate) fn rig_at(lua: &Lua, index: usize) -> mlua::Result<std::rc::Rc<crate::Rig>> {
    if index == 0 {
        return current_rig(lua);
    }
    with_builder(lua, |b| {
        b.rig_at(index)
            .cloned()
            .ok_or_else(|| err(format!("internal: rig #{index} was not loaded")))
    })
}

/// Checks that `name` is a declared parameter of one of the accepted kinds.
pub(crate) fn check_param(
    lua: &Lua,
    name: &str,
    what: &str,
    float: bool,
    flag: bool,
) -> mlua::Result<()> {
    with_builder(lua, |b| {
        let Some(p) = b.spec.param(name) else {
            let known: Vec<&str> = b.spec.params.iter().map(|p| p.name.as_str()).collect();
            let hint = strict::did_you_mean(name, known.iter().copied());
            return Err(err(format!(
                "{what}: unknown parameter '{name}'{hint} (declared: {})",
                if known.is_empty() {
                    "none; declare it with params { ... } first".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        let ok = match p.kind() {
            ParamKind::Float => float,
            ParamKind::Bool | ParamKind::Trigger => flag,
            ParamKind::Vec3 => false,
        };
        if !ok {
            let want = match (float, flag) {
                (true, false) => "a float",
                (false, true) => "a bool or trigger",
                _ => "a float or bool",
            };
            return Err(err(format!("{what}: parameter '{name}' is not {want}")));
        }
        Ok(())
    })
}

/// Registers every API area in a fresh state.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    rig::register(lua)?;
    sides::register(lua)?;
    params::register(lua)?;
    nodes::register(lua)?;
    mask::register(lua)?;
    machine::register(lua)?;
    takes::register(lua)?;
    ik::register(lua)?;
    morph::register(lua)?;
    retarget::register(lua)?;
    clips::register(lua)?;
    graph::register(lua)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// API mistakes are told apart from errors that must stop the script.
    #[test]
    fn mistakes_are_told_apart() {
        assert_eq!(
            invalid_message(&err("unknown clip 'x'")).as_deref(),
            Some("unknown clip 'x'")
        );
        assert_eq!(
            invalid_message(&mlua::ErrorContext::context(err("bad"), "blend1d")).as_deref(),
            Some("blend1d: bad")
        );
        assert_eq!(invalid_message(&mlua::Error::runtime("budget")), None);
        assert_eq!(
            invalid_message(&mlua::Error::MemoryError("out".into())),
            None
        );
    }
}
