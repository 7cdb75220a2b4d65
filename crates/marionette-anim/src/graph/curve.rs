//! Transition curves: map the linear progress `t` in `[0, 1]` of a transition to the target's
//! blend weight.
//!
//! `EaseIn`, `EaseOut` and `EaseInOut` are the CSS easing functions (cubic Béziers
//! `(0.42, 0, 1, 1)`, `(0, 0, 0.58, 1)` and `(0.42, 0, 0.58, 1)`); `Bezier` is a CSS-style cubic
//! Bézier through `(0, 0)` and `(1, 1)` with two control points, solved for `x` (Newton steps
//! with a bisection fallback, so it is deterministic). `Sampled` interpolates linearly between
//! evenly spaced samples (how a script's Lua curve function is kept: sampled once at load, no
//! Lua call per frame). A `Sampled` or `Custom` curve's result is clamped to `[0, 1]` (and a
//! non-finite result falls back to `t`).

use std::fmt;
use std::rc::Rc;

/// A callback curve: progress in `[0, 1]` to weight (shared, so curves can be cloned).
pub type CurveFn = Rc<dyn Fn(f32) -> f32>;

/// How a transition's weight grows with its progress.
#[derive(Clone, Default)]
pub enum Curve {
    /// `t`.
    #[default]
    Linear,
    /// `t * t * (3 - 2t)`.
    SmoothStep,
    /// CSS `ease-in`.
    EaseIn,
    /// CSS `ease-out`.
    EaseOut,
    /// CSS `ease-in-out`.
    EaseInOut,
    /// CSS `cubic-bezier(x1, y1, x2, y2)`; `x1` and `x2` are clamped to `[0, 1]`.
    Bezier(f32, f32, f32, f32),
    /// Evenly spaced samples over `[0, 1]`, linear in between (see [`sample_curve`]).
    Sampled(Vec<f32>),
    /// A callback (e.g. a Lua function wrapped by the script host).
    Custom(CurveFn),
}

impl fmt::Debug for Curve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Curve::Linear => write!(f, "Linear"),
            Curve::SmoothStep => write!(f, "SmoothStep"),
            Curve::EaseIn => write!(f, "EaseIn"),
            Curve::EaseOut => write!(f, "EaseOut"),
            Curve::EaseInOut => write!(f, "EaseInOut"),
            Curve::Bezier(a, b, c, d) => write!(f, "Bezier({a}, {b}, {c}, {d})"),
            Curve::Sampled(s) => write!(f, "Sampled({s:?})"),
            Curve::Custom(_) => write!(f, "Custom(..)"),
        }
    }
}

/// Curves are equal when they are the same curve: equal variants and values, and for
/// `Custom` the same callback.
impl PartialEq for Curve {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Curve::Linear, Curve::Linear)
            | (Curve::SmoothStep, Curve::SmoothStep)
            | (Curve::EaseIn, Curve::EaseIn)
            | (Curve::EaseOut, Curve::EaseOut)
            | (Curve::EaseInOut, Curve::EaseInOut) => true,
            (Curve::Bezier(a, b, c, d), Curve::Bezier(e, f, g, h)) => (a, b, c, d) == (e, f, g, h),
            (Curve::Sampled(a), Curve::Sampled(b)) => a == b,
            (Curve::Custom(a), Curve::Custom(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Curve {
    /// A callback curve.
    pub fn custom(f: impl Fn(f32) -> f32 + 'static) -> Self {
        Curve::Custom(Rc::new(f))
    }

    /// Parses a curve name: `linear`, `smoothstep`, `ease_in`/`ease-in`, `ease_out`,
    /// `ease_in_out`.
    pub fn from_name(name: &str) -> Option<Curve> {
        Some(match name.replace('-', "_").as_str() {
            "linear" => Curve::Linear,
            "smoothstep" | "smooth" => Curve::SmoothStep,
            "ease_in" => Curve::EaseIn,
            "ease_out" => Curve::EaseOut,
            "ease_in_out" => Curve::EaseInOut,
            _ => return None,
        })
    }

    /// The weight at progress `t` (clamped to `[0, 1]` first).
    pub fn eval(&self, t: f32) -> f32 {
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        match self {
            Curve::Linear => t,
            Curve::SmoothStep => t * t * (3.0 - 2.0 * t),
            Curve::EaseIn => bezier(0.42, 0.0, 1.0, 1.0, t),
            Curve::EaseOut => bezier(0.0, 0.0, 0.58, 1.0, t),
            Curve::EaseInOut => bezier(0.42, 0.0, 0.58, 1.0, t),
            Curve::Bezier(x1, y1, x2, y2) => bezier(*x1, *y1, *x2, *y2, t),
            Curve::Sampled(samples) => clamp_or(sample_curve(samples, t), t),
            Curve::Custom(f) => clamp_or(f(t), t),
        }
    }
}

/// `v` clamped to `[0, 1]`, or `fallback` when `v` is not finite.
fn clamp_or(v: f32, fallback: f32) -> f32 {
    if v.is_finite() {
        v.clamp(0.0, 1.0)
    } else {
        fallback
    }
}

/// Linear interpolation in evenly spaced samples over `[0, 1]` (`t` clamped; no samples: `t`).
pub fn sample_curve(samples: &[f32], t: f32) -> f32 {
    let n = samples.len();
    if n == 0 {
        return t;
    }
    if n == 1 {
        return samples[0];
    }
    let x = t.clamp(0.0, 1.0) * (n - 1) as f32;
    let i = (x.floor() as usize).min(n - 2);
    let f = x - i as f32;
    samples[i] + (samples[i + 1] - samples[i]) * f
}

/// One coordinate of the cubic Bézier with end points 0 and 1 and control values `a`, `b`.
fn cubic(a: f32, b: f32, s: f32) -> f32 {
    let u = 1.0 - s;
    3.0 * u * u * s * a + 3.0 * u * s * s * b + s * s * s
}

/// Derivative of [`cubic`] with respect to `s`.
fn cubic_slope(a: f32, b: f32, s: f32) -> f32 {
    let u = 1.0 - s;
    3.0 * u * u * a + 6.0 * u * s * (b - a) + 3.0 * s * s * (1.0 - b)
}

/// CSS cubic-bezier: finds `s` with `x(s) = x`, returns `y(s)`.
fn bezier(x1: f32, y1: f32, x2: f32, y2: f32, x: f32) -> f32 {
    let (x1, x2) = (x1.clamp(0.0, 1.0), x2.clamp(0.0, 1.0));
    let mut s = x;
    let mut solved = false;
    for _ in 0..8 {
        let err = cubic(x1, x2, s) - x;
        if err.abs() < 1e-7 {
            solved = true;
            break;
        }
        let d = cubic_slope(x1, x2, s);
        if d.abs() < 1e-6 {
            break;
        }
        s = (s - err / d).clamp(0.0, 1.0);
    }
    if !solved {
        // x(s) is monotone for x1, x2 in [0, 1]: bisect
        let (mut lo, mut hi) = (0.0f32, 1.0f32);
        for _ in 0..40 {
            s = 0.5 * (lo + hi);
            if cubic(x1, x2, s) < x {
                lo = s;
            } else {
                hi = s;
            }
        }
    }
    cubic(y1, y2, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Linear and smoothstep at hand-computed points: smoothstep(0.25) = 0.15625.
    #[test]
    fn simple_curves() {
        assert_eq!(Curve::Linear.eval(0.3), 0.3);
        assert_eq!(Curve::SmoothStep.eval(0.25), 0.15625);
        assert_eq!(Curve::SmoothStep.eval(0.5), 0.5);
        assert_eq!(Curve::SmoothStep.eval(2.0), 1.0);
    }

    /// Bézier: the straight line (0,0,1,1) is the identity; ease-in-out is symmetric with 0.5 at 0.5.
    #[test]
    fn bezier_curves() {
        for x in [0.1f32, 0.37, 0.8] {
            assert!((Curve::Bezier(0.0, 0.0, 1.0, 1.0).eval(x) - x).abs() < 1e-5);
            let a = Curve::EaseInOut.eval(x);
            let b = Curve::EaseInOut.eval(1.0 - x);
            assert!((a + b - 1.0).abs() < 1e-5);
        }
        assert!((Curve::EaseInOut.eval(0.5) - 0.5).abs() < 1e-5);
        // reference values of the CSS curves (bisection of x(s) = t in double precision)
        assert!((Curve::EaseIn.eval(0.5) - 0.315_356_8).abs() < 1e-5);
        assert!((Curve::EaseOut.eval(0.5) - 0.684_643_2).abs() < 1e-5);
        assert!((Curve::EaseInOut.eval(0.25) - 0.129_161_9).abs() < 1e-5);
        // ease-in starts slowly, ease-out starts fast
        assert!(Curve::EaseIn.eval(0.25) < 0.25 && Curve::EaseOut.eval(0.25) > 0.25);
        // cubic-bezier(1, 0, 0, 1) is point-symmetric about (0.5, 0.5)
        assert!((Curve::Bezier(1.0, 0.0, 0.0, 1.0).eval(0.5) - 0.5).abs() < 1e-5);
    }

    /// A custom curve is called, and its result is clamped to [0, 1].
    #[test]
    fn custom_curve() {
        let c = Curve::custom(|t| t * 3.0);
        assert!((c.eval(0.2) - 0.6).abs() < 1e-6);
        assert_eq!(c.eval(0.5), 1.0);
    }

    /// Sampled curves interpolate linearly between samples and clamp outside [0, 1].
    #[test]
    fn sampled_curve_interpolates() {
        let s = [0.0, 0.5, 1.0];
        assert_eq!(sample_curve(&s, 0.25), 0.25);
        assert_eq!(sample_curve(&s, 0.75), 0.75);
        assert_eq!(sample_curve(&s, 2.0), 1.0);
        assert_eq!(sample_curve(&[0.0, 1.0, 0.0], 0.5), 1.0);
    }
}
