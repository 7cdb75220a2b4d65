//! Sampling clips at a time: key search with per-channel cursors, glTF 2.0 interpolation
//! (STEP, LINEAR, CUBICSPLINE) and wrap modes.
//!
//! Semantics follow the glTF 2.0 specification (Appendix C, "Interpolation") and match three.js:
//! before the first key a track yields its first value, after the last key its last value;
//! LINEAR rotations use shortest-path slerp (normalised lerp for keys under 3.6 degrees apart, as
//! three.js does); CUBICSPLINE tangents are scaled by the key interval
//! and rotation results are normalised (without any sign flip, as the spec and three.js do: the
//! tangents are authored against the stored signs).

use glam::{Quat, Vec3, Vec4};

use super::keys::{hermite_basis, seek, slerp_shortest};
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
    /// Key index hint per morph track, in clip order.
    morph_cursors: Vec<usize>,
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
        self.morph_cursors.iter_mut().for_each(|c| *c = 0);
    }

    /// Makes the cache fit `clip`: sized (and reset) only when it was last used with another
    /// clip, so steady playback does no work here.
    fn prepare(&mut self, clip: &Clip) {
        let owner = clip.tracks.as_ptr() as usize;
        if self.owner != owner || self.cursors.is_empty() {
            self.owner = owner;
            let channels = clip.channel_count();
            if self.cursors.len() != channels || self.morph_cursors.len() != clip.morphs.len() {
                self.cursors.clear();
                self.cursors.resize(channels, 0);
                self.morph_cursors.clear();
                self.morph_cursors.resize(clip.morphs.len(), 0);
            } else {
                self.reset();
            }
        }
    }
}

/// Values that can be interpolated the glTF way: the one implementation used by sampling and
/// by every tool that must agree with it (e.g. bake key fitting).
pub trait Interpolate: Copy {
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
        slerp_shortest(a, b, s)
    }

    #[inline(always)]
    fn hermite(p0: Self, m0: Self, p1: Self, m1: Self, s: f32) -> Self {
        let [h00, h10, h01, h11] = hermite_basis(s);
        let v = Vec4::from(p0) * h00
            + Vec4::from(m0) * h10
            + Vec4::from(p1) * h01
            + Vec4::from(m1) * h11;
        // branch-free normalize_or(W): a zero (or non-finite) result gives the identity
        let r = v.length_recip();
        Quat::from_vec4(if r.is_finite() { v * r } else { Vec4::W })
    }
}

/// Samples one track at `t` (glTF semantics), or `None` for an empty or malformed track.
#[inline(always)]
pub(super) fn sample_track<T: Interpolate>(
    track: &Track<T>,
    t: f32,
    cursor: &mut usize,
) -> Option<T> {
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
        for mt in &mut clip.morphs {
            shift_times(&mut mt.times);
        }
        clip.start = 0.0;
        clip.end = self.end - shift;
        clip
    }

    /// Samples every morph track at key time `time` into `out`, the rig's weights laid out by
    /// `morphs` (`out.len() == morphs.len()`): sets without a track take their defaults, as
    /// joints without tracks take the rest pose. Nothing to do for a rig without morph
    /// targets. Uses the same `cache` as [`Clip::sample`].
    pub fn sample_morphs(
        &self,
        time: f32,
        morphs: &crate::Morphs,
        cache: &mut SamplingCache,
        out: &mut [f32],
    ) {
        if out.is_empty() {
            return;
        }
        cache.prepare(self);
        let n = out.len().min(morphs.len());
        out[..n].copy_from_slice(&morphs.defaults()[..n]);
        for (track, cursor) in self.morphs.iter().zip(cache.morph_cursors.iter_mut()) {
            let range = morphs.range(usize::from(track.set));
            if let Some(slot) = out.get_mut(range) {
                track.sample_into(time, cursor, slot);
            }
        }
    }
}

#[cfg(test)]
#[path = "sampling_tests.rs"]
mod tests;
