//! World-space matrices and the leverage of each joint, composed in f64 (with the skeleton's
//! armature transform) so the measure itself adds no noise.
//!
//! A reduction measures each joint at its shell ([`super::shell`]). [`joint_error`] is the
//! fixed four-point measure (the joint's origin and three virtual points [`VIRTUAL_DISTANCE`]
//! out along its normalised axes, as ACL measures without a mesh), kept for tests and tools
//! that compare poses of any rig.

use glam::{DMat4, DVec3};

use super::shell::Shells;
use marionette_anim::{JointIndex, Skeleton};

/// Distance of the virtual points from the joint, in metres (10 cm).
pub const VIRTUAL_DISTANCE: f64 = 0.1;

/// How many levels up the hierarchy a joint's error and points are traced exactly (leverage,
/// blame); beyond, bounds carry them, so the cost is linear in the joint count at any depth.
/// Every rig no deeper than this is measured exactly.
pub const EXACT_LEVELS: usize = 64;

/// World matrices are the runtime's ([`marionette_anim::world_matrices`]), re-exported here
/// for the bake's own modules.
pub use marionette_anim::world_matrices;

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

/// The measured points of a joint with world matrix `m` and shell `radius` (local units): its
/// origin and a point `radius` out along each local axis.
fn shell_points(m: &DMat4, radius: f64) -> [DVec3; 4] {
    let o = m.w_axis.truncate();
    [
        o,
        o + m.x_axis.truncate() * radius,
        o + m.y_axis.truncate() * radius,
        o + m.z_axis.truncate() * radius,
    ]
}

/// Per joint, what one unit of local error costs in world space, measured over reference frames:
/// `parent_scale` (largest world scale of the parent, for translation errors) and `reach` (the
/// farthest shell point of the joint's subtree from its origin, for rotation and scale errors;
/// exact for points up to [`EXACT_LEVELS`] below the joint, an upper bound beyond).
#[derive(Clone, Debug, PartialEq)]
pub struct Leverage {
    /// Largest axis scale of each joint's parent world matrix over all frames.
    pub parent_scale: Vec<f64>,
    /// Largest distance from each joint's origin to a measured point of its subtree.
    pub reach: Vec<f64>,
}

impl Leverage {
    /// Measures leverage over reference world matrices (`worlds[frame][joint]`), each joint's
    /// points on its shell.
    pub fn measure(skeleton: &Skeleton, shells: &Shells, worlds: &[Vec<DMat4>]) -> Self {
        let n = skeleton.len();
        let armature = skeleton.armature().as_dmat4();
        let max_scale = |m: &DMat4| {
            m.x_axis
                .truncate()
                .length()
                .max(m.y_axis.truncate().length())
                .max(m.z_axis.truncate().length())
        };
        let mut parent_scale = vec![0.0f64; n];
        let mut reach = vec![0.0f64; n];
        let mut frame_reach = Vec::with_capacity(n);
        for frame in worlds {
            for (ps, parent) in parent_scale.iter_mut().zip(skeleton.parents()) {
                let parent = match parent {
                    Some(p) => frame[*p as usize],
                    None => armature,
                };
                *ps = ps.max(max_scale(&parent));
            }
            // every measured point of joint c counts for c and its ancestors up to
            // EXACT_LEVELS above; farther ancestors a see c's whole subtree through c's reach
            // in this frame: |p - o_a| <= reach_c + |o_c - o_a| (children come after parents,
            // so walking backwards finishes c's reach before it is used)
            frame_reach.clear();
            frame_reach.resize(n, 0.0);
            for c in (0..n).rev() {
                let pts = shell_points(&frame[c], shells.radius(c));
                let oc = frame[c].w_axis.truncate();
                let mut a = Some(c as JointIndex);
                let mut level = 0;
                while let Some(j) = a {
                    let j = j as usize;
                    let o = frame[j].w_axis.truncate();
                    let d = if level == EXACT_LEVELS {
                        frame_reach[c] + oc.distance(o)
                    } else {
                        pts.iter().map(|p| p.distance(o)).fold(0.0, f64::max)
                    };
                    frame_reach[j] = frame_reach[j].max(d);
                    if level == EXACT_LEVELS {
                        break;
                    }
                    a = skeleton.parents()[j];
                    level += 1;
                }
            }
            for (r, f) in reach.iter_mut().zip(&frame_reach) {
                *r = r.max(*f);
            }
        }
        Self {
            parent_scale,
            reach,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Quat, Vec3};
    use marionette_anim::Transform;

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
