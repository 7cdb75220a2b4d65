//! Keys, below clips and sampling: how values between two keys are computed
//! ([`Interpolation`]), what can be wrong with a track's keys ([`ClipError`]), finding the key
//! interval of a time ([`seek`]), the cubic spline basis ([`hermite_basis`]), the crate's one quaternion slerp ([`slerp_shortest`])
//! and rotation keys kept in one hemisphere ([`continuous_rotations`]).
//! Clips, morph weight tracks, the SoA runtime and transforms all build on these.

use glam::{Quat, Vec4};

/// How values between two keys are computed (glTF 2.0 `sampler.interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// The value of the previous key holds until the next key.
    Step,
    /// Linear for vectors, spherical linear (shortest path) for rotations.
    Linear,
    /// Cubic Hermite spline; each key stores in-tangent, value, out-tangent.
    CubicSpline,
}

impl Interpolation {
    /// The glTF spelling.
    pub fn as_gltf(self) -> &'static str {
        match self {
            Interpolation::Step => "STEP",
            Interpolation::Linear => "LINEAR",
            Interpolation::CubicSpline => "CUBICSPLINE",
        }
    }
}

/// A problem with a clip's keys.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ClipError {
    /// Times and values do not match the interpolation's layout.
    #[error("{times} key times but {values} values (expected {expected})")]
    CountMismatch {
        /// Key times.
        times: usize,
        /// Values found.
        values: usize,
        /// Values expected.
        expected: usize,
    },
    /// A track without keys.
    #[error("track has no keys")]
    Empty,
    /// A time or value is NaN or infinite.
    #[error("key {key} is not a finite number")]
    NotFinite {
        /// Index of the key.
        key: usize,
    },
    /// Times go backwards or repeat.
    #[error("key times must increase: key {key} at {time}s follows {previous}s")]
    NotIncreasing {
        /// Index of the offending key.
        key: usize,
        /// Its time.
        time: f32,
        /// The previous key's time.
        previous: f32,
    },
    /// A negative key time.
    #[error("key {key} has negative time {time}s")]
    NegativeTime {
        /// Index of the key.
        key: usize,
        /// Its time.
        time: f32,
    },
}

/// Rotation keys in one hemisphere from key to key: each key (or its negation, the same
/// rotation) on the side of the previous one, so linear keys never take the long way round.
pub fn continuous_rotations(keys: impl IntoIterator<Item = Quat>) -> Vec<Quat> {
    let mut out: Vec<Quat> = Vec::new();
    for q in keys {
        let q = match out.last() {
            Some(p) if p.dot(q) < 0.0 => -q,
            _ => q,
        };
        out.push(q);
    }
    out
}

/// Cubic Hermite basis `[h00, h10, h01, h11]` at `s` in [0, 1] (glTF spec, Appendix C).
#[inline(always)]
pub fn hermite_basis(s: f32) -> [f32; 4] {
    let s2 = s * s;
    let s3 = s2 * s;
    let h01 = -2.0 * s3 + 3.0 * s2;
    let h11 = s3 - s2;
    [1.0 - h01, h11 - s2 + s, h01, h11]
}

/// Shortest-path spherical linear interpolation of unit quaternions (the one slerp of the crate,
/// public as [`crate::slerp_quat`]), as three.js (r187, `Quaternion.slerpFlat`) computes it in double precision, without trigonometric calls.
///
/// Like three.js, keys whose dot product is at least
/// [`NLERP_DOT`] (under 3.6 degrees apart) are interpolated linearly and normalised, and equal
/// keys return the stored value. Otherwise the key angle is `acos` of the dot product (as in
/// three.js, so keys that are not quite unit length are treated alike: an angle from the keys'
/// geometry was off by 1.6e-5 on SimpleSkin.gltf) and the weights are `sin(t·θ)/sin(θ)`, both
/// from short polynomials. The dot product, weights and blend are computed in `f64` (scalar
/// `f64` multiply-adds cost what `f32` ones do) and rounded once: the result is within 6e-8 of
/// three.js's (unit tests), where an all-`f32` version was 2.7e-7 off.
#[inline(always)]
pub(crate) fn slerp_shortest(q0: Quat, q1: Quat, t: f32) -> Quat {
    let a = Vec4::from(q0);
    let b = Vec4::from(q1);
    if a == b {
        // held keys: the stored value as is (three.js does not renormalise it either)
        return q0;
    }
    let (a64, b64) = (a.as_dvec4(), b.as_dvec4());
    let dot = a64.dot(b64);
    let b64 = if dot < 0.0 { -b64 } else { b64 };
    let dot = dot.abs();
    if dot >= NLERP_DOT {
        // close keys (most keys of densely sampled clips): normalised lerp, as three.js
        let q = a64 * (1.0 - t as f64) + b64 * t as f64;
        return Quat::from_vec4((q * (1.0 / q.length())).as_vec4());
    }
    // weights within about 2e-8 of three.js's (A&S acos within 2e-8, Taylor sin within 1e-9)
    let (t, d) = (t as f64, 1.0 - t as f64);
    let theta = (1.0 - dot).sqrt() * acos_factor(dot);
    let th2 = theta * theta;
    let inv = 1.0 / sinc_sq(th2);
    let wa = d * sinc_sq(d * d * th2) * inv;
    let wb = t * sinc_sq(t * t * th2) * inv;
    Quat::from_vec4((a64 * wa + b64 * wb).as_vec4())
}

/// Key dot product from which [`slerp_shortest`] interpolates linearly (three.js's threshold).
pub(crate) const NLERP_DOT: f64 = 0.9995;

/// `sin(x)/x` as a function of `y = x²`, for `x` in `[0, π/2]` (Taylor series to `x^12`,
/// truncation error below 1e-9; Estrin's scheme for a short dependency chain).
#[inline(always)]
pub(crate) fn sinc_sq(y: f64) -> f64 {
    const C: [f64; 7] = [
        1.0,
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5040.0,
        1.0 / 362_880.0,
        -1.0 / 39_916_800.0,
        1.0 / 6_227_020_800.0,
    ];
    let y2 = y * y;
    let y4 = y2 * y2;
    let lo = C[0] + y * C[1] + y2 * (C[2] + y * C[3]);
    let hi = C[4] + y * C[5] + y2 * C[6];
    lo + y4 * hi
}

/// `acos(x) / sqrt(1 - x)` for `x` in `[0, 1]` (Abramowitz and Stegun 4.4.46: `acos` within
/// 2e-8), by Estrin's scheme. In `f64`: as fast as `f32` for scalar multiply-adds, and the
/// rounding of `f32` coefficients alone would cost 2e-7.
#[inline(always)]
pub(crate) fn acos_factor(x: f64) -> f64 {
    const A: [f64; 8] = [
        1.570_796_305_0,
        -0.214_598_801_6,
        0.088_978_987_4,
        -0.050_174_304_6,
        0.030_891_881_0,
        -0.017_088_125_6,
        0.006_670_090_1,
        -0.001_262_491_1,
    ];
    let x2 = x * x;
    let x4 = x2 * x2;
    let p01 = A[0] + A[1] * x;
    let p23 = A[2] + A[3] * x;
    let p45 = A[4] + A[5] * x;
    let p67 = A[6] + A[7] * x;
    (p01 + p23 * x2) + (p45 + p67 * x2) * x4
}

/// Finds the key interval containing `t` (`times[k] <= t < times[k+1]`, `0 < t - times[0]`,
/// `t < times[last]`), starting from the hint in `cursor` and updating it.
///
/// Forward playback steps the cursor a few keys; anything else binary searches.
#[inline(always)]
pub(crate) fn seek(times: &[f32], t: f32, cursor: &mut usize) -> usize {
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
