//! How a take's parameter curve runs between its keys: each key's [`Ease`] (Blender's and
//! Unity's tangent modes, as animators know them), and the value at a time (a cubic Hermite
//! segment between two keys, from the slope leaving the first and the slope entering the
//! second). A track whose keys carry no ease follows its [`KeyInterpolation`]: linear keys are
//! straight lines and step keys hold, exactly as before eases existed.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::params::ParamValue;

/// How a parameter track interpolates between keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum KeyInterpolation {
    /// Hold each key until the next (bools always step).
    Step,
    /// Linear between keys (floats and vectors).
    #[default]
    Linear,
}

/// The tangent of one key.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Ease {
    /// Smooth through the key: the slope of the line between its neighbours, flat at a peak,
    /// a dip or an end (Blender's auto-clamped, so a curve never overshoots its keys).
    Auto,
    /// Slope 0 at the key (eases in and out of it).
    Flat,
    /// Straight lines to the neighbouring keys.
    #[default]
    Linear,
    /// The value holds from this key until the next one.
    Step,
    /// Explicit slopes (units of the value per second) into and out of the key (float
    /// parameters; Unity's free and broken tangents).
    Slopes {
        /// Slope arriving at the key.
        slope_in: f32,
        /// Slope leaving it.
        slope_out: f32,
    },
}

impl Ease {
    /// The names scripts use (`ease = "flat"`), in the order the editor lists them.
    pub const NAMES: [&'static str; 4] = ["auto", "flat", "linear", "step"];

    /// The ease called `name` (one of [`Ease::NAMES`]).
    pub fn from_name(name: &str) -> Option<Ease> {
        Some(match name {
            "auto" => Ease::Auto,
            "flat" => Ease::Flat,
            "linear" => Ease::Linear,
            "step" => Ease::Step,
            _ => return None,
        })
    }

    /// Its name (`slopes` for explicit slopes).
    pub fn name(self) -> &'static str {
        match self {
            Ease::Auto => "auto",
            Ease::Flat => "flat",
            Ease::Linear => "linear",
            Ease::Step => "step",
            Ease::Slopes { .. } => "slopes",
        }
    }

    /// What a key without an ease of its own follows on a track that interpolates so.
    pub fn of_track(interpolation: KeyInterpolation) -> Ease {
        match interpolation {
            KeyInterpolation::Step => Ease::Step,
            KeyInterpolation::Linear => Ease::Linear,
        }
    }
}

/// The value of sorted `keys` at time `t`, key `k` eased by `ease(k)`: the first key's value
/// before it, the last's after; bools always step.
pub fn value_at(keys: &[(f32, ParamValue)], ease: impl Fn(usize) -> Ease, t: f32) -> ParamValue {
    let i = keys.partition_point(|k| k.0 <= t);
    if i == 0 {
        return keys[0].1;
    }
    if i == keys.len() {
        return keys[i - 1].1;
    }
    let (a, b) = (i - 1, i);
    let (t0, t1) = (keys[a].0, keys[b].0);
    let h = t1 - t0;
    if ease(a) == Ease::Step || h <= 0.0 {
        return keys[a].1;
    }
    let s = (t - t0) / h;
    match (keys[a].1, keys[b].1) {
        (ParamValue::Float(_), ParamValue::Float(_)) => {
            let v = |k: usize| match keys[k].1 {
                ParamValue::Float(x) => x,
                _ => 0.0,
            };
            ParamValue::Float(segment(keys, &ease, a, s, v))
        }
        (ParamValue::Vec3(_), ParamValue::Vec3(_)) => {
            let c = |axis: usize| {
                let v = |k: usize| match keys[k].1 {
                    ParamValue::Vec3(x) => x[axis],
                    _ => 0.0,
                };
                segment(keys, &ease, a, s, v)
            };
            ParamValue::Vec3(Vec3::new(c(0), c(1), c(2)))
        }
        (x, _) => x,
    }
}

/// The slopes (value per second) into and out of float key `k` of sorted `keys`, eased by
/// `ease`: what the editor draws as the key's handles. A step key's way out is flat; an end's
/// missing side is its other side's.
pub fn key_slopes(
    keys: &[(f32, ParamValue)],
    ease: impl Fn(usize) -> Ease,
    k: usize,
) -> (f32, f32) {
    let v = |i: usize| match keys.get(i).map(|key| key.1) {
        Some(ParamValue::Float(x)) => x,
        _ => 0.0,
    };
    let line = |a: usize| {
        let h = keys[a + 1].0 - keys[a].0;
        if h > 0.0 {
            (v(a + 1) - v(a)) / h
        } else {
            0.0
        }
    };
    if k >= keys.len() {
        return (0.0, 0.0);
    }
    let (before, after) = (
        k.checked_sub(1).map(line),
        (k + 1 < keys.len()).then(|| line(k)),
    );
    let (slope_in, slope_out) = match ease(k) {
        Ease::Flat => (0.0, 0.0),
        Ease::Auto => {
            let s = auto_slope(keys, k, &v);
            (s, s)
        }
        Ease::Slopes {
            slope_in,
            slope_out,
        } => (slope_in, slope_out),
        Ease::Linear => (
            before.or(after).unwrap_or(0.0),
            after.or(before).unwrap_or(0.0),
        ),
        Ease::Step => (before.unwrap_or(0.0), 0.0),
    };
    (slope_in, slope_out)
}

/// One coordinate on the segment from key `a` to key `a + 1` at fraction `s`, the keys'
/// values read by `v`.
fn segment(
    keys: &[(f32, ParamValue)],
    ease: &impl Fn(usize) -> Ease,
    a: usize,
    s: f32,
    v: impl Fn(usize) -> f32,
) -> f32 {
    let b = a + 1;
    let (t0, t1) = (keys[a].0, keys[b].0);
    let (v0, v1) = (v(a), v(b));
    let (ea, eb) = (ease(a), ease(b));
    if ea == Ease::Linear && eb == Ease::Linear {
        return v0 + (v1 - v0) * s;
    }
    let h = t1 - t0;
    let line = (v1 - v0) / h;
    let m0 = match ea {
        Ease::Linear | Ease::Step => line,
        Ease::Flat => 0.0,
        Ease::Auto => auto_slope(keys, a, &v),
        Ease::Slopes { slope_out, .. } => slope_out,
    };
    let m1 = match eb {
        Ease::Linear | Ease::Step => line,
        Ease::Flat => 0.0,
        Ease::Auto => auto_slope(keys, b, &v),
        Ease::Slopes { slope_in, .. } => slope_in,
    };
    hermite(v0, m0 * h, v1, m1 * h, s)
}

/// Key `k`'s automatic slope: the line between its neighbours, 0 at an end, a peak or a dip.
fn auto_slope(keys: &[(f32, ParamValue)], k: usize, v: &impl Fn(usize) -> f32) -> f32 {
    if k == 0 || k + 1 >= keys.len() {
        return 0.0;
    }
    let (p, x, n) = (v(k - 1), v(k), v(k + 1));
    if (x - p) * (n - x) <= 0.0 {
        return 0.0;
    }
    let dt = keys[k + 1].0 - keys[k - 1].0;
    if dt > 0.0 {
        (n - p) / dt
    } else {
        0.0
    }
}

/// The cubic Hermite curve from `p0` (tangent `m0`) to `p1` (tangent `m1`) at `s` in 0..1
/// (tangents scaled to the segment).
fn hermite(p0: f32, m0: f32, p1: f32, m1: f32, s: f32) -> f32 {
    let s2 = s * s;
    let s3 = s2 * s;
    (2.0 * s3 - 3.0 * s2 + 1.0) * p0
        + (s3 - 2.0 * s2 + s) * m0
        + (-2.0 * s3 + 3.0 * s2) * p1
        + (s3 - s2) * m1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> ParamValue {
        ParamValue::Float(x)
    }

    fn at(keys: &[(f32, ParamValue)], eases: &[Ease], t: f32) -> f32 {
        match value_at(keys, |k| eases[k], t) {
            ParamValue::Float(x) => x,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn linear_and_step_are_what_tracks_did() {
        let keys = [(0.0, f(0.0)), (1.0, f(1.4)), (3.0, f(4.0))];
        let lin = [Ease::Linear; 3];
        assert!((at(&keys, &lin, 2.0) - 2.7).abs() < 1e-6);
        assert_eq!(at(&keys, &[Ease::Step; 3], 2.0), 1.4);
        assert_eq!(at(&keys, &lin, 9.0), 4.0);
        assert_eq!(at(&keys, &lin, -1.0), 0.0);
    }

    #[test]
    fn flat_keys_ease_in_and_out_symmetrically() {
        let keys = [(0.0, f(0.0)), (2.0, f(10.0))];
        let flat = [Ease::Flat; 2];
        assert!(
            (at(&keys, &flat, 1.0) - 5.0).abs() < 1e-5,
            "the middle is halfway"
        );
        // slow near the keys: a quarter in, well under a quarter of the way
        let q = at(&keys, &flat, 0.5);
        assert!(q > 0.0 && q < 2.5 * 0.7, "{q}");
        // slope ~0 at both ends
        let d = (at(&keys, &flat, 1e-3) - 0.0) / 1e-3;
        assert!(d.abs() < 0.05, "{d}");
    }

    #[test]
    fn auto_is_smooth_through_a_middle_key_and_never_overshoots_a_peak() {
        let keys = [(0.0, f(0.0)), (1.0, f(1.0)), (2.0, f(3.0)), (3.0, f(1.0))];
        let auto = [Ease::Auto; 4];
        // through key 1 the slope is the same on both sides: (3 - 0) / 2
        let e = 1e-3;
        let left = (at(&keys, &auto, 1.0) - at(&keys, &auto, 1.0 - e)) / e;
        let right = (at(&keys, &auto, 1.0 + e) - at(&keys, &auto, 1.0)) / e;
        assert!(
            (left - 1.5).abs() < 0.01 && (right - 1.5).abs() < 0.01,
            "{left} {right}"
        );
        // key 2 is a peak: flat there, nothing above it
        for k in 0..=300 {
            let t = 1.0 + k as f32 / 150.0;
            assert!(at(&keys, &auto, t) <= 3.0 + 1e-5);
        }
    }

    #[test]
    fn explicit_slopes_and_mixed_sides() {
        let keys = [(0.0, f(0.0)), (1.0, f(0.0))];
        let slopes = [
            Ease::Slopes {
                slope_in: 0.0,
                slope_out: 2.0,
            },
            Ease::Slopes {
                slope_in: -2.0,
                slope_out: 0.0,
            },
        ];
        let e = 1e-3;
        assert!((at(&keys, &slopes, e) / e - 2.0).abs() < 0.02);
        assert!(at(&keys, &slopes, 0.5) > 0.0, "rises then comes back");
        // a step key holds even when the next is smooth
        let mixed = [Ease::Step, Ease::Auto];
        let keys = [(0.0, f(1.0)), (1.0, f(5.0))];
        assert_eq!(at(&keys, &mixed, 0.99), 1.0);
        // linear out of the first, flat into the second
        let mixed = [Ease::Linear, Ease::Flat];
        let d = (at(&keys, &mixed, e) - 1.0) / e;
        assert!((d - 4.0).abs() < 0.05, "{d}");
    }

    #[test]
    fn the_slopes_drawn_are_those_the_curve_takes() {
        let keys = [(0.0, f(0.0)), (1.0, f(1.0)), (2.0, f(3.0)), (3.0, f(1.0))];
        let e = 1e-3;
        for eases in [[Ease::Auto; 4], [Ease::Linear; 4], [Ease::Flat; 4]] {
            let (slope_in, slope_out) = key_slopes(&keys, |k| eases[k], 1);
            let left = (at(&keys, &eases, 1.0) - at(&keys, &eases, 1.0 - e)) / e;
            let right = (at(&keys, &eases, 1.0 + e) - at(&keys, &eases, 1.0)) / e;
            assert!(
                (left - slope_in).abs() < 0.02,
                "{eases:?}: {left} {slope_in}"
            );
            assert!(
                (right - slope_out).abs() < 0.02,
                "{eases:?}: {right} {slope_out}"
            );
        }
    }

    #[test]
    fn vectors_ease_per_axis_and_bools_step() {
        let keys = [
            (0.0, ParamValue::Vec3(Vec3::ZERO)),
            (2.0, ParamValue::Vec3(Vec3::new(10.0, -10.0, 0.0))),
        ];
        let ParamValue::Vec3(v) = value_at(&keys, |_| Ease::Flat, 1.0) else {
            panic!()
        };
        assert!((v - Vec3::new(5.0, -5.0, 0.0)).length() < 1e-4);
        let keys = [
            (0.0, ParamValue::Bool(false)),
            (1.0, ParamValue::Bool(true)),
        ];
        assert_eq!(
            value_at(&keys, |_| Ease::Auto, 0.9),
            ParamValue::Bool(false)
        );
    }
}
