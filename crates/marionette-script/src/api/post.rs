//! `post(pose, ctx)`: procedural overrides on the blended local pose, run in Rust.
//!
//! ```lua
//! post = function(pose, ctx)
//!   pose:look_at("head", ctx.look, { weight = 0.7, limit = 60 })       -- degrees
//!   pose:two_bone_ik("L_hand", { 0.4, 1.2, 0.3 }, { pole = { 0.4, 1.0, -1 } })
//!   pose:rotate("spine_02", { 0, 10 * math.sin(ctx.time), 0 })          -- degrees, local
//!   pose:translate("pelvis", { 0, -0.05, 0 }, { space = "model", weight = 0.5 })
//! end
//! ```
//!
//! The options and their meaning are `ik.*`'s and `adjust.*`'s ([`super::ik`]): the same keys
//! (unknown ones are errors), a required `pole` (a model-space point) for two-bone IK, the same
//! chain check. Joint names are looked up in a table built once, without allocating per call.
//!
//! The pose handle wraps nothing: during the call the pose lives in the state's [`PostFrame`].
//! Arguments are read by [`super::post_args`]; the usual calls take [`super::post_fast`].

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use glam::{EulerRot, Quat, Vec3};
use mlua::{Lua, Table, UserData, UserDataMethods, Value};

use super::{
    err,
    ik::{axis_value, space_value, ADJUST_OPTS, LOOK_AT_OPTS, NEEDS_POLE, TWO_BONE_OPTS},
    params::vec3_arg,
    post_args::target_and_opts,
    strict::{check_chain, number},
};
use marionette_anim::graph::{Params, PostOp, Value as GValue, Vec3Value};
use marionette_anim::ik::{model_transform, LookAt, Space};
use marionette_anim::{JointIndex, Skeleton, Transform};

/// The pose being post-processed and what the ops need to read.
pub(crate) struct PostFrame {
    /// The local pose, parent-first.
    pub pose: Vec<Transform>,
    /// The pose's morph weights (the skeleton's morph targets, in order).
    pub morphs: Vec<f32>,
    /// The skeleton (the graph's own: its parents are in cache after an evaluation).
    pub skeleton: Arc<Skeleton>,
    /// Joint indices by name (built once per script; a fast hash, as it is looked up per call).
    pub joints: rustc_hash::FxHashMap<String, JointIndex>,
    /// Empty parameter set (weights passed to ops are constants).
    pub params: Params,
    /// Per joint: why it cannot end a two-bone chain, or `None` when it can (checked once).
    pub chains: Vec<Option<String>>,
    /// The last joints looked up, by name: a script names the same few joints every frame,
    /// and this keeps them next to the frame instead of across the map's memory.
    recent: [Recent; 4],
    /// The entry of `recent` the next miss replaces.
    next: usize,
}

/// A joint looked up recently: its name's bytes (names up to [`Recent::MAX`] bytes) and index.
#[derive(Clone, Copy)]
struct Recent {
    /// The name's length; [`Recent::EMPTY`] for an unused entry (no name has it).
    len: u8,
    name: [u8; Recent::MAX],
    joint: JointIndex,
}

impl Recent {
    const MAX: usize = 29;
    const EMPTY: Recent = Recent {
        len: u8::MAX,
        name: [0; Recent::MAX],
        joint: 0,
    };
}

impl PostFrame {
    /// A frame for `skeleton`.
    pub fn new(skeleton: &Arc<Skeleton>) -> Self {
        // (`as JointIndex` is exact: a skeleton has at most JointIndex::MAX joints)
        let joints = skeleton
            .names()
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as JointIndex))
            .collect();
        let chains = (0..skeleton.len())
            .map(|j| check_chain(skeleton, j as JointIndex).err())
            .collect();
        PostFrame {
            pose: Vec::new(),
            morphs: Vec::new(),
            skeleton: skeleton.clone(),
            joints,
            params: Params::default(),
            chains,
            recent: [Recent::EMPTY; 4],
            next: 0,
        }
    }

    /// The joint named `name`, looked up without allocating.
    fn joint(&mut self, name: &str) -> mlua::Result<JointIndex> {
        let bytes = name.as_bytes();
        if let Some(r) = self
            .recent
            .iter()
            .find(|r| usize::from(r.len) == bytes.len() && &r.name[..bytes.len()] == bytes)
        {
            return Ok(r.joint);
        }
        let Some(&joint) = self.joints.get(name) else {
            let hint = super::strict::unknown_hint(
                name,
                self.skeleton.names().iter().map(String::as_str),
                "the rig",
            );
            return Err(err(format!("unknown joint '{name}'{hint}")));
        };
        if bytes.len() <= Recent::MAX {
            let r = &mut self.recent[self.next];
            r.len = bytes.len() as u8;
            r.name[..bytes.len()].copy_from_slice(bytes);
            r.joint = joint;
            self.next = (self.next + 1) % self.recent.len();
        }
        Ok(joint)
    }

    fn apply(&mut self, op: PostOp) {
        op.apply(
            self.skeleton.parents(),
            &mut self.pose,
            &mut self.morphs,
            &self.params,
        );
    }

    /// The weights a morph name stands for (see [`marionette_anim::Morphs::find`]), or the
    /// error naming the closest names. Reading (`read`) takes a target, not a whole mesh.
    fn morph(&self, what: &str, name: &str, read: bool) -> mlua::Result<Vec<usize>> {
        let morphs = self.skeleton.morphs();
        let found = if read {
            morphs.find_target(name)
        } else {
            morphs.find(name)
        };
        if found.is_empty() {
            if let Some(set) = morphs.sets().iter().find(|s| s.name == name) {
                return Err(err(format!(
                    "{what}: '{name}' is a mesh: read one of its targets ('{name}.{}', ...)",
                    set.targets.first().map_or("", String::as_str)
                )));
            }
            let skeleton = &self.skeleton;
            return Err(err(super::strict::unknown_morph(what, name, skeleton)));
        }
        Ok(found)
    }
}

/// The frame of a state running `post`. The state keeps it as app data, set once for its
/// whole life ([`super::post_fast::install`]: the fast path holds its address); the driver
/// holds it too, to hand the pose over for each call.
#[derive(Clone)]
pub(crate) struct SharedFrame(pub Rc<RefCell<PostFrame>>);

impl SharedFrame {
    /// A frame for `skeleton`; only [`super::post_fast::install`] makes one.
    pub(super) fn new(skeleton: &Arc<Skeleton>) -> SharedFrame {
        SharedFrame(Rc::new(RefCell::new(PostFrame::new(skeleton))))
    }
}

/// The `pose` argument of `post`.
pub(crate) struct PoseHandle;

fn f32_or(v: &Value, key: &str, default: f32) -> mlua::Result<f32> {
    match v {
        Value::Nil => Ok(default),
        v => number(v, key),
    }
}

fn weight(v: &Value) -> mlua::Result<GValue> {
    let w = f32_or(v, "weight", 1.0)?;
    if !(0.0..=1.0).contains(&w) {
        return Err(err(format!("weight {w} is outside [0, 1]")));
    }
    Ok(GValue::Const(w))
}

fn with_frame<R>(lua: &Lua, f: impl FnOnce(&mut PostFrame) -> mlua::Result<R>) -> mlua::Result<R> {
    let outside = || err("the pose can only be changed inside post(pose, ctx)");
    let shared = lua.app_data_ref::<SharedFrame>().ok_or_else(outside)?;
    let mut frame = shared.0.try_borrow_mut().map_err(|_| outside())?;
    // Between calls of `post` the pose is handed back and the frame holds none: a handle kept
    // from `post` and used elsewhere (in a predicate) has no pose to read or change.
    if frame.pose.len() != frame.skeleton.len() {
        return Err(outside());
    }
    f(&mut frame)
}

/// What a `pose:` method taking a joint, an `{x, y, z}` and options does once they are read:
/// checks the options (in `allowed` order), finds the joint and applies its op. Shared by the
/// method and its fast path ([`super::post_fast`]).
pub(super) type Body<const N: usize> =
    fn(&mut PostFrame, &str, Vec3, [Value; N]) -> mlua::Result<()>;

/// A `pose:` method taking a joint, an `{x, y, z}` and options, as both its mlua method and
/// its fast path ([`super::post_fast`]) run it: one description, so the two cannot differ.
pub(super) struct Method<const N: usize> {
    /// The method's name in Lua.
    pub name: &'static str,
    /// Who the option errors name (`pose:look_at`).
    pub what: &'static str,
    /// The call with its arguments' names, for a wrong argument count
    /// (`pose:look_at(joint, target, opts)`).
    pub call: &'static str,
    /// What the number errors call the `{x, y, z}`.
    pub target: &'static str,
    /// The options, in the order `body` takes them.
    pub opts: &'static [&'static str; N],
    /// What it does once the arguments are read.
    pub body: Body<N>,
}

pub(super) const LOOK_AT: Method<4> = Method {
    name: "look_at",
    what: "pose:look_at",
    call: "pose:look_at(joint, target, opts)",
    target: "look_at target",
    opts: &LOOK_AT_OPTS,
    body: look_at,
};

pub(super) const ROTATE: Method<2> = Method {
    name: "rotate",
    what: "pose:rotate",
    call: "pose:rotate(joint, degrees, opts)",
    target: "rotate {x, y, z} degrees",
    opts: &ADJUST_OPTS,
    body: rotate,
};

pub(super) const TRANSLATE: Method<2> = Method {
    name: "translate",
    what: "pose:translate",
    call: "pose:translate(joint, offset, opts)",
    target: "translate offset",
    opts: &ADJUST_OPTS,
    body: translate,
};

pub(super) const SET_TRANSLATION: Method<2> = Method {
    name: "set_translation",
    what: "pose:set_translation",
    call: "pose:set_translation(joint, position, opts)",
    target: "set_translation",
    opts: &ADJUST_OPTS,
    body: set_translation,
};

/// Registers `m`'s general path: its arguments read and checked as mlua values (every error
/// message comes from here), then its body on the frame.
fn add_method<const N: usize, M: UserDataMethods<PoseHandle>>(
    methods: &mut M,
    m: &'static Method<N>,
) {
    super::method(
        methods,
        m.name,
        m.call,
        3,
        move |lua,
              _: &PoseHandle,
              (joint, target, opts): (mlua::LuaString, Value, Option<Table>)| {
            let (v, opts) = target_and_opts(&target, m.target, &opts, m.what, m.opts)?;
            let joint = joint.to_str()?;
            with_frame(lua, |f| (m.body)(f, &joint, v, opts))
        },
    );
}

/// `pose:look_at`'s body (options: [`LOOK_AT_OPTS`]).
fn look_at(
    f: &mut PostFrame,
    joint: &str,
    target: Vec3,
    [w, limit, aim, up]: [Value; 4],
) -> mlua::Result<()> {
    let limit = f32_or(&limit, "limit", 180.0)?;
    if !(0.0..=180.0).contains(&limit) {
        return Err(err(format!(
            "look_at: limit {limit} must be 0..180 degrees"
        )));
    }
    let settings = LookAt {
        aim_axis: axis_value(aim, "axis", Vec3::Z)?,
        up_axis: axis_value(up, "up", Vec3::Y)?,
        limit: limit.to_radians(),
        ..LookAt::default()
    };
    let weight = weight(&w)?;
    let joint = f.joint(joint)?;
    f.apply(PostOp::LookAt {
        joint,
        target: Vec3Value::Const(target),
        settings,
        weight,
    });
    Ok(())
}

/// `pose:rotate`'s body (options: [`ADJUST_OPTS`]); `degrees` about x, y, z.
fn rotate(f: &mut PostFrame, joint: &str, d: Vec3, opts: [Value; 2]) -> mlua::Result<()> {
    let (x, y, z) = (d.x.to_radians(), d.y.to_radians(), d.z.to_radians());
    let rotation = Quat::from_euler(EulerRot::XYZ, x, y, z);
    adjust(f, joint, opts, |joint, space, weight| PostOp::AddRotation {
        joint,
        rotation,
        space,
        weight,
    })
}

/// `pose:translate`'s body (options: [`ADJUST_OPTS`]).
fn translate(f: &mut PostFrame, joint: &str, offset: Vec3, opts: [Value; 2]) -> mlua::Result<()> {
    adjust(f, joint, opts, |joint, space, weight| {
        PostOp::AddTranslation {
            joint,
            offset,
            space,
            weight,
        }
    })
}

/// `pose:set_translation`'s body (options: [`ADJUST_OPTS`]).
fn set_translation(
    f: &mut PostFrame,
    joint: &str,
    translation: Vec3,
    opts: [Value; 2],
) -> mlua::Result<()> {
    adjust(f, joint, opts, |joint, space, weight| {
        PostOp::SetTranslation {
            joint,
            translation,
            space,
            weight,
        }
    })
}

/// The `adjust.*`-like bodies' common part: the options, the joint, then the op `make` builds.
fn adjust(
    f: &mut PostFrame,
    joint: &str,
    [w, sp]: [Value; 2],
    make: impl FnOnce(JointIndex, Space, GValue) -> PostOp,
) -> mlua::Result<()> {
    let (space, weight) = (space_value(sp)?, weight(&w)?);
    let joint = f.joint(joint)?;
    f.apply(make(joint, space, weight));
    Ok(())
}

impl UserData for PoseHandle {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        add_method(methods, &LOOK_AT);
        super::method(
            methods,
            "two_bone_ik",
            "pose:two_bone_ik(tip, target, opts)",
            3,
            |lua, _: &Self, (tip, target, opts): (mlua::LuaString, Value, Option<Table>)| {
                // TWO_BONE_OPTS: weight, pole
                let (target, [w, pole]) = target_and_opts(
                    &target,
                    "two_bone_ik target",
                    &opts,
                    "pose:two_bone_ik",
                    &TWO_BONE_OPTS,
                )?;
                let pole = match pole {
                    Value::Nil => None,
                    v => Some(vec3_arg(&v, "two_bone_ik pole")?),
                };
                let Some(pole) = pole else {
                    return Err(err(NEEDS_POLE.replace("ik.two_bone", "pose:two_bone_ik")));
                };
                let weight = weight(&w)?;
                with_frame(lua, |f| {
                    let tip = f.joint(&tip.to_str()?)?;
                    // (in range: `joints` and `chains` are both made per joint of `skeleton`)
                    if let Some(e) = &f.chains[tip as usize] {
                        return Err(err(format!("pose:two_bone_ik: {e}")));
                    }
                    f.apply(PostOp::TwoBoneIk {
                        tip,
                        target: Vec3Value::Const(target),
                        pole: Vec3Value::Const(pole),
                        weight,
                    });
                    Ok(())
                })
            },
        );
        super::method(
            methods,
            "position",
            "pose:position(joint)",
            1,
            |lua, _: &Self, joint: mlua::LuaString| {
                let p = with_frame(lua, |f| {
                    let joint = f.joint(&joint.to_str()?)?;
                    Ok(model_transform(f.skeleton.parents(), &f.pose, joint).translation)
                })?;
                // sized once: three array slots and three fields, no rehash while it is filled
                let t = lua.create_table_with_capacity(3, 3)?;
                for (i, (k, v)) in [("x", p.x), ("y", p.y), ("z", p.z)].into_iter().enumerate() {
                    t.raw_set(i + 1, v)?;
                    t.raw_set(k, v)?;
                }
                Ok(t)
            },
        );
        add_method(methods, &ROTATE);
        add_method(methods, &TRANSLATE);
        add_method(methods, &SET_TRANSLATION);
        super::method(
            methods,
            "set_morph",
            "pose:set_morph(target, weight)",
            2,
            |lua, _: &Self, (name, value): (mlua::LuaString, Value)| {
                let w = number(&value, "pose:set_morph weight")?;
                let name = name.to_str()?;
                with_frame(lua, |f| {
                    for k in f.morph("pose:set_morph", &name, false)? {
                        if let Some(x) = f.morphs.get_mut(k) {
                            *x = marionette_anim::morph::clamp_weight(w);
                        }
                    }
                    Ok(())
                })
            },
        );
        super::method(
            methods,
            "morph",
            "pose:morph(target)",
            1,
            |lua, _: &Self, name: mlua::LuaString| {
                let name = name.to_str()?;
                with_frame(lua, |f| {
                    let found = f.morph("pose:morph", &name, true)?;
                    // (a name standing for several targets reads the first)
                    Ok(found.first().and_then(|&k| f.morphs.get(k)).copied())
                })
            },
        );
    }
}
