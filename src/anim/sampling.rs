//! Sampling clips at a time: key search with per-channel cursors, glTF 2.0 interpolation
//! (STEP, LINEAR, CUBICSPLINE) and wrap modes.
//!
//! Semantics follow the glTF 2.0 specification (Appendix C, "Interpolation") and match three.js:
//! before the first key a track yields its first value, after the last key its last value;
//! LINEAR rotations use shortest-path slerp; CUBICSPLINE tangents are scaled by the key interval
//! and rotation results are normalised (without any sign flip, as the spec and three.js do: the
//! tangents are authored against the stored signs).

use glam::{Quat, Vec3, Vec4};

use super::{Clip, Interpolation, Track, Transform, WrapMode};

/// Per-clip playback cursors: one per channel, so sequential playback is O(1) per track; random
/// access falls back to binary search. Sized once; no allocation per frame afterwards.
///
/// A cursor is only a hint: any cursor value gives the same result, so using a cache with a
/// different clip is never wrong, merely slower for one frame (the cache resets itself).
#[derive(Clone, Debug, Default)]
pub struct SamplingCache {
    /// Key index hint per channel, in clip channel order (per joint track: T, R, S if present).
    cursors: Vec<usize>,
    /// Address of the clip's track list the cursors were built for (identity, never dereferenced).
    owner: usize,
}

impl SamplingCache {
    /// An empty cache; it sizes itself on the first [`Clip::sample`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every cursor (the next sample searches from the first key).
    pub fn reset(&mut self) {
        self.cursors.iter_mut().for_each(|c| *c = 0);
    }

    /// Makes the cache fit `clip`: sized (and reset) only when it was last used with another
    /// clip, so steady playback does no work here.
    fn prepare(&mut self, clip: &Clip) {
        let owner = clip.tracks.as_ptr() as usize;
        if self.owner != owner || self.cursors.is_empty() {
            self.owner = owner;
            let channels = clip.channel_count();
            if self.cursors.len() != channels {
                self.cursors.clear();
                self.cursors.resize(channels, 0);
            } else {
                self.reset();
            }
        }
    }
}

/// Values that can be interpolated the glTF way.
trait Interpolate: Copy {
    /// LINEAR interpolation between two keys.
    fn linear(a: Self, b: Self, s: f32) -> Self;
    /// Component-wise multiplication by a scalar.
    fn scale(v: Self, f: f32) -> Self;
    /// CUBICSPLINE Hermite interpolation; `m0`, `m1` are already scaled by the key interval.
    fn hermite(p0: Self, m0: Self, p1: Self, m1: Self, s: f32) -> Self;
}

impl Interpolate for Vec3 {
    #[inline(always)]
    fn scale(v: Self, f: f32) -> Self {
        v * f
    }

    #[inline(always)]
    fn linear(a: Self, b: Self, s: f32) -> Self {
        a * (1.0 - s) + b * s
    }

    #[inline(always)]
    fn hermite(p0: Self, m0: Self, p1: Self, m1: Self, s: f32) -> Self {
        let [h00, h10, h01, h11] = hermite_basis(s);
        p0 * h00 + m0 * h10 + p1 * h01 + m1 * h11
    }
}

impl Interpolate for Quat {
    #[inline(always)]
    fn scale(v: Self, f: f32) -> Self {
        v * f
    }

    #[inline(always)]
    fn linear(a: Self, b: Self, s: f32) -> Self {
        slerp_fast(a, b, s)
    }

    #[inline(always)]
    fn hermite(p0: Self, m0: Self, p1: Self, m1: Self, s: f32) -> Self {
        let [h00, h10, h01, h11] = hermite_basis(s);
        let v = Vec4::from(p0) * h00
            + Vec4::from(m0) * h10
            + Vec4::from(p1) * h01
            + Vec4::from(m1) * h11;
        Quat::from_vec4(v.normalize_or(Vec4::W))
    }
}

/// Cubic Hermite basis `[h00, h10, h01, h11]` at `s` in [0, 1] (glTF spec, Appendix C).
#[inline(always)]
fn hermite_basis(s: f32) -> [f32; 4] {
    let s2 = s * s;
    let s3 = s2 * s;
    let h01 = -2.0 * s3 + 3.0 * s2;
    let h11 = s3 - s2;
    [1.0 - h01, h11 - s2 + s, h01, h11]
}

/// Shortest-path spherical linear interpolation of unit quaternions.
///
/// Branch-free polynomial evaluation of `sin(t·θ)/sin(θ)` (D. Eberly, "A Fast and Accurate
/// Algorithm for Computing SLERP", 2011); agrees with the trigonometric slerp to about 1e-6
/// (12 terms; the 8-term version in the paper is off by 2e-5 near 180 degree key gaps).
#[inline(always)]
pub(crate) fn slerp_fast(q0: Quat, q1: Quat, t: f32) -> Quat {
    // 1 + mu for the 12-term series (fitted: worst truncation error 7.2e-7 over all angles)
    const MU: f32 = 1.894;
    const U: [f32; 12] = [
        1.0 / 3.0,
        1.0 / 10.0,
        1.0 / 21.0,
        1.0 / 36.0,
        1.0 / 55.0,
        1.0 / 78.0,
        1.0 / 105.0,
        1.0 / 136.0,
        1.0 / 171.0,
        1.0 / 210.0,
        1.0 / 253.0,
        MU / 300.0,
    ];
    const V: [f32; 12] = [
        1.0 / 3.0,
        2.0 / 5.0,
        3.0 / 7.0,
        4.0 / 9.0,
        5.0 / 11.0,
        6.0 / 13.0,
        7.0 / 15.0,
        8.0 / 17.0,
        9.0 / 19.0,
        10.0 / 21.0,
        11.0 / 23.0,
        MU * 12.0 / 25.0,
    ];
    let a = Vec4::from(q0);
    let b = Vec4::from(q1);
    let dot = a.dot(b);
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    let xm1 = dot * sign - 1.0;
    let d = 1.0 - t;
    let (tt, dd) = (t * t, d * d);
    // Keys closer than 60 degrees (the usual case) need only 4 plain terms (error < 4e-8).
    let (ct, cd) = if xm1 >= SHORT_ARC {
        series::<4>(&U_SHORT, &V_SHORT, xm1, tt, dd)
    } else {
        series::<12>(&U, &V, xm1, tt, dd)
    };
    Quat::from_vec4(a * (d * cd) + b * (sign * t * ct))
}

/// `cos(half angle) - 1` below which [`slerp_fast`] uses the long series (60 degree rotation).
const SHORT_ARC: f32 = -0.133_974_6;
/// The first four plain series coefficients (no end correction).
const U_SHORT: [f32; 4] = [1.0 / 3.0, 1.0 / 10.0, 1.0 / 21.0, 1.0 / 36.0];
/// See [`U_SHORT`].
const V_SHORT: [f32; 4] = [1.0 / 3.0, 2.0 / 5.0, 3.0 / 7.0, 4.0 / 9.0];

/// Evaluates the nested slerp series for `t^2` and `(1-t)^2` together.
#[inline(always)]
fn series<const N: usize>(u: &[f32; N], v: &[f32; N], xm1: f32, tt: f32, dd: f32) -> (f32, f32) {
    let mut ct = 1.0;
    let mut cd = 1.0;
    for i in (0..N).rev() {
        ct = 1.0 + (u[i] * tt - v[i]) * xm1 * ct;
        cd = 1.0 + (u[i] * dd - v[i]) * xm1 * cd;
    }
    (ct, cd)
}

/// Finds the key interval containing `t` (`times[k] <= t < times[k+1]`, `0 < t - times[0]`,
/// `t < times[last]`), starting from the hint in `cursor` and updating it.
///
/// Forward playback steps the cursor a few keys; anything else binary searches.
#[inline(always)]
fn seek(times: &[f32], t: f32, cursor: &mut usize) -> usize {
    let last = times.len() - 2; // callers guarantee at least two keys
    let mut k = (*cursor).min(last);
    if times[k] <= t {
        // forward playback: usually the same interval or the next one
        let mut steps = 0;
        while times[k + 1] <= t {
            k += 1; // k < last here, since t < times[last + 1]
            steps += 1;
            if steps == 4 {
                // a long jump forward: binary search the rest
                k += times[k + 1..=last].partition_point(|&x| x <= t);
                break;
            }
        }
    } else {
        // backwards: the interval is before k
        k = times[..k].partition_point(|&x| x <= t).saturating_sub(1);
    }
    *cursor = k;
    k
}

/// Samples one track at `t` (glTF semantics), or `None` for an empty or malformed track.
#[inline(always)]
fn sample_track<T: Interpolate>(track: &Track<T>, t: f32, cursor: &mut usize) -> Option<T> {
    let times = track.times.as_slice();
    let values = track.values.as_slice();
    let n = times.len();
    let cubic = track.interpolation == Interpolation::CubicSpline;
    let stride = if cubic { 3 } else { 1 };
    // the middle entry of each cubic key is the value
    let offset = stride / 2;
    if n == 0 || values.len() < n * stride {
        return None;
    }
    // a NaN time holds the first key
    if t.is_nan() || t <= times[0] {
        return Some(values[offset]);
    }
    // also covers single-key tracks (t > times[0] == times[n - 1])
    if t >= times[n - 1] {
        return Some(values[(n - 1) * stride + offset]);
    }
    let k = seek(times, t, cursor);
    let (t0, t1) = (times[k], times[k + 1]);
    let dt = t1 - t0;
    let s = (t - t0) / dt;
    Some(match track.interpolation {
        Interpolation::Step => values[k],
        Interpolation::Linear => T::linear(values[k], values[k + 1], s),
        Interpolation::CubicSpline => {
            let base = 3 * k;
            let v = &values[base..base + 6];
            // tangents are per second: scale by the key interval (glTF: m = (t1 - t0) * tangent)
            T::hermite(v[1], T::scale(v[2], dt), v[4], T::scale(v[3], dt), s)
        }
    })
}

/// Samples a translation or scale track at `t` with an external key-index hint (glTF semantics).
/// An empty or malformed track yields zero.
pub fn sample_vec3(track: &Track<Vec3>, t: f32, cursor: &mut usize) -> Vec3 {
    sample_track(track, t, cursor).unwrap_or(Vec3::ZERO)
}

/// Samples a rotation track at `t` with an external key-index hint (glTF semantics).
/// An empty or malformed track yields the identity.
pub fn sample_quat(track: &Track<Quat>, t: f32, cursor: &mut usize) -> Quat {
    sample_track(track, t, cursor).unwrap_or(Quat::IDENTITY)
}

impl Clip {
    /// Maps a playhead time to key time with a wrap mode over `[start, end]` (Once holds the last
    /// key, Loop wraps, PingPong reflects, ClampToFirst returns to the first key after the end).
    ///
    /// The playhead is measured in key time (a clip starting at 1 s plays from `t = 1`); use
    /// [`Clip::trimmed`] for clips that should play from 0. Times before `start` hold the first
    /// key in Once and ClampToFirst; a zero-length clip or a NaN time gives `start`.
    pub fn wrap_time(&self, t: f32, mode: WrapMode) -> f32 {
        let (start, end) = (self.start, self.end);
        let len = end - start;
        if t.is_nan() || len <= 0.0 || !len.is_finite() {
            return start;
        }
        match mode {
            WrapMode::Once => t.clamp(start, end),
            WrapMode::ClampToFirst => {
                if t > end || t < start {
                    start
                } else {
                    t
                }
            }
            _ if !t.is_finite() => start,
            WrapMode::Loop => (start + (t - start).rem_euclid(len)).min(end),
            WrapMode::PingPong => {
                let u = (t - start).rem_euclid(2.0 * len);
                let u = if u > len { 2.0 * len - u } else { u };
                (start + u).clamp(start, end)
            }
        }
    }

    /// Samples every track at key time `time` (glTF semantics: before the first key -> first
    /// value, after the last -> last value). `out` must have skeleton length; joints/channels
    /// without a track are set from `rest` (the rest pose). Resizes `cache` only if it was built
    /// for another clip/shape.
    ///
    /// Only `out[..min(out.len(), rest.len())]` is written; tracks for joints beyond it are ignored.
    pub fn sample(
        &self,
        time: f32,
        rest: &[Transform],
        cache: &mut SamplingCache,
        out: &mut [Transform],
    ) {
        cache.prepare(self);
        let n = out.len().min(rest.len());
        let (rest, out) = (&rest[..n], &mut out[..n]);
        let cursors = cache.cursors.as_mut_slice();
        let mut c = 0; // next cursor: `prepare` sized `cursors` to the clip's channel count
        let mut filled = 0; // joints below this index are written
        for jt in &self.tracks {
            let j = jt.joint as usize;
            if j >= n {
                c += jt.translation.is_some() as usize
                    + jt.rotation.is_some() as usize
                    + jt.scale.is_some() as usize;
                continue;
            }
            if j > filled {
                out[filled..j].copy_from_slice(&rest[filled..j]);
            }
            let r = &rest[j];
            let mut pose = *r;
            if let Some(track) = &jt.translation {
                pose.translation =
                    sample_track(track, time, &mut cursors[c]).unwrap_or(r.translation);
                c += 1;
            }
            if let Some(track) = &jt.rotation {
                pose.rotation = sample_track(track, time, &mut cursors[c]).unwrap_or(r.rotation);
                c += 1;
            }
            if let Some(track) = &jt.scale {
                pose.scale = sample_track(track, time, &mut cursors[c]).unwrap_or(r.scale);
                c += 1;
            }
            out[j] = pose;
            filled = filled.max(j + 1);
        }
        if filled < n {
            out[filled..].copy_from_slice(&rest[filled..]);
        }
    }

    /// A copy whose keys are shifted so the first key is at 0 (for clips starting after 0).
    pub fn trimmed(&self) -> Clip {
        let shift = self.start;
        let mut clip = self.clone();
        let shift_times = |times: &mut Vec<f32>| times.iter_mut().for_each(|t| *t -= shift);
        for jt in &mut clip.tracks {
            if let Some(track) = &mut jt.translation {
                shift_times(&mut track.times);
            }
            if let Some(track) = &mut jt.rotation {
                shift_times(&mut track.times);
            }
            if let Some(track) = &mut jt.scale {
                shift_times(&mut track.times);
            }
        }
        clip.start = 0.0;
        clip.end = self.end - shift;
        clip
    }
}

#[cfg(test)]
#[path = "sampling_tests.rs"]
mod tests;
