//! Posing helpers for authoring the mannequin's clips: forward kinematics, model-space
//! rotations, analytic two-bone leg IK and an elbow-hinge arm solver.

use glam::{Quat, Vec3};

use super::rig::{frame, j, Rig};
use crate::Transform;

/// A pose being built: local TRS per joint, starting at the bind pose.
pub struct Poser<'a> {
    /// The rig posed.
    pub rig: &'a Rig,
    /// Current local transforms.
    pub local: Vec<Transform>,
}

impl<'a> Poser<'a> {
    /// The bind pose.
    pub fn new(rig: &'a Rig) -> Self {
        Self {
            rig,
            local: rig.rest_local.clone(),
        }
    }

    /// Model-space transform of a joint under the current local pose.
    pub fn model(&self, joint: usize) -> Transform {
        match self.rig.parents[joint] {
            None => self.local[joint],
            Some(p) => self.model(p).mul_transform(&self.local[joint]),
        }
    }

    /// Sets the local rotation to the bind rotation followed by `delta` in the joint's own frame.
    pub fn rotate_local(&mut self, joint: usize, delta: Quat) {
        self.local[joint].rotation = (self.rig.rest_local[joint].rotation * delta).normalize();
    }

    /// Sets the joint's model-space rotation (its parent's pose is kept).
    pub fn set_model_rotation(&mut self, joint: usize, q: Quat) {
        let parent = match self.rig.parents[joint] {
            None => Quat::IDENTITY,
            Some(p) => self.model(p).rotation,
        };
        self.local[joint].rotation = (parent.conjugate() * q).normalize();
    }

    /// Model-space rotation change of a joint since the bind pose.
    pub fn model_delta(&self, joint: usize) -> Quat {
        (self.model(joint).rotation * self.rig.rest_model[joint].rotation.conjugate()).normalize()
    }

    /// Two-bone IK for one leg: the ankle goes to `ankle` (or as close as the leg reaches), the
    /// knee bends toward +Z; the foot gets pitch `foot_pitch` (radians about +X, positive lifts
    /// the heel) and the toes model pitch `toe_pitch`.
    pub fn leg(&mut self, side: usize, ankle: Vec3, foot_pitch: f32, toe_pitch: f32) {
        let (thigh, calf, foot, toe) = (j::THIGH[side], j::CALF[side], j::FOOT[side], j::TOE[side]);
        let l1 = self.rig.rest_local[calf].translation.length();
        let l2 = self.rig.rest_local[foot].translation.length();
        let hip = self.model(thigh).translation;
        let to = ankle - hip;
        let d = to
            .length()
            .clamp((l1 - l2).abs() + 1e-4, (l1 + l2) * 0.9999);
        let u = to.normalize();
        let w = (Vec3::Z - u * u.dot(Vec3::Z)).normalize();
        let cos_a = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
        let knee = hip + l1 * (cos_a * u + (1.0 - cos_a * cos_a).sqrt() * w);
        let x = w.cross(u);
        self.set_model_rotation(thigh, frame(knee - hip, x));
        self.set_model_rotation(calf, frame(hip + u * d - knee, x));
        let foot_rest = self.rig.rest_model[foot].rotation;
        self.set_model_rotation(foot, Quat::from_rotation_x(foot_pitch) * foot_rest);
        let toe_rest = self.rig.rest_model[toe].rotation;
        self.set_model_rotation(toe, Quat::from_rotation_x(toe_pitch) * toe_rest);
    }

    /// Poses one arm from its upper-arm direction `upper` and forearm direction `fore`
    /// (model space); the elbow hinge is their common normal, `hinge_hint` is used when they are
    /// parallel. The hand continues the forearm, bent by `wrist` radians about the hinge.
    pub fn arm(&mut self, side: usize, upper: Vec3, fore: Vec3, hinge_hint: Vec3, wrist: f32) {
        let cross = fore.cross(upper);
        let hinge = if cross.length() > 1e-3 {
            cross.normalize()
        } else {
            hinge_hint
        };
        self.set_model_rotation(j::UPPERARM[side], frame(upper, hinge));
        self.set_model_rotation(j::FOREARM[side], frame(fore, hinge));
        let hand = Quat::from_axis_angle(hinge, -wrist) * fore;
        self.set_model_rotation(j::HAND[side], frame(hand, hinge));
    }

    /// A hanging arm: `swing` radians forward (negative: back), `abduct` radians out from the
    /// side, elbow flexed `elbow` radians forward, all relative to the chest's current facing.
    pub fn hanging_arm(&mut self, side: usize, swing: f32, abduct: f32, elbow: f32, wrist: f32) {
        let sx = if side == 0 { 1.0 } else { -1.0 };
        let chest = self.model_delta(j::CHEST);
        let swing_q = chest * Quat::from_rotation_x(-swing);
        let down = Vec3::new(sx * abduct.sin(), -abduct.cos(), 0.0);
        let upper = swing_q * down;
        let fwd = swing_q * Vec3::Z;
        let fore = upper * elbow.cos() + fwd * elbow.sin();
        let hinge = fwd.cross(upper).normalize();
        self.arm(side, upper, fore, hinge, wrist);
    }

    /// The local pose with the root's translation set (root motion).
    pub fn finish(mut self, root_translation: Vec3) -> Vec<Transform> {
        self.local[j::ROOT].translation = root_translation;
        self.local
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Re-solving the legs at their bind ankle positions reproduces the bind pose.
    #[test]
    fn leg_ik_at_rest_is_rest() {
        let rig = Rig::new();
        let mut p = Poser::new(&rig);
        for side in 0..2 {
            let ankle = rig.rest_model[j::FOOT[side]].translation;
            p.leg(side, ankle, 0.0, 0.0);
        }
        for (a, b) in p.local.iter().zip(&rig.rest_local) {
            assert!(a.abs_diff_eq(b, 1e-5), "{a:?} vs {b:?}");
        }
    }

    /// IK puts the ankle on a reachable target, with the knee in front of the hip-ankle line.
    #[test]
    fn leg_ik_reaches_target() {
        let rig = Rig::new();
        let mut p = Poser::new(&rig);
        let target = Vec3::new(0.095, 0.3, 0.2);
        p.leg(0, target, 0.0, 0.0);
        let got = p.model(j::FOOT[0]).translation;
        assert!(got.abs_diff_eq(target, 1e-5), "{got}");
        assert!(p.model(j::CALF[0]).translation.z > 0.2);
    }

    /// A forward arm swing moves the left hand forward (+Z) and keeps the arm length.
    #[test]
    fn arm_swing_moves_hand_forward() {
        let rig = Rig::new();
        let mut p = Poser::new(&rig);
        p.hanging_arm(0, 0.4, 0.1, 0.2, 0.0);
        let hand = p.model(j::HAND[0]).translation;
        let shoulder = p.model(j::UPPERARM[0]).translation;
        assert!(hand.z > shoulder.z + 0.15, "{hand} {shoulder}");
        assert!(hand.y < shoulder.y - 0.4);
    }
}
