//! Blame in a reduction's refinement pass: where a joint exceeds the budget at a frame, its
//! error is attributed channel by channel along its chain (each channel replaced alone by its
//! reduced value), and every channel carrying more than its share (budget / contributing
//! channels) is tightened ([`Tightening`]) and marked for refitting.

use glam::DMat4;

use super::shell::{shell_error, Shells};
use super::world::EXACT_LEVELS;
use marionette_anim::{JointIndex, Skeleton, Transform};

const T: usize = 0;
const R: usize = 1;

/// One reference frame and what a client reads there.
pub(super) struct Frame<'a> {
    /// The shells the joints are measured at.
    pub shells: &'a Shells,
    /// World matrices of the raw pose.
    pub raw_world: &'a [DMat4],
    /// The raw pose (local).
    pub raw_pose: &'a [Transform],
    /// The reduced pose as read (local).
    pub red_pose: &'a [Transform],
}

/// Per joint, how many channels of it and its ancestors are not written exactly (tolerance
/// above zero): one pass down.
pub(super) fn loose_channels_above(skeleton: &Skeleton, tol: &[[f32; 3]]) -> Vec<usize> {
    let mut loose = vec![0usize; tol.len()];
    for j in 0..tol.len() {
        let own = tol[j].iter().filter(|&&t| t > 0.0).count();
        loose[j] = own + skeleton.parents()[j].map_or(0, |p| loose[p as usize]);
    }
    loose
}

/// The channels' tolerances under refinement, and the pass's rule for shrinking them.
pub(super) struct Tightening<'a> {
    /// Each joint's tolerance per channel (translation, rotation, scale), in world metres.
    pub tol: &'a mut [[f32; 3]],
    /// Channels to refit.
    pub dirty: &'a mut [[bool; 3]],
    /// The budget, in metres.
    pub eps: f64,
    /// The last pass: channels at fault are written exactly.
    pub last_chance: bool,
}

impl Tightening<'_> {
    /// Shrinks channel `c` of joint `a`'s tolerance by 30% (to exact on the `last_chance`, or
    /// once it is a thousandth of the budget) and marks it for refitting.
    fn tighten(&mut self, a: usize, c: usize) {
        let t = &mut self.tol[a][c];
        *t = if self.last_chance || *t * 0.7 < self.eps as f32 * 1e-3 {
            0.0
        } else {
            *t * 0.7
        };
        self.dirty[a][c] = true;
    }
}

/// Attributes the error of joint `j` at one frame to the channels of its chain and tightens the
/// channels carrying more than their share (all of them, exactly, on the `last_chance`).
///
/// The chain is traced exactly for [`EXACT_LEVELS`] joints (`j` and its nearest ancestors);
/// when it goes on, the ancestor above them and the share each of its (and its ancestors')
/// channels may carry are returned, for [`blame_far`]. So the work per joint is bounded at any
/// depth, and a rig no deeper than [`EXACT_LEVELS`] is blamed exactly.
pub(super) fn blame(
    skeleton: &Skeleton,
    j: usize,
    frame: &Frame<'_>,
    loose: &[usize],
    tight: &mut Tightening<'_>,
) -> Option<(usize, f64)> {
    let eps = tight.eps;
    let armature = skeleton.armature().as_dmat4();
    let mut contributions = Vec::new();
    let mut rel = DMat4::IDENTITY; // from joint a down to j, raw
    let mut a = Some(j as JointIndex);
    let mut level = 0;
    while let Some(ai) = a {
        if level == EXACT_LEVELS {
            break;
        }
        let ai = ai as usize;
        let parent = skeleton.parents()[ai];
        let wp = parent.map_or(armature, |p| frame.raw_world[p as usize]);
        for (c, &t) in tight.tol[ai].iter().enumerate() {
            if t == 0.0 {
                continue;
            }
            let mut local = frame.raw_pose[ai];
            match c {
                T => local.translation = frame.red_pose[ai].translation,
                R => local.rotation = frame.red_pose[ai].rotation,
                _ => local.scale = frame.red_pose[ai].scale,
            }
            let w = wp * local.to_dmat4() * rel;
            let e = shell_error(&frame.raw_world[j], &w, frame.shells.radius(j));
            contributions.push((ai, c, e));
        }
        rel = frame.raw_pose[ai].to_dmat4() * rel;
        a = parent;
        level += 1;
    }
    // the chain above the exact part: each of its loose channels may contribute
    let far = a.map(|f| f as usize);
    let far_count = far.map_or(0, |f| loose[f]);
    let contributing = contributions.iter().filter(|x| x.2 > 1e-12).count() + far_count;
    let share = eps / contributing.max(1) as f64;
    let top = contributions.iter().map(|x| x.2).fold(0.0, f64::max);
    for (ai, c, e) in contributions {
        if e <= 1e-12 || (e <= share && e < top) {
            continue;
        }
        tight.tighten(ai, c);
    }
    far.map(|f| (f, share))
}

/// Tightens the channels of the chains above [`blame`]'s exact part. `far_share[a]` is the
/// smallest share asked of joint `a`'s chain by an offending joint [`EXACT_LEVELS`] below it;
/// it holds for `a`'s ancestors too (one pass up). A channel's tolerance bounds its world error
/// at any point of its subtree, so a channel whose tolerance exceeds the share is tightened.
pub(super) fn blame_far(skeleton: &Skeleton, mut far_share: Vec<f64>, tight: &mut Tightening<'_>) {
    for a in (0..far_share.len()).rev() {
        if let Some(p) = skeleton.parents()[a] {
            let p = p as usize;
            far_share[p] = far_share[p].min(far_share[a]);
        }
    }
    for (a, share) in far_share.into_iter().enumerate() {
        if !share.is_finite() {
            continue;
        }
        for c in 0..3 {
            let t = tight.tol[a][c];
            if t > 0.0 && f64::from(t) > share {
                tight.tighten(a, c);
            }
        }
    }
}
