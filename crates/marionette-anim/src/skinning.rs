//! Skin matrix palettes, CPU linear-blend skinning (the GPU path's reference) and the reduction
//! of arbitrary vertex influences to four.

use glam::{Mat3A, Mat4, Vec3, Vec3A, Vec4};

use super::Skin;

impl Skin {
    /// `palette[i] = armature * model[joints[i]] * inverse_bind[i]` (world-space skin matrices;
    /// glTF jointMatrix).
    ///
    /// Writes `min(joints, inverse_bind, out)` slots. A slot whose joint is outside `model`
    /// (impossible for a skin and skeleton from the same import) gets `armature * inverse_bind`.
    pub fn palette(&self, model: &[Mat4], armature: Mat4, out: &mut [Mat4]) {
        let slots = self
            .joints
            .iter()
            .zip(&self.inverse_bind)
            .zip(out.iter_mut());
        let model_of = |j: u16| model.get(j as usize).unwrap_or(&Mat4::IDENTITY);
        // Model matrices built from TRS, and glTF inverse binds in practice, are affine; then
        // every right-hand operand below is affine and the cheaper product is exact (the
        // armature is only ever a left operand). The check is on integer bits, off the
        // floating-point ports the products use, and its branch is predictable.
        if armature == Mat4::IDENTITY {
            for ((&j, ib), o) in slots {
                let m = model_of(j);
                *o = if is_affine(m) & is_affine(ib) {
                    mul_affine(m, ib)
                } else {
                    *m * *ib
                };
            }
        } else {
            for ((&j, ib), o) in slots {
                let m = model_of(j);
                *o = if is_affine(m) & is_affine(ib) {
                    mul_affine(&armature, &mul_affine(m, ib))
                } else {
                    armature * (*m * *ib)
                };
            }
        }
    }
}

/// Whether the matrix's last row is exactly (0, 0, 0, 1) (either sign of zero), tested on the
/// bit patterns.
#[inline(always)]
pub(crate) fn is_affine(m: &Mat4) -> bool {
    let zeros = (m.x_axis.w.to_bits() | m.y_axis.w.to_bits() | m.z_axis.w.to_bits()) << 1;
    zeros == 0 && m.w_axis.w.to_bits() == 1.0f32.to_bits()
}

/// `l * r` for an affine `r` (last row (0, 0, 0, 1); `l` may be anything): the terms that
/// multiply `r`'s zero last row are skipped, so the result equals the full product.
#[inline(always)]
pub(crate) fn mul_affine(l: &Mat4, r: &Mat4) -> Mat4 {
    let (l0, l1, l2, l3) = (l.x_axis, l.y_axis, l.z_axis, l.w_axis);
    let col = |c: Vec4| l0 * c.x + l1 * c.y + l2 * c.z;
    let t = r.w_axis;
    Mat4::from_cols(
        col(r.x_axis),
        col(r.y_axis),
        col(r.z_axis),
        (l0 * t.x + l1 * t.y) + (l2 * t.z + l3),
    )
}

/// CPU linear-blend skinning of positions and normals (normals via the inverse-transpose of the
/// blended matrix, renormalised). Reference the GPU path will be tested against. Writes into out
/// slices.
///
/// Vertices `0..min(positions, joints, weights, out_positions)` are skinned; normals for the
/// first `min(normals, out_normals)` of those (a mesh without normals passes empty slices).
/// Influences whose slot is outside `palette` are skipped. A degenerate blended matrix leaves
/// the normal transformed by the matrix itself.
pub fn skin_vertices(
    palette: &[Mat4],
    joints: &[[u16; 4]],
    weights: &[[f32; 4]],
    positions: &[Vec3],
    normals: &[Vec3],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    let n = positions
        .len()
        .min(joints.len())
        .min(weights.len())
        .min(out_positions.len());
    let with_normals = normals.len().min(out_normals.len()).min(n);
    for i in 0..n {
        let mut m = Mat4::ZERO;
        for (&slot, &w) in joints[i].iter().zip(&weights[i]) {
            if w != 0.0 {
                if let Some(p) = palette.get(slot as usize) {
                    m += *p * w;
                }
            }
        }
        out_positions[i] = m.transform_point3(positions[i]);
        if i < with_normals {
            let m3 = Mat3A::from_mat4(m);
            let det = m3.determinant();
            let n = if det.abs() > f32::MIN_POSITIVE {
                m3.inverse().transpose() * Vec3A::from(normals[i])
            } else {
                m3 * Vec3A::from(normals[i])
            };
            out_normals[i] = Vec3::from(n.normalize_or_zero());
        }
    }
}

/// What [`reduce_influences`] had to fix for one vertex.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct InfluenceFixes {
    /// More than four joints had a non-zero weight; the weakest were dropped.
    pub dropped: bool,
    /// A weight was outside [0, 1] or NaN and was clamped.
    pub clamped: bool,
    /// The kept weights did not sum to 1 (within 2e-3) and were rescaled.
    pub renormalized: bool,
    /// Every weight was zero: the vertex was bound to joint 0 with weight 1.
    pub all_zero: bool,
}

/// Tolerance on the weight sum before [`InfluenceFixes::renormalized`] is reported (finer than
/// one step of an 8-bit normalised weight; the weights are rescaled exactly either way).
const SUM_TOLERANCE: f32 = 2e-3;

/// Reduce any number of (joint, weight) influences to the strongest 4: weights clamped to [0,1]
/// (NaN -> 0), zero-weight joints ignored, renormalised to sum 1 (all zero -> joint 0 weight 1
/// and all_zero set). Deterministic tie-breaking (lower joint index first). Used by the importer
/// (which counts fixes per mesh).
///
/// A joint listed more than once has its weights summed. The result is ordered strongest first;
/// unused slots are joint 0 with weight 0.
pub fn reduce_influences(influences: &[(u16, f32)]) -> ([u16; 4], [f32; 4], InfluenceFixes) {
    let mut fixes = InfluenceFixes::default();
    let clamp = |w: f32| if w.is_nan() { 0.0 } else { w.clamp(0.0, 1.0) };
    for &(_, w) in influences {
        if clamp(w) != w {
            fixes.clamped = true;
        }
    }
    // strongest four, ordered by weight descending then joint ascending (no allocation)
    let mut best: [(u16, f32); 4] = [(0, 0.0); 4];
    let mut kept = 0;
    let mut nonzero = 0;
    for (i, &(joint, _)) in influences.iter().enumerate() {
        if influences[..i].iter().any(|&(j, _)| j == joint) {
            continue; // already summed at its first occurrence
        }
        let w: f32 = influences[i..]
            .iter()
            .filter(|&&(j, _)| j == joint)
            .map(|&(_, w)| clamp(w))
            .sum();
        if w <= 0.0 {
            continue;
        }
        nonzero += 1;
        let stronger = |a: (u16, f32), b: (u16, f32)| a.1 > b.1 || (a.1 == b.1 && a.0 < b.0);
        let mut pos = kept;
        while pos > 0 && stronger((joint, w), best[pos - 1]) {
            pos -= 1;
        }
        if pos < 4 {
            for k in (pos + 1..4).rev() {
                best[k] = best[k - 1];
            }
            best[pos] = (joint, w);
            kept = (kept + 1).min(4);
        }
    }
    fixes.dropped = nonzero > 4;
    let sum: f32 = best.iter().map(|b| b.1).sum();
    if sum <= 0.0 {
        fixes.all_zero = true;
        return ([0; 4], [1.0, 0.0, 0.0, 0.0], fixes);
    }
    fixes.renormalized = (sum - 1.0).abs() > SUM_TOLERANCE;
    let joints = best.map(|b| b.0);
    let weights = Vec4::from_array(best.map(|b| b.1)) / sum;
    (joints, weights.to_array(), fixes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_1_SQRT_2;

    fn skin(joints: Vec<u16>, inverse_bind: Vec<Mat4>) -> Skin {
        Skin {
            name: "s".into(),
            joints,
            inverse_bind,
        }
    }

    /// Palette is armature * model * inverse bind: the bind pose gives identities, a joint moved
    /// 1 up moves its vertices 1 up (then doubled by a scaling armature).
    #[test]
    fn palette_values() {
        let model = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, 2.0, 0.0)),
        ];
        let bind = Mat4::from_translation(Vec3::new(0.0, 2.0, 0.0)).inverse();
        let s = skin(vec![1, 0], vec![bind, Mat4::IDENTITY]);
        let mut out = [Mat4::ZERO; 2];
        s.palette(&model, Mat4::IDENTITY, &mut out);
        assert!(out[0].abs_diff_eq(Mat4::IDENTITY, 1e-6));
        assert!(out[1].abs_diff_eq(Mat4::IDENTITY, 1e-6));

        let moved = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, 3.0, 0.0)),
        ];
        s.palette(&moved, Mat4::from_scale(Vec3::splat(2.0)), &mut out);
        let p = out[0].transform_point3(Vec3::new(1.0, 2.0, 0.0));
        assert!(p.abs_diff_eq(Vec3::new(2.0, 6.0, 0.0), 1e-6), "{p}");
        assert!(out[1].abs_diff_eq(Mat4::from_scale(Vec3::splat(2.0)), 1e-6));
    }

    /// A vertex weighted 50/50 between a still joint and one moved (2,0,0) moves (1,0,0); its
    /// normal goes through the inverse-transpose of diag(1,2,1) (50/50 of I and scale y by 3).
    #[test]
    fn half_and_half_skinning() {
        let palette = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(2.0, 0.0, 0.0)),
            Mat4::from_scale(Vec3::new(1.0, 3.0, 1.0)),
        ];
        let positions = [Vec3::ONE, Vec3::ONE];
        let normals = [Vec3::Z, Vec3::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0)];
        let joints = [[0, 1, 0, 0], [0, 2, 0, 0]];
        let weights = [[0.5, 0.5, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]];
        let mut out_p = [Vec3::ZERO; 2];
        let mut out_n = [Vec3::ZERO; 2];
        skin_vertices(
            &palette, &joints, &weights, &positions, &normals, &mut out_p, &mut out_n,
        );
        assert!(
            out_p[0].abs_diff_eq(Vec3::new(2.0, 1.0, 1.0), 1e-6),
            "{}",
            out_p[0]
        );
        assert!(out_n[0].abs_diff_eq(Vec3::Z, 1e-6));
        assert!(
            out_p[1].abs_diff_eq(Vec3::new(1.0, 2.0, 1.0), 1e-6),
            "{}",
            out_p[1]
        );
        // (1, 1/2, 0) normalised, not (1, 2, 0) as the plain matrix would give
        let want = Vec3::new(1.0, 0.5, 0.0).normalize();
        assert!(out_n[1].abs_diff_eq(want, 1e-6), "{}", out_n[1]);
    }

    /// Six influences keep the strongest four (tie 0.2/0.2 broken by lower joint) and renormalise.
    #[test]
    fn six_influences_to_four() {
        let inf = [(3, 0.1), (5, 0.3), (1, 0.05), (7, 0.2), (2, 0.2), (9, 0.15)];
        let (j, w, f) = reduce_influences(&inf);
        assert_eq!(j, [5, 2, 7, 9]);
        let want = [0.3 / 0.85, 0.2 / 0.85, 0.2 / 0.85, 0.15 / 0.85];
        for k in 0..4 {
            assert!((w[k] - want[k]).abs() < 1e-6, "{w:?}");
        }
        assert_eq!(
            f,
            InfluenceFixes {
                dropped: true,
                renormalized: true,
                ..Default::default()
            }
        );
    }

    /// Weights above 1, below 0 and NaN are clamped; over-full sums are rescaled.
    #[test]
    fn clamping() {
        let (j, w, f) = reduce_influences(&[(0, 1.5), (1, -0.5), (2, f32::NAN)]);
        assert_eq!((j, w), ([0; 4], [1.0, 0.0, 0.0, 0.0]));
        assert!(f.clamped && !f.renormalized && !f.dropped && !f.all_zero);
        let (j, w, f) = reduce_influences(&[(6, 1.0), (4, 2.0)]);
        assert_eq!((j, w), ([4, 6, 0, 0], [0.5, 0.5, 0.0, 0.0]));
        assert!(f.clamped && f.renormalized);
    }

    /// All-zero (or no) weights bind to joint 0 with weight 1; clean input reports no fixes;
    /// a joint listed twice has its weights summed.
    #[test]
    fn all_zero_clean_and_duplicates() {
        let (j, w, f) = reduce_influences(&[(3, 0.0), (4, -1.0)]);
        assert_eq!((j, w), ([0; 4], [1.0, 0.0, 0.0, 0.0]));
        assert!(f.all_zero && f.clamped);
        assert!(reduce_influences(&[]).2.all_zero);
        let (j, w, f) = reduce_influences(&[(8, 0.75), (3, 0.25), (0, 0.0), (0, 0.0)]);
        assert_eq!(
            (j, w, f),
            (
                [8, 3, 0, 0],
                [0.75, 0.25, 0.0, 0.0],
                InfluenceFixes::default()
            )
        );
        let (j, w, _) = reduce_influences(&[(2, 0.25), (2, 0.25), (1, 0.5)]);
        assert_eq!((j, w), ([1, 2, 0, 0], [0.5, 0.5, 0.0, 0.0]));
    }

    use crate::test_lcg as lcg;

    /// A random affine matrix (general 3x3 part, so shear too) or, if `projective`, a random
    /// matrix with a non-trivial last row.
    fn random_matrix(rng: &mut u32, projective: bool) -> Mat4 {
        let mut a = [0.0; 16];
        for x in a.iter_mut() {
            *x = lcg(rng) * 2.0;
        }
        if !projective {
            (a[3], a[7], a[11], a[15]) = (0.0, 0.0, 0.0, 1.0);
        }
        Mat4::from_cols_array(&a)
    }

    /// The palette equals `armature * (model * inverse_bind)` computed with full products, for
    /// affine inputs with identity, affine and projective armatures, and for slots whose model or
    /// inverse bind is not affine (the full-product fallback), within 1e-6 of the largest entry.
    #[test]
    fn palette_matches_full_products() {
        let mut rng = 99u32;
        let n = 64;
        let model: Vec<Mat4> = (0..n)
            .map(|j| random_matrix(&mut rng, j % 17 == 5))
            .collect();
        let joints: Vec<u16> = (0..n as u16).rev().chain([200]).collect();
        let inverse_bind: Vec<Mat4> = (0..=n)
            .map(|i| random_matrix(&mut rng, i % 13 == 3))
            .collect();
        let s = skin(joints.clone(), inverse_bind.clone());
        let armatures = [
            Mat4::IDENTITY,
            random_matrix(&mut rng, false),
            random_matrix(&mut rng, true),
        ];
        for armature in armatures {
            let mut out = vec![Mat4::ZERO; n + 1];
            s.palette(&model, armature, &mut out);
            for (i, o) in out.iter().enumerate() {
                let m = model.get(joints[i] as usize).unwrap_or(&Mat4::IDENTITY);
                let want = armature * (*m * inverse_bind[i]);
                let scale = want
                    .to_cols_array()
                    .iter()
                    .fold(1.0f32, |a, x| a.max(x.abs()));
                assert!(o.abs_diff_eq(want, 1e-6 * scale), "slot {i}: {o} vs {want}");
            }
        }
    }

    /// The affine test accepts either sign of zero and rejects any other last row.
    #[test]
    fn affine_check() {
        let mut m = Mat4::from_translation(Vec3::ONE);
        assert!(is_affine(&m));
        m.y_axis.w = -0.0;
        assert!(is_affine(&m));
        m.z_axis.w = 1e-30;
        assert!(!is_affine(&m));
        assert!(!is_affine(&(Mat4::IDENTITY * 2.0)));
        let mut p = Mat4::IDENTITY;
        p.z_axis.w = -1.0;
        assert!(!is_affine(&p));
    }
}
