//! A skin's palette laid out by skeleton joint ([`PalettePlan`]): what the fused
//! local-to-model-and-palette passes (the lane loops in `mod.rs`, AVX2 in `wide`) read.

use glam::Mat4;

use crate::skinning::is_affine;
use crate::{Skeleton, Skin};

/// Branch joints whose armature-space matrix the fused path keeps (further ones are computed
/// again from their model matrix).
pub(super) const KEPT: usize = 8;

/// A skin's palette laid out by skeleton joint, for [`local_to_model_palette`]: built once per
/// skin and skeleton.
#[derive(Clone, Debug)]
pub struct PalettePlan {
    /// Per skeleton joint, in order.
    pub(super) steps: Vec<Step>,
    /// The entries of joints in the skeleton, grouped by joint in skeleton order.
    pub(super) entries: Vec<Entry>,
    /// Whether every entry's inverse bind is affine.
    pub(super) all_affine: bool,
    /// Slots whose joint is not in the skeleton, with their constant matrix.
    pub(super) constant: Vec<(u32, Mat4)>,
    /// The armature (left factor of every entry), `None` when it is the identity.
    pub(super) armature: Option<Mat4>,
    pub(super) slots: usize,
}

/// A joint's part of a [`PalettePlan`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Step {
    /// Its parent, or [`Step::ROOT`] for a root (no parent, or one not before it).
    pub(super) parent: u32,
    /// Whether its parent is the joint before it (the chain goes on).
    pub(super) chain: bool,
    /// How many of the next entries are this joint's.
    pub(super) entries: u32,
    /// 1 + the slot where the fused path keeps the joint's armature-space matrix for children
    /// off the chain (a joint with a child that is not the next joint), 0 when not kept; at
    /// most [`KEPT`] slots.
    pub(super) kept: u32,
}

impl Step {
    pub(super) const ROOT: u32 = u32::MAX;
}

/// One palette entry of a [`PalettePlan`].
#[derive(Clone, Debug)]
pub(super) struct Entry {
    /// Its palette slot.
    pub(super) slot: u32,
    pub(super) inverse_bind: Mat4,
    /// Whether `inverse_bind`'s last row is (0, 0, 0, 1) (bit for bit, as [`is_affine`]).
    pub(super) affine: bool,
    /// `inverse_bind` laid out for two columns per 8-lane product: rows x, y, z of columns
    /// 0 and 1 (`[x of col 0 ×4 | x of col 1 ×4]`), the same for columns 2 and 3, then row w
    /// of both pairs.
    pub(super) rows: [[f32; 8]; 8],
}

impl Entry {
    pub(super) fn new(slot: u32, inverse_bind: Mat4) -> Self {
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
    pub(super) fn step(&self, j: usize) -> Step {
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
