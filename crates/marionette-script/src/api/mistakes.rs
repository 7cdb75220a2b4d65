//! API mistakes and the helpers every area uses: a mistake ([`Invalid`], made by [`err`]) is
//! recorded at its script line and the script goes on ([`record`], [`recover`]); argument counts
//! ([`check_count`], [`function`], [`method`]); the builder and the rig in use
//! ([`with_builder`], [`current_rig`], [`rig_at`]); declared parameters ([`check_param`]).

use std::rc::Rc;

use mlua::Lua;

use super::builder::Builder;
use crate::rig::Rig;
use crate::stack::caller_location;
use marionette_anim::graph::ParamKind;

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
            let hint = crate::names::did_you_mean(name, known.iter().copied());
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
