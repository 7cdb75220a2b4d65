//! Baking, the offline layer (ozz's runtime/offline split): sampling an evaluation (a script
//! take or a clip) at every frame, fitting and reducing the result to glTF keys under a
//! world-space error budget, and handing the keys to the codec ([`crate::io`]).
//!
//! [`run`] is the one entry point for the CLI, the editor and tests: a [`BakeJob`] in, a
//! [`BakeReport`] out, progress through a callback; it never prints or exits.
//!
//! A bake is a pure function of its source: frame `i` is evaluated at time
//! [`step_time`](crate::anim::time::step_time)`(i, fps)` (`i / fps`), the one formula used for every key time written,
//! so a re-bake is bit-identical.
//!
//! ```text
//! source (script take | rig clip) --sample--> BakedTake --root motion--> BakedTake
//!   --reduce (fit + world-space error)--> ReducedTake --export_document--> io::Document
//!   --io::write_document--> .glb | .gltf + .bin
//! ```

mod cancel;
mod clip;
mod curves;
mod export;
mod finish;
mod fit;
mod job;
mod reduce;
mod reference;
mod script_take;
mod sources;
mod unreduced;
mod world;

pub use cancel::Cancel;
pub use clip::bake_clip;
pub use curves::{Curves, Grid, Samples};
pub use export::{export_document, Target};
pub use fit::{fit, fit_samples, FitValue, Fitted};
pub use job::{
    run, BakeError, BakeJob, BakeProgress, BakeReport, BakeSource, Selection, TakeResult,
    WrittenFile,
};
pub use reduce::{reduce, ReduceOptions, ReduceStats, ReducedJoint, ReducedTake};
pub use script_take::{bake_take, bake_take_data, take_frames, ScriptBake};
pub use unreduced::unreduced;
pub use world::{joint_error, world_matrices, Leverage, VIRTUAL_DISTANCE};

use crate::anim::time::{step_reaching, step_time};
use crate::anim::{Clip, JointTracks, Skeleton, Track, Transform};

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
    /// Frames per second.
    pub fps: f32,
    /// `frames[i][joint]`: local pose at [`step_time`]`(i, fps)` (the last frame at `end`),
    /// parent-first.
    pub frames: Vec<Vec<Transform>>,
    /// `halves[i][joint]`: the source's pose halfway between frames `i` and `i + 1`, where the
    /// source is known between frames (a clip); empty: the interpolation of the frames.
    pub halves: Vec<Vec<Transform>>,
    /// Time of the last frame when it is not a frame time (a clip ending between frames is
    /// baked to its exact end); `None`: [`step_time`]`(frames - 1, fps)`.
    pub end: Option<f32>,
    /// `animated[joint]`: the [translation, rotation, scale] channels the source animates
    /// (a clip's tracks), written even where they hold the rest pose, so a re-bake keeps every
    /// channel; empty: none forced.
    pub animated: Vec<[bool; 3]>,
    /// Markers and events.
    pub meta: TakeMeta,
}

/// Why a baked take cannot be reduced: its rate, frames or poses are unusable.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TakeError {
    /// The frame rate is not a positive finite number.
    #[error("take '{take}': fps must be a positive number, got {fps}")]
    BadFps {
        /// Take name.
        take: String,
        /// The rate given.
        fps: f32,
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
    /// Half-frame poses that do not match the frames.
    #[error("take '{take}': the half-frame poses do not match the frames")]
    Halves {
        /// Take name.
        take: String,
    },
    /// An end time that is not after the frame before the last.
    #[error("take '{take}': end time {end} does not follow the frames")]
    BadEnd {
        /// Take name.
        take: String,
        /// The end given.
        end: f32,
    },
    /// More frames than a take may have, or more frames × joints than a bake may hold
    /// ([`MAX_FRAMES`](crate::anim::time::MAX_FRAMES), [`MAX_SAMPLES`]); checked before anything
    /// is sampled.
    #[error("take '{take}': {what}; shorten it or bake at a lower --fps")]
    TooLarge {
        /// Take name.
        take: String,
        /// The frames (and joints) against the limit.
        what: String,
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
    /// Checks the rate, the frame count and every pose against `skeleton`.
    pub fn check(&self, skeleton: &Skeleton) -> Result<(), TakeError> {
        let take = || self.name.clone();
        if !(self.fps.is_finite() && self.fps > 0.0) {
            return Err(TakeError::BadFps {
                take: take(),
                fps: self.fps,
            });
        }
        if self.frames.is_empty() {
            return Err(TakeError::NoFrames { take: take() });
        }
        if skeleton.is_empty() {
            return Err(TakeError::NoJoints { take: take() });
        }
        for (frame, pose) in self.frames.iter().enumerate() {
            if pose.len() != skeleton.len() {
                return Err(TakeError::PoseLength {
                    take: take(),
                    frame,
                    got: pose.len(),
                    expected: skeleton.len(),
                });
            }
            if let Some(j) = pose.iter().position(|t| !t.is_finite()) {
                return Err(TakeError::NotFinite {
                    take: take(),
                    frame,
                    joint: skeleton.names()[j].clone(),
                });
            }
            if let Some(j) = pose.iter().position(|t| !usable_rotation(t.rotation)) {
                return Err(TakeError::ZeroRotation {
                    take: take(),
                    frame,
                    joint: skeleton.names()[j].clone(),
                });
            }
        }
        let halves_ok = self.halves.is_empty()
            || (self.halves.len() + 1 == self.frames.len()
                && self.halves.iter().all(|p| {
                    p.len() == skeleton.len()
                        && p.iter()
                            .all(|t| t.is_finite() && usable_rotation(t.rotation))
                }));
        if !halves_ok {
            return Err(TakeError::Halves { take: take() });
        }
        if let Some(end) = self.end {
            let n = self.frames.len();
            let before = step_time(n.saturating_sub(2) as u64, self.fps);
            if !(end.is_finite() && (n < 2 || end > before)) {
                return Err(TakeError::BadEnd { take: take(), end });
            }
        }
        Ok(())
    }

    /// Duration in seconds: the time of the last frame.
    pub fn duration(&self) -> f32 {
        self.grid().end
    }

    /// The key times of the take.
    pub fn grid(&self) -> Grid {
        let mut grid = Grid::new(self.fps, self.frames.len());
        if let Some(end) = self.end {
            grid.end = end;
        }
        grid
    }
}

/// True when `q` normalises to a unit rotation (finite, not near zero length).
fn usable_rotation(q: glam::Quat) -> bool {
    let l = q.length();
    l.is_finite() && l > 1e-12 && q.normalize().is_finite()
}

/// The most frames × joints one take of a bake may hold: 5,000,000. A bake peaks at about
/// 830 bytes per frame × joint (measured: the reduction's world matrices, fits and readings), so
/// this is about 4 GB: for a 24-joint rig, 208,333 frames (58 minutes at 60 fps). See
/// [`check_size`].
pub const MAX_SAMPLES: usize = 5_000_000;

/// Checks a take's size before it is sampled: at most
/// [`MAX_FRAMES`](crate::anim::time::MAX_FRAMES) frames and [`MAX_SAMPLES`] frames × joints,
/// so an hours-long take or a huge `--fps` is an error naming the take, not an allocation that
/// aborts the process.
pub fn check_size(take: &str, frames: usize, joints: usize) -> Result<(), TakeError> {
    let too_large = |what: String| TakeError::TooLarge {
        take: take.to_string(),
        what,
    };
    let max_frames = crate::anim::time::MAX_FRAMES as usize;
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
        fps,
        frames: out,
        halves: Vec::new(),
        end: None,
        animated: Vec::new(),
        meta: TakeMeta::default(),
    })
}

impl ReducedTake {
    /// The key times of the take.
    pub fn grid(&self) -> Grid {
        Grid {
            fps: self.fps,
            frames: self.frame_count,
            end: self.end,
        }
    }

    /// The reduced take as a runtime clip (key times from [`ReducedTake::grid`]).
    pub fn to_clip(&self) -> Clip {
        fn track<T: Copy>(f: &Fitted<T>, grid: &Grid) -> Track<T> {
            Track {
                interpolation: f.interpolation,
                times: f.frames.iter().map(|&i| grid.time(i as usize)).collect(),
                values: f.values.clone(),
            }
        }
        let grid = self.grid();
        let tracks = self
            .joints
            .iter()
            .map(|j| JointTracks {
                joint: j.joint,
                translation: j.translation.as_ref().map(|f| track(f, &grid)),
                rotation: j.rotation.as_ref().map(|f| track(f, &grid)),
                scale: j.scale.as_ref().map(|f| track(f, &grid)),
            })
            .collect();
        Clip::new(self.name.clone(), tracks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A take over the frame limit, or over the sample limit for its joints, is refused by
    /// name before anything is allocated.
    #[test]
    fn size_limits() {
        assert_eq!(check_size("t", 1_000_000, 4), Ok(()));
        assert_eq!(check_size("t", 208_333, 24), Ok(()));
        assert_eq!(
            check_size("t", 1_000_001, 1).unwrap_err().to_string(),
            "take 't': 1000001 frames is over the limit of 1000000; shorten it or bake at a \
             lower --fps"
        );
        assert_eq!(
            check_size("t", 208_334, 24).unwrap_err().to_string(),
            "take 't': 208334 frames x 24 joints is 5000016 samples, over the limit of \
             5000000; shorten it or bake at a lower --fps"
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
