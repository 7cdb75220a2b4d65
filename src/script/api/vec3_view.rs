//! The tables `ctx` gives a vec3 parameter: the three numbers at `[1]`, `[2]`, `[3]`, and
//! `.x`, `.y`, `.z` naming the same slots through a metatable shared by all of them, so a
//! frame writes three numbers per vec3 instead of six (the named fields cost as much to write
//! as the numbers, and more in cache: three more keys touched every frame).
//!
//! Reading `.x` gives `[1]`; writing `.x` writes `[1]`, so the two stay one value. Any other
//! key reads and writes the table as usual.

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
unsafe extern "C-unwind" fn index(state: *mut ffi::lua_State) -> c_int {
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
unsafe extern "C-unwind" fn new_index(state: *mut ffi::lua_State) -> c_int {
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
    // SAFETY: both are C functions following Lua's calling convention, reading only the
    // arguments Lua gives a metamethod (`t, k` and `t, k, v`).
    unsafe {
        t.raw_set("__index", lua.create_c_function(index)?)?;
        t.raw_set("__newindex", lua.create_c_function(new_index)?)?;
    }
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
}
