//! Pose-level blending: two-way and N-way weighted blends, per-joint masked layers and additive
//! poses. Every function works on local TRS poses (one [`Transform`] per joint, parent-first)
//! and writes in place or into a caller-owned buffer, so nothing allocates per frame.
//!
//! Rotations blend by normalised linear interpolation along the shortest arc (each input is
//! sign-aligned with the accumulated result before it is added); translations and scales blend
//! linearly.
//!
//! ```
//! use glam::Vec3;
//! use marionette_anim::{blend, Transform};
//!
//! let mut a = [Transform::from_translation(Vec3::ZERO)];
//! let b = [Transform::from_translation(Vec3::new(2.0, 0.0, 0.0))];
//! blend::lerp_in_place(&mut a, &b, 0.25);
//! assert_eq!(a[0].translation.x, 0.5);
//! ```

#![warn(missing_docs)]

use glam::{Quat, Vec3, Vec4};

use super::{nlerp_quat, Transform};

/// `a = lerp(a, b, t)` per joint (nlerp for rotations). Extra joints in the longer slice are
/// left untouched.
pub fn lerp_in_place(a: &mut [Transform], b: &[Transform], t: f32) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.nlerp(y, t);
    }
}

/// `out = lerp(a, b, t)` per joint.
pub fn lerp_into(a: &[Transform], b: &[Transform], t: f32, out: &mut [Transform]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x.nlerp(y, t);
    }
}

/// `base = lerp(base, layer, weight * mask[j])` per joint: a layer with a per-joint soft mask.
/// A joint beyond the mask's length gets mask weight 0 (the base pose is kept).
pub fn layer_in_place(base: &mut [Transform], layer: &[Transform], mask: &[f32], weight: f32) {
    for (j, (x, y)) in base.iter_mut().zip(layer).enumerate() {
        let w = weight * mask.get(j).copied().unwrap_or(0.0);
        if w >= 1.0 {
            *x = *y;
        } else if w > 0.0 {
            *x = x.nlerp(y, w);
        }
    }
}

/// Starts an N-way blend: scales `acc` by `weight` (the first input's normalised weight).
///
/// Follow with [`accumulate`] for every further input and finish with [`normalize_blend`].
/// Weights are expected to sum to 1.
pub fn begin_accumulate(acc: &mut [Transform], weight: f32) {
    for x in acc.iter_mut() {
        x.translation *= weight;
        x.rotation = Quat::from_vec4(Vec4::from(x.rotation) * weight);
        x.scale *= weight;
    }
}

/// Adds `weight * input` to the accumulating blend `acc` (rotations sign-aligned with `acc`).
pub fn accumulate(acc: &mut [Transform], input: &[Transform], weight: f32) {
    for (x, y) in acc.iter_mut().zip(input) {
        x.translation += y.translation * weight;
        let q = Vec4::from(y.rotation);
        let a = Vec4::from(x.rotation);
        let q = if a.dot(q) < 0.0 { -q } else { q };
        x.rotation = Quat::from_vec4(a + q * weight);
        x.scale += y.scale * weight;
    }
}

/// Finishes an N-way blend: renormalises the accumulated rotations.
pub fn normalize_blend(acc: &mut [Transform]) {
    for x in acc.iter_mut() {
        let v = Vec4::from(x.rotation).normalize_or(Vec4::W);
        x.rotation = Quat::from_vec4(v);
    }
}

/// The additive delta that takes `reference` to `pose`, per joint: translation difference,
/// local rotation difference `reference⁻¹ · pose` and scale ratio.
pub fn additive_delta(reference: &[Transform], pose: &[Transform], out: &mut [Transform]) {
    for ((o, r), p) in out.iter_mut().zip(reference).zip(pose) {
        *o = Transform {
            translation: p.translation - r.translation,
            rotation: (r.rotation.conjugate() * p.rotation).normalize(),
            scale: p.scale / r.scale,
        };
    }
}

/// Applies an additive delta (see [`additive_delta`]) on top of `base`, scaled by
/// `weight * mask[j]` (a missing mask means weight 1 for every joint): translation
/// `t + w·Δt`, rotation `r · nlerp(I, Δr, w)`, scale `s · lerp(1, Δs, w)`.
pub fn add_in_place(
    base: &mut [Transform],
    delta: &[Transform],
    weight: f32,
    mask: Option<&[f32]>,
) {
    for (j, (x, d)) in base.iter_mut().zip(delta).enumerate() {
        let w = weight * mask.map_or(1.0, |m| m.get(j).copied().unwrap_or(0.0));
        if w == 0.0 {
            continue;
        }
        x.translation += d.translation * w;
        let dr = if w == 1.0 {
            d.rotation
        } else {
            nlerp_quat(Quat::IDENTITY, d.rotation, w)
        };
        x.rotation = (x.rotation * dr).normalize();
        x.scale *= Vec3::ONE.lerp(d.scale, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(x: f32) -> Transform {
        Transform::from_translation(Vec3::new(x, 0.0, 0.0))
    }

    /// A three-way blend with weights 0.5/0.25/0.25 of x = 0, 4, 8 gives x = 3.
    #[test]
    fn three_way_blend() {
        let mut acc = [t(0.0)];
        begin_accumulate(&mut acc, 0.5);
        accumulate(&mut acc, &[t(4.0)], 0.25);
        accumulate(&mut acc, &[t(8.0)], 0.25);
        normalize_blend(&mut acc);
        assert!((acc[0].translation.x - 3.0).abs() < 1e-6);
        assert_eq!(acc[0].scale, Vec3::ONE);
        assert!(acc[0].rotation.abs_diff_eq(Quat::IDENTITY, 1e-6));
    }

    /// Blending a quaternion with its negation-equivalent stays on the short arc.
    #[test]
    fn accumulate_aligns_signs() {
        let q = Quat::from_rotation_y(0.4);
        let mut acc = [Transform::from_rotation(q)];
        begin_accumulate(&mut acc, 0.5);
        accumulate(&mut acc, &[Transform::from_rotation(-q)], 0.5);
        normalize_blend(&mut acc);
        assert!(
            acc[0].rotation.abs_diff_eq(q, 1e-6),
            "{:?}",
            acc[0].rotation
        );
    }

    /// A masked layer moves only masked joints, by weight times mask.
    #[test]
    fn masked_layer() {
        let mut base = [t(0.0), t(0.0), t(0.0)];
        let layer = [t(10.0), t(10.0), t(10.0)];
        layer_in_place(&mut base, &layer, &[0.0, 0.5, 1.0], 0.8);
        assert_eq!(base[0].translation.x, 0.0);
        assert!((base[1].translation.x - 4.0).abs() < 1e-6);
        assert!((base[2].translation.x - 8.0).abs() < 1e-6);
    }

    /// Additive: delta of (ref x=1 -> pose x=3, 90° about Y) at half weight on a base at x=5.
    #[test]
    fn additive_half_weight() {
        let reference = [t(1.0)];
        let pose = [Transform::new(
            Vec3::new(3.0, 0.0, 0.0),
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            Vec3::splat(2.0),
        )];
        let mut delta = [Transform::IDENTITY];
        additive_delta(&reference, &pose, &mut delta);
        let mut base = [t(5.0)];
        add_in_place(&mut base, &delta, 0.5, None);
        assert!((base[0].translation.x - 6.0).abs() < 1e-6);
        let expected = Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
        assert!(base[0].rotation.abs_diff_eq(expected, 1e-6));
        assert!(base[0].scale.abs_diff_eq(Vec3::splat(1.5), 1e-6));
    }
}
