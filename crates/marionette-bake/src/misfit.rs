//! How far a fitted value is from its sample, in world metres ([`Misfit`]), as the fits ask it:
//! mostly "within the tolerance?", which for rotations is answered without the arctangent
//! where the answer is plain ([`RotationMisfit`]), the same answer as the full computation.

use glam::Quat;

/// A channel's error: `metres(want, got)`, and whether it is within `tol`, which must be
/// exactly `metres(want, got) <= tol` (faster where it can be).
pub trait Misfit<T> {
    /// The error of `got` against `want`, in metres.
    fn metres(&self, want: T, got: T) -> f32;
    /// `metres(want, got) <= tol`.
    fn within(&self, want: T, got: T, tol: f32) -> bool {
        self.metres(want, got) <= tol
    }
}

impl<T, F: Fn(T, T) -> f32 + ?Sized> Misfit<T> for F {
    fn metres(&self, want: T, got: T) -> f32 {
        self(want, got)
    }
}

/// Angle between two rotations (up to sign), in radians.
pub(super) fn angle(a: Quat, b: Quat) -> f32 {
    let (l, w) = angle_parts(a, b);
    2.0 * l.atan2(w)
}

/// `|d.xyz|` and `|d.w|` of `d = a⁻¹ b`: the angle is `2 atan2` of them.
#[inline]
fn angle_parts(a: Quat, b: Quat) -> (f32, f32) {
    let d = a.conjugate() * b;
    (d.xyz().length(), d.w.abs())
}

/// A rotation channel's error: the angle times the `reach` of the joint's subtree, plus (with
/// `length`, for 16-bit keys, which are not unit) how far the value's squared length is off one,
/// which a client that does not renormalise draws as a scale.
#[derive(Clone, Copy, Debug)]
pub struct RotationMisfit {
    pub reach: f32,
    pub length: bool,
}

/// Relative room left around the bounds of [`RotationMisfit::within`]: far more than the
/// rounding of the f32 computation it stands for (a few 1e-7), so only values that close to
/// the tolerance are computed in full.
const ROOM: f64 = 1e-5;

impl RotationMisfit {
    /// How far `got`'s squared length is off one, when counted (zero otherwise: the angle plus
    /// zero is the angle, bit for bit).
    fn off(&self, got: Quat) -> f32 {
        if self.length {
            (got.length_squared() - 1.0).abs()
        } else {
            0.0
        }
    }
}

impl Misfit<Quat> for RotationMisfit {
    fn metres(&self, want: Quat, got: Quat) -> f32 {
        (angle(want, got) + self.off(got)) * self.reach
    }

    /// With `x = |d.xyz| / |d.w|` the angle is `2 atan(x)`, and `x - x³/3 <= atan(x) <= x`: where
    /// the error with the angle bounded so is clearly on one side of `tol` the answer is that,
    /// else it is computed in full.
    fn within(&self, want: Quat, got: Quat, tol: f32) -> bool {
        let (l, w) = angle_parts(want, got);
        let (l, w) = (f64::from(l), f64::from(w));
        let off = f64::from(self.off(got));
        let (reach, limit) = (f64::from(self.reach), f64::from(tol));
        // the angle at most 2x (most answers: a fit mostly asks of values within)
        if w > 0.0 && (2.0 * l + off * w) * reach * (1.0 + ROOM) <= limit * w {
            return true;
        }
        let x = l / w;
        if x.is_finite() && x < 0.5 {
            let low = (2.0 * (x - x * x * x / 3.0) + off) * reach * (1.0 - ROOM);
            if low > limit {
                return false;
            }
        }
        self.metres(want, got) <= tol
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// `within` answers as `metres <= tol` does, for errors spread over six decades and for
    /// tolerances set at the error itself and a float step either side of it.
    #[test]
    fn within_is_the_full_comparison() {
        let mut rng = marionette_testkit::Xorshift::new(0x9e37_79b9);
        let mut next = || rng.unit();
        let mut fast = 0;
        for k in 0..300_000 {
            let axis = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize_or(Vec3::X);
            let a = Quat::from_axis_angle(axis, next() * 6.0);
            let off = 10f32.powf(-7.0 + 6.0 * next());
            let turn = Quat::from_axis_angle(Vec3::new(next(), 1.0, next()).normalize(), off);
            let mut b = a * turn;
            if k % 3 == 0 {
                // a 16-bit key's length
                b = Quat::from_vec4(glam::Vec4::from(b) * (1.0 + (next() - 0.5) * 1e-4));
            }
            let m = RotationMisfit {
                reach: 10f32.powf(-2.0 + 3.0 * next()),
                length: k % 2 == 0,
            };
            let e = m.metres(a, b);
            for tol in [
                e,
                f32::from_bits(e.to_bits().wrapping_sub(1)),
                f32::from_bits(e.to_bits() + 1),
                e * 0.5,
                e * 2.0,
                e * (1.0 + 3e-6),
                e * (1.0 - 3e-6),
                0.0,
            ] {
                assert_eq!(m.within(a, b, tol), e <= tol, "{a} {b} {tol} {e}");
                let (l, w) = angle_parts(a, b);
                fast += usize::from(f64::from(l) / f64::from(w) < 0.5);
            }
        }
        assert!(fast > 1_000_000, "{fast}");
    }
}
