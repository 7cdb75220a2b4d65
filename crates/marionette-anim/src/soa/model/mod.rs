//! Local-to-model from a [`SoaPose`]: rotation matrices eight joints at a time, then each
//! joint's parent product — optionally with the skin palette entries of each joint computed
//! right after its model matrix ([`local_to_model_palette`]), which fills the parent chain's
//! latency with independent work. With AVX2 that fused pass is [`wide`]'s; the lane loops here
//! are the baseline, and the path for projective armatures.

use glam::{Mat4, Vec4};

use super::{kernels, simd, SoaPose, LANES};
use crate::skinning::{is_affine, mul_affine};
use crate::Skeleton;
pub use plan::PalettePlan;
use plan::{Entry, Step};

/// [`local_to_model`], and the palette of `plan` into `palette` ([`Skin::palette`]'s matrices,
/// within 1e-6), each joint's entries right after its model matrix. A plan built for another
/// skeleton gives wrong entries, but never a panic.
pub fn local_to_model_palette(
    skeleton: &Skeleton,
    pose: &SoaPose,
    plan: &PalettePlan,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) {
    #[cfg(target_arch = "x86_64")]
    if simd::avx2() {
        // SAFETY: the CPU supports AVX2 and FMA (checked at run time).
        return unsafe { l2m_palette_avx2(skeleton, pose, plan, model, palette) };
    }
    l2m_palette_lanes(skeleton, pose, plan, model, palette);
    constants(plan, palette);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn l2m_palette_avx2(
    skeleton: &Skeleton,
    pose: &SoaPose,
    plan: &PalettePlan,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) {
    // a projective armature, or a plan for another skeleton, takes the general path
    let general =
        plan.armature.as_ref().is_some_and(|a| !is_affine(a)) || plan.steps.len() != skeleton.len();
    if general {
        l2m_palette_lanes(skeleton, pose, plan, model, palette)
    } else {
        wide::l2m_palette(skeleton, pose, plan, model, palette)
    }
    constants(plan, palette);
}

/// The fused pass on the lane loops: each joint's entries ([`entries`]) after its model matrix.
#[inline(always)]
fn l2m_palette_lanes(
    skeleton: &Skeleton,
    pose: &SoaPose,
    plan: &PalettePlan,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) {
    let mut list = plan.entries.iter();
    l2m_lanes(skeleton, pose, model, |j, m| {
        entries(plan, plan.step(j), &mut list, m, palette)
    })
}

/// The next joint's palette entries (taken from `entries`) from its model matrix `m`.
#[inline(always)]
fn entries<'a>(
    plan: &PalettePlan,
    step: Step,
    entries: &mut impl Iterator<Item = &'a Entry>,
    m: &Mat4,
    palette: &mut [Mat4],
) {
    for e in entries.take(step.entries as usize) {
        let Some(o) = palette.get_mut(e.slot as usize) else {
            continue;
        };
        let ib = &e.inverse_bind;
        // `mul_affine(l, r)` is the full product for any `l` when `r` is affine
        let p = if e.affine {
            mul_affine(m, ib)
        } else {
            *m * *ib
        };
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
/// excluded): [`crate::local_to_model`] from a [`SoaPose`], within 1e-6. Writes the first
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
    // the last matrix written stays in registers (chains follow their parent): taken by
    // value, so that the chain does not go through a store and a load
    let (mut last_j, mut last) = (usize::MAX, Mat4::IDENTITY);
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
                    let pm = if last_j == p { last } else { out[p] };
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
            (last_j, last) = (j, model);
        }
    }
}

mod plan;
#[cfg(target_arch = "x86_64")]
mod wide;
