//! [`Motion`]: a take's frames as the measures read them.

use glam::{DMat4, Quat, Vec3};

use crate::local_to_model::{world_matrices, world_matrices_of};
use crate::{Skeleton, Transform};

/// A take's frames: every joint's world position (the armature and root motion included, Y
/// up) and local rotation, at `fps`; or those of some joints only ([`Motion::of_joints`]: a
/// long take on a big rig whose measures read a few).
#[derive(Clone, Debug, Default)]
pub struct Motion {
    /// Frames per second.
    pub fps: f32,
    joints: usize,
    /// The joints recorded, in order, and each skeleton joint's column (`u32::MAX`: none).
    recorded: Vec<usize>,
    column: Vec<u32>,
    /// The joints composed to record them (they and their ancestors; empty: every joint).
    needed: Vec<bool>,
    positions: Vec<Vec3>,
    rotations: Vec<Quat>,
    rest: Vec<Quat>,
    rest_positions: Vec<Vec3>,
    finite: Vec<bool>,
    scratch: Vec<DMat4>,
}

impl Motion {
    /// No frames yet, for `skeleton` at `fps`.
    pub fn new(skeleton: &Skeleton, fps: f32) -> Self {
        let all: Vec<usize> = (0..skeleton.len()).collect();
        Self::of_joints(skeleton, fps, &all)
    }

    /// No frames yet, recording only `joints` of `skeleton` (indices out of it are left out):
    /// what measures reading those joints need ([`crate::motion::Resolved::joints_read`]).
    pub fn of_joints(skeleton: &Skeleton, fps: f32, joints: &[usize]) -> Self {
        let mut column = vec![u32::MAX; skeleton.len()];
        let mut recorded = Vec::new();
        for &j in joints {
            if column.get(j) == Some(&u32::MAX) {
                column[j] = recorded.len() as u32;
                recorded.push(j);
            }
        }
        let mut needed = Vec::new();
        if recorded.len() < skeleton.len() {
            needed = vec![false; skeleton.len()];
            for &j in &recorded {
                let mut a = Some(j);
                while let Some(k) = a.filter(|&k| !needed[k]) {
                    needed[k] = true;
                    a = skeleton.parents()[k].map(usize::from).filter(|&p| p < k);
                }
            }
        }
        Motion {
            fps,
            joints: skeleton.len(),
            recorded,
            column,
            needed,
            rest: skeleton.rest_pose().iter().map(|t| t.rotation).collect(),
            rest_positions: crate::rest_positions(skeleton),
            ..Default::default()
        }
    }

    /// A clip's frames at `fps` from time 0 to its end, as it plays on its own (the root joint
    /// carrying its travel): what a clip's contacts are measured on.
    pub fn of_clip(skeleton: &Skeleton, clip: &crate::Clip, fps: f32) -> Self {
        let mut m = Motion::new(skeleton, fps);
        let mut cache = crate::SamplingCache::default();
        let mut pose = skeleton.rest_pose().to_vec();
        let last = crate::time::step_at(f64::from(clip.end.max(0.0)), fps);
        for n in 0..=last {
            let t = crate::time::step_time(n, fps).min(clip.end);
            clip.sample(t, skeleton.rest_pose(), &mut cache, &mut pose);
            m.push(skeleton, &pose);
        }
        m
    }

    /// Makes room for `frames` more frames at once (a take whose length is known: no growth
    /// by doubling, which would hold up to twice the frames while it copies).
    pub fn reserve(&mut self, frames: usize) {
        let values = frames.saturating_mul(self.recorded.len());
        self.positions.reserve_exact(values);
        self.rotations.reserve_exact(values);
        self.finite.reserve_exact(frames);
    }

    /// Adds a frame: a local pose (with root motion on the root joints, as baked).
    pub fn push(&mut self, skeleton: &Skeleton, pose: &[Transform]) {
        if self.needed.is_empty() {
            world_matrices(skeleton, pose, &mut self.scratch);
        } else {
            // the recorded joints' matrices only: the same products, the same bits
            world_matrices_of(skeleton, pose, &self.needed, &mut self.scratch);
        }
        self.positions.extend(self.recorded.iter().map(|&j| {
            self.scratch
                .get(j)
                .map_or(Vec3::ZERO, |w| w.w_axis.truncate().as_vec3())
        }));
        self.rotations.extend(
            self.recorded
                .iter()
                .map(|&j| pose.get(j).map_or(Quat::IDENTITY, |t| t.rotation)),
        );
        self.finite.push(pose.iter().all(|t| t.is_finite()));
    }

    /// Frames recorded.
    pub fn frames(&self) -> usize {
        self.finite.len()
    }

    /// Joints of the skeleton.
    pub fn joints(&self) -> usize {
        self.joints
    }

    /// The joints recorded (every joint unless made [`Motion::of_joints`]).
    pub fn recorded(&self) -> &[usize] {
        &self.recorded
    }

    /// Where `joint`'s values of frame `f` are; `None` for a joint not recorded (a caller
    /// reads only the joints it asked for: debug builds stop there).
    fn at(&self, f: usize, joint: usize) -> Option<usize> {
        let c = self.column.get(joint).copied().unwrap_or(u32::MAX);
        debug_assert!(c != u32::MAX, "joint {joint} is not recorded");
        (c != u32::MAX).then(|| f * self.recorded.len() + c as usize)
    }

    /// The time of frame `f`, seconds.
    pub fn time(&self, f: usize) -> f32 {
        crate::time::step_time(f as u64, self.fps)
    }

    /// World position of `joint` at frame `f` (NaN for a joint not recorded: a figure read
    /// from it is not a number, never another joint's).
    pub fn position(&self, f: usize, joint: usize) -> Vec3 {
        self.at(f, joint).map_or(Vec3::NAN, |i| self.positions[i])
    }

    /// Local rotation of `joint` at frame `f` (NaN for a joint not recorded).
    pub fn rotation(&self, f: usize, joint: usize) -> Quat {
        self.at(f, joint)
            .map_or(Quat::from_array([f32::NAN; 4]), |i| self.rotations[i])
    }

    /// The rest pose's local rotation of `joint`.
    pub fn rest_rotation(&self, joint: usize) -> Quat {
        self.rest[joint]
    }

    /// The rest pose's world position of `joint`.
    pub fn rest_position(&self, joint: usize) -> Vec3 {
        self.rest_positions[joint]
    }

    /// Whether every number of frame `f` is finite.
    pub fn is_finite(&self, f: usize) -> bool {
        self.finite[f]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::{MotionAsserts, Resolved};

    /// Recording only the joints the rules read measures what recording every joint does, in
    /// a fraction of the values.
    #[test]
    fn some_joints_measure_as_all_joints() {
        let model = crate::mannequin::build();
        let skeleton = &model.skeleton;
        let walk = model.clips.iter().find(|c| c.name == "walk").expect("walk");
        let all = Motion::of_clip(skeleton, walk, 60.0);
        // the default rules (feet, every joint's turn speed) and the feet alone
        let rules: Resolved = MotionAsserts::default().resolve(skeleton).expect("feet");
        assert_eq!(rules.joints_read().len(), skeleton.len());
        let feet: Vec<usize> = rules.feet().collect();
        assert_eq!(feet.len(), 2);
        let mut some = Motion::of_joints(skeleton, 60.0, &[feet[1], feet[0], feet[1], 9999]);
        assert_eq!(some.recorded(), &[feet[1], feet[0]]);
        let mut pose = skeleton.rest_pose().to_vec();
        let mut cache = crate::SamplingCache::default();
        for n in 0..all.frames() {
            let t = crate::time::step_time(n as u64, 60.0).min(walk.end);
            walk.sample(t, skeleton.rest_pose(), &mut cache, &mut pose);
            some.push(skeleton, &pose);
        }
        assert_eq!(some.frames(), all.frames());
        for f in 0..all.frames() {
            for &j in &feet {
                assert_eq!(some.position(f, j), all.position(f, j));
                assert_eq!(some.rotation(f, j), all.rotation(f, j));
            }
        }
        let (a, s) = (rules.measure(&all), rules.measure(&some));
        assert!(!a.contacts.is_empty());
        assert_eq!(s.contacts, a.contacts);
        assert_eq!(s.foot_slide, a.foot_slide);
        assert_eq!(some.positions.len(), 2 * all.frames());
    }
}
