//! Local transforms as translation, rotation and scale (TRS).
//!
//! Poses are kept as TRS so that blending, masks, IK and export all operate on the same data;
//! matrices appear only at local-to-model and palette time (design property 4).

use glam::{DMat4, Mat4, Quat, Vec3};

/// A translation, rotation and (non-uniform) scale, applied as `T * R * S` like a glTF node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation relative to the parent.
    pub translation: Vec3,
    /// Unit quaternion rotation relative to the parent.
    pub rotation: Quat,
    /// Per-axis scale.
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// The transform that changes nothing.
    pub const IDENTITY: Transform = Transform {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// Builds a transform from its three parts.
    pub fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            translation,
            rotation,
            scale,
        }
    }

    /// A pure translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// A pure rotation.
    pub fn from_rotation(rotation: Quat) -> Self {
        Self {
            rotation,
            ..Self::IDENTITY
        }
    }

    /// The matrix `T * R * S`.
    pub fn to_matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// The matrix `T * R * S` in f64 (each component widened exactly, the product taken in
    /// f64).
    pub fn to_dmat4(&self) -> DMat4 {
        DMat4::from_scale_rotation_translation(
            self.scale.as_dvec3(),
            self.rotation.as_dquat(),
            self.translation.as_dvec3(),
        )
    }

    /// Decomposes an affine matrix (shear is lost, as in any TRS decomposition).
    pub fn from_matrix(m: &Mat4) -> Self {
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Self {
            translation,
            rotation: rotation.normalize(),
            scale,
        }
    }

    /// `self` applied after `child`: the child's transform expressed in `self`'s parent space.
    ///
    /// Exact for uniform scale and for non-uniform scale along axes that the child's rotation
    /// preserves; in general, non-uniform parent scale with a rotated child produces shear that
    /// TRS cannot hold (use matrices for that case, as local-to-model does).
    pub fn mul_transform(&self, child: &Transform) -> Transform {
        Transform {
            translation: self.transform_point(child.translation),
            rotation: (self.rotation * child.rotation).normalize(),
            scale: self.scale * child.scale,
        }
    }

    /// The inverse transform (exact for uniform scale, see [`Transform::mul_transform`]).
    pub fn inverse(&self) -> Transform {
        let inv_scale = self.scale.recip();
        let inv_rot = self.rotation.conjugate();
        Transform {
            translation: inv_rot * (-self.translation) * inv_scale,
            rotation: inv_rot,
            scale: inv_scale,
        }
    }

    /// Applies the transform to a point.
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * (p * self.scale) + self.translation
    }

    /// Applies the rotation and scale (not the translation) to a vector.
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation * (v * self.scale)
    }

    /// Component-wise linear blend with normalised-lerp (shortest path) rotation.
    pub fn nlerp(&self, other: &Transform, t: f32) -> Transform {
        Transform {
            translation: self.translation.lerp(other.translation, t),
            rotation: nlerp_quat(self.rotation, other.rotation, t),
            scale: self.scale.lerp(other.scale, t),
        }
    }

    /// Alias of [`Transform::nlerp`]: the usual blend for poses.
    pub fn lerp(&self, other: &Transform, t: f32) -> Transform {
        self.nlerp(other, t)
    }

    /// Component-wise linear blend with spherical (shortest path) rotation.
    pub fn slerp(&self, other: &Transform, t: f32) -> Transform {
        Transform {
            translation: self.translation.lerp(other.translation, t),
            rotation: slerp_quat(self.rotation, other.rotation, t),
            scale: self.scale.lerp(other.scale, t),
        }
    }

    /// True when every component is finite.
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }

    /// True when `other` is within `eps` per component (quaternions compared up to sign).
    pub fn abs_diff_eq(&self, other: &Transform, eps: f32) -> bool {
        let rot_ok = self.rotation.abs_diff_eq(other.rotation, eps)
            || self.rotation.abs_diff_eq(-other.rotation, eps);
        self.translation.abs_diff_eq(other.translation, eps)
            && rot_ok
            && self.scale.abs_diff_eq(other.scale, eps)
    }
}

/// Normalised linear interpolation along the shortest arc.
pub fn nlerp_quat(a: Quat, b: Quat, t: f32) -> Quat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    let q = Quat::from_xyzw(
        a.x + (b.x - a.x) * t,
        a.y + (b.y - a.y) * t,
        a.z + (b.z - a.z) * t,
        a.w + (b.w - a.w) * t,
    );
    q.normalize()
}

/// Spherical linear interpolation along the shortest arc: the sampler's slerp (three.js's
/// maths; normalised lerp for quaternions under 3.6 degrees apart), so a pose blended with
/// [`Transform::slerp`] and a clip sampled between two keys agree.
pub fn slerp_quat(a: Quat, b: Quat, t: f32) -> Quat {
    super::keys::slerp_shortest(a, b, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn sample() -> Transform {
        Transform::new(
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_rotation_y(0.7) * Quat::from_rotation_x(-0.3),
            Vec3::splat(2.0),
        )
    }

    /// Matrix round trip keeps every component.
    #[test]
    fn matrix_round_trip() {
        let t = sample();
        assert!(Transform::from_matrix(&t.to_matrix()).abs_diff_eq(&t, 1e-5));
    }

    /// Composition agrees with matrix multiplication.
    #[test]
    fn compose_matches_matrices() {
        let a = sample();
        let b = Transform::new(
            Vec3::new(-0.5, 0.1, 4.0),
            Quat::from_rotation_z(1.1),
            Vec3::splat(0.5),
        );
        let m = a.to_matrix() * b.to_matrix();
        let c = a.mul_transform(&b).to_matrix();
        assert!(m.abs_diff_eq(c, 1e-5), "{m:?} vs {c:?}");
    }

    /// A transform composed with its inverse is the identity.
    #[test]
    fn inverse_is_identity() {
        let a = sample();
        let id = a.mul_transform(&a.inverse());
        assert!(id.abs_diff_eq(&Transform::IDENTITY, 1e-5), "{id:?}");
    }

    /// Halfway slerp of a quarter turn is an eighth turn; nlerp agrees in direction.
    #[test]
    fn slerp_and_nlerp_halfway() {
        let a = Quat::IDENTITY;
        let b = Quat::from_rotation_y(FRAC_PI_2);
        let s = slerp_quat(a, b, 0.5);
        assert!(s.abs_diff_eq(Quat::from_rotation_y(FRAC_PI_2 / 2.0), 1e-6));
        let n = nlerp_quat(a, b, 0.5);
        assert!(n.abs_diff_eq(Quat::from_rotation_y(FRAC_PI_2 / 2.0), 1e-6));
    }

    /// Interpolating towards the negated quaternion takes the short way (no 360 degree spin).
    #[test]
    fn shortest_path_through_sign_flip() {
        let a = Quat::from_rotation_z(0.2);
        let b = -Quat::from_rotation_z(0.4);
        let s = slerp_quat(a, b, 0.5);
        let expected = Quat::from_rotation_z(0.3);
        assert!(
            s.abs_diff_eq(expected, 1e-6) || s.abs_diff_eq(-expected, 1e-6),
            "{s:?}"
        );
    }
}
