//! Procedural rigging: the maths of the post-process operations a rigger reaches for after
//! two-bone IK and look-at. Constraints ([`aim`], [`copy`], [`twist`]), chain IK of any length
//! ([`chain_ik`]: FABRIK, CCD and laying a chain along a spline) and spring bones with colliders
//! ([`spring`]).
//!
//! As [`crate::ik`], every function takes the skeleton's parent list and the local pose
//! (parent-first), works in model space (the skeleton's space) and edits the pose in place, with
//! a weight. The operations that remember earlier frames (damped follow, angular-speed limits,
//! springs) keep their memory in a state value the caller owns (the graph keeps it in its
//! snapshots), so a replay from a snapshot gives the same bits.

#![warn(missing_docs)]

use glam::{EulerRot, Quat, Vec3};

use crate::{nlerp_quat, JointIndex, Transform};

pub mod aim;
pub mod chain_ik;
pub mod copy;
pub mod spring;
pub mod twist;
pub mod vrm;

#[cfg(test)]
mod tests;

/// The joints from `root` down to `tip`, root first; `None` when `root` is not `tip` or one
/// of its ancestors.
pub fn chain(
    parents: &[Option<JointIndex>],
    root: JointIndex,
    tip: JointIndex,
) -> Option<Vec<JointIndex>> {
    let mut out = vec![tip];
    let mut j = tip;
    while j != root {
        j = parents.get(j as usize).copied().flatten()?;
        out.push(j);
    }
    out.reverse();
    Some(out)
}

/// The model transforms of a chain's joints (each the child of the one before).
pub(crate) fn chain_models(
    parents: &[Option<JointIndex>],
    pose: &[Transform],
    joints: &[JointIndex],
) -> Vec<Transform> {
    let mut out = Vec::with_capacity(joints.len());
    let mut m = parent_model(parents, pose, joints[0]);
    for &j in joints {
        m = m.mul_transform(&pose[j as usize]);
        out.push(m);
    }
    out
}

/// The model transform of `joint`'s parent (the identity for a root joint).
pub(crate) fn parent_model(
    parents: &[Option<JointIndex>],
    pose: &[Transform],
    joint: JointIndex,
) -> Transform {
    parents[joint as usize].map_or(Transform::IDENTITY, |p| {
        crate::ik::model_transform(parents, pose, p)
    })
}

/// Writes new model rotations of a chain's joints (`rotations[k]` for `joints[k]`, parents first)
/// into the local pose, blended by `weight`: each local rotation is its parent's new model
/// rotation undone (the first joint's parent is `parent`, unchanged).
pub(crate) fn write_rotations(
    pose: &mut [Transform],
    joints: &[JointIndex],
    parent: Quat,
    rotations: &[Quat],
    weight: f32,
) {
    let w = weight.clamp(0.0, 1.0);
    let mut p = parent;
    for (&j, &r) in joints.iter().zip(rotations) {
        let local = (p.conjugate() * r).normalize();
        let t = &mut pose[j as usize];
        t.rotation = if w >= 1.0 {
            local
        } else {
            nlerp_quat(t.rotation, local, w)
        };
        p = r;
    }
}

/// The rotation `q` turned by at most `limit` radians (`q` itself when within it).
pub fn clamp_angle(q: Quat, limit: f32) -> Quat {
    let q = if q.w < 0.0 { -q } else { q };
    let angle = 2.0 * q.w.clamp(-1.0, 1.0).acos();
    if angle <= limit || angle <= 0.0 {
        q
    } else {
        Quat::IDENTITY.slerp(q, limit.max(0.0) / angle)
    }
}

/// Swing-twist decomposition of `q` about the unit `axis`: `q = swing · twist`, with the twist a
/// rotation about `axis` (its angle in `(-π, π]`).
pub fn swing_twist(q: Quat, axis: Vec3) -> (Quat, Quat) {
    let v = Vec3::new(q.x, q.y, q.z);
    let p = axis * v.dot(axis);
    let twist = Quat::from_xyzw(p.x, p.y, p.z, q.w);
    let twist = if twist.length_squared() < 1e-12 {
        Quat::IDENTITY
    } else {
        twist.normalize()
    };
    ((q * twist.conjugate()).normalize(), twist)
}

/// The signed angle of a twist about `axis` (radians, `(-π, π]`).
pub fn twist_angle(twist: Quat, axis: Vec3) -> f32 {
    let v = Vec3::new(twist.x, twist.y, twist.z).dot(axis);
    let a = 2.0 * v.atan2(twist.w);
    // (-2π, 2π] to (-π, π]
    if a > std::f32::consts::PI {
        a - std::f32::consts::TAU
    } else if a <= -std::f32::consts::PI {
        a + std::f32::consts::TAU
    } else {
        a
    }
}

/// Per-axis limits of a rotation, as XYZ Euler ranges in radians (`[min, max]` per axis).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisLimits(pub [[f32; 2]; 3]);

impl AxisLimits {
    /// `q` with each of its XYZ Euler angles clamped to its range.
    pub fn clamp(&self, q: Quat) -> Quat {
        let (x, y, z) = q.to_euler(EulerRot::XYZ);
        let [ax, ay, az] = self.0;
        Quat::from_euler(
            EulerRot::XYZ,
            x.clamp(ax[0], ax[1]),
            y.clamp(ay[0], ay[1]),
            z.clamp(az[0], az[1]),
        )
    }
}
