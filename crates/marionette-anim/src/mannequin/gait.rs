//! Procedural locomotion for the walk and run clips: planted feet via leg IK, pelvis bob, sway,
//! yaw and list, counter-rotating chest and counter-swinging arms.
//!
//! Phase convention (shared by walk and run so a sync group can blend them): the left foot
//! touches down at phase 0, the right at 0.5. Root motion is forward (+Z) translation of `root`.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec3};

use super::pose::Poser;
use super::rig::{j, Landmarks as L, Rig};
use crate::Transform;

/// Parameters of one gait.
pub struct Gait {
    /// Cycle length, seconds.
    pub period: f32,
    /// Forward speed, metres per second.
    pub speed: f32,
    /// Fraction of the cycle a foot is on the ground.
    pub stance: f32,
    /// Ankle z (relative to the root) at touch-down.
    pub z_front: f32,
    /// Swing foot lift and the exponent placing its peak (`sin(pi u^e)`).
    pub lift: f32,
    /// Exponent of the lift profile (smaller: earlier peak, a heel kick).
    pub lift_exp: f32,
    /// Foot pitch at touch-down (negative: toes up) and at toe-off (heel up), radians.
    pub heel_pitch: f32,
    /// Foot pitch at toe-off.
    pub toe_pitch: f32,
    /// Pelvis height offset and bob amplitude, metres; phase of the highest point.
    pub pelvis_base: f32,
    /// Bob amplitude.
    pub bob: f32,
    /// Phase of the bob's highest point.
    pub bob_phase: f32,
    /// Side sway (m), pelvis yaw, list and forward lean (rad), chest counter-yaw (rad).
    pub sway: f32,
    /// Pelvis yaw amplitude.
    pub yaw: f32,
    /// Pelvis list amplitude.
    pub list: f32,
    /// Spine forward lean.
    pub lean: f32,
    /// Chest counter-yaw amplitude.
    pub chest_yaw: f32,
    /// Arm swing amplitude, abduction, elbow flexion and extra flexion on the forward swing.
    pub arm_swing: f32,
    /// Arm abduction.
    pub abduct: f32,
    /// Base elbow flexion.
    pub elbow: f32,
    /// Extra elbow flexion at the front of the swing.
    pub elbow_swing: f32,
    /// Half the distance between the feet.
    pub foot_x: f32,
}

/// Walking at 1.4 m/s, 1.1 s per cycle.
pub const WALK: Gait = Gait {
    period: 1.1,
    speed: 1.4,
    stance: 0.58,
    z_front: 0.29,
    lift: 0.09,
    lift_exp: 0.8,
    heel_pitch: -0.3,
    toe_pitch: 1.0,
    pelvis_base: -0.02,
    bob: 0.015,
    bob_phase: 0.29,
    sway: 0.025,
    yaw: 0.1,
    list: 0.05,
    lean: 0.05,
    chest_yaw: 0.08,
    arm_swing: 0.35,
    abduct: 0.12,
    elbow: 0.2,
    elbow_swing: 0.3,
    foot_x: 0.09,
};

/// Running at 4 m/s, 0.7 s per cycle.
pub const RUN: Gait = Gait {
    period: 0.7,
    speed: 4.0,
    stance: 0.36,
    z_front: 0.33,
    lift: 0.28,
    lift_exp: 0.6,
    heel_pitch: -0.1,
    toe_pitch: 1.1,
    pelvis_base: -0.05,
    bob: 0.03,
    bob_phase: -0.07,
    sway: 0.015,
    yaw: 0.14,
    list: 0.04,
    lean: 0.16,
    chest_yaw: 0.2,
    arm_swing: 0.7,
    abduct: 0.15,
    elbow: 1.35,
    elbow_swing: 0.25,
    foot_x: 0.07,
};

/// Smooth step on `[0, 1]`.
pub fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Smooth minimum with blend width `k`.
pub fn smin(a: f32, b: f32, k: f32) -> f32 {
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k * 0.25
}

/// Ankle position and foot pitch of a foot pivoting about `pivot_rel` (offset from the ankle
/// in the flat foot) when the flat ankle is at `flat`.
pub fn pivot_ankle(flat: Vec3, pivot_rel: Vec3, pitch: f32) -> Vec3 {
    flat + pivot_rel - Quat::from_rotation_x(pitch) * pivot_rel
}

/// Foot target for one side at its own phase `p` (touch-down at 0): ankle, foot pitch and toe
/// model pitch, relative to the root.
pub fn foot(g: &Gait, side: usize, p: f32) -> (Vec3, f32, f32) {
    let ankle0 = L::ankle(side);
    let heel = L::heel(side) - ankle0;
    let ball = L::ball(side) - ankle0;
    let x = g.foot_x * L::sx(side);
    let travel = g.speed * g.stance * g.period;
    let stance = |s: f32| {
        let flat = Vec3::new(x, ankle0.y, g.z_front - travel * s);
        if s < 0.2 {
            let ph = g.heel_pitch * (1.0 - smoothstep(s / 0.2));
            (pivot_ankle(flat, heel, ph), ph, ph)
        } else if s > 0.5 {
            let ph = g.toe_pitch * smoothstep((s - 0.5) / 0.5);
            (pivot_ankle(flat, ball, ph), ph, 0.0)
        } else {
            (flat, 0.0, 0.0)
        }
    };
    if p < g.stance {
        return stance(p / g.stance);
    }
    let u = (p - g.stance) / (1.0 - g.stance);
    let (a1, ph1, _) = stance(1.0);
    let (a0, ph0, _) = stance(0.0);
    // Hermite in z with end velocities close to the stance's, so the foot eases off and on.
    let m = -g.speed * (1.0 - g.stance) * g.period * 0.7;
    let (u2, u3) = (u * u, u * u * u);
    let z = (2.0 * u3 - 3.0 * u2 + 1.0) * a1.z
        + (u3 - 2.0 * u2 + u) * m
        + (-2.0 * u3 + 3.0 * u2) * a0.z
        + (u3 - u2) * m;
    let y = a1.y + (a0.y - a1.y) * u + g.lift * (PI * u.powf(g.lift_exp)).sin();
    let ph = ph1 + (ph0 - ph1) * smoothstep(u);
    let toe = ph - ph1 * (1.0 - smoothstep(u / 0.35));
    (Vec3::new(x, y, z), ph, toe)
}

/// Lowers the pelvis (smoothly) so both legs can reach their ankle targets with the hip-ankle
/// distance at most `reach` times the leg's length; `soft` is the width of the smooth minimum.
pub fn fit_pelvis(p: &mut Poser<'_>, ankles: [Vec3; 2], desired_y: f32, reach: f32, soft: f32) {
    let lmax = {
        let r = &p.rig.rest_local;
        (r[j::CALF[0]].translation.length() + r[j::FOOT[0]].translation.length()) * reach
    };
    let mut y = desired_y;
    for (side, ankle) in ankles.iter().enumerate() {
        p.local[j::PELVIS].translation.y = desired_y;
        let hip = p.model(j::THIGH[side]).translation;
        let d = *ankle - hip;
        let flat2 = d.x * d.x + d.z * d.z;
        let reach = (lmax * lmax - flat2).max(0.0).sqrt();
        let max_y = desired_y + (ankle.y + reach - hip.y);
        y = smin(y, max_y, soft);
    }
    p.local[j::PELVIS].translation.y = y;
}

/// The gait's pose at phase `p` in `[0, 1]`.
pub fn pose(rig: &Rig, g: &Gait, p: f32) -> Vec<Transform> {
    let mut ps = Poser::new(rig);
    let w = TAU * p;
    let yaw = -g.yaw * w.cos();
    let list = g.list * w.sin();
    let pelvis_rot = Quat::from_rotation_y(yaw) * Quat::from_rotation_z(list);
    ps.set_model_rotation(j::PELVIS, pelvis_rot * rig.rest_model[j::PELVIS].rotation);
    let rest_pelvis = rig.rest_local[j::PELVIS].translation;
    ps.local[j::PELVIS].translation.x = rest_pelvis.x + g.sway * w.sin();
    let desired = rest_pelvis.y + g.pelvis_base + g.bob * (2.0 * TAU * (p - g.bob_phase)).cos();
    let feet = [foot(g, 0, p), foot(g, 1, (p + 0.5).fract())];
    fit_pelvis(&mut ps, [feet[0].0, feet[1].0], desired, 0.985, 0.03);
    // The chest turns against the pelvis: spread the correction over the three spine joints.
    let spine_yaw = (-yaw + g.chest_yaw * w.cos()) / 3.0;
    for joint in [j::SPINE_01, j::SPINE_02, j::CHEST] {
        let q = Quat::from_rotation_y(spine_yaw) * Quat::from_rotation_x(g.lean / 3.0);
        ps.rotate_local(joint, q);
    }
    steady_head(&mut ps, 0.0);
    for (side, (ankle, pitch, toe)) in feet.into_iter().enumerate() {
        ps.leg(side, ankle, pitch, toe);
        let sign = if side == 0 { -1.0 } else { 1.0 };
        let swing = sign * g.arm_swing * w.cos();
        let elbow = g.elbow + g.elbow_swing * (swing / g.arm_swing).max(0.0);
        ps.hanging_arm(side, swing, g.abduct, elbow, 0.1);
    }
    ps.finish(Vec3::new(0.0, 0.0, g.speed * g.period * p))
}

/// Keeps the head facing forward and level (pitched by `nod`), the neck halfway between.
pub fn steady_head(ps: &mut Poser<'_>, nod: f32) {
    let chest = ps.model_delta(j::CHEST);
    let half = Quat::IDENTITY.slerp(chest, 0.5);
    ps.set_model_rotation(j::NECK, half * ps.rig.rest_model[j::NECK].rotation);
    let head = Quat::from_rotation_x(nod) * ps.rig.rest_model[j::HEAD].rotation;
    ps.set_model_rotation(j::HEAD, head);
}
