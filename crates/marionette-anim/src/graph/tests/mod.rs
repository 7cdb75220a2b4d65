//! Graph tests on tiny synthetic rigs: three joints (`root`, `L_arm`, `R_arm`), identity rest
//! pose, and clips that slide one joint along +X linearly, so expected values are obvious.

mod inertial;
mod lock_reuse;
mod machine;
mod morphs;
mod nodes;
mod provenance;
mod retarget;
mod state_events;
mod time;

use std::sync::Arc;

use glam::{Mat4, Quat, Vec3};

use crate::{Clip, Interpolation, JointTracks, Skeleton, Track, Transform};

/// root (0), L_arm (1), R_arm (2), identity rest pose.
pub(super) fn skel() -> Arc<Skeleton> {
    let names = ["root", "L_arm", "R_arm"].map(String::from).to_vec();
    Arc::new(
        Skeleton::new(
            names,
            vec![None, Some(0), Some(0)],
            vec![Transform::IDENTITY; 3],
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton,
    )
}

/// A clip of `len` seconds moving `joint` from x = `from` to x = `to`.
pub(super) fn slide(name: &str, joint: u16, len: f32, from: f32, to: f32) -> Arc<Clip> {
    let mut jt = JointTracks::new(joint);
    jt.translation = Some(Track {
        interpolation: Interpolation::Linear,
        times: vec![0.0, len],
        values: vec![Vec3::X * from, Vec3::X * to],
    });
    Arc::new(Clip::new(name, vec![jt]))
}

/// A clip holding `joint` at x = `x` for 1 s.
pub(super) fn hold(name: &str, joint: u16, x: f32) -> Arc<Clip> {
    slide(name, joint, 1.0, x, x)
}

/// A clip of 1 s turning `joint` about +Y from 0 to `angle`.
pub(super) fn turn(name: &str, joint: u16, angle: f32) -> Arc<Clip> {
    let mut jt = JointTracks::new(joint);
    jt.rotation = Some(Track {
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: vec![Quat::IDENTITY, Quat::from_rotation_y(angle)],
    });
    Arc::new(Clip::new(name, vec![jt]))
}

/// Asserts two floats agree within 1e-4.
#[track_caller]
pub(super) fn close(a: f32, b: f32) {
    assert!((a - b).abs() < 1e-4, "{a} vs {b}");
}
