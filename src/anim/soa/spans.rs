//! Rotation spans: for each key interval of a key group and each rotation block it owns, the
//! key pair with the far key sign-aligned, and the slerp's per-pair constants (`θ²` and
//! `1 / sinc θ`) computed once, in `f64`, when the clip is compiled — the scalar sampler's
//! decisions exactly (equal keys hold, keys closer than its `NLERP_DOT` are lerped and
//! normalised). Sampling is then two short polynomials per lane, or for blocks whose lanes are
//! all close (most blocks of clips keyed at 24 fps and up) a normalised lerp.

use super::LANES;
use crate::anim::sampling::{acos_factor, sinc_sq, NLERP_DOT};

/// Lane arrays per rotation block and interval: `a` (4), sign-aligned `b` (4), `θ²`,
/// `1 / sinc θ`, `near` mask, `hold` mask.
pub(super) const SPAN: usize = 12;

const ON: f32 = f32::from_bits(u32::MAX);

/// The span of the pair `a` → `b` (lanes of 4 components), and whether every lane is close
/// or held (the normalised-lerp shortcut applies).
pub(super) fn span(a: &[[f32; LANES]], b: &[[f32; LANES]]) -> ([[f32; LANES]; SPAN], bool) {
    let mut out = [[0.0; LANES]; SPAN];
    let mut fast = true;
    for l in 0..LANES {
        let qa = [0, 1, 2, 3].map(|c| a[c][l]);
        let qb = [0, 1, 2, 3].map(|c| b[c][l]);
        let hold = qa == qb;
        let dot: f64 = (0..4).map(|c| qa[c] as f64 * qb[c] as f64).sum();
        let flip = if dot < 0.0 { -1.0 } else { 1.0 };
        let dot = dot.abs();
        let near = hold || dot >= NLERP_DOT;
        // near lanes: θ² = 0 and 1 / sinc = 1 make the weights exactly (1 - s, s)
        let (th2, inv) = if near {
            (0.0, 1.0)
        } else {
            let theta = (1.0 - dot).sqrt() * acos_factor(dot);
            let th2 = theta * theta;
            (th2, 1.0 / sinc_sq(th2))
        };
        for c in 0..4 {
            out[c][l] = qa[c];
            out[4 + c][l] = if hold { qa[c] } else { qb[c] * flip };
        }
        out[8][l] = th2 as f32;
        out[9][l] = inv as f32;
        out[10][l] = if near { ON } else { 0.0 };
        out[11][l] = if hold { ON } else { 0.0 };
        fast &= near;
    }
    (out, fast)
}

/// `sin(x)/x` as a function of `y = x²` for `x` in `[0, π/2]`, in `f32` (Taylor to `x^10`:
/// truncation under 4e-8).
#[inline(always)]
fn sinc(y: f32) -> f32 {
    const C: [f32; 6] = [
        1.0,
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5040.0,
        1.0 / 362_880.0,
        -1.0 / 39_916_800.0,
    ];
    C[0] + y * (C[1] + y * (C[2] + y * (C[3] + y * (C[4] + y * C[5]))))
}

/// The rotation at `s` in `span` (see [`span`]): held lanes give `a` as stored; near lanes
/// `normalize(a · (1 - s) + b · s)`; the others `a · sin(dθ)/sin θ + b · sin(sθ)/sin θ`
/// (`sin(xθ)/sin θ = x · sinc(xθ) / sinc θ`).
#[inline(always)]
pub(super) fn slerp(span: &[[f32; LANES]], s: f32, fast: bool, out: &mut [[f32; LANES]]) {
    let d = 1.0 - s;
    let (a, b, th2, inv) = (&span[0..4], &span[4..8], &span[8], &span[9]);
    let (near, hold) = (&span[10], &span[11]);
    let out = &mut out[..4];
    if fast {
        for l in 0..LANES {
            let q = [
                a[0][l] * d + b[0][l] * s,
                a[1][l] * d + b[1][l] * s,
                a[2][l] * d + b[2][l] * s,
                a[3][l] * d + b[3][l] * s,
            ];
            let len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
            let k = 1.0 / len2.sqrt();
            for c in 0..4 {
                out[c][l] = if hold[l].to_bits() != 0 {
                    a[c][l]
                } else {
                    q[c] * k
                };
            }
        }
        return;
    }
    for l in 0..LANES {
        let wa = d * sinc(d * d * th2[l]) * inv[l];
        let wb = s * sinc(s * s * th2[l]) * inv[l];
        let q = [
            a[0][l] * wa + b[0][l] * wb,
            a[1][l] * wa + b[1][l] * wb,
            a[2][l] * wa + b[2][l] * wb,
            a[3][l] * wa + b[3][l] * wb,
        ];
        let len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
        let k = if near[l].to_bits() != 0 {
            1.0 / len2.sqrt()
        } else {
            1.0
        };
        for c in 0..4 {
            out[c][l] = if hold[l].to_bits() != 0 {
                a[c][l]
            } else {
                q[c] * k
            };
        }
    }
}
