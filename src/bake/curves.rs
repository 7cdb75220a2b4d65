//! What a bake's keys look like to a client: the [`Curves`] profile (LINEAR keys every client
//! plays alike, or CUBICSPLINE for clients that honour tangents), the [`Grid`] of key times
//! (frame `i` at `i / fps`, the last frame at the clip's exact end), and the LINEAR and STEP
//! fits that also hold between frames.
//!
//! A LINEAR rotation is played as slerp by glTF viewers (three.js, Marionette) but as a
//! normalised per-component lerp by Blender's importer; a LINEAR fit is accepted only when both
//! stay within the tolerance at every frame and every half frame. STEP is accepted only when the
//! source holds its value between keys (checked at half frames, where a stepped source holds and
//! a continuous one moves).

use glam::Vec4;

use super::fit::{FitValue, Fitted, MAX_SPAN};
use crate::anim::time::step_time;
use crate::anim::Interpolation;

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

/// The key times of a bake: frame `i` at [`step_time`]`(i, fps)`, except the last frame, which
/// sits at `end` (the clip's exact end when it falls between frames).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Frames per second.
    pub fps: f32,
    /// Number of frames.
    pub frames: usize,
    /// Time of the last frame, in seconds.
    pub end: f32,
}

impl Grid {
    /// `frames` frames at `fps`, the last at its frame time.
    pub fn new(fps: f32, frames: usize) -> Self {
        Self {
            fps,
            frames,
            end: step_time(frames.saturating_sub(1) as u64, fps),
        }
    }

    /// Time of frame `i`, in seconds.
    pub fn time(&self, i: usize) -> f32 {
        if i + 1 >= self.frames {
            self.end
        } else {
            step_time(i as u64, self.fps)
        }
    }

    /// Time halfway between frames `i` and `i + 1`.
    pub fn half(&self, i: usize) -> f32 {
        0.5 * (self.time(i) + self.time(i + 1))
    }
}

/// One channel to fit: its value at every frame and, when known, halfway between frames.
#[derive(Clone, Copy)]
pub struct Samples<'a, T> {
    /// Value at each frame of the grid.
    pub frames: &'a [T],
    /// Value halfway between frame `i` and `i + 1` (`frames.len() - 1` of them), or `None`
    /// when only frames are checked.
    pub halves: Option<&'a [T]>,
}

impl<T: FitValue> Fitted<T> {
    /// The value a glTF client computes at time `t` (slerp for LINEAR rotations).
    pub fn value_at(&self, grid: &Grid, t: f32) -> T {
        self.eval(grid, t, false)
    }

    /// The value Blender 3.4 computes at time `t` (LINEAR rotations as normalised lerp).
    pub fn value_nlerp_at(&self, grid: &Grid, t: f32) -> T {
        self.eval(grid, t, true)
    }

    /// Blender's reading ([`Fitted::value_nlerp_at`]) at every frame, then every half frame.
    pub fn dense_nlerp_on(&self, grid: &Grid) -> Vec<T> {
        let n = grid.frames;
        let mut out: Vec<T> = (0..n)
            .map(|i| self.eval(grid, grid.time(i), true))
            .collect();
        out.extend((0..n.saturating_sub(1)).map(|i| self.eval(grid, grid.half(i), true)));
        out
    }

    fn eval(&self, grid: &Grid, t: f32, nlerp: bool) -> T {
        let cubic = self.interpolation == Interpolation::CubicSpline;
        let stride = if cubic { 3 } else { 1 };
        let off = stride / 2;
        let keys = self.frames.len();
        let time = |k: usize| grid.time(self.frames[k] as usize);
        if keys == 1 || t <= time(0) {
            return self.values[off];
        }
        if t >= time(keys - 1) {
            return self.values[(keys - 1) * stride + off];
        }
        // last key at or before t
        let k = self.frames.partition_point(|&f| grid.time(f as usize) <= t) - 1;
        let (t0, t1) = (time(k), time(k + 1));
        let dt = t1 - t0;
        let s = (t - t0) / dt;
        match self.interpolation {
            Interpolation::Step => self.values[k],
            Interpolation::Linear if nlerp => T::nlerp(self.values[k], self.values[k + 1], s),
            Interpolation::Linear => T::linear(self.values[k], self.values[k + 1], s),
            Interpolation::CubicSpline => {
                let v = &self.values[3 * k..3 * k + 6];
                let m0 = T::from_vec4(v[2].to_vec4() * dt);
                let m1 = T::from_vec4(v[3].to_vec4() * dt);
                T::hermite(v[1], m0, v[4], m1, s)
            }
        }
    }

    /// The value a client computes at every frame of `grid`, then (when `halves`) at every
    /// half frame.
    pub fn dense_on(&self, grid: &Grid, halves: bool) -> Vec<T> {
        let n = grid.frames;
        let extra = if halves { n.saturating_sub(1) } else { 0 };
        let mut out = Vec::with_capacity(n + extra);
        out.extend((0..n).map(|i| self.value_at(grid, grid.time(i))));
        if halves {
            out.extend((0..extra).map(|i| self.value_at(grid, grid.half(i))));
        }
        out
    }
}

/// True when every value of `s` (frames and halves) is within `tol` of `v`.
pub fn all_within<T: FitValue>(
    s: &Samples<'_, T>,
    v: T,
    tol: f32,
    err: &dyn Fn(T, T) -> f32,
) -> bool {
    s.frames.iter().all(|&x| err(x, v) <= tol)
        && s.halves.is_none_or(|h| h.iter().all(|&x| err(x, v) <= tol))
}

/// STEP keys: a new key wherever the held value drifts beyond `tol`; `None` when the source
/// moves between frames (a half frame away from the held value), where STEP would jump.
pub fn fit_step<T: FitValue>(
    s: &Samples<'_, T>,
    tol: f32,
    err: &dyn Fn(T, T) -> f32,
) -> Option<Fitted<T>> {
    let samples = s.frames;
    let mut frames = vec![0u32];
    let mut values = vec![samples[0]];
    let mut held = samples[0];
    for (i, &v) in samples.iter().enumerate().skip(1) {
        if let Some(h) = s.halves {
            if err(h[i - 1], held) > tol {
                return None;
            }
        }
        if err(v, held) > tol {
            frames.push(i as u32);
            values.push(v);
            held = v;
        }
    }
    Some(Fitted {
        interpolation: Interpolation::Step,
        frames,
        values,
    })
}

/// True when LINEAR keys at frames `a` and `b` reproduce every frame (and half frame) between
/// them under slerp and, with `nlerp`, under normalised lerp too.
fn segment_ok<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    (a, b): (usize, usize),
    nlerp: bool,
    tol: f32,
    err: &dyn Fn(T, T) -> f32,
) -> bool {
    let (t0, t1) = (grid.time(a), grid.time(b));
    let (va, vb) = (s.frames[a], s.frames[b]);
    let ok = |t: f32, want: T| {
        let u = (t - t0) / (t1 - t0);
        err(want, T::linear(va, vb, u)) <= tol && (!nlerp || err(want, T::nlerp(va, vb, u)) <= tol)
    };
    (a + 1..b).all(|i| ok(grid.time(i), s.frames[i]))
        && s.halves
            .is_none_or(|h| (a..b).all(|i| ok(grid.half(i), h[i])))
}

/// LINEAR keys by greedy furthest reach: each segment is extended while every frame (and half
/// frame) inside stays within `tol` (under slerp, and with `nlerp` under normalised lerp too);
/// keys sit on sampled values; the last frame is a key.
pub fn fit_linear<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    nlerp: bool,
    tol: f32,
    err: &dyn Fn(T, T) -> f32,
) -> Fitted<T> {
    let n = s.frames.len();
    let mut frames = vec![0u32];
    let mut a = 0usize;
    while a < n - 1 {
        let mut b = a + 1;
        while b + 1 < n && b + 1 - a <= MAX_SPAN && segment_ok(s, grid, (a, b + 1), nlerp, tol, err)
        {
            b += 1;
        }
        frames.push(b as u32);
        a = b;
    }
    let values = frames.iter().map(|&f| s.frames[f as usize]).collect();
    Fitted {
        interpolation: Interpolation::Linear,
        frames,
        values,
    }
}

/// Normalised component lerp (Blender's reading of LINEAR rotation keys: no hemisphere flip).
pub fn nlerp4(a: Vec4, b: Vec4, s: f32) -> Vec4 {
    let v = a * (1.0 - s) + b * s;
    let len = v.length();
    if len > 0.0 {
        v / len
    } else {
        v
    }
}

#[cfg(test)]
#[path = "curves_tests.rs"]
mod tests;
