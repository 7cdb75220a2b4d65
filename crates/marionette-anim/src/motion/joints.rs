//! Per-joint measures over frames: turning speed, the angle away from rest, the jump of the
//! angular velocity between frames, and how deep a joint goes under the ground.

use glam::{Quat, Vec3};

use super::Motion;

/// The angle of the rotation from `a` to `b` (the shorter way), degrees; both are normalised
/// first. The one measure of a turn: the glitch report ([`crate::fast_turns`]) uses it too.
pub fn angle_deg(a: Quat, b: Quat) -> f32 {
    (2.0 * a.normalize().dot(b.normalize()).abs().min(1.0).acos()).to_degrees()
}

/// How fast `joint` turns from frame `f - 1` to `f`, degrees per second (0 at frame 0).
pub fn turn_speed(m: &Motion, f: usize, joint: usize) -> f32 {
    if f == 0 {
        return 0.0;
    }
    angle_deg(m.rotation(f - 1, joint), m.rotation(f, joint)) * m.fps
}

/// The angle of `joint`'s rotation away from its rest rotation at frame `f`, degrees.
pub fn from_rest(m: &Motion, f: usize, joint: usize) -> f32 {
    angle_deg(m.rest_rotation(joint), m.rotation(f, joint))
}

/// The angular velocity of `joint` from frame `f - 1` to `f`, degrees per second (a rotation
/// vector in the parent's space).
pub fn angular_velocity(m: &Motion, f: usize, joint: usize) -> Vec3 {
    if f == 0 {
        return Vec3::ZERO;
    }
    let d = m.rotation(f, joint) * m.rotation(f - 1, joint).inverse();
    let d = if d.w < 0.0 { -d } else { d };
    d.to_scaled_axis() * m.fps.to_degrees()
}

/// The change of `joint`'s angular velocity from the interval ending at `f` to the one after
/// it, degrees per second (zero where either interval is missing).
pub fn velocity_jump(m: &Motion, f: usize, joint: usize) -> f32 {
    if f == 0 || f + 1 >= m.frames() {
        return 0.0;
    }
    (angular_velocity(m, f + 1, joint) - angular_velocity(m, f, joint)).length()
}

/// How far `joint` is under the ground (world height 0) at frame `f`, millimetres (0 above).
pub fn penetration_mm(m: &Motion, f: usize, joint: usize) -> f32 {
    (-m.position(f, joint).y).max(0.0) * 1000.0
}

/// The largest value of `measure(frame, joint)` over `frames` and `joints`, with where.
pub fn worst(
    frames: impl Iterator<Item = usize>,
    joints: &[usize],
    measure: impl Fn(usize, usize) -> f32,
) -> Option<(f32, usize, usize)> {
    let mut best: Option<(f32, usize, usize)> = None;
    for f in frames {
        for &j in joints {
            let v = measure(f, j);
            if best.is_none_or(|(b, _, _)| v > b || v.is_nan() && !b.is_nan()) {
                best = Some((v, f, j));
            }
        }
    }
    best
}
