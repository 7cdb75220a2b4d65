//! Lane kernels: eight `f32` lanes at a time, written as plain branch-free loops that the
//! compiler vectorises (AVX2 when the caller is compiled for it, see [`super::simd`]; SSE2
//! otherwise). No fused multiply-adds (Rust never contracts), so vector lerps give the scalar
//! path's bits.

#![allow(clippy::needless_range_loop)] // lane loops read best indexed

use super::LANES;

/// `out = a * (1 - s) + b * s` on `W` components (the scalar LINEAR vector, same bits), or
/// `a` as is on lanes whose `hold` is not 0 (lanes of joints the clip does not animate, which
/// the scalar path leaves at their rest value).
#[inline(always)]
pub(super) fn lerp(
    a: &[[f32; LANES]],
    b: &[[f32; LANES]],
    s: f32,
    hold: &[u32; LANES],
    out: &mut [[f32; LANES]],
) {
    let d = 1.0 - s;
    for ((a, b), o) in a.iter().zip(b).zip(out.iter_mut()) {
        for l in 0..LANES {
            o[l] = if hold[l] != 0 {
                a[l]
            } else {
                a[l] * d + b[l] * s
            };
        }
    }
}

/// `sin(x)/x` as a function of `y = x²` for `x` in `[0, π/2]`, in `f32` (Taylor to
/// `x^10`: truncation under 4e-8).
const SINC: [f32; 6] = [
    1.0,
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
];

#[inline(always)]
fn sinc_sq(y: f32) -> f32 {
    let c = SINC;
    c[0] + y * (c[1] + y * (c[2] + y * (c[3] + y * (c[4] + y * c[5]))))
}

/// `acos(x) / sqrt(1 - x)` for `x` in `[0, 1]`: the scalar path's polynomial
/// (`sampling::acos_factor`, Abramowitz and Stegun 4.4.46) in `f32`.
const ACOS: [f32; 8] = [
    std::f32::consts::FRAC_PI_2, // A&S's 1.5707963050, rounded to f32
    -0.214_598_8,
    0.088_978_99,
    -0.050_174_303,
    0.030_891_88,
    -0.017_088_126,
    0.006_670_09,
    -0.001_262_491_1,
];

#[inline(always)]
fn acos_factor(x: f32) -> f32 {
    let c = ACOS;
    let mut p = c[7];
    for k in (0..7).rev() {
        p = c[k] + x * p;
    }
    p
}

/// Keys at least this close (dot product) are lerped and normalised (the scalar path's
/// `NLERP_DOT`, three.js's threshold).
const NEAR: f32 = 0.9995;

/// Quaternion keys `a`, `b` (x, y, z, w lanes) at `s`, by [`crate::anim::Clip::sample`]'s
/// rules, per lane: equal keys give `a` as stored; otherwise `b` is sign-aligned with `a`
/// (shortest path), keys closer than [`NEAR`] are lerped and normalised, the others slerped
/// (`a · sin(dθ)/sin θ + b · sin(sθ)/sin θ`, with `sin(xθ)/sin θ = x · sinc(xθ) / sinc(θ)` and
/// `θ = sqrt(1 - dot) · acos_factor(dot)`), in `f32`.
#[inline(always)]
pub(super) fn slerp(a: &[[f32; LANES]], b: &[[f32; LANES]], s: f32, out: &mut [[f32; LANES]]) {
    let d = 1.0 - s;
    let (a, b, out) = (&a[..4], &b[..4], &mut out[..4]);
    for l in 0..LANES {
        let (ax, ay, az, aw) = (a[0][l], a[1][l], a[2][l], a[3][l]);
        let (bx, by, bz, bw) = (b[0][l], b[1][l], b[2][l], b[3][l]);
        let hold = (ax == bx) & (ay == by) & (az == bz) & (aw == bw);
        let dot = (ax * bx + ay * by) + (az * bz + aw * bw);
        let flip = if dot < 0.0 { -1.0 } else { 1.0 };
        let dot = dot * flip;
        let near = dot >= NEAR;
        let theta = (1.0 - dot).max(0.0).sqrt() * acos_factor(dot.min(1.0));
        let th2 = theta * theta;
        let inv = 1.0 / sinc_sq(th2);
        let wa = if near {
            d
        } else {
            d * sinc_sq(d * d * th2) * inv
        };
        let wb = if near {
            s
        } else {
            s * sinc_sq(s * s * th2) * inv
        } * flip;
        let q = [
            ax * wa + bx * wb,
            ay * wa + by * wb,
            az * wa + bz * wb,
            aw * wa + bw * wb,
        ];
        let len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
        let k = if near { 1.0 / len2.sqrt() } else { 1.0 };
        let held = [ax, ay, az, aw];
        for c in 0..4 {
            out[c][l] = if hold { held[c] } else { q[c] * k };
        }
    }
}

/// `a = nlerp(a, b, w)` per lane: vectors `a · (1 - w) + b · w` (glam's `lerp`, same bits),
/// rotations sign-aligned, lerped
/// and normalised ([`crate::anim::Transform::nlerp`] in lanes).
#[inline(always)]
pub(super) fn nlerp_in_place(a: &mut super::SoaBlock, b: &super::SoaBlock, w: f32) {
    let d = 1.0 - w;
    for (x, y) in
        a.t.iter_mut()
            .chain(a.s.iter_mut())
            .zip(b.t.iter().chain(&b.s))
    {
        for l in 0..LANES {
            x[l] = x[l] * d + y[l] * w;
        }
    }
    let (ar, br) = (&mut a.r, &b.r);
    for l in 0..LANES {
        let dot = (ar[0][l] * br[0][l] + ar[1][l] * br[1][l])
            + (ar[2][l] * br[2][l] + ar[3][l] * br[3][l]);
        let sign = if dot < 0.0 { -1.0 } else { 1.0 };
        let q = [0, 1, 2, 3].map(|c| ar[c][l] + (br[c][l] * sign - ar[c][l]) * w);
        let len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
        let k = 1.0 / len2.sqrt();
        for c in 0..4 {
            ar[c][l] = q[c] * k;
        }
    }
}

/// The rotation matrices of a block's eight joints (`m[3 * col + row]`, unscaled), as
/// [`crate::anim::local_to_model`] computes them.
#[inline(always)]
pub(super) fn rotation_matrices(x: &super::SoaBlock, m: &mut [[f32; LANES]; 9]) {
    for l in 0..LANES {
        let (qx, qy, qz, qw) = (x.r[0][l], x.r[1][l], x.r[2][l], x.r[3][l]);
        let (x2, y2, z2) = (qx + qx, qy + qy, qz + qz);
        let (xx, xy, xz) = (qx * x2, qx * y2, qx * z2);
        let (yy, yz, zz) = (qy * y2, qy * z2, qz * z2);
        let (wx, wy, wz) = (qw * x2, qw * y2, qw * z2);
        m[0][l] = 1.0 - (yy + zz);
        m[1][l] = xy + wz;
        m[2][l] = xz - wy;
        m[3][l] = xy - wz;
        m[4][l] = 1.0 - (xx + zz);
        m[5][l] = yz + wx;
        m[6][l] = xz + wy;
        m[7][l] = yz - wx;
        m[8][l] = 1.0 - (xx + yy);
    }
}
