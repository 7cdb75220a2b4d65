//! Local-to-model from a [`SoaPose`]: rotation matrices eight joints at a time, then each
//! joint's parent product — optionally with the skin palette entries of each joint computed
//! right after its model matrix ([`local_to_model_palette`]), which fills the parent chain's
//! latency with independent work.

use glam::{Mat4, Vec4};

use super::{kernels, simd, SoaPose, LANES};
use crate::anim::skinning::{is_affine, mul_affine};
use crate::anim::{Skeleton, Skin};

/// A skin's palette laid out by skeleton joint, for [`local_to_model_palette`]: built once per
/// skin and skeleton.
#[derive(Clone, Debug)]
pub struct PalettePlan {
    /// Per skeleton joint, its range in `entries`.
    ranges: Vec<(u32, u32)>,
    /// (palette slot, inverse bind, whether it is affine), grouped by joint.
    entries: Vec<(u32, Mat4, bool)>,
    /// Per entry, its inverse bind's 3×4 part laid out for two columns per 8-lane product:
    /// `[x of col 0 ×4 | x of col 1 ×4]`, the same for y and z, then columns 2 and 3.
    wide: Vec<[[f32; 8]; 6]>,
    /// Slots whose joint is not in the skeleton, with their constant matrix.
    constant: Vec<(u32, Mat4)>,
    /// The armature (left factor of every entry), `None` when it is the identity.
    armature: Option<Mat4>,
    slots: usize,
}

impl PalettePlan {
    /// The plan of `skin` over `skeleton`: `palette[i] = armature * model[joints[i]] *
    /// inverse_bind[i]`, as [`Skin::palette`] with the skeleton's armature.
    pub fn new(skin: &Skin, skeleton: &Skeleton) -> Self {
        let n = skeleton.len();
        let armature = skeleton.armature();
        let slots = skin.joints.len().min(skin.inverse_bind.len());
        let mut by_joint: Vec<Vec<(u32, Mat4, bool)>> = vec![Vec::new(); n];
        let mut constant = Vec::new();
        for (i, (&j, ib)) in skin.joints.iter().zip(&skin.inverse_bind).enumerate() {
            match by_joint.get_mut(j as usize) {
                Some(list) => list.push((i as u32, *ib, is_affine(ib))),
                None => constant.push((i as u32, armature * *ib)),
            }
        }
        let mut ranges = Vec::with_capacity(n);
        let mut entries = Vec::with_capacity(slots);
        for list in by_joint {
            let start = entries.len() as u32;
            entries.extend(list);
            ranges.push((start, entries.len() as u32));
        }
        let wide = entries
            .iter()
            .map(|(_, ib, _)| {
                let c = ib.to_cols_array_2d();
                let pair = |a: usize, b: usize, row: usize| {
                    let (x, y) = (c[a][row], c[b][row]);
                    [x, x, x, x, y, y, y, y]
                };
                [
                    pair(0, 1, 0),
                    pair(0, 1, 1),
                    pair(0, 1, 2),
                    pair(2, 3, 0),
                    pair(2, 3, 1),
                    pair(2, 3, 2),
                ]
            })
            .collect();
        Self {
            ranges,
            entries,
            wide,
            constant,
            armature: (armature != Mat4::IDENTITY).then_some(armature),
            slots,
        }
    }

    /// Palette slots written.
    pub fn len(&self) -> usize {
        self.slots
    }

    /// True for a skin of no joints.
    pub fn is_empty(&self) -> bool {
        self.slots == 0
    }
}

/// [`local_to_model`], and the palette of `plan` into `palette` ([`Skin::palette`]'s matrices,
/// the same products), each joint's entries right after its model matrix.
pub fn local_to_model_palette(
    skeleton: &Skeleton,
    pose: &SoaPose,
    plan: &PalettePlan,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) {
    #[cfg(target_arch = "x86_64")]
    if simd::avx2() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { l2m_palette_avx2(skeleton, pose, plan, model, palette) };
    }
    l2m_lanes(skeleton, pose, model, |j, m| entries(plan, j, m, palette));
    constants(plan, palette);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn l2m_palette_avx2(
    skeleton: &Skeleton,
    pose: &SoaPose,
    plan: &PalettePlan,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) {
    match &plan.armature {
        None => l2m_lanes(skeleton, pose, model, |j, m| {
            wide::entries(plan, j, m, None, palette)
        }),
        Some(arm) if is_affine(arm) => {
            let arm = wide::Left::new(arm);
            l2m_lanes(skeleton, pose, model, |j, m| {
                wide::entries(plan, j, m, Some(&arm), palette)
            })
        }
        Some(_) => l2m_lanes(skeleton, pose, model, |j, m| entries(plan, j, m, palette)),
    }
    constants(plan, palette);
}

/// Joint `j`'s palette entries from its model matrix `m`.
#[inline(always)]
fn entries(plan: &PalettePlan, j: usize, m: &Mat4, palette: &mut [Mat4]) {
    let Some(&(a, b)) = plan.ranges.get(j) else {
        return;
    };
    for (slot, ib, affine) in &plan.entries[a as usize..b as usize] {
        let Some(o) = palette.get_mut(*slot as usize) else {
            continue;
        };
        // `mul_affine(l, r)` is the full product for any `l` when `r` is affine
        let p = if *affine { mul_affine(m, ib) } else { *m * *ib };
        *o = match &plan.armature {
            None => p,
            Some(arm) if is_affine(&p) => mul_affine(arm, &p),
            Some(arm) => *arm * p,
        };
    }
}

/// Slots whose joint the skeleton lacks.
fn constants(plan: &PalettePlan, palette: &mut [Mat4]) {
    for (slot, m) in &plan.constant {
        if let Some(o) = palette.get_mut(*slot as usize) {
            *o = *m;
        }
    }
}

/// `out[j] = out[parent(j)] * local(j)`, roots `local(j)` (model space, the armature
/// excluded): [`crate::anim::local_to_model`] from a [`SoaPose`], within 1e-6. Writes the first
/// `min(skeleton, pose, out)` joints.
pub fn local_to_model(skeleton: &Skeleton, pose: &SoaPose, out: &mut [Mat4]) {
    #[cfg(target_arch = "x86_64")]
    if simd::avx2() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { l2m_avx2(skeleton, pose, out) };
    }
    l2m_lanes(skeleton, pose, out, |_, _| ())
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn l2m_avx2(skeleton: &Skeleton, pose: &SoaPose, out: &mut [Mat4]) {
    l2m_lanes(skeleton, pose, out, |_, _| ())
}

#[inline(always)]
#[allow(clippy::needless_range_loop)] // `l` indexes several lane arrays
fn l2m_lanes(
    skeleton: &Skeleton,
    pose: &SoaPose,
    out: &mut [Mat4],
    mut then: impl FnMut(usize, &Mat4),
) {
    let parents = skeleton.parents();
    let n = parents.len().min(pose.len()).min(out.len());
    let mut m = [[0.0f32; LANES]; 9];
    // the last matrix written stays in registers (chains follow their parent)
    let mut prev = (usize::MAX, Mat4::IDENTITY);
    for (b, block) in pose.blocks().iter().enumerate() {
        let first = b * LANES;
        if first >= n {
            break;
        }
        kernels::local_axes(block, &mut m);
        for l in 0..LANES.min(n - first) {
            let j = first + l;
            let c = |k: usize| m[k][l];
            let t = |k: usize| block.t[k][l];
            let model = match parents[j] {
                Some(p) if (p as usize) < j => {
                    let p = p as usize;
                    let pm = if prev.0 == p { &prev.1 } else { &out[p] };
                    let (p0, p1, p2, p3) = (pm.x_axis, pm.y_axis, pm.z_axis, pm.w_axis);
                    // (the scalar path scales after the product: a rounding apart)
                    let col = |k: usize| p0 * c(k) + p1 * c(k + 1) + p2 * c(k + 2);
                    Mat4::from_cols(
                        col(0),
                        col(3),
                        col(6),
                        (p0 * t(0) + p1 * t(1)) + (p2 * t(2) + p3),
                    )
                }
                _ => Mat4::from_cols(
                    Vec4::new(c(0), c(1), c(2), 0.0),
                    Vec4::new(c(3), c(4), c(5), 0.0),
                    Vec4::new(c(6), c(7), c(8), 0.0),
                    Vec4::new(t(0), t(1), t(2), 1.0),
                ),
            };
            out[j] = model;
            then(j, &model);
            prev = (j, model);
        }
    }
}

/// Palette entries two columns per 8-lane product (AVX): the same operations as `mul_affine`,
/// in its order (so the same bits, but for the sign of a zero). With an (affine) armature `A`
/// the entry is `(A · M) · IB` (the scalar path takes `A · (M · IB)`: a rounding apart).
#[cfg(target_arch = "x86_64")]
mod wide {
    use std::arch::x86_64::*;

    use glam::Mat4;

    use super::PalettePlan;

    /// An affine left factor as the product wants it: `[c0|c0]`, `[c1|c1]`, `[c2|c2]`,
    /// `[0|c3]` (its columns, twice).
    pub(super) struct Left {
        x: __m256,
        y: __m256,
        z: __m256,
        t: __m256,
    }

    impl Left {
        #[target_feature(enable = "avx2")]
        pub(super) fn new(m: &Mat4) -> Self {
            let (m0, m1, m2, m3): (__m128, __m128, __m128, __m128) = (
                m.x_axis.into(),
                m.y_axis.into(),
                m.z_axis.into(),
                m.w_axis.into(),
            );
            Self {
                x: _mm256_set_m128(m0, m0),
                y: _mm256_set_m128(m1, m1),
                z: _mm256_set_m128(m2, m2),
                t: _mm256_set_m128(m3, _mm_setzero_ps()),
            }
        }

        /// `self · r` for an affine `r` given as `[c0|c1]`, `[c2|c3]`; `mul_affine`'s
        /// operations and order.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn times(&self, lo: __m256, hi: __m256) -> (__m256, __m256) {
            let pick = |v: __m256, row: i32| {
                let (a, b) = (row, row + 4);
                _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(a, a, a, a, b, b, b, b))
            };
            let (x, y, z) = (self.x, self.y, self.z);
            let lo = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(x, pick(lo, 0)), _mm256_mul_ps(y, pick(lo, 1))),
                _mm256_mul_ps(z, pick(lo, 2)),
            );
            let hi = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(x, pick(hi, 0)), _mm256_mul_ps(y, pick(hi, 1))),
                _mm256_add_ps(_mm256_mul_ps(z, pick(hi, 2)), self.t),
            );
            (lo, hi)
        }

        /// The left factor whose columns are `[c0|c1]`, `[c2|c3]`.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn of(lo: __m256, hi: __m256) -> Self {
            Self {
                x: _mm256_permute2f128_ps(lo, lo, 0x00),
                y: _mm256_permute2f128_ps(lo, lo, 0x11),
                z: _mm256_permute2f128_ps(hi, hi, 0x00),
                t: _mm256_blend_ps(_mm256_setzero_ps(), hi, 0xF0),
            }
        }
    }

    /// Joint `j`'s entries from its model matrix `m` (affine inverse binds here, the others
    /// through the full products), with the armature `arm` on the left when there is one.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn entries(
        plan: &PalettePlan,
        j: usize,
        m: &Mat4,
        arm: Option<&Left>,
        palette: &mut [Mat4],
    ) {
        let Some(&(a, b)) = plan.ranges.get(j) else {
            return;
        };
        let left = match arm {
            None => Left::new(m),
            Some(arm) => {
                let (m0, m1, m2, m3): (__m128, __m128, __m128, __m128) = (
                    m.x_axis.into(),
                    m.y_axis.into(),
                    m.z_axis.into(),
                    m.w_axis.into(),
                );
                let (lo, hi) = arm.times(_mm256_set_m128(m1, m0), _mm256_set_m128(m3, m2));
                Left::of(lo, hi)
            }
        };
        let (x, y, z, t) = (left.x, left.y, left.z, left.t);
        let range = a as usize..b as usize;
        for ((slot, ib, affine), w) in plan.entries[range.clone()].iter().zip(&plan.wide[range]) {
            let Some(o) = palette.get_mut(*slot as usize) else {
                continue;
            };
            if !*affine {
                *o = match &plan.armature {
                    None => *m * *ib,
                    Some(arm) => *arm * (*m * *ib),
                };
                continue;
            }
            // SAFETY: `w` rows are 8 floats; `o` is a `Mat4`, 16 contiguous floats (glam's
            // column-major `repr(C)` layout), written as two halves of 8.
            unsafe {
                let ld = |k: usize| _mm256_loadu_ps(w[k].as_ptr());
                let lo = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(x, ld(0)), _mm256_mul_ps(y, ld(1))),
                    _mm256_mul_ps(z, ld(2)),
                );
                let hi = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(x, ld(3)), _mm256_mul_ps(y, ld(4))),
                    _mm256_add_ps(_mm256_mul_ps(z, ld(5)), t),
                );
                let p = (o as *mut Mat4).cast::<f32>();
                _mm256_storeu_ps(p, lo);
                _mm256_storeu_ps(p.add(8), hi);
            }
        }
    }
}
