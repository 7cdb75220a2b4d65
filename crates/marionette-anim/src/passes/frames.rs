//! A whole take's frames, and what the passes share: the channels a pass changes and the
//! joints it works on.

use crate::motion::Motion;
use crate::{JointIndex, Skeleton, Transform};

/// A whole take's frames: `count()` frames of `joints` local transforms each, at `fps`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frames {
    /// Frames per second.
    pub fps: f32,
    joints: usize,
    data: Vec<Transform>,
}

impl Frames {
    /// No frames yet, of `joints` joints at `fps`.
    pub fn new(joints: usize, fps: f32) -> Frames {
        Frames {
            fps,
            joints,
            data: Vec::new(),
        }
    }

    /// Adds a frame (its first `joints` transforms; missing ones are the identity).
    pub fn push(&mut self, pose: &[Transform]) {
        let n = self.joints;
        self.data
            .extend((0..n).map(|j| pose.get(j).copied().unwrap_or(Transform::IDENTITY)));
    }

    /// How many frames.
    pub fn count(&self) -> usize {
        self.data.len().checked_div(self.joints).unwrap_or(0)
    }

    /// Joints per frame.
    pub fn joints(&self) -> usize {
        self.joints
    }

    /// The time of frame `f`, seconds.
    pub fn time(&self, f: usize) -> f32 {
        crate::time::step_time(f as u64, self.fps)
    }

    /// Frame `f` (panics when out of range).
    pub fn frame(&self, f: usize) -> &[Transform] {
        &self.data[f * self.joints..(f + 1) * self.joints]
    }

    /// Frame `f`, to change (panics when out of range).
    pub fn frame_mut(&mut self, f: usize) -> &mut [Transform] {
        &mut self.data[f * self.joints..(f + 1) * self.joints]
    }

    /// Every frame in order, to change.
    pub fn frames_mut(&mut self) -> impl Iterator<Item = &mut [Transform]> {
        self.data.chunks_exact_mut(self.joints.max(1))
    }

    /// Joint `j` of frame `f`.
    pub fn get(&self, f: usize, j: usize) -> Option<&Transform> {
        (j < self.joints).then(|| self.data.get(f * self.joints + j))?
    }

    /// Joint `j` of frame `f`, to change.
    pub fn get_mut(&mut self, f: usize, j: usize) -> Option<&mut Transform> {
        (j < self.joints).then(|| self.data.get_mut(f * self.joints + j))?
    }

    /// The frames as the motion measures read them ([`Motion`]: world positions, local
    /// rotations).
    pub fn motion(&self, skeleton: &Skeleton) -> Motion {
        let mut m = Motion::new(skeleton, self.fps);
        for f in 0..self.count() {
            m.push(skeleton, self.frame(f));
        }
        m
    }
}

/// Which parts of a joint's transform a pass changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channels {
    /// Rotation only.
    Rotation,
    /// Translation only.
    Translation,
    /// Rotation and translation.
    Both,
}

impl Channels {
    /// The names in Lua: `"rotation"`, `"translation"`, `"both"`.
    pub const NAMES: [&'static str; 3] = ["rotation", "translation", "both"];

    /// The channels called `name` (see [`Channels::NAMES`]).
    pub fn from_name(name: &str) -> Option<Channels> {
        match name {
            "rotation" => Some(Channels::Rotation),
            "translation" => Some(Channels::Translation),
            "both" => Some(Channels::Both),
            _ => None,
        }
    }

    pub(super) fn rotation(self) -> bool {
        self != Channels::Translation
    }

    pub(super) fn translation(self) -> bool {
        self != Channels::Rotation
    }
}

/// The joints a pass works on: `joints`, or every joint when empty.
pub(super) fn selected(joints: &[JointIndex], count: usize) -> Vec<usize> {
    if joints.is_empty() {
        (0..count).collect()
    } else {
        joints
            .iter()
            .map(|&j| j as usize)
            .filter(|&j| j < count)
            .collect()
    }
}
