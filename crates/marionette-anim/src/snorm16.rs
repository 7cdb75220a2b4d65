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
/// angle between them (`2 |d/|d| - q|`) plus the scale `|d|² - 1` a non-renormalising client
/// applies; both move a point at unit distance by about that much. Computed from `δ = d - q`
/// (a few 1e-5), to first order in it (`|δ - q (q·δ)|` for the direction, `2 q·δ + δ·δ` for the
/// scale): within 1e-9, where subtracting near-equal f32 values would lose a percent.
pub fn decoded_error(q: Quat, d: Quat) -> f32 {
    let (qv, delta) = (Vec4::from(q), Vec4::from(d) - Vec4::from(q));
    if !delta.is_finite() {
        return f32::INFINITY;
    }
    let (qd, dd) = (qv.dot(delta), delta.dot(delta));
    2.0 * (dd - qd * qd).max(0.0).sqrt() + (2.0 * qd + dd).abs()
}

/// The decoded rotation closest to `q` (a unit quaternion) by [`decoded_error`], of the 16
/// roundings of its components (each rounded down or up to a code). The search compares the
/// error to first order in the rounding `δ = d - q` (a few 1e-5): the scale `2 q·δ + δ·δ` and
/// the direction `|δ - q (q·δ)|`, from per-component terms computed once.
pub fn quantize_rotation(q: Quat) -> Quat {
    let cands = candidates(q);
    // the 16 candidates side by side (bit i of a mask: component i rounded up), each summed
    // component by component from zero
    let (mut qd, mut dd) = ([0.0f32; 16], [0.0f32; 16]);
    for (i, c) in cands.iter().enumerate() {
        for mask in 0..16 {
            let (_, a, b) = c[(mask >> i) & 1];
            qd[mask] += a;
            dd[mask] += b;
        }
    }
    let e: [f32; 16] = std::array::from_fn(|m| {
        let perp = (dd[m] - qd[m] * qd[m]).max(0.0).sqrt();
        2.0 * perp + (2.0 * qd[m] + dd[m]).abs()
    });
    // the first smallest
    let mut best = (f32::INFINITY, 0usize);
    for (mask, &e) in e.iter().enumerate() {
        if e < best.0 {
            best = (e, mask);
        }
    }
    pick(&cands, best.1)
}

/// Per component of `q`, its two roundings (down, up): the decoded value, its `q·δ` term and
/// its `δ·δ` term.
fn candidates(q: Quat) -> [[(f32, f32, f32); 2]; 4] {
    let scale = f32::from(SNORM16_MAX);
    let max = i32::from(SNORM16_MAX);
    q.to_array().map(|v| {
        let low = ((v.clamp(-1.0, 1.0) * scale).floor() as i32).clamp(-max, max);
        let high = (low + 1).min(max);
        [low, high].map(|c| {
            let d = snorm16_decode(c as i16);
            let delta = d - v;
            (d, v * delta, delta * delta)
        })
    })
}

/// The rotation of the candidates `mask` picks (bit `i` set: component `i` rounded up).
fn pick(cands: &[[(f32, f32, f32); 2]; 4], mask: usize) -> Quat {
    let at = |i: usize| cands[i][(mask >> i) & 1].0;
    Quat::from_xyzw(at(0), at(1), at(2), at(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search as first written, one candidate at a time (from the same candidates): the
    /// reference the batched search must match bit for bit.
    fn quantize_one_by_one(q: Quat) -> Quat {
        let cands = candidates(q);
        let mut best = (f32::INFINITY, 0usize);
        for mask in 0..16usize {
            let (mut qd, mut dd) = (0.0f32, 0.0f32);
            for (i, c) in cands.iter().enumerate() {
                let (_, a, b) = c[(mask >> i) & 1];
                qd += a;
                dd += b;
            }
            let e = 2.0 * (dd - qd * qd).max(0.0).sqrt() + (2.0 * qd + dd).abs();
            if e < best.0 {
                best = (e, mask);
            }
        }
        pick(&cands, best.1)
    }

    #[test]
    fn batched_search_matches_one_by_one() {
        let mut rng = marionette_testkit::Xorshift::new(0x2545_f491);
        let mut next = || rng.unit() * 2.0 - 1.0;
        let mut checked = 0;
        for k in 0..200_000 {
            let v = glam::Vec4::new(next(), next(), next(), next());
            // some exactly on codes, some with zero or equal components
            let v = match k % 5 {
                0 => (v * 32767.0).round() / 32767.0,
                1 => glam::Vec4::new(v.x, 0.0, v.z, v.x),
                _ => v,
            };
            if v.length() < 1e-3 {
                continue;
            }
            let q = Quat::from_vec4(v.normalize());
            let (a, b) = (quantize_rotation(q), quantize_one_by_one(q));
            assert_eq!(
                Vec4::from(a).to_array().map(f32::to_bits),
                Vec4::from(b).to_array().map(f32::to_bits),
                "{q}"
            );
            checked += 1;
        }
        assert!(checked > 190_000);
    }

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
            assert!(e <= decoded_error(q, nearest) + 1e-9, "{q}");
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
