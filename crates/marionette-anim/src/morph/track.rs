//! Morph weight keys (a glTF `weights` channel): one track per set, every target of the set
//! keyed at the same times, sampled with glTF 2.0 semantics (STEP, LINEAR, CUBICSPLINE with
//! tangents scaled by the key interval; before the first key the first value, after the last
//! the last).

use crate::keys::seek;
use crate::{ClipError, Interpolation};

/// The keys of one set's weights (what a glTF `weights` channel holds).
///
/// `values` holds, per key, `targets` weights; for [`Interpolation::CubicSpline`] three groups
/// per key in glTF order: `targets` in-tangents, `targets` values, `targets` out-tangents.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphTrack {
    /// The set keyed (an index into the rig's [`super::Morphs::sets`]).
    pub set: u16,
    /// Weights per value (the set's target count).
    pub targets: usize,
    /// Interpolation between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing.
    pub times: Vec<f32>,
    /// Key values, `targets` per value (see the type docs).
    pub values: Vec<f32>,
}

/// Per-track key cursors for sampling morph tracks (see [`crate::SamplingCache`], which
/// holds one).
pub type MorphCache = Vec<usize>;

impl MorphTrack {
    /// Value groups per key: 3 for cubic splines, else 1.
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

    /// Checks layout, finiteness and increasing times (as [`crate::Track::validate`]).
    pub fn validate(&self) -> Result<(), ClipError> {
        if self.times.is_empty() {
            return Err(ClipError::Empty);
        }
        let expected = self.times.len() * self.stride() * self.targets;
        if self.values.len() != expected || self.targets == 0 {
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
        if let Some(i) = self.values.iter().position(|v| !v.is_finite()) {
            return Err(ClipError::NotFinite {
                key: i / (self.stride() * self.targets),
            });
        }
        Ok(())
    }

    /// The weights of key `k` (the value, not the tangents, of a cubic key).
    pub fn key_values(&self, k: usize) -> &[f32] {
        let n = self.targets;
        let stride = self.stride();
        let at = (k * stride + stride / 2) * n;
        self.values.get(at..at + n).unwrap_or(&[])
    }

    /// Samples the weights at `t` into `out` (at most `targets` of them are written), with
    /// `cursor` as the key hint. An empty or malformed track writes nothing.
    #[inline]
    pub fn sample_into(&self, t: f32, cursor: &mut usize, out: &mut [f32]) {
        let n = self.targets.min(out.len());
        let keys = self.times.len();
        let stride = self.stride();
        if keys == 0 || self.values.len() < keys * stride * self.targets {
            return;
        }
        let out = &mut out[..n];
        if t.is_nan() || t <= self.times[0] {
            out.copy_from_slice(&self.key_values(0)[..n]);
            return;
        }
        if t >= self.times[keys - 1] {
            out.copy_from_slice(&self.key_values(keys - 1)[..n]);
            return;
        }
        let k = seek(&self.times, t, cursor);
        let (t0, t1) = (self.times[k], self.times[k + 1]);
        let dt = t1 - t0;
        let s = (t - t0) / dt;
        let m = self.targets;
        match self.interpolation {
            Interpolation::Step => out.copy_from_slice(&self.key_values(k)[..n]),
            Interpolation::Linear => {
                let (a, b) = (self.key_values(k), self.key_values(k + 1));
                for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
                    *o = x * (1.0 - s) + y * s;
                }
            }
            Interpolation::CubicSpline => {
                let [h00, h10, h01, h11] = crate::hermite_basis(s);
                // key k: [in, value, out] groups of m; key k + 1 follows
                let base = 3 * m * k;
                let v = &self.values[base..base + 6 * m];
                for (i, o) in out.iter_mut().enumerate() {
                    let (p0, m0) = (v[m + i], v[2 * m + i] * dt);
                    let (p1, m1) = (v[4 * m + i], v[3 * m + i] * dt);
                    *o = p0 * h00 + m0 * h10 + p1 * h01 + m1 * h11;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(interpolation: Interpolation, values: Vec<f32>) -> MorphTrack {
        MorphTrack {
            set: 0,
            targets: 2,
            interpolation,
            times: vec![0.0, 1.0, 2.0],
            values,
        }
    }

    /// LINEAR interpolates each target; STEP holds; before and after the keys the ends hold.
    #[test]
    fn linear_and_step() {
        let t = track(Interpolation::Linear, vec![0.0, 1.0, 1.0, 0.0, 0.5, 0.5]);
        t.validate().unwrap();
        let mut out = [9.0; 2];
        let mut c = 0;
        t.sample_into(0.25, &mut c, &mut out);
        assert_eq!(out, [0.25, 0.75]);
        t.sample_into(1.5, &mut c, &mut out);
        assert_eq!(out, [0.75, 0.25]);
        t.sample_into(-1.0, &mut c, &mut out);
        assert_eq!(out, [0.0, 1.0]);
        t.sample_into(5.0, &mut c, &mut out);
        assert_eq!(out, [0.5, 0.5]);
        let s = MorphTrack {
            interpolation: Interpolation::Step,
            ..t
        };
        s.sample_into(0.99, &mut c, &mut out);
        assert_eq!(out, [0.0, 1.0]);
    }

    /// CUBICSPLINE: the value group is the middle one; tangents scaled by the interval (a
    /// tangent of 1/s over a 2 s interval at the half point: Hermite with m = 2).
    #[test]
    fn cubic_reads_triplets() {
        let t = MorphTrack {
            set: 0,
            targets: 1,
            interpolation: Interpolation::CubicSpline,
            times: vec![0.0, 2.0],
            // key 0: in 0, value 0, out 1; key 1: in 1, value 2, out 0
            values: vec![0.0, 0.0, 1.0, 1.0, 2.0, 0.0],
        };
        t.validate().unwrap();
        let mut out = [0.0];
        t.sample_into(1.0, &mut 0, &mut out);
        // h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125 at s = 0.5
        let want = 0.0 * 0.5 + 2.0 * 0.125 + 2.0 * 0.5 + 2.0 * -0.125;
        assert!((out[0] - want).abs() < 1e-6, "{out:?}");
        assert_eq!(t.key_values(1), &[2.0]);
    }

    /// A count that does not match the layout, and a NaN, are errors.
    #[test]
    fn validation() {
        let short = track(Interpolation::Linear, vec![0.0; 5]);
        assert!(matches!(
            short.validate(),
            Err(ClipError::CountMismatch { .. })
        ));
        let mut nan = track(Interpolation::Linear, vec![0.0; 6]);
        nan.values[3] = f32::NAN;
        assert_eq!(nan.validate(), Err(ClipError::NotFinite { key: 1 }));
    }
}
