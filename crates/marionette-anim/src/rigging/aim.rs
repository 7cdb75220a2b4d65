//! Aim constraints: a joint's chosen local axis points at a target, its up axis towards a
//! direction or another joint, with a total angle limit and per-axis limits; several targets
//! weighted ([`multi_aim`], Unity's multi-aim). [`crate::ik::look_at`] is the head-and-eyes case.

use glam::{Quat, Vec3};

use super::{clamp_angle, parent_model, AxisLimits};
use crate::ik::aim_delta;
use crate::{nlerp_quat, JointIndex, Transform};

/// Where the aimed joint's up axis turns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Up {
    /// A model-space direction (usually +Y).
    Direction(Vec3),
    /// Towards a model-space point (an up joint's position, resolved by the caller).
    Point(Vec3),
}

/// Settings of [`aim`] and [`multi_aim`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimSettings {
    /// The joint's local axis that points at the target.
    pub axis: Vec3,
    /// The joint's local axis turned towards [`AimSettings::up`].
    pub up_axis: Vec3,
    /// Where the up axis turns.
    pub up: Up,
    /// Largest turn away from the animated pose, radians.
    pub limit: f32,
    /// Per-axis limits of the turn, in the joint's local frame (`None`: none).
    pub axis_limits: Option<AxisLimits>,
}

impl Default for AimSettings {
    fn default() -> Self {
        AimSettings {
            axis: Vec3::Z,
            up_axis: Vec3::Y,
            up: Up::Direction(Vec3::Y),
            limit: std::f32::consts::PI,
            axis_limits: None,
        }
    }
}

/// The local rotation that aims `joint` at `target` with its limits applied (`None` when the
/// target is at the joint).
fn aimed_local(
    parent: &Transform,
    local: &Transform,
    target: Vec3,
    s: &AimSettings,
) -> Option<Quat> {
    let m = parent.mul_transform(local);
    let world_up = match s.up {
        Up::Direction(d) => d,
        Up::Point(p) => p - m.translation,
    };
    let delta = aim_delta(&m, target, s.axis, s.up_axis, world_up)?;
    let p = parent.rotation;
    // the turn in the joint's local frame: local' = local · d
    let d = (local.rotation.conjugate() * p.conjugate() * delta * p * local.rotation).normalize();
    let d = match &s.axis_limits {
        Some(l) => l.clamp(d),
        None => d,
    };
    Some((local.rotation * clamp_angle(d, s.limit)).normalize())
}

/// Turns `joint` so its aim axis points at `target` (model space), blended in by `weight`.
pub fn aim(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    target: Vec3,
    s: &AimSettings,
    weight: f32,
) {
    let parent = parent_model(parents, pose, joint);
    let t = &mut pose[joint as usize];
    if let Some(r) = aimed_local(&parent, t, target, s) {
        t.rotation = nlerp_quat(t.rotation, r, weight.clamp(0.0, 1.0));
    }
}

/// Aims `joint` at several targets: each target's aimed rotation, weighted by its weight
/// (normalised over the targets with a positive weight), then the limits and `weight`.
pub fn multi_aim(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    targets: &[(Vec3, f32)],
    s: &AimSettings,
    weight: f32,
) {
    let parent = parent_model(parents, pose, joint);
    let t = &mut pose[joint as usize];
    let free = AimSettings {
        limit: std::f32::consts::PI,
        axis_limits: None,
        ..*s
    };
    let mut sum = glam::Vec4::ZERO;
    let mut total = 0.0;
    for &(target, w) in targets {
        if !(w > 0.0 && w.is_finite()) {
            continue;
        }
        if let Some(r) = aimed_local(&parent, t, target, &free) {
            let r = if r.dot(t.rotation) < 0.0 { -r } else { r };
            sum += glam::Vec4::from(r) * w;
            total += w;
        }
    }
    if total <= 0.0 {
        return;
    }
    let Some(blended) = sum.try_normalize() else {
        return;
    };
    // the limits act on the blended turn
    let d = (t.rotation.conjugate() * Quat::from_vec4(blended)).normalize();
    let d = match &s.axis_limits {
        Some(l) => l.clamp(d),
        None => d,
    };
    let r = (t.rotation * clamp_angle(d, s.limit)).normalize();
    t.rotation = nlerp_quat(t.rotation, r, weight.clamp(0.0, 1.0) * total.min(1.0));
}
