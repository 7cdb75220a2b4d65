//! A fitted channel as a client reads it: [`FitValue`] (what can be keyed) and [`Fitted`] (keys at
//! frame indices of a [`Grid`], in glTF layout), evaluated exactly as glTF clients (slerp for
//! LINEAR rotations, Hermite for CUBICSPLINE) and as Blender's importer (normalised lerp) play
//! them.

use glam::{Quat, Vec3, Vec4};

use super::curves::Grid;
use marionette_anim::{Interpolate, Interpolation};

/// A value type that can be keyed: translation/scale (`Vec3`) or rotation (`Quat`).
///
/// Interpolation comes from the runtime's [`Interpolate`], so candidates are evaluated by the
/// same code that plays them back.
pub trait FitValue: Interpolate + PartialEq + std::fmt::Debug {
    /// Components as a 4-vector (w = 0 for `Vec3`).
    fn to_vec4(self) -> Vec4;
    /// The value from a 4-vector (inverse of [`FitValue::to_vec4`]).
    fn from_vec4(v: Vec4) -> Self;
    /// LINEAR interpolation as Blender's importer plays it (per-component lerp, then
    /// normalised for rotations); the same as [`Interpolate::linear`] for vectors.
    fn nlerp(a: Self, b: Self, s: f32) -> Self {
        Self::linear(a, b, s)
    }
}

impl FitValue for Vec3 {
    fn to_vec4(self) -> Vec4 {
        self.extend(0.0)
    }
    fn from_vec4(v: Vec4) -> Self {
        v.truncate()
    }
}

impl FitValue for Quat {
    fn to_vec4(self) -> Vec4 {
        Vec4::from(self)
    }
    fn from_vec4(v: Vec4) -> Self {
        Quat::from_vec4(v)
    }
    fn nlerp(a: Self, b: Self, s: f32) -> Self {
        Quat::from_vec4(nlerp4(a.into(), b.into(), s))
    }
}

/// Where a time falls in a channel's keys ([`Fitted::read_both`]).
enum Between {
    /// On the stored value at this index (before the first key, after the last, or one key).
    At(usize),
    /// Between keys `k` and `k + 1`, at this fraction.
    Keys(usize, f32),
}

/// A fitted channel: keys at frame indices, values in glTF layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted<T> {
    /// Interpolation of the sampler.
    pub interpolation: Interpolation,
    /// Key frame indices, strictly increasing (time = [`Grid::time`]).
    pub frames: Vec<u32>,
    /// One value per key, or `[in_tangent, value, out_tangent]` per key for CUBICSPLINE
    /// (tangents per second, as glTF stores them).
    pub values: Vec<T>,
}

impl<T: FitValue> Fitted<T> {
    /// Number of keys.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// True when there are no keys.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The bytes the keys take in a glTF buffer: a 4-byte time each (unshared) and
    /// `value_bytes` per value (tangents included).
    pub fn bytes(&self, value_bytes: usize) -> usize {
        self.frames.len() * 4 + self.values.len() * value_bytes
    }

    /// The value a glTF client computes at each of frames `0..n` (frame `i` at `i / fps`).
    pub fn dense(&self, n: usize, fps: f32) -> Vec<T> {
        self.dense_on(&Grid::new(fps, n), false)
    }
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

    /// Blender's reading ([`Fitted::value_nlerp_at`]) at every frame, then every inner time.
    pub fn dense_nlerp_on(&self, grid: &Grid) -> Vec<T> {
        let mut out: Vec<T> = grid
            .times()
            .iter()
            .map(|&t| self.eval(grid, t, true))
            .collect();
        out.extend(
            grid.inner_times()
                .into_iter()
                .map(|t| self.eval(grid, t, true)),
        );
        out
    }

    fn eval(&self, grid: &Grid, t: f32, nlerp: bool) -> T {
        let mut hint = usize::MAX;
        self.eval_from(grid, t, nlerp, &mut hint)
    }

    /// The value a client computes at time `t` (with `nlerp`, Blender's reading), the key
    /// searched from `hint` (the key found last time, updated; any value is correct, a near
    /// one is fast: times read in order find their key in a step or two).
    pub fn read(&self, grid: &Grid, t: f32, nlerp: bool, hint: &mut usize) -> T {
        self.eval_from(grid, t, nlerp, hint)
    }

    /// [`Fitted::read`] under slerp and under Blender's normalised lerp at once (the key is
    /// found once; they differ only between LINEAR keys).
    pub fn read_both(&self, grid: &Grid, t: f32, hint: &mut usize) -> (T, T) {
        match self.between(grid, t, hint) {
            Between::At(i) => (self.values[i], self.values[i]),
            Between::Keys(k, s) => match self.interpolation {
                Interpolation::Linear => (
                    T::linear(self.values[k], self.values[k + 1], s),
                    T::nlerp(self.values[k], self.values[k + 1], s),
                ),
                _ => {
                    let v = self.at(grid, k, s);
                    (v, v)
                }
            },
        }
    }

    /// Where `t` falls: on one stored value, or between keys `k` and `k + 1` at fraction `s`.
    fn between(&self, grid: &Grid, t: f32, hint: &mut usize) -> Between {
        let cubic = self.interpolation == Interpolation::CubicSpline;
        let stride = if cubic { 3 } else { 1 };
        let off = stride / 2;
        let keys = self.frames.len();
        let time = |k: usize| grid.time(self.frames[k] as usize);
        if keys == 1 || t <= time(0) {
            return Between::At(off);
        }
        if t >= time(keys - 1) {
            return Between::At((keys - 1) * stride + off);
        }
        // last key at or before t (times increase: the one key with time(k) <= t < time(k + 1))
        let mut k = *hint;
        if k >= keys - 1 || time(k) > t {
            k = self.frames.partition_point(|&f| grid.time(f as usize) <= t) - 1;
        } else {
            while time(k + 1) <= t {
                k += 1;
            }
        }
        *hint = k;
        let (t0, t1) = (time(k), time(k + 1));
        Between::Keys(k, (t - t0) / (t1 - t0))
    }

    /// The value between keys `k` and `k + 1` at fraction `s` (STEP, or the cubic curve).
    fn at(&self, grid: &Grid, k: usize, s: f32) -> T {
        match self.interpolation {
            Interpolation::Step => self.values[k],
            Interpolation::Linear => T::linear(self.values[k], self.values[k + 1], s),
            Interpolation::CubicSpline => {
                let dt =
                    grid.time(self.frames[k + 1] as usize) - grid.time(self.frames[k] as usize);
                let v = &self.values[3 * k..3 * k + 6];
                let m0 = T::from_vec4(v[2].to_vec4() * dt);
                let m1 = T::from_vec4(v[3].to_vec4() * dt);
                T::hermite(v[1], m0, v[4], m1, s)
            }
        }
    }

    fn eval_from(&self, grid: &Grid, t: f32, nlerp: bool, hint: &mut usize) -> T {
        match self.between(grid, t, hint) {
            Between::At(i) => self.values[i],
            Between::Keys(k, s) if nlerp && self.interpolation == Interpolation::Linear => {
                T::nlerp(self.values[k], self.values[k + 1], s)
            }
            Between::Keys(k, s) => self.at(grid, k, s),
        }
    }

    /// The value a client computes at every frame of `grid`, then (when `inner`) at every
    /// inner time.
    pub fn dense_on(&self, grid: &Grid, inner: bool) -> Vec<T> {
        let mut out: Vec<T> = grid
            .times()
            .iter()
            .map(|&t| self.value_at(grid, t))
            .collect();
        if inner {
            out.extend(
                grid.inner_times()
                    .into_iter()
                    .map(|t| self.value_at(grid, t)),
            );
        }
        out
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
