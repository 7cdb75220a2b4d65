//! Fitting one sampled channel with as few glTF keys as possible under a tolerance.
//!
//! Every candidate is evaluated exactly as a glTF client samples it (times from the bake's
//! [`Grid`],
//! slerp for LINEAR rotations, Hermite with per-second tangents scaled by the key interval and a
//! normalised result for CUBICSPLINE rotations), so the error measured here is the error a
//! player sees at each frame.

use glam::Vec4;

use super::curves::{Curves, Grid, Samples};
use super::fitted::{FitValue, Fitted};
use super::linear_fit::{all_within, fit_linear, fit_step, MAX_SPAN};
use super::misfit::Misfit;
use marionette_anim::{hermite_basis, Interpolation};

/// Fits `samples` (one per frame at `i / fps`, checked at frames only) under `tol`, where
/// `err(raw, approx)` is the error of one frame in metres, with the [`Curves::Cubic`] profile:
/// the candidate with the fewest keys of a single constant key, STEP, LINEAR or CUBICSPLINE
/// (ties prefer the earlier in that order, except that LINEAR beats STEP).
pub fn fit<T: FitValue>(samples: &[T], fps: f32, tol: f32, err: &dyn Misfit<T>) -> Fitted<T> {
    let s = Samples {
        frames: samples,
        inner: None,
        inner_exact: false,
        keys: None,
    };
    fit_samples(&s, &Grid::new(fps, samples.len()), Curves::Cubic, tol, err)
}

/// Fits a channel on `grid` under `tol` with the `curves` profile. STEP is a candidate only
/// when the source holds between keys (with inner values given); [`Curves::Linear`] writes
/// LINEAR keys checked at frames and inner times under slerp and normalised lerp;
/// [`Curves::Cubic`] picks the fewest keys of STEP, LINEAR and CUBICSPLINE checked at frames
/// (and at the inner times when the inner values are the source's own: a clip at its keys).
pub fn fit_samples<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    curves: Curves,
    tol: f32,
    err: &dyn Misfit<T>,
) -> Fitted<T> {
    let samples = s.frames;
    let n = samples.len();
    if n == 0 {
        return Fitted {
            interpolation: Interpolation::Linear,
            frames: Vec::new(),
            values: Vec::new(),
        };
    }
    let first = s.key(0);
    if all_within(s, first, tol, err) {
        return Fitted {
            interpolation: Interpolation::Step,
            frames: vec![0],
            values: vec![first],
        };
    }
    let frames_only = Samples {
        frames: samples,
        inner: None,
        inner_exact: false,
        keys: s.keys,
    };
    let checked = if s.inner_exact { s } else { &frames_only };
    let linear = match curves {
        Curves::Linear => fit_linear(s, grid, true, tol, err),
        Curves::Cubic => fit_linear(checked, grid, false, tol, err),
    };
    // quantized keys (rotations): the fewest bytes, a key's time (4) and its values, 8 bytes
    // each quantized, 16 as floats (cubic ones: tangents do not quantize); float keys: the
    // fewest keys
    let quantized = s.keys.is_some();
    let cost = |f: &Fitted<T>, float: bool| {
        if quantized {
            f.bytes(if float { 16 } else { 8 })
        } else {
            f.len()
        }
    };
    let mut best = match fit_step(s, tol, err) {
        Some(step) if cost(&step, false) < cost(&linear, false) => step,
        _ => linear,
    };
    if curves == Curves::Cubic {
        let cubic = fit_cubic(checked, grid, tol, err);
        if cost(&cubic, true) < cost(&best, false) {
            best = cubic;
        }
    }
    best
}

/// Derivative per frame at `i` from the samples (central difference; one-sided at the ends).
fn slope<T: FitValue>(samples: &[T], i: usize) -> Vec4 {
    let n = samples.len();
    let v = |k: usize| samples[k].to_vec4();
    if n < 2 {
        Vec4::ZERO
    } else if i == 0 {
        v(1) - v(0)
    } else if i == n - 1 {
        v(n - 1) - v(n - 2)
    } else {
        (v(i + 1) - v(i - 1)) * 0.5
    }
}

/// Tangents (per unit `s`) of the Hermite segment from frame `a` to `b` fitted to the frames
/// between them by least squares, regularised towards the finite-difference slopes.
fn segment_tangents<T: FitValue>(samples: &[T], grid: &Grid, a: usize, b: usize) -> (Vec4, Vec4) {
    let span = (b - a) as f32;
    let prior0 = slope(samples, a) * span;
    let prior1 = slope(samples, b) * span;
    let (p0, p1) = (samples[a].to_vec4(), samples[b].to_vec4());
    let (t0, t1) = (grid.time(a), grid.time(b));
    const LAMBDA: f32 = 1e-3;
    let (mut a00, mut a01, mut a11) = (LAMBDA, 0.0f32, LAMBDA);
    let mut r0 = prior0 * LAMBDA;
    let mut r1 = prior1 * LAMBDA;
    for (i, v) in samples.iter().enumerate().take(b).skip(a + 1) {
        let s = (grid.time(i) - t0) / (t1 - t0);
        let [h00, h10, h01, h11] = hermite_basis(s);
        let r = v.to_vec4() - p0 * h00 - p1 * h01;
        a00 += h10 * h10;
        a01 += h10 * h11;
        a11 += h11 * h11;
        r0 += r * h10;
        r1 += r * h11;
    }
    let det = a00 * a11 - a01 * a01;
    if det.abs() < 1e-12 {
        return (prior0, prior1);
    }
    let m0 = (r0 * a11 - r1 * a01) / det;
    let m1 = (r1 * a00 - r0 * a01) / det;
    (m0, m1)
}

/// Per-second tangents of the segment `a..b` if its Hermite curve reproduces every frame (and
/// inner value) inside.
fn cubic_segment<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    a: usize,
    b: usize,
    tol: f32,
    err: &dyn Misfit<T>,
) -> Option<(T, T)> {
    let samples = s.frames;
    let (m0, m1) = segment_tangents(samples, grid, a, b);
    let (t0, t1) = (grid.time(a), grid.time(b));
    let dt = t1 - t0;
    // stored per second; a client scales them back by the interval
    let out_tangent = T::from_vec4(m0 / dt);
    let in_tangent = T::from_vec4(m1 / dt);
    let (m0s, m1s) = (
        T::from_vec4(out_tangent.to_vec4() * dt),
        T::from_vec4(in_tangent.to_vec4() * dt),
    );
    let ok_at = |t: f32, want: T| {
        let u = (t - t0) / dt;
        err.within(want, T::hermite(samples[a], m0s, samples[b], m1s, u), tol)
    };
    let ok = (a + 1..b).all(|i| ok_at(grid.time(i), samples[i]))
        && (a..b).all(|i| {
            s.between(i)
                .iter()
                .enumerate()
                .all(|(k, &h)| ok_at(grid.inner_time(i, k), h))
        });
    ok.then_some((out_tangent, in_tangent))
}

/// CUBICSPLINE keys by greedy furthest reach; each segment gets its own least-squares tangents
/// (glTF keeps separate in and out tangents per key, so segments are independent). A
/// one-frame segment the tangents cannot fit is written as the straight line between its keys.
fn fit_cubic<T: FitValue>(
    s: &Samples<'_, T>,
    grid: &Grid,
    tol: f32,
    err: &dyn Misfit<T>,
) -> Fitted<T> {
    let samples = s.frames;
    let n = samples.len();
    let zero = T::from_vec4(Vec4::ZERO);
    let mut frames = vec![0u32];
    let mut values = vec![zero, samples[0], zero];
    let mut a = 0usize;
    while a < n - 1 {
        let mut b = a + 1;
        let mut tangents = cubic_segment(s, grid, a, b, tol, err);
        while b + 1 < n && b + 1 - a <= MAX_SPAN {
            match cubic_segment(s, grid, a, b + 1, tol, err) {
                Some(t) => {
                    tangents = Some(t);
                    b += 1;
                }
                None => break,
            }
        }
        // a one-frame segment with no inner value always fits; one the least-squares tangents
        // miss between its frames is the line between them (as exact as LINEAR keys there)
        let (out_t, in_t) = tangents.unwrap_or_else(|| {
            let dt = grid.time(b) - grid.time(a);
            let v = T::from_vec4((samples[b].to_vec4() - samples[a].to_vec4()) / dt);
            (v, v)
        });
        let last = values.len() - 1;
        values[last] = out_t;
        frames.push(b as u32);
        values.extend([in_t, samples[b], zero]);
        a = b;
    }
    Fitted {
        interpolation: Interpolation::CubicSpline,
        frames,
        values,
    }
}

#[cfg(test)]
#[path = "fit_tests.rs"]
mod tests;
