//! Copy constraints: a joint takes another joint's rotation, position or scale ([`copy`], in
//! model or local space, keeping the offset the two had at rest or not, replacing or adding), and
//! follows it with a lag ([`Damped`], Unity's damped transform: tails, antennae, bags).

use glam::{Quat, Vec3};

use super::parent_model;
use crate::ik::model_transform;
use crate::{nlerp_quat, JointIndex, Transform};

/// What [`copy`] copies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Channels {
    /// The rotation.
    pub rotation: bool,
    /// The position.
    pub position: bool,
    /// The scale.
    pub scale: bool,
}

/// How [`copy`] combines the source with the joint's own value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mix {
    /// The joint takes the source's value.
    #[default]
    Replace,
    /// The source's change from its rest pose is added to the joint's own value.
    Add,
}

/// Settings of [`copy`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopySettings {
    /// What is copied.
    pub channels: Channels,
    /// Model space (`true`) or local space (`false`).
    pub model: bool,
    /// Keeps the offset between the two at rest (replace mode).
    pub offset: bool,
    /// Replace or add.
    pub mix: Mix,
}

/// The rest data [`copy`] and [`Damped`] need: the joint's and the source's rest local and
/// model transforms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RestPair {
    /// The joint at rest, local.
    pub joint_local: Transform,
    /// The joint at rest, model space.
    pub joint_model: Transform,
    /// The source at rest, local.
    pub source_local: Transform,
    /// The source at rest, model space.
    pub source_model: Transform,
}

impl RestPair {
    /// Reads the rest pose for `joint` and `source`.
    pub fn new(
        parents: &[Option<JointIndex>],
        rest: &[Transform],
        joint: JointIndex,
        source: JointIndex,
    ) -> RestPair {
        RestPair {
            joint_local: rest[joint as usize],
            joint_model: model_transform(parents, rest, joint),
            source_local: rest[source as usize],
            source_model: model_transform(parents, rest, source),
        }
    }
}

/// Copies `source`'s channels onto `joint`, blended in by `weight`.
pub fn copy(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    source: JointIndex,
    rest: &RestPair,
    s: &CopySettings,
    weight: f32,
) {
    let w = weight.clamp(0.0, 1.0);
    let c = s.channels;
    if s.model {
        let parent = parent_model(parents, pose, joint);
        let me = parent.mul_transform(&pose[joint as usize]);
        let src = model_transform(parents, pose, source);
        // the joint's rest pose seen from the source (what "keep the offset" keeps)
        let offset = rest.source_model.inverse().mul_transform(&rest.joint_model);
        let mut want = me;
        match s.mix {
            Mix::Replace => {
                let to = if s.offset {
                    src.mul_transform(&offset)
                } else {
                    src
                };
                if c.rotation {
                    want.rotation = to.rotation;
                }
                if c.position {
                    want.translation = to.translation;
                }
                if c.scale {
                    want.scale = to.scale;
                }
            }
            Mix::Add => {
                if c.rotation {
                    let d = src.rotation * rest.source_model.rotation.conjugate();
                    want.rotation = (d * me.rotation).normalize();
                }
                if c.position {
                    want.translation += src.translation - rest.source_model.translation;
                }
                if c.scale {
                    want.scale *= src.scale / rest.source_model.scale;
                }
            }
        }
        let local = parent.inverse().mul_transform(&want);
        let t = &mut pose[joint as usize];
        if c.rotation {
            t.rotation = nlerp_quat(t.rotation, local.rotation.normalize(), w);
        }
        if c.position {
            t.translation = t.translation.lerp(local.translation, w);
        }
        if c.scale {
            t.scale = t.scale.lerp(local.scale, w);
        }
        return;
    }
    let src = pose[source as usize];
    let t = &mut pose[joint as usize];
    let (rot, pos, scale) = match s.mix {
        Mix::Replace if s.offset => (
            src.rotation * rest.source_local.rotation.conjugate() * rest.joint_local.rotation,
            src.translation - rest.source_local.translation + rest.joint_local.translation,
            src.scale / rest.source_local.scale * rest.joint_local.scale,
        ),
        Mix::Replace => (src.rotation, src.translation, src.scale),
        Mix::Add => (
            t.rotation * rest.source_local.rotation.conjugate() * src.rotation,
            t.translation + src.translation - rest.source_local.translation,
            t.scale * src.scale / rest.source_local.scale,
        ),
    };
    if c.rotation {
        t.rotation = nlerp_quat(t.rotation, rot.normalize(), w);
    }
    if c.position {
        t.translation = t.translation.lerp(pos, w);
    }
    if c.scale {
        t.scale = t.scale.lerp(scale, w);
    }
}

/// A joint that follows where `source` would carry it (its rest offset from the source) with a
/// lag: an exponential approach with time constants in seconds, in world space (so it trails
/// behind when the character moves), independent of the frame rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Damped {
    /// The joint.
    pub joint: JointIndex,
    /// The source.
    pub source: JointIndex,
    /// Rest data.
    pub rest: RestPair,
    /// Time constant of the rotation, seconds (0: no lag).
    pub rotation_lag: f32,
    /// Time constant of the position, seconds; `None` keeps the joint on its parent (only its
    /// rotation lags, bones keep their lengths).
    pub position_lag: Option<f32>,
}

/// What a [`Damped`] remembers: where the joint was shown (world), where it was driven to, and
/// when.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DampedState {
    shown: Option<(f64, Vec3, Quat)>,
    driven: Option<(Vec3, Quat)>,
}

/// Steps per second of the follow between two evaluations (the driven place interpolated), so
/// the lag does not depend on the frame rate.
const FOLLOW_HZ: f64 = 240.0;

impl Damped {
    /// Moves the joint of `pose` towards its driven place at time `time` (seconds), with
    /// `to_world` placing model space in the world; blended in by `weight`.
    pub fn apply(
        &self,
        parents: &[Option<JointIndex>],
        pose: &mut [Transform],
        to_world: &Transform,
        time: f64,
        weight: f32,
        state: &mut DampedState,
    ) {
        let src = model_transform(parents, pose, self.source);
        let offset = self
            .rest
            .source_model
            .inverse()
            .mul_transform(&self.rest.joint_model);
        let driven = to_world.mul_transform(&src.mul_transform(&offset));
        let (p, r) = match (state.shown, state.driven) {
            (Some((t, mut p, mut r)), Some((p0, r0))) if time > t && time - t < 1.0 => {
                let n = ((time - t) * FOLLOW_HZ).ceil().max(1.0);
                let dt = ((time - t) / n) as f32;
                let k = |lag: f32| {
                    if lag > 0.0 {
                        1.0 - (-dt / lag).exp()
                    } else {
                        1.0
                    }
                };
                let (kp, kr) = (k(self.position_lag.unwrap_or(0.0)), k(self.rotation_lag));
                for i in 1..=n as u32 {
                    let s = i as f32 / n as f32;
                    p = p.lerp(p0.lerp(driven.translation, s), kp);
                    r = r.slerp(r0.slerp(driven.rotation, s), kr).normalize();
                }
                (p, r)
            }
            (Some((t, p, r)), _) if time == t => (p, r),
            _ => (driven.translation, driven.rotation),
        };
        state.driven = Some((driven.translation, driven.rotation));
        state.shown = Some((time, p, r));
        let parent = parent_model(parents, pose, self.joint);
        let model = to_world.inverse().mul_transform(&Transform {
            translation: p,
            rotation: r,
            scale: driven.scale,
        });
        let local = parent.inverse().mul_transform(&model);
        let w = weight.clamp(0.0, 1.0);
        let t = &mut pose[self.joint as usize];
        t.rotation = nlerp_quat(t.rotation, local.rotation.normalize(), w);
        if self.position_lag.is_some() {
            t.translation = t.translation.lerp(local.translation, w);
        }
    }
}
