//! Weighted blending of root-motion deltas, as the graph's blends and blend spaces mix their
//! players' motion.

use glam::{Quat, Vec3};

use crate::Transform;

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

    /// Moves the blended motion by `t` (in the step's frame), whatever the weights: a
    /// correction on top of the motions ([`crate::graph::WarpNode`]).
    pub fn shift(&mut self, t: Vec3) {
        self.translation += t;
    }

    /// Adds everything accumulated in `other`.
    pub fn merge(&mut self, other: &MotionBlend) {
        self.translation += other.translation;
        self.rotation += other.rotation;
        self.weight += other.weight;
    }

    /// Reflects the accumulated motions across the `X = 0` plane (see
    /// [`crate::mirror::reflect_x`]); reflection is linear, so the blend of reflected
    /// motions is the reflected blend.
    pub fn reflect_x(&mut self) {
        self.translation.x = -self.translation.x;
        self.rotation.y = -self.rotation.y;
        self.rotation.z = -self.rotation.z;
    }

    /// Expresses the accumulated motions in another frame: translations through `linear`,
    /// rotations conjugated by `rotation` (both linear in the sums, so the result is the
    /// blend of the transformed motions, up to the scale `linear` may hold).
    pub fn transform(&mut self, linear: glam::Mat3, rotation: Quat) {
        self.translation = linear * self.translation;
        let q = Quat::from_vec4(self.rotation);
        let c = rotation * q * rotation.conjugate();
        self.rotation = glam::Vec4::from(c);
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
