//! Local-to-model from a [`SoaPose`]: rotation matrices eight joints at a time, then each
//! joint's parent product — optionally with the skin palette entries of each joint computed
//! right after its model matrix ([`local_to_model_palette`]), which fills the parent chain's
//! latency with independent work. With AVX2 that fused pass is [`wide`]'s; the lane loops here
//! are the baseline, and the path for projective armatures.

use glam::{Mat4, Vec4};

use super::{kernels, simd, SoaPose, LANES};
use crate::skinning::{is_affine, mul_affine};
use crate::{Skeleton, Skin};

/// Branch joints whose armature-space matrix the fused path keeps (further ones are computed
/// again from their model matrix).
const KEPT: usize = 8;

/// A skin's palette laid out by skeleton joint, for [`local_to_model_palette`]: built once per
/// skin and skeleton.
#[derive(Clone, Debug)]
pub struct PalettePlan {
    /// Per skeleton joint, in order.
    steps: Vec<Step>,
    /// The entries of joints in the skeleton, grouped by joint in skeleton order.
    entries: Vec<Entry>,
    /// Whether every entry's inverse bind is affine.
    all_affine: bool,
    /// Slots whose joint is not in the skeleton, with their constant matrix.
    constant: Vec<(u32, Mat4)>,
    /// The armature (left factor of every entry), `None` when it is the identity.
    armature: Option<Mat4>,
    slots: usize,
}

/// A joint's part of a [`PalettePlan`].
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    /// Its parent, or [`Step::ROOT`] for a root (no parent, or one not before it).
    parent: u32,
    /// Whether its parent is the joint before it (the chain goes on).
    chain: bool,
    /// How many of the next entries are this joint's.
    entries: u32,
    /// 1 + the slot where the fused path keeps the joint's armature-space matrix for children
    /// off the chain (a joint with a child that is not the next joint), 0 when not kept; at
    /// most [`KEPT`] slots.
    kept: u32,
}

impl Step {
    const ROOT: u32 = u32::MAX;
}

/// One palette entry of a [`PalettePlan`].
#[derive(Clone, Debug)]
struct Entry {
    /// Its palette slot.
    slot: u32,
    inverse_bind: Mat4,
    /// Whether `inverse_bind`'s last row is (0, 0, 0, 1) (bit for bit, as [`is_affine`]).
    affine: bool,
    /// `inverse_bind` laid out for two columns per 8-lane product: rows x, y, z of columns
    /// 0 and 1 (`[x of col 0 ×4 | x of col 1 ×4]`), the same for columns 2 and 3, then row w
    /// of both pairs.
    rows: [[f32; 8]; 8],
}

impl Entry {
    fn new(slot: u32, inverse_bind: Mat4) -> Self {
        let c = inverse_bind.to_cols_array_2d();
        let pair = |a: usize, b: usize, row: usize| {
            let (x, y) = (c[a][row], c[b][row]);
            [x, x, x, x, y, y, y, y]
        };
        Self {
            slot,
            inverse_bind,
            affine: is_affine(&inverse_bind),
            rows: [
                pair(0, 1, 0),
                pair(0, 1, 1),
                pair(0, 1, 2),
                pair(2, 3, 0),
                pair(2, 3, 1),
                pair(2, 3, 2),
                pair(0, 1, 3),
                pair(2, 3, 3),
            ],
        }
    }
}

impl PalettePlan {
    /// The plan of `skin` over `skeleton`: `palette[i] = armature * model[joints[i]] *
    /// inverse_bind[i]`, as [`Skin::palette`] with the skeleton's armature.
    pub fn new(skin: &Skin, skeleton: &Skeleton) -> Self {
        let n = skeleton.len();
        let armature = skeleton.armature();
        let slots = skin.joints.len().min(skin.inverse_bind.len());
        let mut by_joint: Vec<Vec<Entry>> = vec![Vec::new(); n];
        let mut constant = Vec::new();
        for (i, (&j, ib)) in skin.joints.iter().zip(&skin.inverse_bind).enumerate() {
            match by_joint.get_mut(j as usize) {
                Some(list) => list.push(Entry::new(i as u32, *ib)),
                None => constant.push((i as u32, armature * *ib)),
            }
        }
        let parent = |j: usize| match skeleton.parents()[j] {
            Some(p) if (p as usize) < j => p as u32,
            _ => Step::ROOT,
        };
        let mut steps: Vec<Step> = by_joint
            .iter()
            .enumerate()
            .map(|(j, list)| Step {
                parent: parent(j),
                chain: j > 0 && parent(j) == j as u32 - 1,
                entries: list.len() as u32,
                kept: 0,
            })
            .collect();
        let mut kept = 0;
        for j in 0..n {
            let p = parent(j);
            if p != Step::ROOT && p as usize + 1 < j {
                let step = &mut steps[p as usize];
                if step.kept == 0 && kept < KEPT {
                    kept += 1;
                    step.kept = kept as u32;
                }
            }
        }
        let entries: Vec<Entry> = by_joint.into_iter().flatten().collect();
        Self {
            steps,
            all_affine: entries.iter().all(|e| e.affine),
            entries,
            constant,
            armature: (armature != Mat4::IDENTITY).then_some(armature),
            slots,
        }
    }

    /// Joint `j`'s step (none past the skeleton).
    #[inline(always)]
    fn step(&self, j: usize) -> Step {
        self.steps.get(j).copied().unwrap_or_default()
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

#[cfg(target_arch = "x86_64")]
mod wide;
