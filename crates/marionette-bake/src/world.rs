//! World-space measures of a pose: matrices composed in f64 (the runtime's
//! [`marionette_anim::world_matrices`], with the skeleton's armature transform) so the measure itself adds no
//! noise; the leverage of each joint is [`super::leverage`].
//!
//! A reduction measures each joint at its shell ([`super::shell`]). [`joint_error`] is the
//! fixed four-point measure (the joint's origin and three virtual points [`VIRTUAL_DISTANCE`]
//! out along its normalised axes, as ACL measures without a mesh), kept for tests and tools
//! that compare poses of any rig.

use glam::{DMat4, DVec3};

/// Distance of the virtual points from the joint, in metres (10 cm).
pub const VIRTUAL_DISTANCE: f64 = 0.1;

/// How many levels up the hierarchy a joint's error and points are traced exactly (leverage,
/// blame); beyond, bounds carry them, so the cost is linear in the joint count at any depth.
/// Every rig no deeper than this is measured exactly.
pub const EXACT_LEVELS: usize = 64;

/// The four measured points of a joint with world matrix `m`.
fn points(m: &DMat4) -> [DVec3; 4] {
    let o = m.w_axis.truncate();
    let axis = |a: DVec3| o + a.normalize_or_zero() * VIRTUAL_DISTANCE;
    [
        o,
        axis(m.x_axis.truncate()),
        axis(m.y_axis.truncate()),
        axis(m.z_axis.truncate()),
    ]
}

/// Largest displacement of the joint's origin and virtual points between `a` and `b`.
pub fn joint_error(a: &DMat4, b: &DMat4) -> f64 {
    let (pa, pb) = (points(a), points(b));
    (0..4).map(|k| pa[k].distance(pb[k])).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Leverage, Shells};
    use glam::{Mat4, Quat, Vec3};
    use marionette_anim::{world_matrices, Skeleton, Transform};

    fn chain() -> Skeleton {
        let rest = vec![
            Transform::IDENTITY,
            Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
        ];
        Skeleton::new(
            vec!["a".into(), "b".into()],
            vec![None, Some(0)],
            rest,
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton
    }

    /// A pure translation moves all four points by the same distance.
    #[test]
    fn translation_error_is_distance() {
        let a = DMat4::IDENTITY;
        let b = DMat4::from_translation(DVec3::new(0.003, 0.004, 0.0));
        assert!((joint_error(&a, &b) - 0.005).abs() < 1e-12);
    }

    /// A rotation of 0.01 rad about Z moves the virtual X point by 2·0.1·sin(0.005).
    #[test]
    fn rotation_error_uses_virtual_points() {
        let a = DMat4::IDENTITY;
        let b = DMat4::from_rotation_z(0.01);
        let expected = 2.0 * 0.1 * (0.005f64).sin();
        assert!((joint_error(&a, &b) - expected).abs() < 1e-12);
    }

    /// World matrices compose parent-first; leverage sees the child 1 m away plus its points.
    #[test]
    fn world_and_leverage() {
        let s = chain();
        let mut pose = s.rest_pose().to_vec();
        pose[0].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let mut w = Vec::new();
        world_matrices(&s, &pose, &mut w);
        let o = w[1].w_axis.truncate();
        assert!(o.distance(DVec3::new(-1.0, 0.0, 0.0)) < 1e-7, "{o:?}");
        let lev = Leverage::measure(&s, &Shells::floor(&s), &[w]);
        // the child's Y axis points along world -X: its virtual Y point is 1.1 m out
        assert!((lev.reach[0] - 1.1).abs() < 1e-6, "{:?}", lev.reach);
        assert!((lev.reach[1] - 0.1).abs() < 1e-12);
        assert_eq!(lev.parent_scale, vec![1.0, 1.0]);
    }
}
