//! A source of poses over time: what the renderer draws and what a script, a clip or a blend
//! graph can be. Defined here, at the base, so the renderer and the Lua host each depend only on
//! this trait and never on each other.

use glam::Mat4;

use crate::Transform;

/// Poses over a time range: local joint transforms (parent-first, one per joint of the model
/// being drawn) and where the character stands.
pub trait PoseSource {
    /// The time range (start, end) in seconds that sheets, ghosts and framing cover; an empty
    /// range (`start >= end`) is a still pose, drawn without ghosts.
    fn range(&self) -> (f32, f32);
    /// Writes the local pose at `time` into `local` and returns the character's world
    /// placement (identity when it stays in place).
    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4;
    /// The morph weights of the pose the last [`PoseSource::pose_at`] wrote, one per morph
    /// target of the model ([`crate::Morphs`] order); empty: the model's default weights.
    fn morphs(&self) -> &[f32] {
        &[]
    }
}

impl<T: PoseSource + ?Sized> PoseSource for &mut T {
    fn range(&self) -> (f32, f32) {
        (**self).range()
    }

    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4 {
        (**self).pose_at(time, local)
    }

    fn morphs(&self) -> &[f32] {
        (**self).morphs()
    }
}
