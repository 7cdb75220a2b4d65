//! Bake passes: operations over a whole take's frames, run after the take is simulated and
//! before anything reads its frames (`run`, `check`, `render`, the editor and `bake`), so what
//! is seen is what is baked. Each pass knows the whole take (the past and the future), which a
//! per-frame post op cannot:
//! - [`loop_close`]: the last frame made equal to the first, the difference spread over a span;
//! - [`root_extract`]: a joint's ground-plane travel moved onto its root joint, or dropped;
//! - [`lock`]: planted feet held where their contact is, eased in before it and out after;
//! - [`smooth`]: a centred moving average over time;
//! - [`despike`]: short runs of frames where a joint turns faster than a limit (a capture's
//!   glitches) replaced by what the frames around them imply.
//!
//! The frames ([`Frames`]) are local TRS per joint, parent-first, with the root motion on the
//! root joints (the character walks through the scene, as a bake writes it by default).

mod despike;
mod frames;
mod lock;
mod loop_close;
mod root_extract;
mod smooth;

pub use frames::{Channels, Frames};

use crate::motion::ContactRule;
use crate::{JointIndex, Skeleton};

/// A built-in pass and its settings (Lua `pass.*`).
#[derive(Clone, Debug, PartialEq)]
pub enum Pass {
    /// `pass.loop_close { blend = 0.2 }`: the last frame equals the first; the difference is
    /// spread over the last `blend` seconds (smoothstep). The root joints keep their
    /// ground-plane travel and turning (a walk loop still walks).
    LoopClose {
        /// Seconds before the end the correction starts.
        blend: f32,
    },
    /// `pass.root_extract { from = "pelvis", drop = false }`.
    RootExtract {
        /// The joint whose ground-plane travel and turning (relative to the first frame) moves
        /// onto its root joint; `None`: the root joints already carry it.
        from: Option<JointIndex>,
        /// Then remove the travel from the root joints (the take stays in place).
        drop: bool,
    },
    /// `pass.foot_lock { feet, blend = 0.1 }`: each contact's foot held at its mean ground
    /// position over the contact, eased in over `blend` seconds before and out after.
    FootLock {
        /// The feet and their contact rules (world height, speed; a NaN height is the default,
        /// [`ContactRule::default_height`] on the frames).
        feet: Vec<(JointIndex, ContactRule)>,
        /// Ease in and out, seconds.
        blend: f32,
    },
    /// `pass.smooth { window = 0.1, joints = {...}, channel = "rotation" }`.
    Smooth {
        /// The joints (empty: all).
        joints: Vec<JointIndex>,
        /// The window's width, seconds (a triangle centred on each frame).
        window: f32,
        /// What is smoothed.
        channels: Channels,
    },
    /// `pass.despike { max_speed = 1500, frames = 4, joints = {...} }`.
    Despike {
        /// The joints (empty: all).
        joints: Vec<JointIndex>,
        /// Degrees per second a joint may turn.
        max_speed: f32,
        /// The longest run of frames repaired (longer ones are motion, not a glitch).
        frames: usize,
    },
}

impl Pass {
    /// The pass's name in Lua (`pass.NAME`).
    pub fn name(&self) -> &'static str {
        match self {
            Pass::LoopClose { .. } => "loop_close",
            Pass::RootExtract { .. } => "root_extract",
            Pass::FootLock { .. } => "foot_lock",
            Pass::Smooth { .. } => "smooth",
            Pass::Despike { .. } => "despike",
        }
    }

    /// Runs the pass over `frames` (of `skeleton`); returns what it changed worth saying (a
    /// line each: a spike repaired, a contact held).
    pub fn run(&self, skeleton: &Skeleton, frames: &mut Frames) -> Vec<String> {
        if frames.count() == 0 || frames.joints() != skeleton.len() {
            return Vec::new();
        }
        match self {
            Pass::LoopClose { blend } => loop_close::run(skeleton, frames, *blend),
            Pass::RootExtract { from, drop } => root_extract::run(skeleton, frames, *from, *drop),
            Pass::FootLock { feet, blend } => lock::run(skeleton, frames, feet, *blend),
            Pass::Smooth {
                joints,
                window,
                channels,
            } => smooth::run(skeleton, frames, joints, *window, *channels),
            Pass::Despike {
                joints,
                max_speed,
                frames: longest,
            } => despike::run(skeleton, frames, joints, *max_speed, *longest),
        }
    }
}

#[cfg(test)]
mod tests;
