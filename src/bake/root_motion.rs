//! Root motion of a bake: kept on the root joint, or removed so the take plays in place.
//!
//! "In place" removes, from every root joint and relative to frame 0, the motion on the ground
//! plane (world X and Z) and the turn about the up axis (world Y, the twist of the joint's world
//! rotation); height and every other rotation stay. It is computed in world space (armature
//! included), so a Z-up armature rotated into glTF's Y-up is handled; an armature with
//! non-uniform scale and rotation cannot hold every corrected pose as TRS (shear is dropped).

use glam::{Mat4, Quat, Vec3};

use super::BakedTake;
use crate::anim::{Skeleton, Transform};

/// What happens to the motion of the root joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RootMotion {
    /// The root joints move as evaluated (the character travels in the file).
    #[default]
    Keep,
    /// Ground-plane translation and turning are removed (the character stays in place).
    InPlace,
}

/// The twist of `q` about world Y (the yaw part of a swing-twist decomposition).
fn yaw(q: Quat) -> Quat {
    let t = Quat::from_xyzw(0.0, q.y, 0.0, q.w);
    if t.length_squared() < 1e-12 {
        Quat::IDENTITY
    } else {
        t.normalize()
    }
}

/// Applies `mode` to `take` (in place; [`RootMotion::Keep`] changes nothing).
pub fn apply_root_motion(skeleton: &Skeleton, take: &mut BakedTake, mode: RootMotion) {
    if mode == RootMotion::Keep || take.frames.is_empty() {
        return;
    }
    let armature = skeleton.armature();
    let inv_armature = armature.inverse();
    let roots: Vec<usize> = (0..skeleton.len())
        .filter(|&j| skeleton.parents()[j].is_none())
        .collect();
    for &r in &roots {
        let world0 = armature * take.frames[0][r].to_matrix();
        let (_, q0, p0) = world0.to_scale_rotation_translation();
        let yaw0 = yaw(q0);
        for frame in take.frames.iter_mut() {
            let world = armature * frame[r].to_matrix();
            let (_, q, p) = world.to_scale_rotation_translation();
            let turn = yaw(q) * yaw0.conjugate();
            let target = Vec3::new(p0.x, p.y, p0.z);
            let correction = Mat4::from_translation(target)
                * Mat4::from_quat(turn.conjugate())
                * Mat4::from_translation(-p);
            let local = inv_armature * correction * world;
            let mut t = Transform::from_matrix(&local);
            if t.rotation.dot(frame[r].rotation) < 0.0 {
                t.rotation = -t.rotation;
            }
            frame[r] = t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::TakeMeta;

    /// A root walking forward while turning stays in place; its height and tilt are kept.
    #[test]
    fn in_place_removes_ground_motion_and_yaw() {
        let s = Skeleton::new(
            vec!["hips".into()],
            vec![None],
            vec![Transform::from_translation(Vec3::new(0.0, 1.0, 0.0))],
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton;
        let frames = (0..10)
            .map(|i| {
                let f = i as f32;
                vec![Transform::new(
                    Vec3::new(0.5 * f, 1.0 + 0.01 * f, 0.2 * f),
                    Quat::from_rotation_y(0.1 * f) * Quat::from_rotation_x(0.05),
                    Vec3::ONE,
                )]
            })
            .collect();
        let mut take = BakedTake {
            name: "walk".into(),
            fps: 30.0,
            frames,
            meta: TakeMeta::default(),
        };
        apply_root_motion(&s, &mut take, RootMotion::InPlace);
        let last = take.frames[9][0];
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
        let armature = Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        let s = Skeleton::new(
            vec!["root".into()],
            vec![None],
            vec![Transform::IDENTITY],
            armature,
        )
        .unwrap()
        .skeleton;
        // local +Y under this armature is world -Z: a walk along world -Z
        let frames = (0..5)
            .map(|i| vec![Transform::from_translation(Vec3::new(0.0, i as f32, 0.3))])
            .collect();
        let mut take = BakedTake {
            name: "walk".into(),
            fps: 30.0,
            frames,
            meta: TakeMeta::default(),
        };
        apply_root_motion(&s, &mut take, RootMotion::InPlace);
        // local Z is world Y (height): kept; local Y (world -Z) is pinned to frame 0
        let t = take.frames[4][0].translation;
        assert!(t.abs_diff_eq(Vec3::new(0.0, 0.0, 0.3), 1e-5), "{t:?}");
    }
}
