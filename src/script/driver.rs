//! The per-frame entry into a script's `post(pose, ctx)`: `ctx` and the pose handle are made
//! once, and a generated Lua "driver" fills `ctx` and calls `post`, so one call from Rust runs a
//! frame (instead of one protected `rawset` per field).
//!
//! The driver assigns every field with a constant key (`ctx["speed"] = a1`, one VM instruction
//! each): no key string is created or looked up per frame, and no table is allocated — vec3
//! parameters are written into the tables `ctx` was given once.

use mlua::{AnyUserData, Function, Lua, MultiValue, Table, Value};

use super::api::post::PoseHandle;
use crate::anim::graph::{ParamValue, Params};

/// `ctx`, the pose handle and the driver of one script. See the module docs.
pub(crate) struct PostDriver {
    /// `function(time, values...)`: fills `ctx`, calls `post(pose, ctx)`.
    driver: Function,
    /// Arguments of the driver, refilled every frame (no allocation once sized).
    args: MultiValue,
    /// Kept alive with the driver (it holds them as upvalues too).
    _ctx: Table,
    _pose: AnyUserData,
}

/// `name` as a Lua string literal: every byte a decimal escape, so any name (quotes, newlines,
/// non-ASCII) makes valid Lua with the same bytes.
fn quoted(name: &str) -> String {
    let mut s = String::with_capacity(name.len() * 4 + 2);
    s.push('"');
    for b in name.bytes() {
        s += &format!("\\{b:03}");
    }
    s.push('"');
    s
}

/// The Lua source of the driver for `params` (name, and whether it is a vec3 with its own
/// table): the chunk takes `post, pose, ctx` and the vec3 tables in order, and returns
/// `function(time, ...)` that assigns `ctx.time`, each float and boolean parameter, each vec3
/// into its table (`[1..3]` and `.x/.y/.z`), and calls `post(pose, ctx)`. It uses no globals;
/// `ctx` has no `__newindex`, so the assignments are raw.
fn source(params: &[(&str, bool)]) -> String {
    let mut head = String::from("local post, pose, ctx");
    let mut args = Vec::new();
    let mut body = String::from("  ctx.time = time\n");
    for (i, &(name, vec3)) in params.iter().enumerate() {
        let k = args.len();
        if vec3 {
            head += &format!(", v{i}");
            let (x, y, z) = (
                format!("a{k}"),
                format!("a{}", k + 1),
                format!("a{}", k + 2),
            );
            body += &format!(
                "  do local v = v{i}\n    v[1], v[2], v[3] = {x}, {y}, {z}\n    \
                 v.x, v.y, v.z = {x}, {y}, {z}\n  end\n"
            );
            args.extend([x, y, z]);
        } else {
            body += &format!("  ctx[{}] = a{k}\n", quoted(name));
            args.push(format!("a{k}"));
        }
    }
    let params: String = args.iter().map(|a| format!(", {a}")).collect();
    format!("{head} = ...\nreturn function(time{params})\n{body}  return post(pose, ctx)\nend\n")
}

impl PostDriver {
    /// Makes `ctx` (strict: reading a field that is neither `time` nor a parameter is an error),
    /// the pose handle and the driver calling `post` for a graph with parameters `params`.
    pub fn new(lua: &Lua, post: &Function, params: &Params) -> mlua::Result<PostDriver> {
        let ctx = lua.create_table()?;
        let pose = lua.create_userdata(PoseHandle)?;
        crate::script::api::post_fast::install(lua, &pose)?;
        let mut chunk_args = MultiValue::new();
        chunk_args.push_back(Value::Function(post.clone()));
        chunk_args.push_back(Value::UserData(pose.clone()));
        chunk_args.push_back(Value::Table(ctx.clone()));
        let mut layout = Vec::new();
        for (def, v) in params.defs().iter().zip(params.values()) {
            let vec3 = matches!(v, ParamValue::Vec3(_));
            if vec3 {
                let t = lua.create_table()?;
                ctx.raw_set(def.name.as_str(), &t)?;
                chunk_args.push_back(Value::Table(t));
            }
            layout.push((def.name.as_str(), vec3));
        }
        let mut names: Vec<String> = vec!["time".into()];
        names.extend(params.defs().iter().map(|d| d.name.clone()));
        let meta = crate::script::api::strict::strict_fields(lua, "ctx", names)?;
        ctx.set_metatable(Some(meta))?;
        let driver: Function = lua
            .load(source(&layout))
            .set_name("=[marionette]")
            .call(chunk_args)?;
        Ok(PostDriver {
            driver,
            args: MultiValue::new(),
            _ctx: ctx,
            _pose: pose,
        })
    }

    /// Calls `post(pose, ctx)` with `ctx.time = time` and the parameters' current `values`
    /// (those the driver was made for, in order).
    pub fn call(&mut self, time: f64, values: &[ParamValue]) -> mlua::Result<()> {
        let args = &mut self.args;
        args.clear();
        args.push_back(Value::Number(time));
        for v in values {
            match v {
                ParamValue::Float(x) => args.push_back(Value::Number(f64::from(*x))),
                ParamValue::Bool(b) | ParamValue::Trigger(b) => args.push_back(Value::Boolean(*b)),
                ParamValue::Vec3(v) => {
                    for c in v.to_array() {
                        args.push_back(Value::Number(f64::from(c)));
                    }
                }
            }
        }
        self.driver.call::<()>(&*args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are quoted byte for byte, and the driver assigns constant keys.
    #[test]
    fn driver_source() {
        assert_eq!(quoted("a\"b\n"), r#""\097\034\098\010""#);
        assert_eq!(
            source(&[("speed", false), ("look", true)]),
            "local post, pose, ctx, v1 = ...\nreturn function(time, a0, a1, a2, a3)\n  \
             ctx.time = time\n  ctx[\"\\115\\112\\101\\101\\100\"] = a0\n  do local v = v1\n    \
             v[1], v[2], v[3] = a1, a2, a3\n    v.x, v.y, v.z = a1, a2, a3\n  end\n  \
             return post(pose, ctx)\nend\n"
        );
    }

    /// Odd parameter names reach `ctx` unchanged.
    #[test]
    fn odd_names_round_trip() {
        let lua = Lua::new();
        let seen = lua.create_table().expect("table");
        lua.globals().set("seen", &seen).expect("global");
        let post: Function = lua
            .load("return function(pose, ctx) for k, v in pairs(ctx) do seen[k] = v end end")
            .eval()
            .expect("post");
        let mut params = Params::default();
        let name = "quote\" back\\ nl\n é";
        params
            .declare(crate::anim::graph::ParamDef::float(name, 0.0, 0.0, 1.0))
            .expect("float param");
        let mut d = PostDriver::new(&lua, &post, &params).expect("driver");
        d.call(1.5, &[ParamValue::Float(0.25)]).expect("call");
        assert_eq!(seen.raw_get::<f64>(name).expect("field"), 0.25);
        assert_eq!(seen.raw_get::<f64>("time").expect("time"), 1.5);
    }
}
