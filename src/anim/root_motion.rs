//! Root motion (seed 004): the part of the root joint's movement that moves the whole character
//! through the world is split off into a separate channel, removed from the pose so it is not
//! applied twice, and handed out as a per-step delta that the caller may accumulate (to walk the
//! character through the scene) or ignore (to keep it in place).
//!
//! Two extraction modes:
//! - [`RootMotionMode::Masked`]: ground-plane translation (X and Z) and yaw (rotation about +Y);
//!   height, pitch and roll stay in the pose (a jump still goes up).
//! - [`RootMotionMode::Whole`]: the root joint's whole translation and rotation.
//!
//! The invariant: for a root transform `R`, `split(R) = (motion, rest)` with
//! `motion * rest == R`. Accumulating the deltas `motion(t0)⁻¹ · motion(t1)` from
//! `motion(0)` and applying the accumulated transform to the pose puts the root exactly where the
//! clip put it.
//!
//! ```
//! use glam::{Quat, Vec3};
//! use marionette::anim::root_motion::{split, RootMotionMode};
//! use marionette::anim::Transform;
//!
//! let root = Transform::new(Vec3::new(1.0, 0.9, 2.0), Quat::from_rotation_y(0.5), Vec3::ONE);
//! let (motion, rest) = split(RootMotionMode::Masked, &root);
//! assert_eq!(motion.translation, Vec3::new(1.0, 0.0, 2.0));
//! assert!(rest.translation.abs_diff_eq(Vec3::new(0.0, 0.9, 0.0), 1e-6));
//! ```

#![warn(missing_docs)]

use glam::{Quat, Vec3};

use super::{JointIndex, Transform};

/// Which part of the root joint's motion is extracted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RootMotionMode {
    /// Ground-plane translation (X, Z) and yaw about +Y.
    #[default]
    Masked,
    /// The whole translation and rotation.
    Whole,
}

/// The rotation about +Y contained in `q` (the twist of a swing-twist decomposition).
pub fn yaw_of(q: Quat) -> Quat {
    let twist = Quat::from_xyzw(0.0, q.y, 0.0, q.w);
    let len = twist.length();
    if len < 1e-6 {
        // a half turn about a horizontal axis: no defined yaw
        Quat::IDENTITY
    } else {
        twist / len
    }
}

/// Splits a root transform into `(motion, remainder)` with `motion * remainder == root`.
pub fn split(mode: RootMotionMode, root: &Transform) -> (Transform, Transform) {
    let motion = motion_of(mode, root);
    let rest = motion.inverse().mul_transform(root);
    (motion, rest)
}

/// The motion part of a root transform (translation and rotation only, unit scale).
pub fn motion_of(mode: RootMotionMode, root: &Transform) -> Transform {
    match mode {
        RootMotionMode::Masked => Transform {
            translation: Vec3::new(root.translation.x, 0.0, root.translation.z),
            rotation: yaw_of(root.rotation),
            scale: Vec3::ONE,
        },
        RootMotionMode::Whole => Transform {
            translation: root.translation,
            rotation: root.rotation,
            scale: Vec3::ONE,
        },
    }
}

/// The motion from `from` to `to`, in the character's frame at `from`: `from⁻¹ · to`.
pub fn delta(from: &Transform, to: &Transform) -> Transform {
    from.inverse().mul_transform(to)
}

/// Removes `motion` from every root joint of a pose (`pose[r] = motion⁻¹ · pose[r]` for each
/// joint without a parent), so the motion is not applied twice.
pub fn remove_from_roots(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    motion: &Transform,
) {
    let inv = motion.inverse();
    for (t, p) in pose.iter_mut().zip(parents) {
        if p.is_none() {
            *t = inv.mul_transform(t);
        }
    }
}

/// Puts accumulated `motion` back on every root joint of an in-place pose
/// (`pose[r] = motion · pose[r]`): the "accumulate" choice of a preview or bake.
pub fn apply_to_roots(parents: &[Option<JointIndex>], pose: &mut [Transform], motion: &Transform) {
    for (t, p) in pose.iter_mut().zip(parents) {
        if p.is_none() {
            *t = motion.mul_transform(t);
        }
    }
}

/// Weighted blend of several motion deltas: `sum(w_i * translation_i)` and the normalised
/// weighted sum of rotations (sign-aligned with the identity); the weights not given (up to 1)
/// count as "no motion". Build with [`MotionBlend::add`], read with [`MotionBlend::result`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct MotionBlend {
    translation: Vec3,
    rotation: glam::Vec4,
    weight: f32,
}

impl MotionBlend {
    /// Adds one weighted motion.
    pub fn add(&mut self, motion: &Transform, weight: f32) {
        let q = glam::Vec4::from(motion.rotation);
        let q = if q.w < 0.0 { -q } else { q };
        self.translation += motion.translation * weight;
        self.rotation += q * weight;
        self.weight += weight;
    }

    /// Adds everything accumulated in `other`.
    pub fn merge(&mut self, other: &MotionBlend) {
        self.translation += other.translation;
        self.rotation += other.rotation;
        self.weight += other.weight;
    }

    /// Reflects the accumulated motions across the `X = 0` plane (see
    /// [`crate::anim::mirror::reflect_x`]); reflection is linear, so the blend of reflected
    /// motions is the reflected blend.
    pub fn reflect_x(&mut self) {
        self.translation.x = -self.translation.x;
        self.rotation.y = -self.rotation.y;
        self.rotation.z = -self.rotation.z;
    }

    /// The blended motion; missing weight (below 1) is filled with the identity.
    pub fn result(&self) -> Transform {
        let missing = (1.0 - self.weight).max(0.0);
        let q = (self.rotation + glam::Vec4::W * missing).normalize_or(glam::Vec4::W);
        Transform {
            translation: self.translation,
            rotation: Quat::from_vec4(q),
            scale: Vec3::ONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(i: usize) -> Transform {
        let t = i as f32 * 0.1;
        Transform::new(
            Vec3::new(0.3 * t, 0.9 + 0.05 * (t * 7.0).sin(), 1.2 * t),
            Quat::from_rotation_y(0.4 * t) * Quat::from_rotation_x(0.1 * (t * 5.0).sin()),
            Vec3::ONE,
        )
    }

    /// split() is exact: motion * remainder reproduces the root, and masked keeps height in the pose.
    #[test]
    fn split_recomposes() {
        for mode in [RootMotionMode::Masked, RootMotionMode::Whole] {
            let root = path(7);
            let (m, r) = split(mode, &root);
            assert!(m.mul_transform(&r).abs_diff_eq(&root, 1e-6));
            if mode == RootMotionMode::Masked {
                assert_eq!(m.translation.y, 0.0);
                assert!((r.translation.y - root.translation.y).abs() < 1e-6);
            }
        }
    }

    /// Accumulated deltas applied to the in-place poses give back the root path.
    #[test]
    fn accumulated_motion_restores_path() {
        for mode in [RootMotionMode::Masked, RootMotionMode::Whole] {
            let mut acc = motion_of(mode, &path(0));
            let mut prev = acc;
            for i in 1..50 {
                let m = motion_of(mode, &path(i));
                acc = acc.mul_transform(&delta(&prev, &m));
                prev = m;
                let mut pose = [path(i)];
                remove_from_roots(&[None], &mut pose, &m);
                let world = acc.mul_transform(&pose[0]);
                assert!(world.abs_diff_eq(&path(i), 1e-5), "{i}: {world:?}");
            }
        }
    }

    /// Yaw extraction of a pitched and yawed rotation keeps only the yaw.
    #[test]
    fn yaw_extraction() {
        let q = Quat::from_rotation_y(0.8) * Quat::from_rotation_x(0.3);
        assert!(yaw_of(q).abs_diff_eq(Quat::from_rotation_y(0.8), 1e-6));
    }

    /// Reflected blend equals the blend of reflected motions: x=1 turning +0.3 about Y mirrors to
    /// x=-1 turning -0.3.
    #[test]
    fn reflected_blend() {
        let mut b = MotionBlend::default();
        b.add(
            &Transform::new(Vec3::X, Quat::from_rotation_y(0.3), Vec3::ONE),
            1.0,
        );
        let mut outer = MotionBlend::default();
        b.reflect_x();
        outer.merge(&b);
        let r = outer.result();
        assert!(r.translation.abs_diff_eq(-Vec3::X, 1e-6));
        assert!(r.rotation.abs_diff_eq(Quat::from_rotation_y(-0.3), 1e-6));
    }

    /// Blending motions of x=1 (w 0.25) and x=3 (w 0.5) with 0.25 missing gives x=1.75.
    #[test]
    fn motion_blend() {
        let mut b = MotionBlend::default();
        b.add(&Transform::from_translation(Vec3::X), 0.25);
        b.add(&Transform::from_translation(Vec3::X * 3.0), 0.5);
        assert!((b.result().translation.x - 1.75).abs() < 1e-6);
    }
}
