//! The fused local-to-model and palette with AVX2 and FMA.
//!
//! A joint's model matrix `M` and `N = A · M` (`A` the affine armature; `N = M` without one)
//! ride side by side in the two halves of four 8-lane registers, one per column, so one product
//! from the parent's pair gives both: the armature costs no product per joint. The parent's
//! pair stays in registers along a chain; branch joints keep their `N` for their other children
//! (see [`super::Step::kept`]). The palette entries `N · IB` then take two columns per product.
//!
//! Within 1e-6 of the scalar path, not bit for bit: the products use fused multiply-adds, and
//! the armature is applied along the chain (`(A · M_parent) · L`) where the scalar path takes
//! `A · (M · IB)`.

use std::arch::x86_64::*;

use glam::{Mat4, Vec4};

use super::plan::{Entry, PalettePlan, Step, KEPT};
use crate::skinning::mul_affine;
use crate::soa::{kernels, SoaPose, LANES};
use crate::Skeleton;

/// A joint's `[M | N]`: column `k` of `M` in the low half of `self.0[k]`, of `N` in the high.
#[derive(Clone, Copy)]
struct Pair([__m256; 4]);

impl Pair {
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn new(m: &Mat4, n: &Mat4) -> Self {
        let col = |a: Vec4, b: Vec4| _mm256_set_m128(b.into(), a.into());
        Self([
            col(m.x_axis, n.x_axis),
            col(m.y_axis, n.y_axis),
            col(m.z_axis, n.z_axis),
            col(m.w_axis, n.w_axis),
        ])
    }

    /// `M` (`HIGH` false) or `N` (`HIGH` true) as a matrix.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn half<const HIGH: bool>(&self) -> Mat4 {
        let h = |v: __m256| -> Vec4 {
            if HIGH {
                _mm256_extractf128_ps::<1>(v).into()
            } else {
                _mm256_castps256_ps128(v).into()
            }
        };
        let [x, y, z, w] = self.0;
        Mat4::from_cols(h(x), h(y), h(z), h(w))
    }
}

/// [`super::local_to_model_palette`] for a plan of this skeleton whose armature is affine or
/// absent.
#[target_feature(enable = "avx2,fma")]
pub(super) fn l2m_palette(
    skeleton: &Skeleton,
    pose: &SoaPose,
    plan: &PalettePlan,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) {
    let id = Mat4::IDENTITY;
    match (&plan.armature, plan.all_affine) {
        (None, true) => fused::<false, true>(skeleton, pose, plan, &id, model, palette),
        (None, false) => fused::<false, false>(skeleton, pose, plan, &id, model, palette),
        (Some(arm), true) => fused::<true, true>(skeleton, pose, plan, arm, model, palette),
        (Some(arm), false) => fused::<true, false>(skeleton, pose, plan, arm, model, palette),
    }
}

/// The pass. `ARM`: whether `arm` is not the identity (without one `N = M`, and nothing is
/// kept or moved between halves). `AFFINE`: whether every inverse bind is affine (its last row
/// is then left out of the products, as `mul_affine` does).
#[target_feature(enable = "avx2,fma")]
#[inline]
fn fused<const ARM: bool, const AFFINE: bool>(
    skeleton: &Skeleton,
    pose: &SoaPose,
    plan: &PalettePlan,
    arm: &Mat4,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) {
    // a root's "parent": the identity beside the armature
    let root = Pair::new(&Mat4::IDENTITY, arm);
    let mut kept = [Mat4::ZERO; KEPT];
    let n = skeleton.len().min(pose.len()).min(model.len());
    let steps = &plan.steps[..n.min(plan.steps.len())];
    let mut axes = [[0.0f32; LANES]; 9];
    let mut last = root;
    let mut list = plan.entries.iter();
    for (b, (block, steps)) in pose.blocks().iter().zip(steps.chunks(LANES)).enumerate() {
        kernels::local_axes(block, &mut axes);
        for (l, &step) in steps.iter().enumerate() {
            let [p0, p1, p2, p3] = if step.chain {
                last.0
            } else if step.parent == Step::ROOT {
                root.0
            } else {
                // off the chain: the parent's `N` kept, or computed again from its `M`
                let p = step.parent as usize;
                let m = &model[p];
                let n = match plan.step(p).kept as usize {
                    _ if !ARM => *m,
                    0 => mul_affine(arm, m),
                    k => kept[k - 1],
                };
                Pair::new(m, &n).0
            };
            let c = |k: usize| _mm256_set1_ps(axes[k][l]);
            let t = |k: usize| _mm256_set1_ps(block.t[k][l]);
            let fma = |a, b, c| _mm256_fmadd_ps(a, b, c);
            let col = |k: usize| fma(p2, c(k + 2), fma(p1, c(k + 1), _mm256_mul_ps(p0, c(k))));
            let pair = Pair([
                col(0),
                col(3),
                col(6),
                fma(p2, t(2), fma(p1, t(1), fma(p0, t(0), p3))),
            ]);
            model[b * LANES + l] = pair.half::<false>();
            if ARM && step.kept > 0 {
                if let Some(k) = kept.get_mut(step.kept as usize - 1) {
                    *k = pair.half::<true>();
                }
            }
            if step.entries > 0 {
                let joint = list.by_ref().take(step.entries as usize);
                entries::<ARM, AFFINE>(joint, &pair, palette);
            }
            last = pair;
        }
    }
}

/// A joint's entries from its `[M | N]`, two columns per product: `N · IB`.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn entries<'a, const ARM: bool, const AFFINE: bool>(
    entries: impl Iterator<Item = &'a Entry>,
    pair: &Pair,
    palette: &mut [Mat4],
) {
    // `N`'s columns twice (as the pair has them without an armature)
    let twice = |c: __m256| {
        if ARM {
            _mm256_permute2f128_ps(c, c, 0x11)
        } else {
            c
        }
    };
    let [x, y, z, w] = pair.0.map(twice);
    // `[0 | N's translation]`: an affine inverse bind's last row applied
    let t = _mm256_blend_ps(_mm256_setzero_ps(), w, 0xF0);
    let fma = |a, b, c| _mm256_fmadd_ps(a, b, c);
    for e in entries {
        let Some(o) = palette.get_mut(e.slot as usize) else {
            continue;
        };
        let r = |k: usize| -> __m256 {
            // SAFETY: each row is 8 contiguous floats.
            unsafe { _mm256_loadu_ps(e.rows[k].as_ptr()) }
        };
        let (lo, hi) = if AFFINE {
            (
                fma(z, r(2), fma(y, r(1), _mm256_mul_ps(x, r(0)))),
                fma(z, r(5), fma(y, r(4), fma(x, r(3), t))),
            )
        } else {
            (
                fma(w, r(6), fma(z, r(2), fma(y, r(1), _mm256_mul_ps(x, r(0))))),
                fma(w, r(7), fma(z, r(5), fma(y, r(4), _mm256_mul_ps(x, r(3))))),
            )
        };
        let p = (o as *mut Mat4).cast::<f32>();
        // SAFETY: a `Mat4` is 16 contiguous floats (glam's column-major `repr(C)` layout),
        // written as two halves of 8.
        unsafe {
            _mm256_storeu_ps(p, lo);
            _mm256_storeu_ps(p.add(8), hi);
        }
    }
}
