//! Rotation spans: for each key interval of a key group and each rotation block it owns, the
//! key pair with the far key sign-aligned, and the slerp's per-pair constants (`θ²` and
//! `1 / sinc θ`) computed once, in `f64`, when the clip is compiled — the scalar sampler's
//! decisions exactly (equal keys hold, keys closer than its `NLERP_DOT` are lerped and
//! normalised). Sampling is then two short polynomials per lane, or for blocks whose lanes are
//! all close (most blocks of clips keyed at 24 fps and up) a lerp. The close lanes'
//! normalisation is a polynomial too when their keys are unit: with `d = 1 - s`,
//! `|a·d + b·s|² = 1 + e` where `e = d²(|a|² - 1) + s²(|b|² - 1) + 2ds(a·b - 1)` is under 3e-4
//! for such keys, so `1 / sqrt(1 + e) = 1 - e/2 + 3e²/8` within 1e-11: no square root and no
//! division (blocks with keys off unit length take them).

use super::LANES;
use crate::keys::{acos_factor, sinc_sq, NLERP_DOT};

/// Lane arrays per rotation block and interval: `a` (4), sign-aligned `b` (4), `θ²`,
/// `1 / sinc θ`, `near` mask, `|a|² - 1`, `|b|² - 1`, `a·b - 1`, `hold` mask.
pub(super) const SPAN: usize = 15;

/// Largest `|a|² - 1` and `|b|² - 1` of close keys normalised by the polynomial.
const UNIT: f64 = 1e-4;

const ON: f32 = f32::from_bits(u32::MAX);

/// How a span's lanes are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Every lane close (or held) with unit keys: lerp, polynomial normalisation.
    Near,
    /// Close lanes with unit keys, others far: slerp weights, polynomial normalisation.
    Unit,
    /// Some close lane's keys are off unit length: normalised with a square root.
    Exact,
}

/// The span of the pair `a` → `b` (lanes of 4 components) and how to sample it.
pub(super) fn span(a: &[[f32; LANES]], b: &[[f32; LANES]]) -> ([[f32; LANES]; SPAN], Mode) {
    let mut out = [[0.0; LANES]; SPAN];
    let (mut all_near, mut unit) = (true, true);
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
        // the polynomial normalisation's constants, in f64 (held and far lanes: unused)
        let norm = |q: [f32; 4]| q.iter().map(|&x| x as f64 * x as f64).sum::<f64>() - 1.0;
        let (na, nb, ab) = if near && !hold {
            (norm(qa), norm(qb), dot - 1.0)
        } else {
            (0.0, 0.0, 0.0)
        };
        for c in 0..4 {
            out[c][l] = qa[c];
            out[4 + c][l] = if hold { qa[c] } else { qb[c] * flip };
        }
        let lanes = [th2, inv, 0.0, na, nb, ab];
        for (k, v) in lanes.into_iter().enumerate() {
            out[8 + k][l] = v as f32;
        }
        out[10][l] = if near { ON } else { 0.0 };
        out[14][l] = if hold { ON } else { 0.0 };
        all_near &= near;
        unit &= na.abs() <= UNIT && nb.abs() <= UNIT;
    }
    let mode = match (unit, all_near) {
        (false, _) => Mode::Exact,
        (true, true) => Mode::Near,
        (true, false) => Mode::Unit,
    };
    (out, mode)
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
pub(super) fn slerp(span: &[[f32; LANES]], s: f32, mode: Mode, out: &mut [[f32; LANES]]) {
    let d = 1.0 - s;
    let (a, b, th2, inv, near) = (&span[0..4], &span[4..8], &span[8], &span[9], &span[10]);
    let (na, nb, ab, hold) = (&span[11], &span[12], &span[13], &span[14]);
    let (dd, ss, ds2) = (d * d, s * s, 2.0 * d * s);
    let out = &mut out[..4];
    for l in 0..LANES {
        let (wa, wb) = match mode {
            Mode::Near => (d, s),
            _ => (
                d * sinc(dd * th2[l]) * inv[l],
                s * sinc(ss * th2[l]) * inv[l],
            ),
        };
        let q = [
            a[0][l] * wa + b[0][l] * wb,
            a[1][l] * wa + b[1][l] * wb,
            a[2][l] * wa + b[2][l] * wb,
            a[3][l] * wa + b[3][l] * wb,
        ];
        let k = match mode {
            Mode::Exact => {
                let len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
                1.0 / len2.sqrt()
            }
            _ => {
                let e = dd * na[l] + ss * nb[l] + ds2 * ab[l];
                1.0 + e * (-0.5 + e * 0.375)
            }
        };
        let k = if near[l].to_bits() != 0 { k } else { 1.0 };
        for c in 0..4 {
            out[c][l] = if hold[l].to_bits() != 0 {
                a[c][l]
            } else {
                q[c] * k
            };
        }
    }
}
