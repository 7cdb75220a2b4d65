//! Reading a `pose:` method's `{x, y, z}` and options: in one pass over the Lua stack when they
//! are the usual ones ([`read_stack`], the fast path's, [`super::post_fast`]), else as mlua
//! values with the checks and messages of `ik.*` ([`target_and_opts`]).

use std::ffi::c_int;

use glam::Vec3;
use mlua::{ffi, Table, Value};

use super::{params::vec3_arg, strict::check_opts};

/// One call's options read in a single pass over the table, without creating key strings:
/// the value of each of `allowed` (nil when absent). Keys are matched raw (no `__index`); an
/// unknown key defers to [`check_opts`] for its error message.
fn read_opts<const N: usize>(
    opts: &Option<Table>,
    what: &str,
    allowed: &[&str; N],
) -> mlua::Result<[Value; N]> {
    let mut out: [Value; N] = std::array::from_fn(|_| Value::Nil);
    if let Some(t) = opts {
        let mut unknown = false;
        t.for_each(|k: Value, v: Value| {
            let slot = match &k {
                Value::String(s) => {
                    let key = s.as_bytes();
                    allowed.iter().position(|a| a.as_bytes() == &*key)
                }
                _ => None,
            };
            match slot {
                Some(i) => out[i] = v,
                None => unknown = true,
            }
            Ok(())
        })?;
        if unknown {
            check_opts(opts, what, allowed)?;
        }
    }
    Ok(out)
}

/// A call's target (`{x, y, z}`) and options, as [`vec3_arg`] and [`read_opts`] read them:
/// the general path, which gives the error messages (the usual calls are read straight off
/// the stack by [`super::post_fast`] instead).
pub(super) fn target_and_opts<const N: usize>(
    target: &Value,
    target_what: &str,
    opts: &Option<Table>,
    what: &str,
    allowed: &[&str; N],
) -> mlua::Result<(Vec3, [Value; N])> {
    let opts = read_opts(opts, what, allowed)?;
    Ok((vec3_arg(target, target_what)?, opts))
}

/// A target's three numbers and each allowed option's number (`None`: absent).
pub(super) type Plain<const N: usize> = ([f64; 3], [Option<f64>; N]);

/// Reads `target` and `opts`, given as stack indices (`opts` may be absent or nil), straight off
/// the Lua stack when `target` is a table holding numbers at 1, 2 and 3, without a metatable
/// or with the one at `view` (`ctx`'s vec3s: [`super::vec3_view`], whose names are those slots),
/// and `opts` is absent or a table whose keys are all among `allowed` with number values: the
/// three numbers and each option's number. `None` otherwise (nothing is an error here). No Lua
/// value is converted, so no reference or string is created. Leaves up to five values pushed
/// on the stack: the caller restores its top.
///
/// # Safety
/// `state` is a Lua state with both indices valid (`opts` given only when it was passed: the
/// caller may have pushed values past the arguments) and at least five free
/// slots. Nothing here can raise a Lua error: no metamethod runs (`rawgeti`, `next`),
/// nothing is allocated (`tolstring` is only called on strings, `tonumberx` only on numbers),
/// and `next` is only given keys it returned from a table nobody modifies. A key's bytes are
/// read while the key is on the stack.
pub(super) unsafe fn read_stack<const N: usize>(
    state: *mut ffi::lua_State,
    target: c_int,
    opts: Option<c_int>,
    allowed: &[&str; N],
    view: c_int,
) -> Option<Plain<N>> {
    let opts_type = opts.map_or(ffi::LUA_TNONE, |i| ffi::lua_type(state, i));
    if ffi::lua_type(state, target) != ffi::LUA_TTABLE
        || (ffi::lua_getmetatable(state, target) != 0 && ffi::lua_rawequal(state, -1, view) == 0)
    {
        return None;
    }
    let mut xyz = [0.0f64; 3];
    for (i, out) in xyz.iter_mut().enumerate() {
        if ffi::lua_rawgeti(state, target, i as ffi::lua_Integer + 1) != ffi::LUA_TNUMBER {
            return None;
        }
        *out = ffi::lua_tonumberx(state, -1, std::ptr::null_mut());
    }
    let mut found = [None; N];
    match opts_type {
        ffi::LUA_TNONE | ffi::LUA_TNIL => return Some((xyz, found)),
        ffi::LUA_TTABLE => {}
        _ => return None,
    }
    let opts = opts?;
    ffi::lua_pushnil(state);
    while ffi::lua_next(state, opts) != 0 {
        if ffi::lua_type(state, -1) != ffi::LUA_TNUMBER
            || ffi::lua_type(state, -2) != ffi::LUA_TSTRING
        {
            return None;
        }
        let mut len = 0;
        let p = ffi::lua_tolstring(state, -2, &mut len);
        let key = std::slice::from_raw_parts(p as *const u8, len);
        let i = allowed.iter().position(|a| a.as_bytes() == key)?;
        found[i] = Some(ffi::lua_tonumberx(state, -1, std::ptr::null_mut()));
        ffi::lua_settop(state, -2);
    }
    Some((xyz, found))
}
