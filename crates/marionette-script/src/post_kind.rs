//! Declarative post-process operations as a script writes them (`ik.look_at("head", "aim")`
//! in `graph { post = { ... } }`: joints and morph targets by name, angles in degrees) and how
//! each lowers to the graph's [`PostOp`], evaluated in Rust every frame with no Lua call. One
//! match each, so an operation's script side is this file (the graph's side is
//! `marionette_anim::graph::PostOp`; see its module for the four files an operation touches).

use glam::{EulerRot, Quat, Vec3};

use marionette_anim::graph::{self as g, PostOp};

pub(crate) use crate::lookup::Lookup;
use marionette_anim::ik::{LookAt, Space};
use marionette_anim::motion::ContactRule;

/// What a declarative post-process operation does.
#[derive(Debug, Clone, PartialEq)]
pub enum PostKind {
    /// Aim `joint`'s `axis` at a model-space target, up to `limit` degrees.
    LookAt {
        /// Target.
        target: g::Vec3Value<String>,
        /// Largest rotation in degrees.
        limit: f32,
        /// Local aim axis.
        axis: Vec3,
        /// Local up axis.
        up: Vec3,
    },
    /// Two-bone IK ending at `joint`.
    TwoBone {
        /// Model-space target.
        target: g::Vec3Value<String>,
        /// Model-space pole.
        pole: g::Vec3Value<String>,
    },
    /// Add an XYZ-euler rotation (degrees).
    Rotate {
        /// Degrees about X, Y, Z.
        degrees: Vec3,
        /// Space of the rotation.
        space: Space,
    },
    /// Add an offset.
    Translate {
        /// The offset.
        offset: Vec3,
        /// Space of the offset.
        space: Space,
    },
    /// Hold the feet where their contacts begin (`ik.foot_lock`); the subject is the first foot.
    FootLock {
        /// Each foot, with its own contact height (metres; `None`: its rest height plus
        /// [`ContactRule::LIFT`]) and speed (m/s).
        feet: Vec<(String, Option<f32>, f32)>,
        /// A model-space point every knee bends towards (`None`: the animation's plane).
        pole: Option<g::Vec3Value<String>>,
        /// Seconds to glide back to the animation after a contact.
        release: f32,
    },
    /// A procedural-rigging operation (`constrain.*`, `ik.chain`, `ik.spline`, `spring`).
    Rig {
        /// The operation.
        kind: crate::rig_kind::RigKind,
        /// Per joint (then morph target), how much of its effect shows (`mask = ...`).
        mask: Option<Vec<f32>>,
    },
    /// Set the morph targets named by the subject (`morph.set`).
    Morph {
        /// The weight set (a float parameter or a constant).
        value: g::Value<String>,
    },
}

/// A declarative post-process operation (`ik.look_at(...)` in `graph { post = { ... } }`):
/// evaluated in Rust every frame with no Lua call.
#[derive(Debug, Clone, PartialEq)]
pub struct PostSpec {
    /// What the operation changes: a joint (the tip for two-bone IK), or the morph target
    /// name of `morph.set`.
    pub subject: String,
    /// Operation.
    pub kind: PostKind,
    /// Blend weight.
    pub weight: g::Value<String>,
}

impl PostSpec {
    /// The graph's operation: the weight first, then the subject and the targets, in the order
    /// errors are reported.
    pub(crate) fn lower<L: Lookup>(&self, l: &L) -> Result<PostOp, L::Error> {
        let weight = self.weight.try_map(|n| l.param(n))?;
        let joint = || l.joint(&self.subject);
        Ok(match &self.kind {
            PostKind::LookAt {
                target,
                limit,
                axis,
                up,
            } => PostOp::LookAt {
                joint: joint()?,
                target: target.try_map(|n| l.param(n))?,
                settings: LookAt {
                    aim_axis: *axis,
                    up_axis: *up,
                    limit: limit.to_radians(),
                    ..LookAt::default()
                },
                weight,
            },
            PostKind::TwoBone { target, pole } => PostOp::TwoBoneIk {
                tip: joint()?,
                target: target.try_map(|n| l.param(n))?,
                pole: pole.try_map(|n| l.param(n))?,
                weight,
            },
            PostKind::Rotate { degrees, space } => PostOp::AddRotation {
                joint: joint()?,
                rotation: Quat::from_euler(
                    EulerRot::XYZ,
                    degrees.x.to_radians(),
                    degrees.y.to_radians(),
                    degrees.z.to_radians(),
                ),
                space: *space,
                weight,
            },
            PostKind::Translate { offset, space } => PostOp::AddTranslation {
                joint: joint()?,
                offset: *offset,
                space: *space,
                weight,
            },
            PostKind::FootLock {
                feet,
                pole,
                release,
            } => {
                let pole = match pole {
                    Some(p) => Some(p.try_map(|n| l.param(n))?),
                    None => None,
                };
                let mut locked = Vec::new();
                for (name, height, speed) in feet {
                    let tip = l.joint(name)?;
                    locked.push(g::LockedFoot {
                        tip,
                        height: height.unwrap_or_else(|| l.rest_height(tip) + ContactRule::LIFT),
                        speed: *speed,
                        pole,
                    });
                }
                PostOp::FootLock {
                    lock: g::FootLock {
                        feet: locked,
                        release: *release,
                    },
                    weight,
                }
            }
            PostKind::Rig { kind, mask } => PostOp::Rig {
                op: Box::new(kind.lower(&self.subject, l)?),
                weight,
                mask: mask.as_ref().map(|m| {
                    let joints = l.skeleton().len();
                    m.iter().copied().take(joints).collect()
                }),
            },
            PostKind::Morph { value } => PostOp::SetMorph {
                targets: l.morphs(&self.subject)?,
                value: value.try_map(|n| l.param(n))?,
                weight,
            },
        })
    }
}
