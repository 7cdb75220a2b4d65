//! The graph's single entry point to clip sampling.
//!
//! TEMPORARY: until `Clip::sample` (src/anim/sampling.rs) lands on this branch, this is a small
//! self-contained sampler (STEP/LINEAR; CUBICSPLINE keys are read as their values). It is
//! replaced by a call to `Clip::sample` at the next merge of `main`.

use glam::{Quat, Vec3};

use crate::anim::{Clip, Interpolation, Track, Transform};

/// Per-player sampling state (key cursors in the real sampler).
#[derive(Clone, Debug, Default)]
pub(crate) struct ClipCache;

trait Lerp: Copy {
    fn lerp_to(self, other: Self, t: f32) -> Self;
}

impl Lerp for Vec3 {
    fn lerp_to(self, other: Self, t: f32) -> Self {
        self * (1.0 - t) + other * t
    }
}

impl Lerp for Quat {
    fn lerp_to(self, other: Self, t: f32) -> Self {
        crate::anim::slerp_quat(self, other, t)
    }
}

fn sample_track<T: Lerp>(track: &Track<T>, t: f32) -> Option<T> {
    let stride = if track.interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    let off = stride / 2;
    let n = track.times.len();
    if n == 0 || track.values.len() < n * stride {
        return None;
    }
    if n == 1 || !(t > track.times[0]) {
        return Some(track.values[off]);
    }
    if t >= track.times[n - 1] {
        return Some(track.values[(n - 1) * stride + off]);
    }
    let k = track.times.partition_point(|&x| x <= t) - 1;
    let (a, b) = (
        track.values[k * stride + off],
        track.values[(k + 1) * stride + off],
    );
    if track.interpolation == Interpolation::Step {
        return Some(a);
    }
    let s = (t - track.times[k]) / (track.times[k + 1] - track.times[k]);
    Some(a.lerp_to(b, s))
}

/// Samples `clip` at key time `time`; joints without tracks take `rest`.
pub(crate) fn sample_clip(
    clip: &Clip,
    time: f32,
    rest: &[Transform],
    _cache: &mut ClipCache,
    out: &mut [Transform],
) {
    let n = out.len().min(rest.len());
    out[..n].copy_from_slice(&rest[..n]);
    for jt in &clip.tracks {
        let j = jt.joint as usize;
        if j >= n {
            continue;
        }
        if let Some(v) = jt.translation.as_ref().and_then(|t| sample_track(t, time)) {
            out[j].translation = v;
        }
        if let Some(v) = jt.rotation.as_ref().and_then(|t| sample_track(t, time)) {
            out[j].rotation = v;
        }
        if let Some(v) = jt.scale.as_ref().and_then(|t| sample_track(t, time)) {
            out[j].scale = v;
        }
    }
}
