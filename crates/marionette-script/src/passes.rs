//! Running a take's bake passes (`passes = { ... }`): the built-ins in Rust
//! ([`marionette_anim::passes`]) and Lua `function(frames)` passes, which get a `frames` object
//! over the same buffer (read and write per frame, per joint, with no allocation per joint):
//!
//! ```lua
//! function(frames)
//!   local head = frames:joint("head")            -- a joint's index (or pass the name each time)
//!   for f = 1, frames.count do                   -- frames 1..count, at frames.fps
//!     local x, y, z, w = frames:rotation(f, head)  -- local rotation (quaternion)
//!     frames:set_rotation(f, head, x, y, z, w)     -- normalised; must be finite
//!     local tx, ty, tz = frames:translation(f, head)
//!     frames:set_translation(f, head, tx, ty, tz)
//!     local sx, sy, sz = frames:scale(f, head)       -- and frames:set_scale(f, head, sx, sy, sz)
//!   end
//! end
//! ```
//!
//! The frames are local transforms with the root motion on the root joints (as walked, as a
//! bake writes them by default). A Lua pass runs under the take's instruction budget.

use std::cell::RefCell;
use std::rc::Rc;

use glam::{Quat, Vec3};
use mlua::{UserData, UserDataFields, UserDataMethods, Value};

use crate::api::err;
use crate::error::ScriptError;
use crate::host::LoadedScript;
use crate::spec::PassKind;
use marionette_anim::passes::Frames as TakeFrames;

/// A take's frames after its passes, and what the passes said.
#[derive(Debug, Clone, Default)]
pub(crate) struct Processed {
    /// The frames, as walked.
    pub frames: TakeFrames,
    /// A line per thing worth saying (`take 'walk': despike: ...`).
    pub notes: Vec<String>,
}

/// Runs take `take`'s passes over `frames` in order. A Lua pass's error is returned with its
/// `file:line`; the frames are then those before that pass.
pub(crate) fn run(
    script: &LoadedScript,
    take: &str,
    frames: &mut TakeFrames,
) -> Result<Vec<String>, ScriptError> {
    let skeleton = &script.rig.skeleton;
    let mut notes = Vec::new();
    for spec in script.spec.passes_for(take) {
        match &spec.kind {
            PassKind::Builtin(pass) => {
                let said = pass.run(skeleton, frames);
                notes.extend(said.into_iter().map(|n| format!("take '{take}': {n}")));
            }
            PassKind::Lua(k) => {
                let Some(f) = script.pass_fns.get(*k) else {
                    continue;
                };
                let shared = Rc::new(RefCell::new(std::mem::take(frames)));
                let handle = Frames {
                    frames: shared.clone(),
                    names: skeleton.names().to_vec().into(),
                };
                let limit = script.limits.take_instructions;
                let result = script.env.enter(limit, || f.call::<()>(handle));
                *frames = std::mem::take(&mut *shared.borrow_mut());
                if let Err(e) = result {
                    let mut e = ScriptError::from_lua(&e);
                    e.message = format!("take '{take}': bake pass: {}", e.message);
                    if e.location.is_none() {
                        e.location = spec.at.clone();
                    }
                    return Err(e);
                }
            }
        }
    }
    Ok(notes)
}

/// The `frames` a Lua pass gets (named `Frames`, as the stubs call it, in Lua's messages). It
/// reads and writes the take's buffer while the pass runs; kept after it, it is empty (every
/// access is an error naming why).
struct Frames {
    frames: Rc<RefCell<TakeFrames>>,
    names: Rc<[String]>,
}

/// A frame number: a whole number (`1.5` is a mistake, not frame 1).
fn frame_number(v: &Value) -> mlua::Result<i64> {
    match v {
        Value::Integer(i) => Ok(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => Ok(*n as i64),
        Value::Number(n) => Err(err(format!(
            "frames: a frame is a whole number 1..count, got {n}"
        ))),
        other => Err(err(format!(
            "frames: a frame is a whole number 1..count, got {}",
            other.type_name()
        ))),
    }
}

/// The numbers `names` of a call `what`, each finite.
fn numbers<const N: usize>(
    values: &[Value],
    what: &str,
    names: [&str; N],
) -> mlua::Result<[f32; N]> {
    let mut out = [0.0; N];
    for (k, name) in names.iter().enumerate() {
        let v = values.get(k).unwrap_or(&Value::Nil);
        out[k] = crate::api::strict::number(v, &format!("{what} {name}"))?;
    }
    Ok(out)
}

impl Frames {
    /// Frame `f` (1-based) and joint `j` (a 1-based index or a name) as 0-based indices.
    fn at(&self, frames: &TakeFrames, f: &Value, joint: &Value) -> mlua::Result<(usize, usize)> {
        let f = frame_number(f)?;
        let count = frames.count();
        if count == 0 {
            return Err(err(
                "frames: this frames object is only valid while its pass runs",
            ));
        }
        if f < 1 || f as usize > count {
            return Err(err(format!("frames: frame {f} is outside 1..{count}")));
        }
        let j = self.joint(joint)?;
        Ok((f as usize - 1, j))
    }

    fn joint(&self, joint: &Value) -> mlua::Result<usize> {
        match joint {
            Value::Integer(i) if *i >= 1 && (*i as usize) <= self.names.len() => {
                Ok(*i as usize - 1)
            }
            Value::Integer(i) => Err(err(format!(
                "frames: joint {i} is outside 1..{}",
                self.names.len()
            ))),
            Value::String(s) => {
                let s = s.to_str()?;
                self.names.iter().position(|n| *n == *s).ok_or_else(|| {
                    err(format!(
                        "frames: unknown joint '{}'{}",
                        &*s,
                        crate::names::did_you_mean(&s, self.names.iter().map(String::as_str))
                    ))
                })
            }
            other => Err(err(format!(
                "frames: a joint is a name or an index from frames:joint(name), got {}",
                other.type_name()
            ))),
        }
    }
}

impl UserData for Frames {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("count", |_, this| Ok(this.frames.borrow().count()));
        fields.add_field_method_get("fps", |_, this| Ok(this.frames.borrow().fps));
        fields.add_field_method_get("joints", |_, this| Ok(this.names.len()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        use crate::api::method;
        method(
            methods,
            "joint",
            "frames:joint(name)",
            1,
            |_, this: &Self, name: Value| Ok(this.joint(&name)? + 1),
        );
        method(
            methods,
            "name",
            "frames:name(joint)",
            1,
            |_, this: &Self, j: Value| Ok(this.names[this.joint(&j)?].clone()),
        );
        method(
            methods,
            "time",
            "frames:time(frame)",
            1,
            |_, this: &Self, f: Value| {
                let frames = this.frames.borrow();
                let (f, _) = this.at(&frames, &f, &Value::Integer(1))?;
                Ok(frames.time(f))
            },
        );
        method(
            methods,
            "rotation",
            "frames:rotation(frame, joint)",
            2,
            |_, this: &Self, (f, j): (Value, Value)| {
                let frames = this.frames.borrow();
                let (f, j) = this.at(&frames, &f, &j)?;
                let q = frames.get(f, j).map_or(Quat::IDENTITY, |t| t.rotation);
                Ok((q.x, q.y, q.z, q.w))
            },
        );
        method(
            methods,
            "set_rotation",
            "frames:set_rotation(frame, joint, x, y, z, w)",
            6,
            |_, this: &Self, (f, j, rest): (Value, Value, mlua::Variadic<Value>)| {
                let [x, y, z, w] = numbers(&rest, "frames:set_rotation", ["x", "y", "z", "w"])?;
                let q = Quat::from_xyzw(x, y, z, w);
                let Some(q) = q.try_normalize_quat() else {
                    return Err(err("frames:set_rotation: a zero quaternion is no rotation"));
                };
                let mut frames = this.frames.borrow_mut();
                let (f, j) = this.at(&frames, &f, &j)?;
                if let Some(t) = frames.get_mut(f, j) {
                    t.rotation = q;
                }
                Ok(())
            },
        );
        method(
            methods,
            "translation",
            "frames:translation(frame, joint)",
            2,
            |_, this: &Self, (f, j): (Value, Value)| {
                let frames = this.frames.borrow();
                let (f, j) = this.at(&frames, &f, &j)?;
                let p = frames.get(f, j).map_or(Vec3::ZERO, |t| t.translation);
                Ok((p.x, p.y, p.z))
            },
        );
        method(
            methods,
            "scale",
            "frames:scale(frame, joint)",
            2,
            |_, this: &Self, (f, j): (Value, Value)| {
                let frames = this.frames.borrow();
                let (f, j) = this.at(&frames, &f, &j)?;
                let s = frames.get(f, j).map_or(Vec3::ONE, |t| t.scale);
                Ok((s.x, s.y, s.z))
            },
        );
        method(
            methods,
            "set_scale",
            "frames:set_scale(frame, joint, x, y, z)",
            5,
            |_, this: &Self, (f, j, rest): (Value, Value, mlua::Variadic<Value>)| {
                let [x, y, z] = numbers(&rest, "frames:set_scale", ["x", "y", "z"])?;
                let mut frames = this.frames.borrow_mut();
                let (f, j) = this.at(&frames, &f, &j)?;
                if let Some(t) = frames.get_mut(f, j) {
                    t.scale = Vec3::new(x, y, z);
                }
                Ok(())
            },
        );
        method(
            methods,
            "set_translation",
            "frames:set_translation(frame, joint, x, y, z)",
            5,
            |_, this: &Self, (f, j, rest): (Value, Value, mlua::Variadic<Value>)| {
                let [x, y, z] = numbers(&rest, "frames:set_translation", ["x", "y", "z"])?;
                let mut frames = this.frames.borrow_mut();
                let (f, j) = this.at(&frames, &f, &j)?;
                if let Some(t) = frames.get_mut(f, j) {
                    t.translation = Vec3::new(x, y, z);
                }
                Ok(())
            },
        );
    }
}

/// `try_normalize` for a quaternion (glam has none): `None` for a zero one.
trait TryNormalizeQuat: Sized {
    fn try_normalize_quat(self) -> Option<Self>;
}

impl TryNormalizeQuat for Quat {
    fn try_normalize_quat(self) -> Option<Quat> {
        let len = self.length();
        (len > 1e-12).then(|| self / len)
    }
}
