//! [`Motion`]: a take's frames as the measures read them.

use glam::{DMat4, Quat, Vec3};

use crate::local_to_model::world_matrices;
use crate::{Skeleton, Transform};

/// A take's frames: every joint's world position (the armature and root motion included, Y
/// up) and local rotation, at `fps`.
#[derive(Clone, Debug, Default)]
pub struct Motion {
    /// Frames per second.
    pub fps: f32,
    joints: usize,
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
        Motion {
            fps,
            joints: skeleton.len(),
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
        let values = frames.saturating_mul(self.joints);
        self.positions.reserve_exact(values);
        self.rotations.reserve_exact(values);
        self.finite.reserve_exact(frames);
    }

    /// Adds a frame: a local pose (with root motion on the root joints, as baked).
    pub fn push(&mut self, skeleton: &Skeleton, pose: &[Transform]) {
        world_matrices(skeleton, pose, &mut self.scratch);
        let n = self.joints;
        self.positions.extend((0..n).map(|j| {
            self.scratch
                .get(j)
                .map_or(Vec3::ZERO, |w| w.w_axis.truncate().as_vec3())
        }));
        self.rotations
            .extend((0..n).map(|j| pose.get(j).map_or(Quat::IDENTITY, |t| t.rotation)));
        self.finite.push(pose.iter().all(|t| t.is_finite()));
    }

    /// Frames recorded.
    pub fn frames(&self) -> usize {
        self.finite.len()
    }

    /// Joints per frame.
    pub fn joints(&self) -> usize {
        self.joints
    }

    /// The time of frame `f`, seconds.
    pub fn time(&self, f: usize) -> f32 {
        crate::time::step_time(f as u64, self.fps)
    }

    /// World position of `joint` at frame `f`.
    pub fn position(&self, f: usize, joint: usize) -> Vec3 {
        self.positions[f * self.joints + joint]
    }

    /// Local rotation of `joint` at frame `f`.
    pub fn rotation(&self, f: usize, joint: usize) -> Quat {
        self.rotations[f * self.joints + joint]
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
