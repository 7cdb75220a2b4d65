//! What a reduction produces: a [`ReducedTake`] (the keys to export), its [`ReducedJoint`]s and
//! the measured [`ReduceStats`] ([`ErrorAt`]: where an error is). Made by [`super::reduce`],
//! [`super::unreduced`] and [`super::rebake`]; finished by [`super::finish`].

use glam::{Quat, Vec3};

use super::curves::{Curves, Grid};
use super::fitted::Fitted;
use super::shell::ShellRule;
use marionette_anim::{Clip, JointIndex, JointTracks, Track};

/// The reduced channels of one joint; `None` means the channel holds the rest pose.
#[derive(Clone, Debug, PartialEq)]
pub struct ReducedJoint {
    /// The joint.
    pub joint: JointIndex,
    /// Translation keys.
    pub translation: Option<Fitted<Vec3>>,
    /// Rotation keys (normalised, hemisphere-continuous).
    pub rotation: Option<Fitted<Quat>>,
    /// Scale keys.
    pub scale: Option<Fitted<Vec3>>,
}

impl ReducedJoint {
    /// The key count of each channel written (translation, rotation, scale).
    pub fn key_counts(&self) -> impl Iterator<Item = usize> {
        [
            self.translation.as_ref().map(Fitted::len),
            self.rotation.as_ref().map(Fitted::len),
            self.scale.as_ref().map(Fitted::len),
        ]
        .into_iter()
        .flatten()
    }
}

/// Where an error was measured: the time and the joint whose shell moved most.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorAt {
    /// The error, in metres: a bound on how far any vertex the joint skins moves.
    pub error: f64,
    /// Time in the take, in seconds.
    pub time: f32,
    /// The joint.
    pub joint: String,
}

/// Figures of one reduction, all measured.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceStats {
    /// Take name.
    pub take: String,
    /// Frames baked.
    pub frames: usize,
    /// Keys an unreduced bake writes (every channel of every joint at every frame).
    pub raw_keys: usize,
    /// Keys written.
    pub keys: usize,
    /// Channels written (the rest hold the rest pose).
    pub channels: usize,
    /// Largest world-space error over every joint's shell at every frame and inner time, in
    /// metres: no vertex moves farther from the reference.
    pub max_error: f64,
    /// 99th percentile of the per-joint, per-sample world-space error, in metres.
    pub p99_error: f64,
    /// Where the largest error is (`None` when every error is zero).
    pub worst: Option<ErrorAt>,
    /// How the shells were chosen.
    pub shells: ShellRule,
    /// For a clip resampled at `--fps`: the largest error of the written keys against the
    /// source clip itself (at its keys and between them), which the resampling costs.
    pub against_source: Option<ErrorAt>,
    /// Fit-and-measure passes used.
    pub passes: usize,
    /// The morph weights' figures (zeros for a rig without morph targets).
    pub morphs: super::MorphStats,
}

/// A take after key reduction: what gets exported.
#[derive(Clone, Debug, PartialEq)]
pub struct ReducedTake {
    /// Take name (the glTF animation name).
    pub name: String,
    /// The frame times (a key at frame `i` is at `grid.time(i)`).
    pub grid: Grid,
    /// The frames are the source clip's own key times (its time base kept).
    pub source_times: bool,
    /// The budget the keys were reduced under, in metres.
    pub tolerance: f32,
    /// The key profile the keys were fitted with.
    pub curves: Curves,
    /// Rotation keys that are exactly 16-bit values are written as such (`--quantize on`).
    pub quantized: bool,
    /// Channels per joint, sorted by joint, joints without channels left out.
    pub joints: Vec<ReducedJoint>,
    /// The `weights` channels, one per morph set written, sorted by set.
    pub morphs: Vec<super::ReducedMorph>,
    /// Markers and events of the take.
    pub meta: super::TakeMeta,
    /// Measured figures.
    pub report: ReduceStats,
}

impl ReducedTake {
    /// The reduced take as a runtime clip (key times from [`ReducedTake::grid`]).
    pub fn to_clip(&self) -> Clip {
        fn track<T: Copy>(f: &Fitted<T>, grid: &Grid) -> Track<T> {
            Track {
                interpolation: f.interpolation,
                times: f.frames.iter().map(|&i| grid.time(i as usize)).collect(),
                values: f.values.clone(),
            }
        }
        let grid = &self.grid;
        let tracks = self
            .joints
            .iter()
            .map(|j| JointTracks {
                joint: j.joint,
                translation: j.translation.as_ref().map(|f| track(f, grid)),
                rotation: j.rotation.as_ref().map(|f| track(f, grid)),
                scale: j.scale.as_ref().map(|f| track(f, grid)),
            })
            .collect();
        let morphs = self.morphs.iter().map(|m| m.to_track(grid)).collect();
        Clip::new(self.name.clone(), tracks).with_morphs(morphs)
    }
}
