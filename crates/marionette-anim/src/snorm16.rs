//! Rotations as normalized 16-bit integers: what glTF 2.0 allows for a rotation sampler's output
//! (`componentType` SHORT with `normalized: true`), half the bytes of floats. A client decodes a
//! code `c` as `max(c / 32767, -1)` (the spec's formula; three.js and Blender compute the same
//! `f32`), so a rotation written this way is one of a grid of values a step of 1/32767 apart per
//! component, and in general not exactly unit length.
//!
//! [`quantize_rotation`] picks, of the 16 roundings of a unit quaternion's components, the one
//! closest to the rotation counting both what a client sees: its direction (the rotation) and
//! its length (a client that does not renormalise, as three.js, draws a scale of `|q|²`).
//! [`rotation_codes`] says whether a value is exactly such a decoded value (and so is written
//! without loss).

use glam::{Quat, Vec4};

/// The largest code: `1.0` decodes from it.
pub const SNORM16_MAX: i16 = i16::MAX;

/// The value a client decodes from code `c`.
#[inline]
pub fn snorm16_decode(c: i16) -> f32 {
    (f32::from(c) / f32::from(SNORM16_MAX)).max(-1.0)
}

/// The code `v` decodes from exactly, if any.
#[inline]
pub fn snorm16_code(v: f32) -> Option<i16> {
    let scaled = v * f32::from(SNORM16_MAX);
    // NaN and values beyond ±1 have no code
    if scaled.is_nan() || scaled.abs() > f32::from(SNORM16_MAX) {
        return None;
    }
    let c = scaled.round() as i16;
    (snorm16_decode(c).to_bits() == v.to_bits()).then_some(c)
}

/// The codes of a rotation whose four components are each exactly a decoded code.
pub fn rotation_codes(q: Quat) -> Option<[i16; 4]> {
    let [x, y, z, w] = q.to_array();
    Some([
        snorm16_code(x)?,
        snorm16_code(y)?,
        snorm16_code(z)?,
        snorm16_code(w)?,
    ])
}

/// What a decoded rotation `d` costs against the unit rotation `q`, as a client draws it: the
/// angle between them (`2 |q - d/|d||` for small errors) plus the scale `|d|² - 1` a
/// non-renormalising client applies; both move a point at unit distance by about that much.
pub fn decoded_error(q: Quat, d: Quat) -> f32 {
    let (qv, dv) = (Vec4::from(q), Vec4::from(d));
    let len2 = dv.length_squared();
    let dir = if len2 > 0.0 {
        (dv / len2.sqrt() - qv).length()
    } else {
        f32::INFINITY
    };
    2.0 * dir + (len2 - 1.0).abs()
}

/// The decoded rotation closest to `q` (a unit quaternion) by [`decoded_error`], of the 16
/// roundings of its components (each rounded down or up to a code).
pub fn quantize_rotation(q: Quat) -> Quat {
    let scale = f32::from(SNORM16_MAX);
    let comps = q.to_array();
    let lows = comps.map(|v| (v.clamp(-1.0, 1.0) * scale).floor() as i32);
    let mut best = (f32::INFINITY, q);
    for mask in 0..16u32 {
        let mut d = [0.0f32; 4];
        for (i, (v, low)) in d.iter_mut().zip(lows).enumerate() {
            let c = (low + ((mask >> i) & 1) as i32)
                .clamp(-i32::from(SNORM16_MAX), i32::from(SNORM16_MAX));
            *v = snorm16_decode(c as i16);
        }
        let cand = Quat::from_array(d);
        let e = decoded_error(q, cand);
        if e < best.0 {
            best = (e, cand);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code decodes to a value that encodes back to it; values between codes do not.
    #[test]
    fn codes_round_trip() {
        for c in i16::MIN..=i16::MAX {
            let v = snorm16_decode(c);
            let back = snorm16_code(v);
            // -32768 decodes to -1.0, as -32767 does (the spec's clamp): both are -1.0
            let want = if c == i16::MIN { -SNORM16_MAX } else { c };
            assert_eq!(back, Some(want), "{c}");
        }
        assert_eq!(snorm16_code(0.5), None);
        assert_eq!(snorm16_code(f32::NAN), None);
        assert_eq!(snorm16_code(1.5), None);
        assert_eq!(snorm16_code(1.0), Some(SNORM16_MAX));
    }

    /// A quantized rotation is exactly codes, within a fraction of a step of the rotation in
    /// direction and length, and no worse than rounding each component to nearest.
    #[test]
    fn quantized_rotations_are_close_and_exact() {
        let step = 1.0 / 32767.0;
        let mut worst = 0.0f32;
        for k in 0..2000 {
            let a = k as f32 * 0.618;
            let axis = glam::Vec3::new(a.sin(), (a * 1.7).cos(), (a * 0.3).sin() + 0.2).normalize();
            let q = Quat::from_axis_angle(axis, a * 2.3 % 6.2);
            let d = quantize_rotation(q);
            assert!(rotation_codes(d).is_some(), "{q} -> {d}");
            let nearest = Quat::from_array(
                q.to_array()
                    .map(|v| snorm16_decode((v * 32767.0).round() as i16)),
            );
            let e = decoded_error(q, d);
            assert!(e <= decoded_error(q, nearest), "{q}");
            worst = worst.max(e);
        }
        assert!(worst < 3.0 * step, "worst {worst} (step {step})");
    }

    /// The identity and axis-aligned rotations are exact.
    #[test]
    fn exact_rotations_stay() {
        for q in [
            Quat::IDENTITY,
            Quat::from_xyzw(0.0, 0.0, 0.0, -1.0),
            Quat::from_xyzw(1.0, 0.0, 0.0, 0.0),
        ] {
            assert_eq!(quantize_rotation(q), q);
        }
    }
}
