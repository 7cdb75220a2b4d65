//! The mannequin's clips: `idle`, `walk`, `run` (loops sharing the foot-contact phase
//! convention of [`super::gait`]), `jump` (one-shot) and `wave` (right arm only, loop).
//!
//! Every clip is sampled at [`FPS`] into LINEAR keys. Only joints that move get tracks; only
//! `root` and `pelvis` get translation tracks. Loops end on a copy of their first key (except
//! the root's forward translation, which is root motion).

use std::f32::consts::TAU;

use glam::{Quat, Vec3};

use super::gait::{self, fit_pelvis, pivot_ankle, steady_head};
use super::pose::Poser;
use super::rig::{j, Landmarks as L, Rig};
use crate::{Clip, Interpolation, JointTracks, Track, Transform};

/// Key rate of every clip.
pub const FPS: f32 = 30.0;

/// Samples `pose(t)` at `frames + 1` keys over `frames / FPS` seconds into a clip.
fn bake(
    rig: &Rig,
    name: &str,
    frames: usize,
    looping: bool,
    pose: impl Fn(f32) -> Vec<Transform>,
) -> Clip {
    let times: Vec<f32> = (0..=frames).map(|k| k as f32 / FPS).collect();
    let mut poses: Vec<Vec<Transform>> = times.iter().map(|&t| pose(t)).collect();
    if looping {
        let mut last = poses[0].clone();
        last[j::ROOT].translation = poses[frames][j::ROOT].translation;
        poses[frames] = last;
    }
    let mut tracks = Vec::new();
    for joint in 0..rig.names.len() {
        let rest = rig.rest_local[joint];
        let mut rot: Vec<Quat> = poses.iter().map(|p| p[joint].rotation).collect();
        for k in 1..rot.len() {
            if rot[k].dot(rot[k - 1]) < 0.0 {
                rot[k] = -rot[k];
            }
        }
        let mut jt = JointTracks::new(joint as u16);
        if rot
            .iter()
            .any(|q| !q.abs_diff_eq(rest.rotation, 1e-6) && !q.abs_diff_eq(-rest.rotation, 1e-6))
        {
            jt.rotation = Some(track(&times, rot));
        }
        let tr: Vec<Vec3> = poses.iter().map(|p| p[joint].translation).collect();
        if tr.iter().any(|t| !t.abs_diff_eq(rest.translation, 1e-6)) {
            jt.translation = Some(track(&times, tr));
        }
        if jt.rotation.is_some() || jt.translation.is_some() {
            tracks.push(jt);
        }
    }
    Clip::new(name, tracks)
}

fn track<T>(times: &[f32], values: Vec<T>) -> Track<T> {
    Track {
        interpolation: Interpolation::Linear,
        times: times.to_vec(),
        values,
    }
}

/// Catmull-Rom curve through `(time, value)` control points (clamped at the ends).
fn curve(pts: &[(f32, f32)], t: f32) -> f32 {
    let n = pts.len();
    if t <= pts[0].0 {
        return pts[0].1;
    }
    let Some(i) = (0..n - 1).find(|&i| t < pts[i + 1].0) else {
        return pts[n - 1].1;
    };
    let (t0, t1) = (pts[i].0, pts[i + 1].0);
    let u = (t - t0) / (t1 - t0);
    let p0 = pts[i.saturating_sub(1)].1;
    let (p1, p2) = (pts[i].1, pts[i + 1].1);
    let p3 = pts[(i + 2).min(n - 1)].1;
    let (u2, u3) = (u * u, u * u * u);
    0.5 * (2.0 * p1
        + (p2 - p0) * u
        + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * u2
        + (3.0 * p1 - p0 - 3.0 * p2 + p3) * u3)
}

/// Standing idle: breathing, a slow weight shift and relaxed arms (2.4 s loop).
fn idle_pose(rig: &Rig, t: f32) -> Vec<Transform> {
    let w = TAU * t / 2.4;
    let mut ps = Poser::new(rig);
    let rest = rig.rest_local[j::PELVIS].translation;
    ps.local[j::PELVIS].translation.x = rest.x + 0.012 * w.sin();
    let roll = Quat::from_rotation_z(0.015 * w.sin());
    ps.set_model_rotation(j::PELVIS, roll * rig.rest_model[j::PELVIS].rotation);
    let ankles = [0, 1].map(|side| rig.rest_model[j::FOOT[side]].translation);
    fit_pelvis(
        &mut ps,
        ankles,
        rest.y + IDLE_DROP + 0.003 * (2.0 * w).cos(),
        STAND_REACH,
        0.01,
    );
    let breath = (2.0 * w).sin();
    ps.rotate_local(j::SPINE_01, Quat::from_rotation_z(-0.01 * w.sin()));
    ps.rotate_local(j::SPINE_02, Quat::from_rotation_x(-0.012 * breath));
    let chest = Quat::from_rotation_x(-0.018 * breath) * Quat::from_rotation_z(-0.01 * w.sin());
    ps.rotate_local(j::CHEST, chest);
    steady_head(&mut ps, IDLE_NOD * (w + 0.5).sin());
    for (side, ankle) in ankles.into_iter().enumerate() {
        ps.leg(side, ankle, 0.0, 0.0);
        let sign = if side == 0 { 1.0 } else { -1.0 };
        let swing = IDLE_SWING + 0.02 * sign * w.sin();
        ps.hanging_arm(side, swing, IDLE_ABDUCT + 0.01 * breath, IDLE_ELBOW, 0.1);
    }
    ps.finish(Vec3::ZERO)
}

/// Idle parameters; the jump starts and ends in the idle's first pose.
const IDLE_DROP: f32 = 0.0;
const IDLE_NOD: f32 = 0.02;
const IDLE_SWING: f32 = 0.06;
const IDLE_ABDUCT: f32 = 0.13;
const IDLE_ELBOW: f32 = 0.25;
/// Standing legs may straighten fully (the bind pose keeps a slight bend).
const STAND_REACH: f32 = 1.0;

/// A standing jump: crouch, take-off, flight with tucked legs, landing and recovery (1 s).
fn jump_pose(rig: &Rig, t: f32) -> Vec<Transform> {
    let d0 = IDLE_DROP + 0.003;
    let pelvis_dy = curve(
        &[
            (0.0, d0),
            (0.12, -0.08),
            (0.26, -0.2),
            (0.36, 0.02),
            (0.46, 0.25),
            (0.56, 0.36),
            (0.66, 0.3),
            (0.76, 0.05),
            (0.84, -0.17),
            (0.92, -0.08),
            (1.0, d0),
        ],
        t,
    );
    let lift = curve(
        &[
            (0.0, 0.0),
            (0.34, 0.0),
            (0.42, 0.08),
            (0.58, 0.42),
            (0.68, 0.25),
            (0.76, 0.0),
            (1.0, 0.0),
        ],
        t,
    )
    .max(0.0);
    let lift = if !(0.34..0.76).contains(&t) {
        0.0
    } else {
        lift
    };
    let pitch = curve(
        &[
            (0.0, 0.0),
            (0.28, 0.0),
            (0.36, 0.6),
            (0.44, 0.5),
            (0.6, 0.25),
            (0.72, 0.1),
            (0.77, 0.0),
            (1.0, 0.0),
        ],
        t,
    )
    .max(0.0);
    let lean = curve(
        &[
            (0.0, 0.0),
            (0.26, 0.35),
            (0.38, -0.05),
            (0.56, 0.08),
            (0.76, 0.15),
            (0.86, 0.3),
            (1.0, 0.0),
        ],
        t,
    );
    let (s0, a0, e0) = (IDLE_SWING, IDLE_ABDUCT, IDLE_ELBOW);
    let swing = curve(
        &[
            (0.0, s0),
            (0.26, -0.7),
            (0.4, 2.2),
            (0.56, 2.0),
            (0.7, 0.9),
            (0.84, -0.2),
            (1.0, s0),
        ],
        t,
    );
    let abduct = curve(
        &[(0.0, a0), (0.4, 0.3), (0.56, 0.35), (0.76, 0.3), (1.0, a0)],
        t,
    );
    let elbow = curve(
        &[
            (0.0, e0),
            (0.26, 0.25),
            (0.4, 0.15),
            (0.6, 0.3),
            (0.84, 0.4),
            (1.0, e0),
        ],
        t,
    );
    let mut ps = Poser::new(rig);
    let ankles: [Vec3; 2] = std::array::from_fn(|side| {
        let ankle = L::ankle(side);
        pivot_ankle(ankle, L::ball(side) - ankle, pitch) + Vec3::Y * lift
    });
    ps.rotate_local(j::PELVIS, Quat::from_rotation_x(lean * 0.3));
    let rest_y = rig.rest_local[j::PELVIS].translation.y;
    ps.local[j::PELVIS].translation.z = -0.06 * (lean / 0.35).max(0.0);
    fit_pelvis(&mut ps, ankles, rest_y + pelvis_dy, STAND_REACH, 0.01);
    for joint in [j::SPINE_01, j::SPINE_02, j::CHEST] {
        ps.rotate_local(joint, Quat::from_rotation_x(lean * 0.7 / 3.0));
    }
    steady_head(&mut ps, IDLE_NOD * 0.5f32.sin() + 0.3 * lean);
    let toe = pitch * (lift / 0.05).min(1.0);
    for (side, ankle) in ankles.into_iter().enumerate() {
        ps.leg(side, ankle, pitch, toe);
        ps.hanging_arm(side, swing, abduct, elbow, 0.1);
    }
    ps.finish(Vec3::ZERO)
}

/// Right arm raised, forearm waving three times (2 s loop); no other joint moves.
fn wave_pose(rig: &Rig, t: f32) -> Vec<Transform> {
    let w = TAU * 1.5 * t;
    let mut ps = Poser::new(rig);
    let upper = Vec3::new(-0.8, 0.5 + 0.03 * w.sin(), 0.25).normalize();
    let fore = Quat::from_rotation_z(0.35 * w.sin()) * Vec3::new(-0.1, 1.0, 0.12).normalize();
    ps.arm(1, upper, fore, Vec3::Z, 0.15 * (w - 0.6).sin());
    ps.finish(Vec3::ZERO)
}

/// All clips in file order: idle, walk, run, jump, wave.
pub fn build(rig: &Rig) -> Vec<Clip> {
    let gait_clip = |name: &str, g: &gait::Gait| {
        let frames = (g.period * FPS).round() as usize;
        bake(rig, name, frames, true, |t| {
            gait::pose(rig, g, t / g.period)
        })
    };
    vec![
        bake(rig, "idle", 72, true, |t| idle_pose(rig, t)),
        gait_clip("walk", &gait::WALK),
        gait_clip("run", &gait::RUN),
        bake(rig, "jump", 30, false, |t| jump_pose(rig, t)),
        bake(rig, "wave", 60, true, |t| wave_pose(rig, t)),
    ]
}

/// A clip's pose at a time, seconds.
type PoseAt<'a> = dyn Fn(f32) -> Vec<Transform> + 'a;

/// The clips of a rig larger than the mannequin (the production test rig, `production.rs`):
/// the mannequin's five in four versions each (`walk`, `walk_02`, `walk_03`, `walk_04`: each
/// cycle a little slower, its extra joints swaying a little more), every joint from `base` on
/// swaying about its local X axis in whole cycles, so loops still close. Twenty clips.
pub(super) fn build_swaying(rig: &Rig, base: usize) -> Vec<Clip> {
    let walk = |t: f32| gait::pose(rig, &gait::WALK, t / gait::WALK.period);
    let run = |t: f32| gait::pose(rig, &gait::RUN, t / gait::RUN.period);
    let idle = |t: f32| idle_pose(rig, t);
    let jump = |t: f32| jump_pose(rig, t);
    let wave = |t: f32| wave_pose(rig, t);
    let kinds: [(&str, usize, bool, &PoseAt); 5] = [
        ("idle", 72, true, &idle),
        (
            "walk",
            (gait::WALK.period * FPS).round() as usize,
            true,
            &walk,
        ),
        ("run", (gait::RUN.period * FPS).round() as usize, true, &run),
        ("jump", 30, false, &jump),
        ("wave", 60, true, &wave),
    ];
    let mut out = Vec::new();
    for (name, frames, looping, pose) in kinds {
        for v in 0..4 {
            let slow = 1.0 + 0.15 * v as f32;
            let frames = (frames as f32 * slow).round() as usize;
            let length = frames as f32 / FPS;
            let amp = 0.08 + 0.04 * v as f32;
            let title = if v == 0 {
                name.to_string()
            } else {
                format!("{name}_{:02}", v + 1)
            };
            out.push(bake(rig, &title, frames, looping, |t| {
                let mut p = pose(t / slow);
                for (k, joint) in p.iter_mut().enumerate().skip(base) {
                    let phase = TAU * (t / length) + 0.37 * k as f32;
                    let sway = Quat::from_rotation_x(amp * phase.sin());
                    joint.rotation = rig.rest_local[k].rotation * sway;
                }
                p
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::gait::smoothstep;
    use super::*;

    /// The curve passes through its control points and holds outside them.
    #[test]
    fn curve_interpolates_points() {
        let pts = [(0.0, 1.0), (1.0, 3.0), (2.0, 2.0)];
        assert_eq!(curve(&pts, 1.0), 3.0);
        assert_eq!(curve(&pts, -1.0), 1.0);
        assert_eq!(curve(&pts, 5.0), 2.0);
        // p0 = p1 = 1 (clamped), p2 = 3, p3 = 2: 0.5 * (2 + 1 + 7 * 0.25 - 5 * 0.125) = 2.0625
        assert!((curve(&pts, 0.5) - 2.0625).abs() < 1e-6);
    }

    /// Smooth step eases in and out.
    #[test]
    fn smoothstep_values() {
        assert_eq!(smoothstep(0.5), 0.5);
        assert_eq!(smoothstep(-1.0), 0.0);
        assert!((smoothstep(0.25) - 0.15625).abs() < 1e-7);
    }
}
