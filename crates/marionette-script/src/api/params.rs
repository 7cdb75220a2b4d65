//! Parameters: `params { speed = float(0, 0, 6), jump = trigger(), look = vec3(0, 1.6, 2),
//! crouch = bool(false) }`.

use glam::Vec3;
use mlua::{Lua, Table, UserData, Value};

use super::{
    err, record, recover,
    strict::{describe, number},
    with_builder,
};
use crate::spec::ParamDef;
use marionette_anim::graph::ParamValue;

/// A parameter declaration value, as returned by `float(...)`, `bool(...)`, `trigger()`,
/// `vec3(...)`: a [`ParamDef`] whose name `params { name = ... }` fills in.
#[derive(Debug, Clone)]
pub(crate) struct Decl(pub ParamDef);

impl UserData for Decl {}

fn opt_number(v: &Value, what: &str, default: f32) -> mlua::Result<f32> {
    match v {
        Value::Nil => Ok(default),
        v => number(v, what),
    }
}

/// A Lua function around a declaration: a mistake is recorded and `placeholder` declared
/// instead (the same kind, so later uses of the parameter raise no further errors).
fn decl_fn<A: mlua::FromLuaMulti>(
    lua: &Lua,
    what: &'static str,
    max: usize,
    placeholder: ParamDef,
    f: impl Fn(&Lua, A) -> mlua::Result<Decl> + 'static,
) -> mlua::Result<mlua::Function> {
    super::function(lua, what, max, move |lua, args: A| {
        let r = f(lua, args);
        recover(lua, r, |_| Ok(Decl(placeholder.clone())))
    })
}

/// Registers `params`, `float`, `bool`, `trigger` and `vec3`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    g.set(
        "float",
        decl_fn(
            lua,
            "float(default, min, max)",
            3,
            ParamDef::float("", 0.0, f32::MIN, f32::MAX),
            |_, (d, lo, hi): (Value, Value, Value)| {
                let default = opt_number(&d, "float(default, min, max)", 0.0)?;
                let min = opt_number(&lo, "float(default, min, max)", f32::MIN)?;
                let max = opt_number(&hi, "float(default, min, max)", f32::MAX)?;
                if min > max {
                    return Err(err(format!(
                        "float({default}, {min}, {max}): bad range, min is greater than max"
                    )));
                }
                if default < min || default > max {
                    return Err(err(format!(
                    "float({default}, {min}, {max}): bad range, the default is outside [min, max]"
                )));
                }
                Ok(Decl(ParamDef::float("", default, min, max)))
            },
        )?,
    )?;
    g.set(
        "bool",
        decl_fn(
            lua,
            "bool(default)",
            1,
            ParamDef::boolean("", false),
            |_, d: Value| {
                let d = match d {
                    Value::Nil => false,
                    Value::Boolean(b) => b,
                    other => {
                        return Err(err(format!(
                            "bool(default): the default must be true or false, got {}",
                            describe(&other)
                        )))
                    }
                };
                Ok(Decl(ParamDef::boolean("", d)))
            },
        )?,
    )?;
    g.set(
        "trigger",
        super::function(lua, "trigger()", 0, |_, ()| Ok(Decl(ParamDef::trigger(""))))?,
    )?;
    g.set(
        "vec3",
        decl_fn(
            lua,
            "vec3(x, y, z)",
            3,
            ParamDef::vec3("", Vec3::ZERO),
            |_, (x, y, z): (Value, Value, Value)| {
                let v = Vec3::new(
                    opt_number(&x, "vec3(x, y, z)", 0.0)?,
                    opt_number(&y, "vec3(x, y, z)", 0.0)?,
                    opt_number(&z, "vec3(x, y, z)", 0.0)?,
                );
                Ok(Decl(ParamDef::vec3("", v)))
            },
        )?,
    )?;
    g.set(
        "params",
        super::function(lua, "params { ... }", 1, |lua, decls: Table| {
            let mut list = Vec::new();
            for pair in decls.pairs::<Value, Value>() {
                let (k, v) = pair?;
                let Value::String(name) = k else {
                    let use_names = "params { ... }: use name = float(...) / bool(...) / trigger() / vec3(...)";
                    record(lua, None, err(use_names))?;
                    continue;
                };
                let name = name.to_str()?.to_string();
                let def = match &v {
                    Value::UserData(u) => u.borrow::<Decl>().map(|d| d.0.clone()).ok(),
                    Value::Number(_) | Value::Integer(_) => {
                        let n = number(&v, "params")?;
                        Some(ParamDef::float("", n, f32::MIN, f32::MAX))
                    }
                    Value::Boolean(b) => Some(ParamDef::boolean("", *b)),
                    _ => None,
                };
                let Some(def) = def else {
                    record(
                        lua,
                        None,
                        err(format!(
                            "params: '{name}' must be float(...), bool(...), trigger() or vec3(...), got {}",
                            v.type_name()
                        )),
                    )?;
                    continue;
                };
                list.push(ParamDef { name, ..def });
            }
            list.sort_by(|a, b| a.name.cmp(&b.name));
            let mut twice = Vec::new();
            with_builder(lua, |b| {
                for p in list {
                    if b.spec.param(&p.name).is_some() {
                        twice.push(p.name);
                        continue;
                    }
                    b.spec.params.push(p);
                }
                Ok(())
            })?;
            for name in twice {
                record(lua, None, err(format!("params: '{name}' is declared twice")))?;
            }
            Ok(())
        })?,
    )?;
    Ok(())
}

/// Reads a `{x, y, z}` / `{x = .., y = .., z = ..}` table or a `vec3(...)` value.
pub(crate) fn vec3_arg(v: &Value, what: &str) -> mlua::Result<Vec3> {
    match v {
        Value::Table(t) => {
            // a plain table (the usual `{x, y, z}` or ctx's vec3s) is read raw: no metamethod
            // can run, so no protected call per component
            let plain = t.metatable().is_none();
            let get = |i: i64, k: &str| -> mlua::Result<f32> {
                let v: Value = if plain { t.raw_get(i)? } else { t.get(i)? };
                let v = match (v.is_nil(), plain) {
                    (false, _) => v,
                    (true, true) => t.raw_get(k)?,
                    (true, false) => t.get(k)?,
                };
                number(&v, what)
            };
            Ok(Vec3::new(get(1, "x")?, get(2, "y")?, get(3, "z")?))
        }
        Value::UserData(u) => match u.borrow::<Decl>().map(|d| d.0.default) {
            Ok(ParamValue::Vec3(v)) => Ok(v),
            _ => Err(err(format!("{what}: expected {{x, y, z}}"))),
        },
        other => Err(err(format!(
            "{what}: expected {{x, y, z}}, got {}",
            other.type_name()
        ))),
    }
}

/// A point argument: `{x, y, z}`, or the name of a vec3 parameter (`what` names it in errors).
pub(crate) fn vec3_source(lua: &Lua, v: Value, what: &str) -> mlua::Result<crate::spec::Vec3Value> {
    match v {
        Value::String(s) => {
            let name = s.to_str()?.to_string();
            let is_vec3 = with_builder(lua, |b| {
                Ok(b.spec
                    .param(&name)
                    .map(|p| p.kind() == marionette_anim::graph::ParamKind::Vec3))
            })?;
            match is_vec3 {
                Some(true) => Ok(crate::spec::Vec3Value::Param(name)),
                Some(false) => Err(err(format!("{what}: parameter '{name}' is not a vec3"))),
                None => {
                    super::check_param(lua, &name, what, false, false)?;
                    Err(err(format!("{what}: unknown parameter '{name}'")))
                }
            }
        }
        v => Ok(crate::spec::Vec3Value::Const(vec3_arg(&v, what)?)),
    }
}
