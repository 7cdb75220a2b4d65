//! The LINEAR and STEP fits, which hold between frames as well as at them: LINEAR keys checked
//! under slerp and under Blender's normalised lerp at every frame and inner check time; STEP only
//! where the source holds its value between keys.

use super::curves::Grid;
use super::curves::Samples;
use super::fitted::{FitValue, Fitted};
use super::misfit::Misfit;
use marionette_anim::Interpolation;

/// Longest key interval, in frames. Checking a candidate segment costs its length, so greedy
/// extension costs O(frames × span); the cap keeps long takes fast (a key every 256 frames at
/// most costs nothing measurable in size).
pub(super) const MAX_SPAN: usize = 256;

/// True when every value of `s` (frames and inner values) is within `tol` of `v`.
pub fn all_within<T: FitValue>(s: &Samples<'_, T>, v: T, tol: f32, err: &dyn Misfit<T>) -> bool {
    s.frames.iter().all(|&x| err.within(x, v, tol))
        && s.inner
            .is_none_or(|h| h.iter().all(|&x| err.within(x, v, tol)))
}

/// STEP keys: a new key wherever the held value drifts beyond `tol`; `None` when the source
/// moves between frames (an inner value away from the held value), where STEP would jump.
pub fn fit_step<T: FitValue>(
    s: &Samples<'_, T>,
    tol: f32,
    err: &dyn Misfit<T>,
) -> Option<Fitted<T>> {
    let samples = s.frames;
    let mut frames = vec![0u32];
    let mut values = vec![s.key(0)];
    let mut held = s.key(0);
    for (i, &v) in samples.iter().enumerate().skip(1) {
        if s.between(i - 1).iter().any(|&h| err.metres(h, held) > tol) {
            return None;
        }
        if err.metres(v, held) > tol {
            held = s.key(i);
            frames.push(i as u32);
            values.push(held);
        }
    }
    Some(Fitted {
        interpolation: Interpolation::Step,
        frames,
        values,
    })
}

/// True when LINEAR keys at frames `a` and `b` reproduce every frame (and inner value) between
/// them under slerp and, with `nlerp`, under normalised lerp too.
fn segment_ok<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    (a, b): (usize, usize),
    nlerp: bool,
    tol: f32,
    err: &dyn Misfit<T>,
) -> bool {
    let (t0, t1) = (grid.time(a), grid.time(b));
    let (va, vb) = (s.key(a), s.key(b));
    let ok = |t: f32, want: T| {
        let u = (t - t0) / (t1 - t0);
        err.within(want, T::linear(va, vb, u), tol)
            && (!nlerp || err.within(want, T::nlerp(va, vb, u), tol))
    };
    (a + 1..b).all(|i| ok(grid.time(i), s.frames[i]))
        && (a..b).all(|i| {
            s.between(i)
                .iter()
                .enumerate()
                .all(|(k, &h)| ok(grid.inner_time(i, k), h))
        })
}

/// LINEAR keys at every frame (what compact output writes where they cost fewer bytes than
/// fewer keys with their own times: the frame times are one accessor every such channel
/// shares), if they hold at the inner values between frames; `None` where they do not (a
/// source stepped between frames).
pub fn every_frame<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    nlerp: bool,
    tol: f32,
    err: &dyn Misfit<T>,
) -> Option<Fitted<T>> {
    let n = s.frames.len();
    let holds = (0..n.saturating_sub(1)).all(|i| segment_ok(s, grid, (i, i + 1), nlerp, tol, err));
    holds.then(|| Fitted {
        interpolation: Interpolation::Linear,
        frames: (0..n as u32).collect(),
        values: (0..n).map(|i| s.key(i)).collect(),
    })
}

/// LINEAR keys by greedy furthest reach: each segment is extended while every frame (and inner
/// value) inside stays within `tol` (under slerp, and with `nlerp` under normalised lerp too);
/// keys sit on sampled values; the last frame is a key.
pub fn fit_linear<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    nlerp: bool,
    tol: f32,
    err: &dyn Misfit<T>,
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
    let values = frames.iter().map(|&f| s.key(f as usize)).collect();
    Fitted {
        interpolation: Interpolation::Linear,
        frames,
        values,
    }
}
