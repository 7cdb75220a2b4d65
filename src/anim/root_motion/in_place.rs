//! Keeping a whole sequence of poses in place, relative to its first frame (the offline form of
//! root motion, used by `bake --in-place`).

use super::{delta, motion_of, RootMotionMode, RootSpace};
use crate::anim::{JointIndex, Transform};

/// Keeps a sequence of poses (`frames[i][joint]`, local, parent-first) in place: removes from
/// every root joint the motion `mode` extracts, relative to the first frame
/// (`pose[r] = motion(frame 0) · motion(frame i)⁻¹ · pose[r]`), so frame 0 is unchanged and the
/// character stays where it starts. Under [`RootMotionMode::Ground`] a walk keeps its height and
/// tilt but neither travels nor turns. Each corrected rotation keeps the sign (hemisphere) of the
/// original, so rotation keys stay continuous. [`RootMotionMode::Off`] changes nothing.
pub fn keep_in_place(
    mode: RootMotionMode,
    space: &RootSpace,
    parents: &[Option<JointIndex>],
    frames: &mut [Vec<Transform>],
) {
    if mode == RootMotionMode::Off {
        return;
    }
    let Some(first) = frames.first() else {
        return;
    };
    let start: Vec<(usize, Transform)> = parents
        .iter()
        .enumerate()
        .filter(|(r, p)| p.is_none() && *r < first.len())
        .map(|(r, _)| (r, motion_of(mode, space, &first[r])))
        .collect();
    for frame in frames.iter_mut() {
        for (r, m0) in &start {
            let Some(root) = frame.get_mut(*r) else {
                continue;
            };
            let m = motion_of(mode, space, root);
            let mut t = m0.mul_transform(&delta(&m, root));
            if t.rotation.dot(root.rotation) < 0.0 {
                t.rotation = -t.rotation;
            }
            *root = t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Quat, Vec3};

    /// A root walking forward while turning stays in place; its height and tilt are kept.
    #[test]
    fn in_place_removes_ground_motion_and_yaw() {
        let mut frames: Vec<Vec<Transform>> = (0..10)
            .map(|i| {
                let f = i as f32;
                vec![Transform::new(
                    Vec3::new(0.5 * f, 1.0 + 0.01 * f, 0.2 * f),
                    Quat::from_rotation_y(0.1 * f) * Quat::from_rotation_x(0.05),
                    Vec3::ONE,
                )]
            })
            .collect();
        let first = frames[0][0];
        keep_in_place(
            RootMotionMode::Ground,
            &RootSpace::IDENTITY,
            &[None],
            &mut frames,
        );
        assert_eq!(frames[0][0], first);
        let last = frames[9][0];
        assert!(
            last.translation
                .abs_diff_eq(Vec3::new(0.0, 1.09, 0.0), 1e-5),
            "{last:?}"
        );
        let expected = Quat::from_rotation_x(0.05);
        assert!(last.rotation.abs_diff_eq(expected, 1e-5), "{last:?}");
    }

    /// A Z-up armature (rotated -90° about X) still removes motion on the world ground plane.
    #[test]
    fn in_place_under_rotated_armature() {
        let space = RootSpace::new(Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2));
        // local +Y under this armature is world -Z: a walk along world -Z
        let mut frames: Vec<Vec<Transform>> = (0..5)
            .map(|i| vec![Transform::from_translation(Vec3::new(0.0, i as f32, 0.3))])
            .collect();
        keep_in_place(RootMotionMode::Ground, &space, &[None], &mut frames);
        // local Z is world Y (height): kept; local Y (world -Z) is pinned to frame 0
        let t = frames[4][0].translation;
        assert!(t.abs_diff_eq(Vec3::new(0.0, 0.0, 0.3), 1e-5), "{t:?}");
        // Off changes nothing
        let before = frames.clone();
        keep_in_place(RootMotionMode::Off, &space, &[None], &mut frames);
        assert_eq!(frames, before);
    }
}
