//! # marionette-bake
//!
//! **Owns** the offline layer: a clip or a script take sampled at every frame, fitted and
//! key-reduced under a world-space error budget, and written to glTF through io.
//!
//! **Must not know** GPUs, UI or the command line: it depends on anim, io and script (a take is
//! a script's evaluation), never on render or editor; it never prints or exits.
//!
//! Baking, the offline layer (ozz's runtime/offline split): sampling an evaluation (a script
//! take or a clip) at every frame, fitting and reducing the result to glTF keys under a
//! world-space error budget, and handing the keys to the codec ([`marionette_io`]).
//!
//! [`run`] is the one entry point for the CLI, the editor and tests: a [`BakeJob`] in, a
//! [`BakeReport`] out, progress through a callback; it never prints or exits.
//!
//! A bake is a pure function of its source, so a re-bake is bit-identical. Its frames sit on a
//! [`Grid`]: a script take's frame `i` at [`step_time`](marionette_anim::time::step_time)`(i, fps)`
//! (`i / fps`, the one formula used for every such key time written); a rig's clip at its own
//! key times (on its native rate when they form one, see [`clip_grid`]), or at `--fps` when
//! asked, its last frame at the clip's exact end.
//!
//! Errors are measured where the skin is: each joint at its shell ([`Shells`]), so the budget
//! bounds every vertex; a clip's keys are measured against the source clip itself
//! ([`error_against`]).
//!
//! ```text
//! source (script take | rig clip) --sample--> BakedTake --root motion--> BakedTake
//!   --reduce (fit + world-space error)--> ReducedTake --export_document--> io::Document
//!   --io::write_document--> .glb | .gltf + .bin
//! ```

mod blame;
mod clip;
mod curves;
mod export;
mod finish;
mod fit;
mod fitted;
mod job;
mod leverage;
mod linear_fit;
mod measure;
mod misfit;
mod morph;
mod quality;
mod rebake;
mod reduce;
mod reduced;
mod reference;
mod run;
mod script_take;
mod shell;
mod sources;
mod truth;
mod unreduced;
mod world;

pub use clip::{bake_clip, bake_clip_keys, clip_grid, CLIP_INNER, MAX_REFINE, NATIVE_RATES};
pub use curves::{Curves, Grid, Samples};
pub use export::{export_document, Target};
pub use fit::{fit, fit_samples};
pub use fitted::{FitValue, Fitted};
pub use job::{
    BakeError, BakeJob, BakeProgress, BakeReport, BakeSource, Selection, TakeResult, WrittenFile,
};
pub use leverage::Leverage;
pub use marionette_script::Cancel;
pub use misfit::{Misfit, RotationMisfit};
pub use morph::{BakedMorphs, MorphErrorAt, MorphStats, ReducedMorph, DEFAULT_MORPH_TOLERANCE};

/// What a bake writes, as a number that grows whenever the same settings write different
/// bytes (a batch bake's content keys name it, so an older Marionette's outputs are re-baked):
/// 2 since rotations are keyed as 16-bit integers by default.
pub const OUTPUT_REVISION: u32 = 2;
pub use quality::{assert_take, judge, judge_take, motion_of, TakeQuality};
pub use reduce::{reduce, reduce_until, reduce_with, ReduceOptions};
pub use reduced::{ErrorAt, ReduceStats, ReducedJoint, ReducedTake};
pub use run::run;
pub use script_take::{bake_take, bake_take_data, take_frames, ScriptBake};
pub use shell::{largest_singular_value, shell_error, ShellRule, Shells};
pub use truth::{check_times, error_against};
pub use unreduced::unreduced;
pub use world::{joint_error, VIRTUAL_DISTANCE};

use marionette_anim::time::{step_reaching, step_time};
use marionette_anim::{Skeleton, Transform};

/// A named point in time of a take (a marker on the timeline).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Marker {
    /// Marker name.
    pub name: String,
    /// Time in seconds from the start of the take.
    pub time: f32,
}

/// Something that happens during a take (a trigger fired, a footstep, ...).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TakeEvent {
    /// Event name (e.g. the trigger parameter).
    pub name: String,
    /// Time in seconds from the start of the take.
    pub time: f32,
    /// Optional payload, written as is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
}

/// Markers and events carried from a take to the exported animation's `extras`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TakeMeta {
    /// Markers, in time order.
    pub markers: Vec<Marker>,
    /// Events, in time order.
    pub events: Vec<TakeEvent>,
}

/// The raw result of a bake: the local pose of every joint at every frame.
#[derive(Clone, Debug, PartialEq)]
pub struct BakedTake {
    /// Take name.
    pub name: String,
    /// The frame times and the check times between them ([`Grid::inner`] per interval).
    pub grid: Grid,
    /// `frames[i][joint]`: local pose at `grid.time(i)`, parent-first.
    pub frames: Vec<Vec<Transform>>,
    /// `inner[i * grid.inner + k][joint]`: the source's own pose at `grid.inner_time(i, k)`,
    /// where the source is known between frames (a clip); empty: the take is defined at its
    /// frames only (a script take), and read between them as their interpolation.
    pub inner: Vec<Vec<Transform>>,
    /// True when `inner` is the truth the keys must follow: the grid holds every key time of
    /// the source (a clip baked at its own time base), so the reduction is measured against
    /// the source between frames. False: `inner` only tells which channels the source holds
    /// between frames (a clip resampled at `--fps`), and the reference there is what keys on
    /// the grid can play (see [`reference`](self::reference)).
    pub exact_between: bool,
    /// `animated[joint]`: the [translation, rotation, scale] channels the source animates
    /// (a clip's tracks), written even where they hold the rest pose, so a re-bake keeps every
    /// channel; empty: none forced.
    pub animated: Vec<[bool; 3]>,
    /// Markers and events.
    pub meta: TakeMeta,
    /// The morph weights at every frame (and between frames where `inner` has poses); empty
    /// for a rig without morph targets.
    pub morphs: BakedMorphs,
}

/// Why a baked take cannot be reduced: its rate, frames or poses are unusable.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BakeTakeError {
    /// The frame rate is not a positive finite number, or the frame times do not increase.
    #[error("take '{take}': {problem}")]
    BadTimes {
        /// Take name.
        take: String,
        /// What is wrong.
        problem: String,
    },
    /// A take with no frames.
    #[error("take '{take}' has no frames")]
    NoFrames {
        /// Take name.
        take: String,
    },
    /// A skeleton without joints.
    #[error("take '{take}': the skeleton has no joints")]
    NoJoints {
        /// Take name.
        take: String,
    },
    /// A frame whose pose does not cover the skeleton.
    #[error("take '{take}', frame {frame}: pose has {got} joints, skeleton has {expected}")]
    PoseLength {
        /// Take name.
        take: String,
        /// Frame index.
        frame: usize,
        /// Joints in the pose.
        got: usize,
        /// Joints in the skeleton.
        expected: usize,
    },
    /// A rotation too close to zero length to normalise (e.g. `[0, 0, 0, 0]`).
    #[error("take '{take}', frame {frame}: joint '{joint}' has a zero-length rotation")]
    ZeroRotation {
        /// Take name.
        take: String,
        /// Frame index.
        frame: usize,
        /// Joint name.
        joint: String,
    },
    /// Poses between frames that do not match the frames.
    #[error("take '{take}': the poses between frames do not match the frames")]
    Halves {
        /// Take name.
        take: String,
    },
    /// More frames than a take may have, or more frames × joints than a bake may hold
    /// ([`MAX_FRAMES`](marionette_anim::time::MAX_FRAMES), [`MAX_SAMPLES`]); checked before anything
    /// is sampled.
    #[error("take '{take}': {what}; shorten it or bake at a lower --fps")]
    TooLarge {
        /// Take name.
        take: String,
        /// The frames (and joints) against the limit.
        what: String,
    },
    /// The reduction was cancelled (Ctrl-C, the editor's Cancel).
    #[error("take '{take}': cancelled")]
    Cancelled {
        /// Take name.
        take: String,
    },
    /// A NaN or infinite value in a pose.
    #[error("take '{take}', frame {frame}: joint '{joint}' is not finite")]
    NotFinite {
        /// Take name.
        take: String,
        /// Frame index.
        frame: usize,
        /// Joint name.
        joint: String,
    },
}

impl BakedTake {
    /// Checks the times, the frame count and every pose against `skeleton`.
    pub fn check(&self, skeleton: &Skeleton) -> Result<(), BakeTakeError> {
        let take = || self.name.clone();
        if let Some(problem) = self.grid.problem() {
            return Err(BakeTakeError::BadTimes {
                take: take(),
                problem,
            });
        }
        if self.frames.is_empty() {
            return Err(BakeTakeError::NoFrames { take: take() });
        }
        if skeleton.is_empty() {
            return Err(BakeTakeError::NoJoints { take: take() });
        }
        if self.grid.len() != self.frames.len() {
            return Err(BakeTakeError::BadTimes {
                take: take(),
                problem: format!(
                    "{} frame times for {} frames",
                    self.grid.len(),
                    self.frames.len()
                ),
            });
        }
        for (frame, pose) in self.frames.iter().enumerate() {
            if pose.len() != skeleton.len() {
                return Err(BakeTakeError::PoseLength {
                    take: take(),
                    frame,
                    got: pose.len(),
                    expected: skeleton.len(),
                });
            }
            if let Some(j) = pose.iter().position(|t| !t.is_finite()) {
                return Err(BakeTakeError::NotFinite {
                    take: take(),
                    frame,
                    joint: skeleton.names()[j].clone(),
                });
            }
            if let Some(j) = pose.iter().position(|t| !usable_rotation(t.rotation)) {
                return Err(BakeTakeError::ZeroRotation {
                    take: take(),
                    frame,
                    joint: skeleton.names()[j].clone(),
                });
            }
        }
        let inner_ok = self.inner.is_empty()
            || (self.inner.len() == (self.frames.len() - 1) * self.grid.inner
                && self.inner.iter().all(|p| {
                    p.len() == skeleton.len()
                        && p.iter()
                            .all(|t| t.is_finite() && usable_rotation(t.rotation))
                }));
        if !inner_ok || (self.exact_between && self.inner.is_empty() && self.frames.len() > 1) {
            return Err(BakeTakeError::Halves { take: take() });
        }
        let inner = self.inner.len().max(self.morphs.inner.len());
        if let Some(problem) = self
            .morphs
            .problem(skeleton.morphs(), self.frames.len(), inner)
        {
            return Err(BakeTakeError::BadTimes {
                take: take(),
                problem,
            });
        }
        Ok(())
    }

    /// Duration in seconds: the time of the last frame.
    pub fn duration(&self) -> f32 {
        self.grid.end()
    }

    /// The frame rate, when the frames are on a regular grid.
    pub fn fps(&self) -> Option<f32> {
        self.grid.rate
    }
}

/// True when `q` normalises to a unit rotation (finite, not near zero length).
fn usable_rotation(q: glam::Quat) -> bool {
    let l = q.length();
    l.is_finite() && l > 1e-12 && q.normalize().is_finite()
}

/// The most frames × joints one take of a bake may hold: 200,000,000. A script take's bake
/// holds its sampled frames and one error per joint per checked time (frames and half frames),
/// about 90 bytes per frame × joint at its peak (measured: the reduction rebuilds every other
/// pose a sample at a time, [`reduce_with`]), so this is about 18 GB: for a 24-joint rig the
/// frame limit ([`MAX_FRAMES`](marionette_anim::time::MAX_FRAMES)) comes first, for a
/// 1000-joint rig 200,000 frames (55 minutes at 60 fps). See [`check_size`].
pub const MAX_SAMPLES: usize = 200_000_000;

/// Checks a take's size before it is sampled: at most
/// [`MAX_FRAMES`](marionette_anim::time::MAX_FRAMES) frames and [`MAX_SAMPLES`] frames × joints,
/// so an hours-long take or a huge `--fps` is an error naming the take, not an allocation that
/// aborts the process.
pub fn check_size(take: &str, frames: usize, joints: usize) -> Result<(), BakeTakeError> {
    let too_large = |what: String| BakeTakeError::TooLarge {
        take: take.to_string(),
        what,
    };
    let max_frames = marionette_anim::time::MAX_FRAMES as usize;
    if frames > max_frames {
        return Err(too_large(format!(
            "{frames} frames is over the limit of {max_frames}"
        )));
    }
    let samples = frames.saturating_mul(joints);
    if samples > MAX_SAMPLES {
        return Err(too_large(format!(
            "{frames} frames x {joints} joints is {samples} samples, over the limit of {MAX_SAMPLES}"
        )));
    }
    Ok(())
}

/// Frames needed to cover `duration` seconds at `fps`: frames `0..=k` with `k / fps` the first
/// frame time at or after the end ([`step_reaching`], whose slack absorbs float noise in
/// `duration * fps`). Saturates at `usize::MAX` for a duration no bake can hold (a clip ending
/// at 1e30 s), so a size check can refuse it instead of the count overflowing.
pub fn frame_count(duration: f32, fps: f32) -> usize {
    usize::try_from(step_reaching(f64::from(duration), fps))
        .map_or(usize::MAX, |last| last.saturating_add(1))
}

/// Bakes `frames` frames: `eval(i, time, pose)` writes the local pose of frame `i` (at
/// [`step_time`]`(i, fps)`) into `pose`, which starts as the rest pose each frame.
/// `progress(done, total)` is called after every frame.
pub fn bake_frames<E>(
    skeleton: &Skeleton,
    name: &str,
    fps: f32,
    frames: usize,
    mut eval: impl FnMut(u32, f32, &mut [Transform]) -> Result<(), E>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BakedTake, E> {
    let mut out = Vec::with_capacity(frames);
    for i in 0..frames {
        let mut pose = skeleton.rest_pose().to_vec();
        eval(i as u32, step_time(i as u64, fps), &mut pose)?;
        out.push(pose);
        progress(i + 1, frames);
    }
    Ok(BakedTake {
        name: name.to_string(),
        grid: Grid::new(fps, frames),
        frames: out,
        inner: Vec::new(),
        exact_between: false,
        animated: Vec::new(),
        meta: TakeMeta::default(),
        morphs: BakedMorphs::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A take over the frame limit, or over the sample limit for its joints, is refused by
    /// name before anything is allocated.
    #[test]
    fn size_limits() {
        assert_eq!(check_size("t", 1_000_000, 4), Ok(()));
        assert_eq!(check_size("t", 1_000_000, 200), Ok(()));
        assert_eq!(
            check_size("t", 1_000_001, 1).unwrap_err().to_string(),
            "take 't': 1000001 frames is over the limit of 1000000; shorten it or bake at a \
             lower --fps"
        );
        assert_eq!(
            check_size("t", 200_001, 1000).unwrap_err().to_string(),
            "take 't': 200001 frames x 1000 joints is 200001000 samples, over the limit of \
             200000000; shorten it or bake at a lower --fps"
        );
    }

    /// 2 s at 30 fps is frames 0..=60; a duration between frames rounds up to the next frame.
    #[test]
    fn frame_counts() {
        assert_eq!(frame_count(2.0, 30.0), 61);
        assert_eq!(frame_count(0.0, 30.0), 1);
        assert_eq!(frame_count(1.01, 10.0), 12);
        assert_eq!(frame_count(0.1 * 3.0, 10.0), 4);
        // found by fuzzing (fuzz/corpus/bake_clips/crash-409ffb25...): a clip ending at ~1e37 s
        // overflowed the count
        assert_eq!(frame_count(f32::MAX, 10.0), usize::MAX);
        assert_eq!(frame_count(f32::INFINITY, 30.0), usize::MAX);
    }
}
