//! The fast path of the `pose:` methods that take a joint, an `{x, y, z}` and options
//! (`look_at`, `rotate`, `translate`, `set_translation`): a plain C function per method that
//! reads the usual arguments — a joint name, a plain table of three numbers, options that are
//! all known and numeric — straight off the Lua stack and runs the method's body
//! ([`post::Method`]) on the frame. It converts no Lua value into an mlua one and makes no
//! protected call, which is most of a method call's cost through mlua.
//!
//! Anything else — another type, an unknown option, a value the body refuses, a call outside
//! `post` — goes to the mlua method itself with the same arguments, so every error message,
//! and every check, stays the method's own: the fast path only ever does what the method would
//! have done.

use std::cell::RefCell;
use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::Arc;

use glam::Vec3;
use mlua::{ffi, AnyUserData, Function, Lua, Table, Value};

use super::post::{self, Method, PostFrame, SharedFrame};
use super::post_args::read_stack;
use super::strict::number;
use marionette_anim::Skeleton;

/// A method with a fast path (a type per method, so each gets its own C function).
trait Fast<const N: usize> {
    const M: &'static Method<N>;
}

struct LookAt;
impl Fast<4> for LookAt {
    const M: &'static Method<4> = &post::LOOK_AT;
}

struct Rotate;
impl Fast<2> for Rotate {
    const M: &'static Method<2> = &post::ROTATE;
}

struct Translate;
impl Fast<2> for Translate {
    const M: &'static Method<2> = &post::TRANSLATE;
}

struct SetTranslation;
impl Fast<2> for SetTranslation {
    const M: &'static Method<2> = &post::SET_TRANSLATION;
}

/// The frame the `pose:` methods of `lua` work on, for `skeleton`: made and put in the state's
/// app data the first time, with the fast paths in front of the methods of `pose`'s type (the
/// methods table is the type's); the same frame afterwards.
///
/// The frame is set in the app data here only, once per state, and app data outlives every
/// call into the state (mlua drops it after `lua_close`), so the address the fast paths hold
/// stays valid for as long as they can run.
pub(crate) fn install(
    lua: &Lua,
    pose: &AnyUserData,
    skeleton: &Arc<Skeleton>,
) -> mlua::Result<SharedFrame> {
    if let Some(frame) = lua.app_data_ref::<SharedFrame>() {
        return Ok(frame.clone());
    }
    let frame = SharedFrame::new(skeleton);
    let at = Rc::as_ptr(&frame.0);
    let view = super::vec3_view::metatable(lua)?;
    let methods: Table = pose.metatable()?.get("__index")?;
    let up = (pose, at, &view);
    wrap::<4, LookAt>(lua, &methods, up)?;
    wrap::<2, Rotate>(lua, &methods, up)?;
    wrap::<2, Translate>(lua, &methods, up)?;
    wrap::<2, SetTranslation>(lua, &methods, up)?;
    lua.set_app_data(frame.clone());
    Ok(frame)
}

/// Replaces the method `M` names by `fast::<N, M>` with upvalues: the method, `pose`'s metatable,
/// `frame`'s address and the vec3 view's metatable.
fn wrap<const N: usize, M: Fast<N>>(
    lua: &Lua,
    methods: &Table,
    (pose, frame, view): (&AnyUserData, *const RefCell<PostFrame>, &Table),
) -> mlua::Result<()> {
    let name = M::M.name;
    let method: Function = methods.raw_get(name)?;
    // SAFETY: `exec_raw` runs the closure in a protected call with the method at stack index 1,
    // the pose at 2 and the view at 3: the pose is replaced by its metatable (a userdata made
    // by mlua has one), the frame's address is put before the view, then the four become the
    // closure's upvalues. `lua_pushcclosure` may only raise a memory error, which the
    // protected call catches.
    let fast: Function = unsafe {
        lua.exec_raw((method, pose, view), |state| {
            ffi::lua_getmetatable(state, 2);
            ffi::lua_replace(state, 2);
            ffi::lua_pushlightuserdata(state, frame.cast_mut().cast());
            ffi::lua_insert(state, 3);
            ffi::lua_pushcclosure(state, fast::<N, M>, 4);
        })?
    };
    methods.raw_set(name, fast)
}

/// The method as Lua calls it: the fast path, else the method itself (upvalue 1).
unsafe extern "C-unwind" fn fast<const N: usize, M: Fast<N>>(state: *mut ffi::lua_State) -> c_int {
    // (a panic — none is expected — leaves it to the method, which reports it)
    let done = catch_unwind(AssertUnwindSafe(|| try_fast::<N, M>(state))).unwrap_or(false);
    if done {
        return 0;
    }
    // SAFETY: the method and the arguments as given; the method raises any error, whose jump
    // passes over this frame: nothing in it needs dropping.
    let n = ffi::lua_gettop(state);
    ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
    ffi::lua_insert(state, 1);
    ffi::lua_call(state, n, ffi::LUA_MULTRET);
    ffi::lua_gettop(state)
}

/// Runs the method's body when its arguments are the usual ones: `self` a pose handle (its
/// metatable is upvalue 2), a joint name, a plain `{x, y, z}`, options absent or plain. False
/// (and nothing done) otherwise, and when the body refuses them. Leaves the stack as it was.
///
/// # Safety
/// Called by Lua as the C function [`fast`] (its upvalues set by [`wrap`]): the stack holds
/// the call's arguments, with LUA_MINSTACK free slots. Raises no Lua error (see
/// [`read_stack`]; `lua_getmetatable`, `lua_rawequal` and `lua_tolstring` on a string cannot).
unsafe fn try_fast<const N: usize, M: Fast<N>>(state: *mut ffi::lua_State) -> bool {
    let top = ffi::lua_gettop(state);
    let done = (3..=4).contains(&top) && read_and_run::<N, M>(state, top == 4);
    ffi::lua_settop(state, top);
    done
}

/// [`try_fast`]'s work, pushing what it reads.
///
/// # Safety
/// As [`try_fast`], with 3 arguments, or 4 when `opts`.
unsafe fn read_and_run<const N: usize, M: Fast<N>>(state: *mut ffi::lua_State, opts: bool) -> bool {
    if ffi::lua_getmetatable(state, 1) == 0
        || ffi::lua_rawequal(state, -1, ffi::lua_upvalueindex(2)) == 0
        || ffi::lua_type(state, 2) != ffi::LUA_TSTRING
    {
        return false;
    }
    let mut len = 0;
    let p = ffi::lua_tolstring(state, 2, &mut len);
    // (the name's bytes stay on the stack for the whole call)
    let Ok(joint) = std::str::from_utf8(std::slice::from_raw_parts(p.cast::<u8>(), len)) else {
        return false;
    };
    let view = ffi::lua_upvalueindex(4);
    let Some((xyz, found)) = read_stack(state, 3, opts.then_some(4), M::M.opts, view) else {
        return false;
    };
    let mut v = [0.0f32; 3];
    for (out, n) in v.iter_mut().zip(xyz) {
        match number(&Value::Number(n), M::M.target) {
            Ok(x) => *out = x,
            Err(_) => return false,
        }
    }
    let opts = found.map(|n| n.map_or(Value::Nil, Value::Number));
    // SAFETY: upvalue 3 is the frame's address, valid while the state lives (see `install`).
    let frame = &*ffi::lua_touserdata(state, ffi::lua_upvalueindex(3)).cast::<RefCell<PostFrame>>();
    let Ok(mut frame) = frame.try_borrow_mut() else {
        return false;
    };
    // (no pose outside a call of `post`: the method says so)
    if frame.pose.len() != frame.skeleton.len() {
        return false;
    }
    let done = (M::M.body)(&mut frame, joint, Vec3::from_array(v), opts).is_ok();
    #[cfg(test)]
    if done {
        tests::FAST.with(|n| n.set(n.get() + 1));
    }
    done
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use mlua::Lua;

    use super::*;
    use crate::driver::PostDriver;
    use marionette_anim::graph::Params;
    use marionette_anim::Transform;

    thread_local! {
        /// Calls the fast path completed on this thread.
        pub(super) static FAST: Cell<usize> = const { Cell::new(0) };
    }

    /// Runs `post` once on the mannequin's rest pose: the pose after it, how many calls took
    /// the fast path, and the error if any.
    fn run(post: &str) -> (Vec<Transform>, usize, Option<String>) {
        run_with(post, &Params::default())
    }

    /// [`run`] with parameters (at their defaults) in `ctx`.
    fn run_with(post: &str, params: &Params) -> (Vec<Transform>, usize, Option<String>) {
        let skeleton = Arc::new(marionette_anim::mannequin::build().skeleton);
        let lua = Lua::new();
        let post: Function = lua.load(post).eval().expect("post");
        let driver = PostDriver::new(&lua, &post, params, &skeleton).expect("driver");
        let frame = driver.frame().clone();
        frame.0.borrow_mut().pose = skeleton.rest_pose().to_vec();
        FAST.with(|n| n.set(0));
        let error = driver
            .call(0.0, params.values())
            .err()
            .map(|e| e.to_string());
        let pose = frame.0.borrow().pose.clone();
        (pose, FAST.with(Cell::get), error)
    }

    /// The usual arguments take the fast path; the same calls written another way (a target
    /// with `x, y, z` fields or a metatable, an option given though it is the default) take
    /// the method; both give the same pose.
    #[test]
    fn plain_calls_take_the_fast_path_with_the_methods_result() {
        let fast = "return function(pose, ctx)
            pose:look_at('head', {0.3, 1.2, 2}, { weight = 0.5, limit = 45 })
            pose:rotate('spine_02', {10, 20, 30}, { weight = 1 })
            pose:translate('pelvis', {0.1, 0, 0})
            pose:set_translation('L_hand', {0.3, 1.2, 0.5}, { weight = 0.25 })
        end";
        let general = "return function(pose, ctx)
            pose:look_at('head', { x = 0.3, y = 1.2, z = 2 }, { weight = 0.5, limit = 45 })
            pose:rotate('spine_02', {10, 20, 30}, { weight = 1, space = 'local' })
            pose:translate('pelvis', { x = 0.1, y = 0, z = 0 })
            pose:set_translation('L_hand', setmetatable({0.3, 1.2, 0.5}, {}), { weight = 0.25 })
        end";
        let (a, fast_calls, e) = run(fast);
        assert_eq!((fast_calls, e), (4, None));
        let (b, fast_calls, e) = run(general);
        assert_eq!((fast_calls, e.as_deref()), (0, None));
        assert_eq!(a, b);
        assert_ne!(a, marionette_anim::mannequin::build().skeleton.rest_pose());
    }

    /// A vec3 parameter from `ctx` (a table with the vec3 view's metatable) takes the fast
    /// path, with the same result as its numbers written out.
    #[test]
    fn ctx_vec3_takes_the_fast_path() {
        let mut params = Params::default();
        let look = glam::Vec3::new(0.3, 1.2, 2.0);
        params
            .declare(marionette_anim::graph::ParamDef::vec3("look", look))
            .expect("vec3");
        let (a, fast_calls, e) = run_with(
            "return function(pose, ctx) pose:look_at('head', ctx.look, { weight = 0.5 }) end",
            &params,
        );
        assert_eq!((fast_calls, e), (1, None));
        let (b, _, e) = run("return function(pose, ctx)
            pose:look_at('head', {0.3, 1.2, 2}, { weight = 0.5 })
        end");
        assert_eq!(e, None);
        assert_eq!(a, b);
    }

    /// What the fast path cannot take, or the body refuses, ends in the method's own error.
    #[test]
    fn refused_calls_give_the_methods_errors() {
        for (call, message) in [
            ("pose:look_at('hed', {0, 1, 2})", "unknown joint 'hed'"),
            (
                "pose:look_at('head', {0, 1, 2}, { limit = 200 })",
                "limit 200 must be 0..180",
            ),
            (
                "pose:translate('pelvis', {0, 1, 0}, { wieght = 1 })",
                "unknown option 'wieght'",
            ),
            (
                "pose:translate('pelvis', {0, 1/0, 0})",
                "expected a finite number",
            ),
            ("pose.translate('pelvis', {0, 1, 0})", "bad argument `self`"),
        ] {
            let (_, fast_calls, e) = run(&format!("return function(pose, ctx) {call} end"));
            let e = e.unwrap_or_default();
            assert_eq!(fast_calls, 0, "{call}");
            assert!(e.contains(message), "{call}: {e}");
        }
    }
}
