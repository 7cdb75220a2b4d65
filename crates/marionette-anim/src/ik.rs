//! Procedural post-processing of a local pose: set or add rotations and translations in local or
//! model space with a weight, look-at/aim with an angle limit, and analytic two-bone IK with a
//! pole target.
//!
//! Every operation takes the skeleton's parent list and the local pose (parent-first) and edits
//! the pose in place. "Model space" is the skeleton's space (before the armature transform);
//! targets are given there. Model-space transforms are computed on demand by walking up the
//! parents (TRS composition; exact for uniform scale).
//!
//! ```
//! use glam::Vec3;
//! use marionette_anim::{ik, Transform};
//!
//! // a straight arm along +X: shoulder at 0, elbow at 1, hand at 2
//! let parents = [None, Some(0), Some(1)];
//! let mut pose = [Transform::IDENTITY, Transform::from_translation(Vec3::X), Transform::from_translation(Vec3::X)];
//! let target = Vec3::new(1.0, 1.0, 0.0);
//! ik::two_bone(&parents, &mut pose, 2, target, Vec3::new(0.0, 0.0, -1.0), 1.0);
//! let hand = ik::model_transform(&parents, &pose, 2).translation;
//! assert!(hand.distance(target) < 1e-4);
//! ```

#![warn(missing_docs)]

use glam::{Quat, Vec3};

use super::{nlerp_quat, JointIndex, Transform};

/// The space a procedural value is given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Space {
    /// Relative to the joint's parent (the pose's own space).
    #[default]
    Local,
    /// The skeleton's model space.
    Model,
}

/// Model-space transform of `joint` for a local pose.
pub fn model_transform(
    parents: &[Option<JointIndex>],
    pose: &[Transform],
    joint: JointIndex,
) -> Transform {
    let mut m = pose[joint as usize];
    let mut j = parents[joint as usize];
    while let Some(p) = j {
        m = pose[p as usize].mul_transform(&m);
        j = parents[p as usize];
    }
    m
}

/// Model-space transform of the parent of `joint` (identity for a root joint).
fn parent_model(
    parents: &[Option<JointIndex>],
    pose: &[Transform],
    joint: JointIndex,
) -> Transform {
    parents[joint as usize].map_or(Transform::IDENTITY, |p| model_transform(parents, pose, p))
}

/// Blends the joint's rotation towards `rotation` (given in `space`) by `weight`.
pub fn set_rotation(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    rotation: Quat,
    space: Space,
    weight: f32,
) {
    let local = match space {
        Space::Local => rotation,
        Space::Model => {
            let p = parent_model(parents, pose, joint).rotation;
            (p.conjugate() * rotation).normalize()
        }
    };
    let t = &mut pose[joint as usize];
    t.rotation = nlerp_quat(t.rotation, local, weight.clamp(0.0, 1.0));
}

/// Adds `weight` of `rotation` to the joint: after its local rotation in [`Space::Local`]
/// (`r · Δ`), or as a rotation of its model-space frame in [`Space::Model`] (`Δ · R`).
pub fn add_rotation(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    rotation: Quat,
    space: Space,
    weight: f32,
) {
    let d = nlerp_quat(Quat::IDENTITY, rotation, weight.clamp(0.0, 1.0));
    rotate_model(parents, pose, joint, d, space);
}

/// Applies a rotation delta in local (`r · d`) or model (`d · R`) space.
fn rotate_model(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    d: Quat,
    space: Space,
) {
    let new = match space {
        Space::Local => pose[joint as usize].rotation * d,
        Space::Model => {
            let p = parent_model(parents, pose, joint).rotation;
            p.conjugate() * d * p * pose[joint as usize].rotation
        }
    };
    pose[joint as usize].rotation = new.normalize();
}

/// Blends the joint's translation towards `translation` (a position in `space`) by `weight`.
pub fn set_translation(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    translation: Vec3,
    space: Space,
    weight: f32,
) {
    let local = match space {
        Space::Local => translation,
        Space::Model => parent_model(parents, pose, joint)
            .inverse()
            .transform_point(translation),
    };
    let t = &mut pose[joint as usize];
    t.translation = t.translation.lerp(local, weight);
}

/// Moves the joint by `weight * offset`, with the offset given in `space`.
pub fn add_translation(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    offset: Vec3,
    space: Space,
    weight: f32,
) {
    let local = match space {
        Space::Local => offset,
        Space::Model => parent_model(parents, pose, joint)
            .inverse()
            .transform_vector(offset),
    };
    pose[joint as usize].translation += local * weight;
}

/// Settings of [`look_at`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LookAt {
    /// The joint's local axis that should point at the target (e.g. +Z for a glTF head).
    pub aim_axis: Vec3,
    /// The joint's local axis kept as close as possible to `world_up`.
    pub up_axis: Vec3,
    /// Model-space up reference (usually +Y).
    pub world_up: Vec3,
    /// Largest rotation away from the animated pose, in radians.
    pub limit: f32,
    /// Blend weight 0..1.
    pub weight: f32,
}

impl Default for LookAt {
    fn default() -> Self {
        Self {
            aim_axis: Vec3::Z,
            up_axis: Vec3::Y,
            world_up: Vec3::Y,
            limit: std::f32::consts::PI,
            weight: 1.0,
        }
    }
}

/// Turns `joint` so its aim axis points at `target` (model space) with its up axis towards
/// `world_up`; the turn is clamped to `limit` radians and blended in by `weight`.
pub fn look_at(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joint: JointIndex,
    target: Vec3,
    settings: &LookAt,
) {
    // one walk up the hierarchy: the parent's model transform serves both directions
    let parent = parent_model(parents, pose, joint);
    let Some(delta) = aim_delta(
        &parent.mul_transform(&pose[joint as usize]),
        target,
        settings.aim_axis,
        settings.up_axis,
        settings.world_up,
    ) else {
        return;
    };
    let angle = 2.0 * delta.w.clamp(-1.0, 1.0).acos();
    let mut scale = settings.weight.clamp(0.0, 1.0);
    if angle > settings.limit && angle > 0.0 {
        scale *= settings.limit.max(0.0) / angle;
    }
    let d = Quat::IDENTITY.slerp(delta, scale);
    let p = parent.rotation;
    let r = &mut pose[joint as usize].rotation;
    *r = (p.conjugate() * d * p * *r).normalize();
}

/// The model-space rotation that turns a joint with model transform `m` so its local `aim_axis`
/// points at `target` with its local `up_axis` towards `world_up` (in the plane of the aim
/// direction and `world_up`), shortest way round (`w >= 0`); `None` when the target is at the
/// joint or an axis is zero.
pub(crate) fn aim_delta(
    m: &Transform,
    target: Vec3,
    aim_axis: Vec3,
    up_axis: Vec3,
    world_up: Vec3,
) -> Option<Quat> {
    let dir = (target - m.translation).try_normalize()?;
    let aim = aim_axis.try_normalize()?;
    let up_local = up_axis.try_normalize()?;
    // model rotation taking the aim axis to `dir`, then twisting about `dir` so that the up axis
    // lies in the plane of `dir` and `world_up`
    let swing = Quat::from_rotation_arc(aim, dir);
    let mut desired = swing;
    let up_now = swing * up_local;
    let proj = |v: Vec3| (v - dir * v.dot(dir)).try_normalize();
    if let (Some(a), Some(b)) = (proj(up_now), proj(world_up)) {
        let angle = a.cross(b).dot(dir).atan2(a.dot(b));
        desired = Quat::from_axis_angle(dir, angle) * swing;
    }
    let delta = (desired * m.rotation.conjugate()).normalize();
    Some(if delta.w < 0.0 { -delta } else { delta })
}

/// Analytic two-bone IK: bends `parent(parent(tip))` and `parent(tip)` so that `tip` reaches
/// `target` (model space), bending towards `pole`. An unreachable target is clamped along the
/// line from the chain root to the target (fully stretched or fully folded). The result is
/// blended in by `weight`. Does nothing when `tip` has fewer than two ancestors.
pub fn two_bone(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    tip: JointIndex,
    target: Vec3,
    pole: Vec3,
    weight: f32,
) {
    let Some(mid) = parents[tip as usize] else {
        return;
    };
    let Some(root) = parents[mid as usize] else {
        return;
    };
    let (ra, rb) = (pose[root as usize].rotation, pose[mid as usize].rotation);
    let ma = model_transform(parents, pose, root);
    let mb = ma.mul_transform(&pose[mid as usize]);
    let mc = mb.mul_transform(&pose[tip as usize]);
    let (a, b, c) = (ma.translation, mb.translation, mc.translation);
    let (l1, l2) = (a.distance(b), b.distance(c));
    // a pose pushed to infinity (a script's huge translations) has no chain to solve
    if !(l1.is_finite() && l2.is_finite() && (l1 + l2).is_finite()) {
        return;
    }
    let to_target = target - a;
    let Some(dir) = to_target.try_normalize() else {
        return;
    };
    let d = to_target.length().clamp((l1 - l2).abs(), l1 + l2);
    // bend direction: towards the pole, perpendicular to the reach line (fallback: current bend)
    let perp_of = |v: Vec3| (v - dir * v.dot(dir)).try_normalize();
    let Some(perp) = perp_of(pole - a)
        .or_else(|| perp_of(b - a))
        .or_else(|| perp_of(dir.any_orthonormal_vector()))
    else {
        return;
    };
    let cos_a = if l1 * d > 0.0 {
        ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0)
    } else {
        1.0
    };
    let sin_a = (1.0 - cos_a * cos_a).max(0.0).sqrt();
    let b_goal = a + (dir * cos_a + perp * sin_a) * l1;
    let c_goal = a + dir * d;
    // swing the root so the mid joint lands on b_goal
    if let (Some(from), Some(to)) = ((b - a).try_normalize(), (b_goal - a).try_normalize()) {
        rotate_model(
            parents,
            pose,
            root,
            Quat::from_rotation_arc(from, to),
            Space::Model,
        );
    }
    // then swing the mid joint so the tip lands on c_goal
    let mb = model_transform(parents, pose, mid);
    let mc = mb.mul_transform(&pose[tip as usize]);
    if let (Some(from), Some(to)) = (
        (mc.translation - mb.translation).try_normalize(),
        (c_goal - mb.translation).try_normalize(),
    ) {
        rotate_model(
            parents,
            pose,
            mid,
            Quat::from_rotation_arc(from, to),
            Space::Model,
        );
    }
    if weight < 1.0 {
        let w = weight.max(0.0);
        pose[root as usize].rotation = nlerp_quat(ra, pose[root as usize].rotation, w);
        pose[mid as usize].rotation = nlerp_quat(rb, pose[mid as usize].rotation, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    const PARENTS: [Option<JointIndex>; 4] = [None, Some(0), Some(1), Some(2)];

    /// pelvis at y=1, upper leg, lower leg (0.5 each) down -Y; joint 3 is the foot.
    fn leg() -> [Transform; 4] {
        [
            Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            Transform::from_translation(Vec3::new(0.1, 0.0, 0.0)),
            Transform::from_translation(Vec3::new(0.0, -0.5, 0.0)),
            Transform::from_translation(Vec3::new(0.0, -0.5, 0.0)),
        ]
    }

    /// A reachable target is reached within 1e-4 and the knee bends towards the pole (+Z).
    #[test]
    fn two_bone_reaches() {
        let mut pose = leg();
        let target = Vec3::new(0.1, 0.3, 0.2);
        two_bone(
            &PARENTS,
            &mut pose,
            3,
            target,
            Vec3::new(0.1, 0.5, 5.0),
            1.0,
        );
        let foot = model_transform(&PARENTS, &pose, 3).translation;
        assert!(foot.distance(target) < 1e-4, "{foot}");
        let knee = model_transform(&PARENTS, &pose, 2).translation;
        assert!(knee.z > 0.1, "{knee}");
        // bone lengths are kept
        let hip = model_transform(&PARENTS, &pose, 1).translation;
        assert!((hip.distance(knee) - 0.5).abs() < 1e-5);
        assert!((knee.distance(foot) - 0.5).abs() < 1e-5);
    }

    /// An unreachable target is clamped: the leg points straight at it, fully stretched.
    #[test]
    fn two_bone_clamps() {
        let mut pose = leg();
        let hip = Vec3::new(0.1, 1.0, 0.0);
        let target = hip + Vec3::new(3.0, 0.0, 4.0); // 5 m away, leg is 1 m
        two_bone(
            &PARENTS,
            &mut pose,
            3,
            target,
            Vec3::new(0.0, 0.0, 5.0),
            1.0,
        );
        let foot = model_transform(&PARENTS, &pose, 3).translation;
        let expected = hip + Vec3::new(0.6, 0.0, 0.8);
        assert!(foot.distance(expected) < 1e-4, "{foot} vs {expected}");
    }

    /// Look-at turns +Z towards a target on +X; a 30° limit stops the 90° turn at 30°.
    #[test]
    fn look_at_with_limit() {
        let parents = [None];
        let mut pose = [Transform::IDENTITY];
        look_at(
            &parents,
            &mut pose,
            0,
            Vec3::new(5.0, 0.0, 0.0),
            &LookAt::default(),
        );
        assert!(
            pose[0]
                .rotation
                .abs_diff_eq(Quat::from_rotation_y(FRAC_PI_2), 1e-5),
            "{:?}",
            pose[0].rotation
        );
        let mut pose = [Transform::IDENTITY];
        let limited = LookAt {
            limit: 30f32.to_radians(),
            ..LookAt::default()
        };
        look_at(&parents, &mut pose, 0, Vec3::new(5.0, 0.0, 0.0), &limited);
        assert!(pose[0]
            .rotation
            .abs_diff_eq(Quat::from_rotation_y(30f32.to_radians()), 1e-5));
    }

    /// Model-space set/add: a child of a joint turned 90° about Y gets the model-space value.
    #[test]
    fn model_space_overrides() {
        let parents = [None, Some(0)];
        let mut pose = [
            Transform::from_rotation(Quat::from_rotation_y(FRAC_PI_2)),
            Transform::from_translation(Vec3::X),
        ];
        set_translation(
            &parents,
            &mut pose,
            1,
            Vec3::new(0.0, 0.0, -2.0),
            Space::Model,
            1.0,
        );
        assert!(model_transform(&parents, &pose, 1)
            .translation
            .abs_diff_eq(Vec3::new(0.0, 0.0, -2.0), 1e-6));
        add_translation(
            &parents,
            &mut pose,
            1,
            Vec3::new(0.0, 2.0, 0.0),
            Space::Model,
            0.5,
        );
        assert!(model_transform(&parents, &pose, 1)
            .translation
            .abs_diff_eq(Vec3::new(0.0, 1.0, -2.0), 1e-6));
        set_rotation(&parents, &mut pose, 1, Quat::IDENTITY, Space::Model, 1.0);
        assert!(model_transform(&parents, &pose, 1)
            .rotation
            .abs_diff_eq(Quat::IDENTITY, 1e-6));
        add_rotation(
            &parents,
            &mut pose,
            1,
            Quat::from_rotation_x(1.0),
            Space::Local,
            0.5,
        );
        assert!(pose[1].rotation.abs_diff_eq(
            Quat::from_rotation_y(-FRAC_PI_2) * Quat::from_rotation_x(0.5),
            1e-5
        ));
    }
}
