//! What a bake's keys look like to a client: the [`Curves`] profile (LINEAR keys every client
//! plays alike, or CUBICSPLINE for clients that honour tangents), the [`Grid`] of key times
//! (frame `i` at `i / fps`, the last frame at the clip's exact end, or a clip's own key times),
//! and the [`Samples`] of one channel to fit. The keys themselves are [`super::fitted`]; the
//! fits are [`super::linear_fit`] (LINEAR, STEP) and [`super::fit`] (the profiles).
//!
//! A LINEAR rotation is played as slerp by glTF viewers (three.js, Marionette) but as a
//! normalised per-component lerp by Blender's importer; a LINEAR fit is accepted only when both
//! stay within the tolerance at every frame and every inner check time. STEP is accepted only
//! when the source holds its value between keys (checked at inner times, where a stepped source
//! holds and a continuous one moves).

use marionette_anim::time::step_time;

/// The key profile of a bake.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Curves {
    /// LINEAR keys (STEP only where the source is stepped): Blender, three.js and every engine
    /// play them the same, within the tolerance at frames and between frames.
    #[default]
    Linear,
    /// The fewest keys of constant, STEP, LINEAR or CUBICSPLINE (tangents honoured by three.js,
    /// bevy, Godot; Blender 3.4 replaces them with automatic handles).
    Cubic,
}

impl Curves {
    /// The CLI name (`linear`, `cubic`).
    pub fn name(self) -> &'static str {
        match self {
            Curves::Linear => "linear",
            Curves::Cubic => "cubic",
        }
    }

    /// The profile named `name` (`linear` or `cubic`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "linear" => Some(Curves::Linear),
            "cubic" => Some(Curves::Cubic),
            _ => None,
        }
    }
}

/// The key times of a bake and the times checked between them.
///
/// A regular grid ([`Grid::new`]) has frame `i` at [`step_time`]`(i, fps)`, except the last
/// frame, which may sit at a clip's exact end ([`Grid::ending_at`]); a clip baked at its own
/// time base ([`Grid::from_times`]) has the source's key times (on a native rate, or
/// irregular). Between frames `i` and `i + 1` sit [`Grid::inner`] evenly spaced check times
/// (1: the half frame).
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Frames per second when the frames are on a regular grid (frame `i` at `i / fps`, the
    /// last possibly at the clip's end); `None`: irregular times (a clip's own key times).
    pub rate: Option<f32>,
    /// Time of each frame, strictly increasing.
    times: Vec<f32>,
    /// Check times between consecutive frames (at least 1).
    pub inner: usize,
}

impl Grid {
    /// `frames` frames at `fps`, the last at its frame time; half frames checked.
    pub fn new(fps: f32, frames: usize) -> Self {
        Self {
            rate: Some(fps),
            times: (0..frames).map(|i| step_time(i as u64, fps)).collect(),
            inner: 1,
        }
    }

    /// Frames at `times` (strictly increasing, finite), on the regular `rate` if they are;
    /// `inner` check times between consecutive frames (at least 1).
    pub fn from_times(times: Vec<f32>, rate: Option<f32>, inner: usize) -> Self {
        Self {
            rate,
            times,
            inner: inner.max(1),
        }
    }

    /// The same grid with its last frame at `end` (a clip ending between frames).
    pub fn ending_at(mut self, end: f32) -> Self {
        if let Some(last) = self.times.last_mut() {
            *last = end;
        }
        self
    }

    /// Number of frames.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// True when there are no frames.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Time of the last frame (the duration), in seconds; 0 for no frames.
    pub fn end(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// The frame times.
    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// Time of frame `i`, in seconds (the last frame's for `i` past the end).
    pub fn time(&self, i: usize) -> f32 {
        match self.times.get(i) {
            Some(&t) => t,
            None => self.end(),
        }
    }

    /// Check time `k` (of [`Grid::inner`]) between frames `i` and `i + 1`: at fraction
    /// `(k + 1) / (inner + 1)` of the interval (the half frame is exactly `0.5 * (t0 + t1)`).
    pub fn inner_time(&self, i: usize, k: usize) -> f32 {
        let f = (k + 1) as f32 / (self.inner + 1) as f32;
        let (t0, t1) = (self.time(i), self.time(i + 1));
        t0 * (1.0 - f) + t1 * f
    }

    /// Every check time between frames, interval by interval (`inner` per interval).
    pub fn inner_times(&self) -> Vec<f32> {
        let n = self.len().saturating_sub(1);
        (0..n)
            .flat_map(|i| (0..self.inner).map(move |k| (i, k)))
            .map(|(i, k)| self.inner_time(i, k))
            .collect()
    }

    /// Why the grid cannot be baked on: a rate that is not a positive finite number, or frame
    /// times that are not finite and strictly increasing; `None` when it can.
    pub fn problem(&self) -> Option<String> {
        if let Some(fps) = self.rate {
            if !(fps.is_finite() && fps > 0.0) {
                return Some(format!("fps must be a positive number, got {fps}"));
            }
        }
        if let Some(t) = self.times.iter().find(|t| !t.is_finite()) {
            return Some(format!("frame time {t} is not finite"));
        }
        if let Some(i) = self.times.windows(2).position(|w| w[1] <= w[0]) {
            return Some(format!(
                "frame time {} does not follow {} (frame {})",
                self.times[i + 1],
                self.times[i],
                i + 1
            ));
        }
        None
    }

    /// Time of check sample `s` of a reduction: frames `0..len`, then the inner times.
    pub fn sample_time(&self, s: usize) -> f32 {
        let n = self.len();
        if s < n {
            return self.time(s);
        }
        let s = s - n;
        self.inner_time(s / self.inner, s % self.inner)
    }
}

/// One channel to fit: its value at every frame and, when known, between frames.
#[derive(Clone, Copy)]
pub struct Samples<'a, T> {
    /// Value at each frame of the grid.
    pub frames: &'a [T],
    /// Values at the grid's inner check times (`inner` per interval, interval by interval:
    /// `(frames.len() - 1) * inner` of them), or `None` when only frames are checked.
    pub inner: Option<&'a [T]>,
    /// The inner values are the source itself, which every profile's keys must follow (a clip
    /// at its own keys); false: under [`Curves::Cubic`] they only gate STEP (a resampled clip).
    pub inner_exact: bool,
    /// The value a key at each frame takes, when keys cannot hold the frames exactly (rotations
    /// quantized to 16 bits); `None`: the frames themselves.
    pub keys: Option<&'a [T]>,
}

impl<T: Copy> Samples<'_, T> {
    /// The value a key at frame `i` takes.
    pub fn key(&self, i: usize) -> T {
        self.keys.map_or(self.frames[i], |k| k[i])
    }
}

impl<T> Samples<'_, T> {
    /// The inner values between frames `i` and `i + 1` (empty without inner values).
    pub fn between(&self, i: usize) -> &[T] {
        let Some(h) = self.inner else {
            return &[];
        };
        let per = h.len() / self.frames.len().saturating_sub(1).max(1);
        h.get(i * per..(i + 1) * per).unwrap_or(&[])
    }
}

#[cfg(test)]
#[path = "curves_tests.rs"]
mod tests;
