//! Keyframed clips: per joint, per channel (translation / rotation / scale) tracks.
//!
//! Sampling lives in [`super::sampling`]; this file owns the data and its validation.

use glam::{Quat, Vec3};

use super::{ClipError, Interpolation, JointIndex, MorphTrack};

/// Keyframes of one value type.
///
/// `times` are strictly increasing seconds. For [`Interpolation::CubicSpline`], `values` holds
/// three entries per key in glTF order `[in_tangent, value, out_tangent]`; otherwise one per key.
/// Tangents are stored as in glTF: per second, scaled by the key interval when sampled.
#[derive(Clone, Debug, PartialEq)]
pub struct Track<T> {
    /// Interpolation between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing.
    pub times: Vec<f32>,
    /// Key values (three per key for cubic splines).
    pub values: Vec<T>,
}

/// The channel a track drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Local translation.
    Translation,
    /// Local rotation.
    Rotation,
    /// Local scale.
    Scale,
}

impl Channel {
    /// The glTF `target.path` spelling.
    pub fn as_gltf(self) -> &'static str {
        match self {
            Channel::Translation => "translation",
            Channel::Rotation => "rotation",
            Channel::Scale => "scale",
        }
    }
}

/// All animated channels of one joint. A missing channel holds the rest pose.
#[derive(Clone, Debug, PartialEq)]
pub struct JointTracks {
    /// The joint driven.
    pub joint: JointIndex,
    /// Translation keys, if animated.
    pub translation: Option<Track<Vec3>>,
    /// Rotation keys, if animated.
    pub rotation: Option<Track<Quat>>,
    /// Scale keys, if animated.
    pub scale: Option<Track<Vec3>>,
}

impl JointTracks {
    /// A joint with no channels yet.
    pub fn new(joint: JointIndex) -> Self {
        Self {
            joint,
            translation: None,
            rotation: None,
            scale: None,
        }
    }

    /// The key times of each channel the joint has (translation, rotation, scale).
    pub fn key_times(&self) -> impl Iterator<Item = &[f32]> {
        [
            self.translation.as_ref().map(|t| &t.times[..]),
            self.rotation.as_ref().map(|t| &t.times[..]),
            self.scale.as_ref().map(|t| &t.times[..]),
        ]
        .into_iter()
        .flatten()
    }
}

/// What happens when the playhead leaves `[start, end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WrapMode {
    /// Play once, then hold the last key (glTF viewers' default).
    #[default]
    Once,
    /// Wrap around to the start.
    Loop,
    /// Play forwards, then backwards, and so on.
    PingPong,
    /// Play once, then jump back to (and hold) the first key.
    ClampToFirst,
}

/// A named animation: tracks per joint and morph weight tracks per morph set, with the time
/// range covered by their keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Clip name (unique within a model).
    pub name: String,
    /// Earliest key time over all tracks (glTF allows a clip to start after 0).
    pub start: f32,
    /// Latest key time over all tracks: the clip's duration in glTF terms.
    pub end: f32,
    /// Tracks, at most one entry per joint, sorted by joint index.
    pub tracks: Vec<JointTracks>,
    /// Morph weight tracks, at most one per morph set, sorted by set (a set without one holds
    /// its default weights).
    pub morphs: Vec<MorphTrack>,
}

/// Values that can be keyframed.
pub trait KeyValue: Copy {
    /// True when every component is finite.
    fn finite(&self) -> bool;
}

impl KeyValue for Vec3 {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

impl KeyValue for Quat {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

impl<T: KeyValue> Track<T> {
    /// Values per key for this interpolation (3 for cubic splines).
    pub fn stride(&self) -> usize {
        match self.interpolation {
            Interpolation::CubicSpline => 3,
            _ => 1,
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// True when the track has no keys.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Checks layout, finiteness and increasing times.
    pub fn validate(&self) -> Result<(), ClipError> {
        if self.times.is_empty() {
            return Err(ClipError::Empty);
        }
        let expected = self.times.len() * self.stride();
        if self.values.len() != expected {
            return Err(ClipError::CountMismatch {
                times: self.times.len(),
                values: self.values.len(),
                expected,
            });
        }
        for (key, &time) in self.times.iter().enumerate() {
            if !time.is_finite() {
                return Err(ClipError::NotFinite { key });
            }
            if time < 0.0 {
                return Err(ClipError::NegativeTime { key, time });
            }
            if key > 0 && time <= self.times[key - 1] {
                return Err(ClipError::NotIncreasing {
                    key,
                    time,
                    previous: self.times[key - 1],
                });
            }
        }
        if let Some(i) = self.values.iter().position(|v| !v.finite()) {
            return Err(ClipError::NotFinite {
                key: i / self.stride(),
            });
        }
        Ok(())
    }
}

impl Clip {
    /// Builds a clip and computes its time range from the tracks' keys.
    pub fn new(name: impl Into<String>, mut tracks: Vec<JointTracks>) -> Self {
        tracks.sort_by_key(|t| t.joint);
        let mut clip = Self {
            name: name.into(),
            start: 0.0,
            end: 0.0,
            tracks,
            morphs: Vec::new(),
        };
        clip.update_range();
        clip
    }

    /// The clip with morph weight tracks (sorted by set), its time range covering their keys
    /// too.
    pub fn with_morphs(mut self, mut morphs: Vec<MorphTrack>) -> Self {
        morphs.sort_by_key(|t| t.set);
        self.morphs = morphs;
        self.update_range();
        self
    }

    /// Sets `start` and `end` from every track's keys (0 and 0 without keys).
    fn update_range(&mut self) {
        let mut start = f32::INFINITY;
        let mut end = f32::NEG_INFINITY;
        let joint_times = self.tracks.iter().flat_map(JointTracks::key_times);
        let morph_times = self.morphs.iter().map(|m| &m.times[..]);
        for times in joint_times.chain(morph_times) {
            if let (Some(first), Some(last)) = (times.first(), times.last()) {
                start = start.min(*first);
                end = end.max(*last);
            }
        }
        if !start.is_finite() {
            start = 0.0;
            end = 0.0;
        }
        self.start = start;
        self.end = end;
    }

    /// Duration in glTF terms: the time of the last key.
    pub fn duration(&self) -> f32 {
        self.end
    }

    /// Number of animated joint channels (translation, rotation and scale tracks; morph weight
    /// tracks are [`Clip::morphs`]).
    pub fn channel_count(&self) -> usize {
        self.tracks
            .iter()
            .map(|t| {
                t.translation.is_some() as usize
                    + t.rotation.is_some() as usize
                    + t.scale.is_some() as usize
            })
            .sum()
    }
}
