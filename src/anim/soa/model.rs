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
        Self {
            ranges,
            entries,
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
    l2m_lanes(skeleton, pose, model, |j, m| entries(plan, j, m, palette));
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
        kernels::rotation_matrices(block, &mut m);
        for l in 0..LANES.min(n - first) {
            let j = first + l;
            let c = |k: usize| m[k][l];
            let (s, t) = (|k: usize| block.s[k][l], |k: usize| block.t[k][l]);
            let model = match parents[j] {
                Some(p) if (p as usize) < j => {
                    let p = p as usize;
                    let pm = if prev.0 == p { &prev.1 } else { &out[p] };
                    let (p0, p1, p2, p3) = (pm.x_axis, pm.y_axis, pm.z_axis, pm.w_axis);
                    // the scalar path's operations, in its order
                    let col = |k: usize| p0 * c(k) + p1 * c(k + 1) + p2 * c(k + 2);
                    Mat4::from_cols(
                        col(0) * s(0),
                        col(3) * s(1),
                        col(6) * s(2),
                        (p0 * t(0) + p1 * t(1)) + (p2 * t(2) + p3),
                    )
                }
                _ => Mat4::from_cols(
                    Vec4::new(c(0) * s(0), c(1) * s(0), c(2) * s(0), 0.0),
                    Vec4::new(c(3) * s(1), c(4) * s(1), c(5) * s(1), 0.0),
                    Vec4::new(c(6) * s(2), c(7) * s(2), c(8) * s(2), 0.0),
                    Vec4::new(t(0), t(1), t(2), 1.0),
                ),
            };
            out[j] = model;
            then(j, &model);
            prev = (j, model);
        }
    }
}
