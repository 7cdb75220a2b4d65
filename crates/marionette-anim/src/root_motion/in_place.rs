//! Keeping a whole sequence of poses in place, relative to its first frame (the offline form of
//! root motion, used by `bake --in-place`).

use super::{Reference, RootMotionMode, RootSpace};
use crate::{JointIndex, Transform};

/// Keeps a sequence of poses (each frame a slice of local transforms, parent-first) in place: removes from
/// every root joint the motion `mode` extracts, measured from that root in the first frame
/// ([`Reference::of`]; `pose[r] = placement(frame 0) · placement(frame i)⁻¹ · pose[r]`), so
/// frame 0 is unchanged and the character stays where it starts, wherever that is. Under
/// [`RootMotionMode::Ground`] a walk keeps its height and tilt but neither travels nor turns.
/// Each corrected rotation keeps the sign (hemisphere) of the original, so rotation keys stay
/// continuous. [`RootMotionMode::Off`] changes nothing.
pub fn keep_in_place<'a>(
    mode: RootMotionMode,
    space: &RootSpace,
    parents: &[Option<JointIndex>],
    frames: impl IntoIterator<Item = &'a mut [Transform]>,
) {
    if mode == RootMotionMode::Off {
        return;
    }
    let mut frames = frames.into_iter().peekable();
    let Some(first) = frames.peek() else {
        return;
    };
    let start: Vec<(usize, Reference)> = parents
        .iter()
        .enumerate()
        .filter(|(r, p)| p.is_none() && *r < first.len())
        .map(|(r, _)| (r, Reference::of(mode, space, &first[r])))
        .collect();
    for frame in frames {
        for (r, reference) in &start {
            let Some(root) = frame.get_mut(*r) else {
                continue;
            };
            let motion = reference.motion(mode, space, root);
            if motion == Transform::IDENTITY {
                continue;
            }
            let mut t = motion.inverse().mul_transform(root);
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
            frames.iter_mut().map(Vec::as_mut_slice),
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
        keep_in_place(
            RootMotionMode::Ground,
            &space,
            &[None],
            frames.iter_mut().map(Vec::as_mut_slice),
        );
        // local Z is world Y (height): kept; local Y (world -Z) is pinned to frame 0
        let t = frames[4][0].translation;
        assert!(t.abs_diff_eq(Vec3::new(0.0, 0.0, 0.3), 1e-5), "{t:?}");
        // Off changes nothing
        let before = frames.clone();
        keep_in_place(
            RootMotionMode::Off,
            &space,
            &[None],
            frames.iter_mut().map(Vec::as_mut_slice),
        );
        assert_eq!(frames, before);
    }

    /// Off the origin (a root resting 0.195 m away, turned 90°): an in-place clip comes back
    /// unchanged, bit for bit, and a walk stays where its first frame stands, facing the same
    /// way, instead of being moved to the origin.
    #[test]
    fn in_place_keeps_an_off_origin_start() {
        let rest = Transform::new(
            Vec3::new(-0.003, 0.02, -0.195),
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_x(0.05),
            Vec3::ONE,
        );
        let parents = [None, Some(0)];
        let child = Transform::from_translation(Vec3::new(0.0, 0.5, 0.0));
        let mut still: Vec<Vec<Transform>> = (0..5).map(|_| vec![rest, child]).collect();
        let before = still.clone();
        keep_in_place(
            RootMotionMode::Ground,
            &RootSpace::IDENTITY,
            &parents,
            still.iter_mut().map(Vec::as_mut_slice),
        );
        assert_eq!(still, before);
        let mut walk: Vec<Vec<Transform>> = (0..10)
            .map(|i| {
                let f = i as f32;
                let root = Transform::new(
                    rest.translation + Vec3::new(0.1 * f, 0.01 * f, 0.03 * f),
                    Quat::from_rotation_y(0.05 * f) * rest.rotation,
                    Vec3::ONE,
                );
                vec![root, child]
            })
            .collect();
        keep_in_place(
            RootMotionMode::Ground,
            &RootSpace::IDENTITY,
            &parents,
            walk.iter_mut().map(Vec::as_mut_slice),
        );
        assert_eq!(walk[0][0], rest);
        for (i, frame) in walk.iter().enumerate() {
            let t = frame[0].translation;
            let expected = rest.translation + Vec3::Y * 0.01 * i as f32;
            assert!(t.abs_diff_eq(expected, 1e-5), "{i}: {t}");
            assert!(frame[0].rotation.abs_diff_eq(rest.rotation, 1e-5), "{i}");
            assert_eq!(frame[1], child);
        }
    }
}
