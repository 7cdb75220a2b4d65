//! The tables `ctx` gives a vec3 parameter: the three numbers at `[1]`, `[2]`, `[3]`, and
//! `.x`, `.y`, `.z` naming the same slots through a metatable shared by all of them, so a
//! frame writes three numbers per vec3 instead of six (the named fields cost as much to write
//! as the numbers, and more in cache: three more keys touched every frame).
//!
//! Reading `.x` gives `[1]`; writing `.x` writes `[1]`, so the two stay one value. Any other
//! key reads and writes the table as usual.
//!
//! The metatable is protected (`__metatable = false`): `getmetatable` on a vec3 gives `false`
//! and `setmetatable` refuses it, so a script cannot reach the C functions below. They check
//! their first argument is a table all the same (a raw access on anything else would read
//! through a wild pointer): called with anything else they raise Lua's `bad argument` error.
//! The hostile fixtures `vec3_view_*.lua` and the test below hold this.

use std::ffi::c_int;

use mlua::{ffi, Lua, Table};

/// The slot a key names: 1, 2, 3 for `"x"`, `"y"`, `"z"`, else 0.
///
/// # Safety
/// `idx` is a valid index of `state`'s stack.
unsafe fn slot(state: *mut ffi::lua_State, idx: c_int) -> ffi::lua_Integer {
    if ffi::lua_type(state, idx) != ffi::LUA_TSTRING {
        return 0;
    }
    let mut len = 0;
    let p = ffi::lua_tolstring(state, idx, &mut len);
    match std::slice::from_raw_parts(p.cast::<u8>(), len) {
        b"x" => 1,
        b"y" => 2,
        b"z" => 3,
        _ => 0,
    }
}

/// `__index(t, k)`: `t[1..3]` for `x`, `y`, `z`, else nil (only keys `t` lacks get here).
///
/// # Safety
/// Called by Lua as a C function. Invariant: `t` is checked to be a table before the raw
/// read (`luaL_checktype` raises a Lua error otherwise, and this frame holds nothing to drop);
/// index 2 may be absent (`lua_type` reads it as `LUA_TNONE`).
unsafe extern "C-unwind" fn index(state: *mut ffi::lua_State) -> c_int {
    ffi::luaL_checktype(state, 1, ffi::LUA_TTABLE);
    match slot(state, 2) {
        0 => ffi::lua_pushnil(state),
        i => {
            ffi::lua_rawgeti(state, 1, i);
        }
    }
    1
}

/// `__newindex(t, k, v)`: `t[1..3] = v` for `x`, `y`, `z`, else `t[k] = v` (raw). A bad key
/// (nil, NaN) raises Lua's own error; nothing in this frame needs dropping.
///
/// # Safety
/// As [`index`]: `t` is checked to be a table before the raw write; `lua_settop(3)` pads
/// missing arguments with nil (a nil key raises Lua's own error) and drops extra ones.
unsafe extern "C-unwind" fn new_index(state: *mut ffi::lua_State) -> c_int {
    ffi::luaL_checktype(state, 1, ffi::LUA_TTABLE);
    let i = slot(state, 2);
    ffi::lua_settop(state, 3);
    if i == 0 {
        ffi::lua_rawset(state, 1);
    } else {
        ffi::lua_rawseti(state, 1, i);
    }
    0
}

/// The shared metatable of `lua` (made the first time, then kept in the registry).
pub(crate) fn metatable(lua: &Lua) -> mlua::Result<Table> {
    const KEY: &str = "marionette.vec3_view";
    if let Some(t) = lua.named_registry_value::<Option<Table>>(KEY)? {
        return Ok(t);
    }
    let t = lua.create_table()?;
    // SAFETY: both are C functions following Lua's calling convention that check the type of
    // every argument they read (see their docs).
    unsafe {
        t.raw_set("__index", lua.create_c_function(index)?)?;
        t.raw_set("__newindex", lua.create_c_function(new_index)?)?;
    }
    t.raw_set("__metatable", false)?;
    lua.set_named_registry_value(KEY, &t)?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `.x/.y/.z` read and write `[1..3]`; other keys are the table's own.
    #[test]
    fn names_are_the_slots() {
        let lua = Lua::new();
        let v = lua.create_table().expect("table");
        for i in 1..=3 {
            v.raw_set(i, i as f64 * 1.5).expect("slot");
        }
        v.set_metatable(Some(metatable(&lua).expect("metatable")))
            .expect("set");
        lua.globals().set("v", &v).expect("global");
        let got: (f64, f64, f64, Option<f64>) =
            lua.load("return v.x, v.y, v.z, v.w").eval().expect("reads");
        assert_eq!(got, (1.5, 3.0, 4.5, None));
        lua.load("v.y = 7; v.w = 8; v[3] = 9")
            .exec()
            .expect("writes");
        assert_eq!(v.raw_get::<f64>(2).expect("[2]"), 7.0);
        assert_eq!(v.raw_get::<f64>("w").expect("w"), 8.0);
        assert!(v.raw_get::<Option<f64>>("y").expect("y").is_none());
        let z: f64 = lua.load("return v.z").eval().expect("z");
        assert_eq!(z, 9.0);
        assert_eq!(
            metatable(&lua).expect("again").to_pointer(),
            v.metatable().expect("mt").to_pointer()
        );
        let e = lua.load("v[nil] = 1").exec().expect_err("nil key");
        assert!(e.to_string().contains("index is nil"), "{e}");
    }

    /// The metatable is hidden from scripts, and its functions, reached anyway (here through
    /// the host), refuse anything but a table as their first argument instead of crashing.
    #[test]
    fn functions_check_their_arguments() {
        let lua = Lua::new();
        let v = lua.create_table().expect("table");
        let mt = metatable(&lua).expect("metatable");
        v.set_metatable(Some(mt.clone())).expect("set");
        lua.globals().set("v", &v).expect("global");
        lua.globals().set("mt", &mt).expect("mt");
        let hidden: mlua::Value = lua.load("return getmetatable(v)").eval().expect("get");
        assert_eq!(hidden, mlua::Value::Boolean(false));
        let e = lua
            .load("setmetatable(v, nil)")
            .exec()
            .expect_err("protected");
        assert!(e.to_string().contains("protected metatable"), "{e}");
        for call in [
            "mt.__index()",
            "mt.__index(1, 'x')",
            "mt.__index('s', 'x')",
            "mt.__index(true, 'x')",
            "mt.__index(print, 'y')",
            "mt.__newindex()",
            "mt.__newindex(1, 'x', 2)",
            "mt.__newindex(nil, 'x', 2)",
            "mt.__newindex(coroutine.create(print), 'z', 2)",
        ] {
            let e = lua.load(call).exec().expect_err(call);
            assert!(e.to_string().contains("table expected"), "{call}: {e}");
        }
        lua.load("mt.__newindex(v, 'x', 5, 6, 7); assert(v[1] == 5 and mt.__index(v, 'x') == 5)")
            .exec()
            .expect("a table with extra arguments works");
    }
}
