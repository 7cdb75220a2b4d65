//! The per-frame entry into a script's `post(pose, ctx)`: `ctx`, its vec3 tables and the pose
//! handle are made once; each frame one protected call from Rust runs a C function (the
//! driver) that writes `ctx.time` and every parameter's value into them and calls
//! `post(pose, ctx)`.
//!
//! The writes are raw and use key strings made once (kept in the driver's slot table), so a
//! frame creates no string and no table, converts no value to an mlua one and runs no Lua of
//! its own: the only Lua instructions a frame costs are `post`'s. A field the script changed
//! or removed is written again the next frame. A vec3 parameter's table gets `[1..3]`, which
//! `.x/.y/.z` name ([`super::api::vec3_view`]).

use std::cell::Cell;
use std::ffi::c_int;
use std::sync::Arc;

use mlua::{ffi, Function, Lua};

use super::api::post::{PoseHandle, SharedFrame};
use marionette_anim::graph::{ParamValue, Params};
use marionette_anim::Skeleton;

/// Where the driver's slot table keeps what a frame needs (Lua array indices).
mod slot {
    pub const POST: i64 = 1;
    pub const POSE: i64 = 2;
    pub const CTX: i64 = 3;
    /// The key `"time"`.
    pub const TIME: i64 = 4;
    /// Parameter `i`'s key string (a float or boolean) or its table (a vec3) is at `FIRST + i`.
    pub const FIRST: i64 = 5;
}

/// `ctx`, the pose handle and what fills `ctx` each frame, for one script. See the module docs.
pub(crate) struct PostDriver {
    /// The C closure [`drive`], with the slot table (`post`, the pose, `ctx`, the keys and vec3
    /// tables; see [`slot`]) and its [`Inputs`] as upvalues.
    driver: Function,
    /// The driver's inputs: a Lua userdata the driver holds, so it lives as long as `driver`.
    inputs: *const Inputs,
    /// Per parameter, in the graph's order: whether it is a vec3 (its slot holds a table).
    vec3: Vec<bool>,
    /// The frame the pose is handed over in for each call.
    frame: SharedFrame,
}

impl PostDriver {
    /// Makes `ctx` (strict: reading a field that is neither `time` nor a parameter is an error),
    /// the pose handle, the frame and the slots calling `post` for a graph with parameters
    /// `params` over `skeleton`.
    pub fn new(
        lua: &Lua,
        post: &Function,
        params: &Params,
        skeleton: &Arc<Skeleton>,
    ) -> mlua::Result<PostDriver> {
        let ctx = lua.create_table()?;
        let pose = lua.create_userdata(PoseHandle)?;
        let frame = crate::api::post_fast::install(lua, &pose, skeleton)?;
        let slots = lua.create_table()?;
        slots.raw_set(slot::POST, post)?;
        slots.raw_set(slot::POSE, &pose)?;
        slots.raw_set(slot::CTX, &ctx)?;
        slots.raw_set(slot::TIME, "time")?;
        let view = crate::api::vec3_view::metatable(lua)?;
        ctx.raw_set("time", 0.0)?;
        let mut vec3 = Vec::new();
        for (i, (def, v)) in params.defs().iter().zip(params.values()).enumerate() {
            let at = slot::FIRST + i as i64;
            let is_vec3 = matches!(v, ParamValue::Vec3(_));
            if is_vec3 {
                let t = lua.create_table_with_capacity(3, 0)?;
                t.set_metatable(Some(view.clone()))?;
                ctx.raw_set(def.name.as_str(), &t)?;
                slots.raw_set(at, t)?;
            } else {
                ctx.raw_set(def.name.as_str(), false)?;
                slots.raw_set(at, def.name.as_str())?;
            }
            vec3.push(is_vec3);
        }
        let mut names: Vec<String> = vec!["time".into()];
        names.extend(params.defs().iter().map(|d| d.name.clone()));
        let meta = crate::api::strict::strict_fields(lua, "ctx", names)?;
        ctx.set_metatable(Some(meta))?;
        let mut inputs: *const Inputs = std::ptr::null();
        // SAFETY: `exec_raw` runs the closure in a protected call with the slot table at index
        // 1. The userdata is sized and aligned for `Inputs` (Lua aligns userdata for any type)
        // and written before anything reads it; it needs no finaliser (`Inputs` has no drop).
        // Both become the closure's upvalues; a memory error is caught by the protected call.
        let driver: Function = unsafe {
            lua.exec_raw(&slots, |state| {
                let p = ffi::lua_newuserdatauv(state, std::mem::size_of::<Inputs>(), 0);
                let p = p.cast::<Inputs>();
                p.write(Inputs::default());
                inputs = p;
                ffi::lua_pushcclosure(state, drive, 2);
            })?
        };
        Ok(PostDriver {
            driver,
            inputs,
            vec3,
            frame,
        })
    }

    /// The frame `post`'s pose lives in during a call.
    pub fn frame(&self) -> &SharedFrame {
        &self.frame
    }

    /// Calls `post(pose, ctx)` with `ctx.time = time` and the parameters' current `values`
    /// (those the driver was made for, in order).
    pub fn call(&self, time: f64, values: &[ParamValue]) -> mlua::Result<()> {
        let matches = values.len() == self.vec3.len()
            && values
                .iter()
                .zip(&self.vec3)
                .all(|(v, &t)| matches!(v, ParamValue::Vec3(_)) == t);
        if !matches {
            return Err(mlua::Error::runtime(
                "internal: post was prepared for other parameters",
            ));
        }
        // SAFETY: `inputs` is the driver's userdata, alive while `self.driver` is.
        let inputs = unsafe { &*self.inputs };
        inputs.set(time, values);
        // (one protected call: mlua's, with its error handler)
        let r = self.driver.call::<()>(());
        inputs.set(0.0, &[]);
        r
    }
}

/// What a call hands [`drive`]: the time and the parameters' values, borrowed for the call
/// (outside a call: no values, a valid empty slice).
struct Inputs {
    time: Cell<f64>,
    values: Cell<*const ParamValue>,
    len: Cell<usize>,
}

impl Default for Inputs {
    fn default() -> Self {
        let none: &[ParamValue] = &[];
        Inputs {
            time: Cell::new(0.0),
            values: Cell::new(none.as_ptr()),
            len: Cell::new(0),
        }
    }
}

impl Inputs {
    fn set(&self, time: f64, values: &[ParamValue]) {
        self.time.set(time);
        self.values.set(values.as_ptr());
        self.len.set(values.len());
    }
}

/// The driver: `ctx` filled from its [`Inputs`] (upvalue 2), then `post(pose, ctx)`, with the
/// slot table (upvalue 1). Lua code cannot reach it (it is only held by [`PostDriver`]; the
/// sandbox has no `debug`), and its inputs are valid at any time anyway.
///
/// # Safety
/// Called by Lua as a C closure made in [`PostDriver::new`]. An error (from `post`) jumps over
/// this frame, which holds nothing to drop.
unsafe extern "C-unwind" fn drive(state: *mut ffi::lua_State) -> c_int {
    let inputs = &*ffi::lua_touserdata(state, ffi::lua_upvalueindex(2)).cast::<Inputs>();
    // (set by `PostDriver::call` for this call: the values it was checked against)
    let values = std::slice::from_raw_parts(inputs.values.get(), inputs.len.get());
    ffi::lua_settop(state, 0);
    ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
    fill_and_call(state, inputs.time.get(), values);
    0
}

/// Writes `ctx` from `time` and `values` and calls `post(pose, ctx)`, with nothing left on the
/// stack.
///
/// # Safety
/// In a C function called by Lua (so inside a protected call), the slot table at index 1 laid
/// out as [`slot`] says for `values`, and at least 6 free stack slots.
unsafe fn fill_and_call(state: *mut ffi::lua_State, time: f64, values: &[ParamValue]) {
    const SLOTS: c_int = 1;
    const CTX: c_int = 4;
    const VEC: c_int = 5;
    ffi::lua_rawgeti(state, SLOTS, slot::POST);
    ffi::lua_rawgeti(state, SLOTS, slot::POSE);
    ffi::lua_rawgeti(state, SLOTS, slot::CTX);
    ffi::lua_rawgeti(state, SLOTS, slot::TIME);
    ffi::lua_pushnumber(state, time);
    ffi::lua_rawset(state, CTX);
    for (i, v) in values.iter().enumerate() {
        let at = slot::FIRST + i as i64;
        ffi::lua_rawgeti(state, SLOTS, at);
        match v {
            ParamValue::Float(x) => {
                ffi::lua_pushnumber(state, f64::from(*x));
                ffi::lua_rawset(state, CTX);
            }
            ParamValue::Bool(b) | ParamValue::Trigger(b) => {
                ffi::lua_pushboolean(state, c_int::from(*b));
                ffi::lua_rawset(state, CTX);
            }
            ParamValue::Vec3(v) => {
                for (k, c) in v.to_array().into_iter().enumerate() {
                    ffi::lua_pushnumber(state, f64::from(c));
                    ffi::lua_rawseti(state, VEC, k as ffi::lua_Integer + 1);
                }
                ffi::lua_settop(state, CTX);
            }
        }
    }
    ffi::lua_call(state, 2, 0);
    ffi::lua_settop(state, 0);
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use mlua::Table;

    use super::*;
    use marionette_anim::graph::ParamDef;

    fn skeleton() -> Arc<Skeleton> {
        Arc::new(marionette_anim::mannequin::build().skeleton)
    }

    fn post_recording(lua: &Lua, body: &str) -> Function {
        lua.load(format!("return function(pose, ctx) {body} end"))
            .eval()
            .expect("post")
    }

    /// Odd parameter names reach `ctx` unchanged.
    #[test]
    fn odd_names_round_trip() {
        let lua = Lua::new();
        let seen = lua.create_table().expect("table");
        lua.globals().set("seen", &seen).expect("global");
        let post = post_recording(&lua, "for k, v in pairs(ctx) do seen[k] = v end");
        let mut params = Params::default();
        let name = "quote\" back\\ nl\n é";
        params
            .declare(ParamDef::float(name, 0.0, 0.0, 1.0))
            .expect("float param");
        let d = PostDriver::new(&lua, &post, &params, &skeleton()).expect("driver");
        d.call(1.5, &[ParamValue::Float(0.25)]).expect("call");
        assert_eq!(seen.raw_get::<f64>(name).expect("field"), 0.25);
        assert_eq!(seen.raw_get::<f64>("time").expect("time"), 1.5);
    }

    /// Every kind of parameter is written each frame, over anything `post` did to `ctx` the
    /// frame before (a changed field, a removed one, a scribbled vec3 table), and a vec3's
    /// table is the same one every frame.
    #[test]
    fn every_frame_writes_every_field() {
        let lua = Lua::new();
        let seen = lua.create_table().expect("table");
        lua.globals().set("seen", &seen).expect("global");
        let post = post_recording(
            &lua,
            "seen[#seen + 1] = { ctx.time, ctx.speed, ctx.on, ctx.go, ctx.look[1], ctx.look.y, \
             ctx.look[3], ctx.look }
             ctx.speed = 99; ctx.on = nil; ctx.look[1] = 'x'; ctx.look.y = nil",
        );
        let mut params = Params::default();
        params
            .declare(ParamDef::float("speed", 0.0, 0.0, 9.0))
            .expect("float");
        params
            .declare(ParamDef::boolean("on", false))
            .expect("bool");
        params.declare(ParamDef::trigger("go")).expect("trigger");
        params
            .declare(ParamDef::vec3("look", Vec3::ZERO))
            .expect("vec3");
        let d = PostDriver::new(&lua, &post, &params, &skeleton()).expect("driver");
        for (t, s) in [(0.5, 1.0f32), (1.0, 2.0)] {
            let values = [
                ParamValue::Float(s),
                ParamValue::Bool(true),
                ParamValue::Trigger(s > 1.5),
                ParamValue::Vec3(Vec3::new(s, 2.0 * s, 3.0 * s)),
            ];
            d.call(t, &values).expect("call");
        }
        let frames: Vec<Table> = seen
            .sequence_values()
            .collect::<Result<_, _>>()
            .expect("frames");
        assert_eq!(frames.len(), 2);
        for (f, (t, s)) in frames.iter().zip([(0.5, 1.0), (1.0, 2.0)]) {
            assert_eq!(f.raw_get::<f64>(1).expect("time"), t);
            assert_eq!(f.raw_get::<f64>(2).expect("speed"), s);
            assert!(f.raw_get::<bool>(3).expect("on"));
            assert_eq!(f.raw_get::<bool>(4).expect("go"), s > 1.5);
            for (i, k) in [5, 6, 7].into_iter().enumerate() {
                assert_eq!(f.raw_get::<f64>(k).expect("look"), (i as f64 + 1.0) * s);
            }
        }
        let (a, b): (Table, Table) = (
            frames[0].raw_get(8).expect("look"),
            frames[1].raw_get(8).expect("look"),
        );
        assert_eq!(a.to_pointer(), b.to_pointer());
    }

    /// Values that do not match the parameters the driver was made for are refused, not
    /// written.
    #[test]
    fn other_parameters_are_refused() {
        let lua = Lua::new();
        let post = post_recording(&lua, "");
        let mut params = Params::default();
        params
            .declare(ParamDef::vec3("look", Vec3::ZERO))
            .expect("vec3");
        let d = PostDriver::new(&lua, &post, &params, &skeleton()).expect("driver");
        for values in [&[][..], &[ParamValue::Float(1.0)][..]] {
            let e = d.call(0.0, values).expect_err("refused");
            assert!(e.to_string().contains("other parameters"), "{e}");
        }
    }

    /// An error in `post` comes back with its message and location.
    #[test]
    fn post_errors_come_back() {
        let lua = Lua::new();
        let post = post_recording(&lua, "error('boom')");
        let d = PostDriver::new(&lua, &post, &Params::default(), &skeleton()).expect("driver");
        let e = d.call(0.0, &[]).expect_err("post fails");
        assert!(e.to_string().contains("boom"), "{e}");
    }
}
