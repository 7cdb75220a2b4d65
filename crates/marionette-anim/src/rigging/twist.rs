//! Twist and limits: [`twist`] spreads a joint's twist about its bone axis over twist bones
//! (forearm, thigh) so skinning does not candy-wrap; [`Limit`] clamps a joint's rotation away
//! from its rest to a cone and a twist range, and its angular speed.

use glam::{Quat, Vec3};

use super::{swing_twist, twist_angle};
use crate::{nlerp_quat, JointIndex, Transform};

/// Adds `weights[k]` of `joint`'s twist about its local `axis` (its rotation away from
/// `rest`, the joint's rest rotation) to `twisters[k]`, about the same local axis, blended in
/// by `weight`. With `remove`, the share given away is taken off the joint.
#[allow(clippy::too_many_arguments)]
pub fn twist(
    pose: &mut [Transform],
    joint: JointIndex,
    rest: Quat,
    axis: Vec3,
    twisters: &[JointIndex],
    weights: &[f32],
    remove: bool,
    weight: f32,
) {
    let Some(axis) = axis.try_normalize() else {
        return;
    };
    let w = weight.clamp(0.0, 1.0);
    let away = (rest.conjugate() * pose[joint as usize].rotation).normalize();
    let (_, tw) = swing_twist(away, axis);
    let angle = twist_angle(tw, axis) * w;
    let mut given = 0.0;
    for (&j, &k) in twisters.iter().zip(weights) {
        let t = &mut pose[j as usize];
        t.rotation = (t.rotation * Quat::from_axis_angle(axis, angle * k)).normalize();
        given += k;
    }
    if remove {
        let t = &mut pose[joint as usize];
        t.rotation = (t.rotation * Quat::from_axis_angle(axis, -angle * given)).normalize();
    }
}

/// Limits of a joint's rotation away from its rest rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// The joint.
    pub joint: JointIndex,
    /// Its rest local rotation.
    pub rest: Quat,
    /// The local twist axis (the bone's direction).
    pub axis: Vec3,
    /// Largest swing away from rest, radians (`None`: free).
    pub cone: Option<f32>,
    /// Twist range about `axis`, radians (`None`: free).
    pub twist: Option<[f32; 2]>,
    /// Largest angular speed, radians per second (`None`: free).
    pub speed: Option<f32>,
}

/// What a [`Limit`] with a speed remembers: the rotation shown and when.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LimitState {
    shown: Option<(f64, Quat)>,
}

impl Limit {
    /// The rotation `local` clamped to the cone and the twist range.
    pub fn clamp(&self, local: Quat) -> Quat {
        let Some(axis) = self.axis.try_normalize() else {
            return local;
        };
        let away = (self.rest.conjugate() * local).normalize();
        let (mut swing, mut tw) = swing_twist(away, axis);
        if let Some(cone) = self.cone {
            swing = super::clamp_angle(swing, cone);
        }
        if let Some([lo, hi]) = self.twist {
            let a = twist_angle(tw, axis);
            if a < lo || a > hi {
                tw = Quat::from_axis_angle(axis, a.clamp(lo, hi));
            }
        }
        (self.rest * swing * tw).normalize()
    }

    /// Clamps the joint of `pose` at time `time` (seconds), blended in by `weight`.
    pub fn apply(&self, pose: &mut [Transform], time: f64, weight: f32, state: &mut LimitState) {
        let t = &mut pose[self.joint as usize];
        let mut r = self.clamp(t.rotation);
        if let Some(speed) = self.speed {
            if let Some((at, shown)) = state.shown {
                if time > at && time - at < 1.0 {
                    let step = (shown.conjugate() * r).normalize();
                    r = (shown * super::clamp_angle(step, speed * (time - at) as f32)).normalize();
                } else if time == at {
                    r = shown;
                }
            }
        }
        t.rotation = nlerp_quat(t.rotation, r, weight.clamp(0.0, 1.0));
        state.shown = Some((time, t.rotation));
    }
}
