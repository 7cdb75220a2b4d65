//! The IK pass of a retarget: each arm or leg of the character whose end (hand or foot) has a
//! counterpart in the source is bent by analytic two-bone IK so the end reaches the source
//! end's position, measured from each rig's reference and scaled to the character
//! (`super::Retargeter`); the knee or elbow bends the way the transferred rotation bends it,
//! and the end keeps its transferred rotation. An end joint kept outside the chain (a foot
//! under the root, as in `RobotExpressive.glb`) follows the chain's tip, IK or not.

use glam::{Quat, Vec3};

use crate::{JointIndex, Skeleton, Transform};

/// One arm or leg of the character, prepared for the IK pass.
#[derive(Clone, Debug)]
pub(crate) struct IkLimb {
    pub upper: JointIndex,
    pub lower: JointIndex,
    /// The tip (the end joint's reference position) in the lower bone's frame.
    pub tip_offset: Vec3,
    /// The end joint, and whether it hangs from `lower`.
    pub end: JointIndex,
    pub end_in_chain: bool,
    /// The source joint whose position the tip follows (`None`: no IK, the end only follows
    /// the tip).
    pub source_end: Option<JointIndex>,
    /// The bend direction of the reference pose, in the upper bone's frame.
    pub pole_local: Vec3,
    /// The joints from below `upper` down to `lower` (`lower` included), parent-first: what the
    /// upper turn must move before the lower one is solved.
    pub to_lower: Vec<JointIndex>,
    /// The joints strictly between `lower` and `end` (an ankle twist, say), parent-first:
    /// what must follow the lower bone before the end's rotation is restored. (Nothing reads
    /// the model transforms below the end afterwards: only the local pose is written.)
    pub to_end: Vec<JointIndex>,
    /// A leg (its goal may lower the hips).
    pub leg: bool,
    /// The upper and lower bones' lengths (the lower one to the tip), in model units: the
    /// rest's, which the retarget never stretches.
    pub lengths: (f32, f32),
}

/// Lowers the anchor (the hips) so every leg's goal is within the leg's reach, as far as
/// lowering can bring it.
#[derive(Clone, Debug)]
pub(crate) struct Lowering {
    pub anchor: JointIndex,
    /// The anchor and everything below it, parent-first.
    pub below: Vec<JointIndex>,
    /// Indices of the legs in the retargeter's limbs.
    pub legs: Vec<usize>,
    /// The character's up, a unit vector of the model space.
    pub up: Vec3,
    /// World units per model unit along `up`.
    pub world_per_model: f32,
    /// The most it lowers, in world units (converted with the up vector's length).
    pub limit: f32,
}

impl Lowering {
    pub fn apply(
        &self,
        limbs: &[IkLimb],
        parents: &[Option<JointIndex>],
        goals: &[Option<Vec3>; 4],
        local: &mut [Transform],
        model: &mut [Transform],
    ) {
        let up = self.up;
        let mut drop = 0.0f32;
        for &i in &self.legs {
            let (Some(limb), Some(Some(goal))) = (limbs.get(i), goals.get(i)) else {
                continue;
            };
            let a = model[limb.upper as usize].translation;
            let reach = (limb.lengths.0 + limb.lengths.1) * (1.0 - 1e-3);
            let v = *goal - a;
            if v.length() <= reach {
                continue;
            }
            // |v + up * d| = reach, the smaller root; out of reach sideways: as close as it gets
            let vu = v.dot(up);
            let disc = vu * vu - v.length_squared() + reach * reach;
            let d = -vu - disc.max(0.0).sqrt();
            if d.is_finite() {
                drop = drop.max(d);
            }
        }
        // the limit is in world units; `up` is a unit vector of the model space
        let limit = self.limit / self.world_per_model.max(1e-12);
        let drop = drop.clamp(0.0, limit);
        if drop <= 0.0 {
            return;
        }
        let j = self.anchor as usize;
        let shift = up * drop;
        let want = model[j].translation - shift;
        let at = parents[j].map_or(want, |p| model[p as usize].inverse().transform_point(want));
        if at.is_finite() {
            local[j].translation = at;
            // a translation of the anchor moves everything below it by as much
            for &k in &self.below {
                model[k as usize].translation -= shift;
            }
        }
    }
}

/// `joint` and every joint below it, parent-first.
pub(crate) fn subtree(skeleton: &Skeleton, joint: JointIndex) -> Vec<JointIndex> {
    (joint as usize..skeleton.len())
        .map(|j| j as JointIndex)
        .filter(|&j| j == joint || skeleton.is_descendant_of(j, joint))
        .collect()
}

/// The joints below `top` down to `bottom` (included), parent-first (empty when `bottom` is
/// not below `top`).
pub(crate) fn path_below(
    skeleton: &Skeleton,
    top: JointIndex,
    bottom: JointIndex,
) -> Vec<JointIndex> {
    let mut path = Vec::new();
    let mut k = Some(bottom);
    while let Some(j) = k {
        if j == top {
            path.reverse();
            return path;
        }
        path.push(j);
        k = skeleton.parent(j);
    }
    Vec::new()
}

/// Recomputes the model transforms of `joints` (parent-first) from the local pose.
fn refresh(
    parents: &[Option<JointIndex>],
    joints: &[JointIndex],
    local: &[Transform],
    model: &mut [Transform],
) {
    for &j in joints {
        let j = j as usize;
        model[j] = match parents[j] {
            Some(p) => compose(&model[p as usize], &local[j]),
            None => local[j],
        };
    }
}

/// Turns `joint` by `q` in model space (about its own position); `then` (joints below it,
/// parent-first) are brought along.
fn turn(
    parents: &[Option<JointIndex>],
    joint: JointIndex,
    then: &[JointIndex],
    q: Quat,
    local: &mut [Transform],
    model: &mut [Transform],
) {
    let j = joint as usize;
    let parent = parents[j].map_or(Quat::IDENTITY, |p| model[p as usize].rotation);
    local[j].rotation = (parent.conjugate() * q * model[j].rotation).normalize();
    model[j].rotation = q * model[j].rotation;
    refresh(parents, then, local, model);
}

impl IkLimb {
    /// Bends the limb so its tip reaches `goal` (model space; `None`: no IK), then puts an end
    /// joint outside the chain on the tip.
    pub fn apply(
        &self,
        parents: &[Option<JointIndex>],
        goal: Option<Vec3>,
        local: &mut [Transform],
        model: &mut [Transform],
    ) {
        let (u, l, e) = (self.upper as usize, self.lower as usize, self.end as usize);
        if let Some(goal) = goal.filter(|g| g.is_finite()) {
            let end_rotation = model[e].rotation;
            let a = model[u].translation;
            let b = model[l].translation;
            let (l1, l2) = self.lengths;
            let to_goal = goal - a;
            if let (true, Some(dir)) = (
                l1 > 1e-6 && l2 > 1e-6 && (l1 + l2).is_finite(),
                to_goal.try_normalize(),
            ) {
                // a fully stretched or folded limb has no bend plane: keep a hair of bend
                let lo = (l1 - l2).abs() + 1e-4 * (l1 + l2);
                let hi = (l1 + l2) * (1.0 - 1e-4);
                let d = to_goal.length().clamp(lo.min(hi), hi);
                // bend where the transferred rotations bend the limb; a (nearly) straight
                // limb bends the way its reference does, turned with the upper bone
                let pole = model[u].rotation * self.pole_local;
                let perp_of = |v: Vec3| (v - dir * v.dot(dir)).try_normalize();
                let fk = (b - a) - dir * (b - a).dot(dir);
                if let Some(perp) = perp_of(fk + pole * (0.02 * l1))
                    .or_else(|| perp_of(pole))
                    .or_else(|| perp_of(dir.any_orthonormal_vector()))
                {
                    let cos_a = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
                    let sin_a = (1.0 - cos_a * cos_a).max(0.0).sqrt();
                    let b_goal = a + (dir * cos_a + perp * sin_a) * l1;
                    let c_goal = a + dir * d;
                    if let (Some(from), Some(to)) =
                        ((b - a).try_normalize(), (b_goal - a).try_normalize())
                    {
                        turn(
                            parents,
                            self.upper,
                            &self.to_lower,
                            Quat::from_rotation_arc(from, to),
                            local,
                            model,
                        );
                    }
                    let b = model[l].translation;
                    let c = model[l].transform_point(self.tip_offset);
                    if let (Some(from), Some(to)) =
                        ((c - b).try_normalize(), (c_goal - b).try_normalize())
                    {
                        turn(
                            parents,
                            self.lower,
                            &[],
                            Quat::from_rotation_arc(from, to),
                            local,
                            model,
                        );
                    }
                    if self.end_in_chain {
                        // the end keeps the rotation the transfer gave it
                        refresh(parents, &self.to_end, local, model);
                        let parent =
                            parents[e].map_or(Quat::IDENTITY, |p| model[p as usize].rotation);
                        local[e].rotation = (parent.conjugate() * end_rotation).normalize();
                    }
                }
            }
        }
        if !self.end_in_chain {
            let tip = model[l].transform_point(self.tip_offset);
            let at = parents[e].map_or(tip, |p| model[p as usize].inverse().transform_point(tip));
            if at.is_finite() {
                local[e].translation = at;
            }
        }
    }
}

/// `parent · child` without renormalising the rotation (unit quaternions multiplied down a chain
/// of a few dozen joints stay unit to float precision; the retargeter normalises what it
/// writes).
#[inline]
pub(crate) fn compose(parent: &Transform, child: &Transform) -> Transform {
    Transform {
        translation: parent.rotation * (child.translation * parent.scale) + parent.translation,
        rotation: parent.rotation * child.rotation,
        scale: parent.scale * child.scale,
    }
}
