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

/// CUBICSPLINE on lanes: `keys` = (value `p0`, out-tangent `m0`, next value `p1`, its
/// in-tangent `m1`), tangents scaled by the interval `dt`, Hermite basis `h`, in the scalar
/// path's order (`p0·h00 + (m0·dt)·h10 + p1·h01 + (m1·dt)·h11`: vectors bit for bit).
/// Rotations are then normalised (the identity when the result is zero or not finite), with
/// no sign flip, as the scalar path does. Lanes whose `hold` is not 0 give `p0` as is.
#[inline(always)]
pub(super) fn hermite(
    keys: [&[[f32; LANES]]; 4],
    dt: f32,
    h: [f32; 4],
    hold: &[u32; LANES],
    rotation: bool,
    out: &mut [[f32; LANES]],
) {
    let [p0, m0, p1, m1] = keys;
    let w = out.len();
    let mut v = [[0.0f32; LANES]; 4];
    for c in 0..w {
        for l in 0..LANES {
            v[c][l] =
                p0[c][l] * h[0] + (m0[c][l] * dt) * h[1] + p1[c][l] * h[2] + (m1[c][l] * dt) * h[3];
        }
    }
    if rotation && w == 4 {
        for l in 0..LANES {
            let len2 =
                (v[0][l] * v[0][l] + v[1][l] * v[1][l]) + (v[2][l] * v[2][l] + v[3][l] * v[3][l]);
            let r = 1.0 / len2.sqrt();
            let ok = r.is_finite();
            for (c, vc) in v.iter_mut().enumerate() {
                let unit = if c == 3 { 1.0 } else { 0.0 };
                vc[l] = if ok { vc[l] * r } else { unit };
            }
        }
    }
    for (c, o) in out.iter_mut().enumerate() {
        for l in 0..LANES {
            o[l] = if hold[l] != 0 { p0[c][l] } else { v[c][l] };
        }
    }
}

/// `a = nlerp(a, b, w)` per lane: vectors `a · (1 - w) + b · w` (glam's `lerp`, same bits),
/// rotations sign-aligned, lerped
/// and normalised ([`crate::Transform::nlerp`] in lanes).
#[inline(always)]
pub(super) fn nlerp_in_place(a: &mut super::SoaBlock, b: &super::SoaBlock, w: f32) {
    let d = 1.0 - w;
    // (read into values first: lerping in place, lane by lane through the references, stays
    // scalar)
    let lerp3 = |x: [[f32; LANES]; 3], y: [[f32; LANES]; 3]| {
        let mut o = [[0.0f32; LANES]; 3];
        for c in 0..3 {
            for l in 0..LANES {
                o[c][l] = x[c][l] * d + y[c][l] * w;
            }
        }
        o
    };
    a.t = lerp3(a.t, b.t);
    a.s = lerp3(a.s, b.s);
    let (ar, br) = (&mut a.r, &b.r);
    for l in 0..LANES {
        let dot = (ar[0][l] * br[0][l] + ar[1][l] * br[1][l])
            + (ar[2][l] * br[2][l] + ar[3][l] * br[3][l]);
        let sign = if dot < 0.0 { -1.0 } else { 1.0 };
        // (no `array::map` here: it may stay a call, which stops vectorisation)
        let q = [
            ar[0][l] + (br[0][l] * sign - ar[0][l]) * w,
            ar[1][l] + (br[1][l] * sign - ar[1][l]) * w,
            ar[2][l] + (br[2][l] * sign - ar[2][l]) * w,
            ar[3][l] + (br[3][l] * sign - ar[3][l]) * w,
        ];
        let len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
        let k = 1.0 / len2.sqrt();
        for c in 0..4 {
            ar[c][l] = q[c] * k;
        }
    }
}

/// The local axes of a block's eight joints: rotation matrix columns times the scale
/// (`m[3 * col + row]`), the rotation terms as [`crate::local_to_model`] computes them.
#[inline(always)]
pub(super) fn local_axes(x: &super::SoaBlock, m: &mut [[f32; LANES]; 9]) {
    for l in 0..LANES {
        let (qx, qy, qz, qw) = (x.r[0][l], x.r[1][l], x.r[2][l], x.r[3][l]);
        let (x2, y2, z2) = (qx + qx, qy + qy, qz + qz);
        let (xx, xy, xz) = (qx * x2, qx * y2, qx * z2);
        let (yy, yz, zz) = (qy * y2, qy * z2, qz * z2);
        let (wx, wy, wz) = (qw * x2, qw * y2, qw * z2);
        let (sx, sy, sz) = (x.s[0][l], x.s[1][l], x.s[2][l]);
        m[0][l] = (1.0 - (yy + zz)) * sx;
        m[1][l] = (xy + wz) * sx;
        m[2][l] = (xz - wy) * sx;
        m[3][l] = (xy - wz) * sy;
        m[4][l] = (1.0 - (xx + zz)) * sy;
        m[5][l] = (yz + wx) * sy;
        m[6][l] = (xz + wy) * sz;
        m[7][l] = (yz - wx) * sz;
        m[8][l] = (1.0 - (xx + yy)) * sz;
    }
}
