//! Per-joint soft masks for layers and additive nodes: one weight in `[0, 1]` per joint, built
//! from joint names, whole subtrees, or a side of the body (by the rig's L/R naming, see
//! [`crate::mirror::side_of`]); and one per morph target of the rig, after the joints.
//!
//! A morph target is masked as the joint its mesh follows ([`crate::MorphSet::joint`]): every
//! rule that sets a joint sets the targets that follow it, so a layer over the head's subtree
//! moves the face too. [`JointMask::morphs`] sets targets by name (or a whole mesh), after
//! which later joint rules still overwrite the targets they reach.
//!
//! ```
//! use glam::Mat4;
//! use marionette_anim::graph::JointMask;
//! use marionette_anim::{Skeleton, Transform};
//!
//! let names = ["root", "spine", "L_arm", "R_arm"].map(String::from).to_vec();
//! let skel = Skeleton::new(names, vec![None, Some(0), Some(1), Some(1)], vec![Transform::IDENTITY; 4], Mat4::IDENTITY)
//!     .unwrap()
//!     .skeleton;
//! let mask = JointMask::empty(&skel).subtree(&skel, "spine", 1.0).unwrap().joint(&skel, "R_arm", 0.5).unwrap();
//! assert_eq!(mask.weights(), &[0.0, 1.0, 1.0, 0.5]);
//! ```

use crate::mirror::{side_of, Side};
use crate::{JointIndex, Skeleton};

use super::GraphError;

/// One weight in `[0, 1]` per joint. Later additions overwrite earlier ones for the joints
/// they touch, so masks read like a list of rules ("upper body 1, but the neck 0.5").
#[derive(Clone, Debug, PartialEq)]
pub struct JointMask {
    weights: Vec<f32>,
}

fn find(skeleton: &Skeleton, name: &str) -> Result<JointIndex, GraphError> {
    skeleton
        .find(name)
        .ok_or_else(|| GraphError::UnknownJoint(name.to_string()))
}

impl JointMask {
    /// Every joint and morph target at weight 0.
    pub fn empty(skeleton: &Skeleton) -> Self {
        Self {
            weights: vec![0.0; skeleton.len() + skeleton.morphs().len()],
        }
    }

    /// Every joint and morph target at weight 1.
    pub fn full(skeleton: &Skeleton) -> Self {
        Self {
            weights: vec![1.0; skeleton.len() + skeleton.morphs().len()],
        }
    }

    /// A mask from explicit weights (clamped to `[0, 1]`; NaN becomes 0): one per joint, then
    /// optionally one per morph target. A mask with joint weights only masks each morph target
    /// as its joint when a graph uses it ([`JointMask::resolved`]).
    pub fn from_weights(weights: Vec<f32>) -> Self {
        let weights = weights
            .into_iter()
            .map(|w| if w.is_nan() { 0.0 } else { w.clamp(0.0, 1.0) })
            .collect();
        Self { weights }
    }

    /// Sets one joint's weight.
    pub fn joint(
        mut self,
        skeleton: &Skeleton,
        name: &str,
        weight: f32,
    ) -> Result<Self, GraphError> {
        let j = find(skeleton, name)?;
        self.set(j, weight);
        self.follow(skeleton, |k| k == j, weight);
        Ok(self)
    }

    /// Sets the weight of the morph targets `name` stands for: a target name (in every mesh
    /// that has it), `mesh.target`, or a mesh's name (all its targets).
    pub fn morphs(
        mut self,
        skeleton: &Skeleton,
        name: &str,
        weight: f32,
    ) -> Result<Self, GraphError> {
        let found = skeleton.morphs().find(name);
        if found.is_empty() {
            return Err(GraphError::UnknownMorph(name.to_string()));
        }
        let joints = skeleton.len();
        for k in found {
            self.set_at(joints + k, weight);
        }
        Ok(self)
    }

    /// Sets the morph targets whose mesh follows a joint for which `hit` is true.
    fn follow(&mut self, skeleton: &Skeleton, hit: impl Fn(JointIndex) -> bool, weight: f32) {
        let joints = skeleton.len();
        let follows: Vec<Option<JointIndex>> = skeleton.morphs().joints().collect();
        for (k, j) in follows.into_iter().enumerate() {
            if j.is_some_and(&hit) {
                self.set_at(joints + k, weight);
            }
        }
    }

    /// The weights over `skeleton`'s joints and morph targets: as they are when the mask
    /// covers both, or (a mask of joint weights only, [`JointMask::from_weights`]) each morph
    /// target at its joint's weight (0 for a mesh that follows no joint). `None` when the
    /// length fits neither.
    pub fn resolved(&self, skeleton: &Skeleton) -> Option<Vec<f32>> {
        let (joints, morphs) = (skeleton.len(), skeleton.morphs());
        if self.weights.len() == joints + morphs.len() {
            return Some(self.weights.clone());
        }
        if self.weights.len() != joints {
            return None;
        }
        let mut out = self.weights.clone();
        out.extend(
            morphs
                .joints()
                .map(|j| j.map_or(0.0, |j| self.weights[usize::from(j)])),
        );
        Some(out)
    }

    /// Sets the weight of a joint and all joints below it.
    pub fn subtree(
        mut self,
        skeleton: &Skeleton,
        name: &str,
        weight: f32,
    ) -> Result<Self, GraphError> {
        let root = find(skeleton, name)?;
        for j in 0..skeleton.len() {
            if skeleton.is_descendant_of(j as JointIndex, root) {
                self.set(j as JointIndex, weight);
            }
        }
        self.follow(skeleton, |j| skeleton.is_descendant_of(j, root), weight);
        Ok(self)
    }

    /// Sets the weight of every joint whose name marks the given side, and of their subtrees.
    pub fn side(mut self, skeleton: &Skeleton, side: Side, weight: f32) -> Self {
        let marked: Vec<bool> = skeleton
            .names()
            .iter()
            .map(|n| side_of(n).is_some_and(|(s, _)| s == side))
            .collect();
        let mut on_side = vec![false; skeleton.len()];
        for (j, here) in on_side.iter_mut().enumerate() {
            let mut k = Some(j as JointIndex);
            while let Some(c) = k {
                if marked[c as usize] {
                    self.set(j as JointIndex, weight);
                    *here = true;
                    break;
                }
                k = skeleton.parent(c);
            }
        }
        self.follow(skeleton, |j| on_side[usize::from(j)], weight);
        self
    }

    fn set(&mut self, joint: JointIndex, weight: f32) {
        self.set_at(usize::from(joint), weight);
    }

    fn set_at(&mut self, at: usize, weight: f32) {
        if let Some(w) = self.weights.get_mut(at) {
            *w = if weight.is_nan() {
                0.0
            } else {
                weight.clamp(0.0, 1.0)
            };
        }
    }

    /// The weights: one per joint, then (for a mask built on a skeleton) one per morph target.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Transform;
    use glam::Mat4;

    fn skel() -> Skeleton {
        let names = ["root", "spine", "L_arm", "L_hand", "R_arm", "neck"]
            .map(String::from)
            .to_vec();
        let parents = vec![None, Some(0), Some(1), Some(2), Some(1), Some(1)];
        Skeleton::new(names, parents, vec![Transform::IDENTITY; 6], Mat4::IDENTITY)
            .unwrap()
            .skeleton
    }

    /// Subtree then joint override; side marks the side's joints and their children.
    #[test]
    fn rules_apply_in_order() {
        let s = skel();
        let m = JointMask::empty(&s)
            .subtree(&s, "spine", 1.0)
            .unwrap()
            .joint(&s, "neck", 0.25)
            .unwrap();
        assert_eq!(m.weights(), &[0.0, 1.0, 1.0, 1.0, 1.0, 0.25]);
        let left = JointMask::empty(&s).side(&s, Side::Left, 0.5);
        assert_eq!(left.weights(), &[0.0, 0.0, 0.5, 0.5, 0.0, 0.0]);
        assert!(matches!(
            JointMask::empty(&s).joint(&s, "tail", 1.0),
            Err(GraphError::UnknownJoint(_))
        ));
    }

    /// Morph targets follow their joint's rules (subtree, joint, side, a joint-only mask) and
    /// can be set by name afterwards.
    #[test]
    fn morph_targets_follow_their_joint() {
        use crate::{MorphSet, Morphs};
        let set = |name: &str, joint| MorphSet {
            name: name.into(),
            targets: vec!["blink".into()],
            joint,
            ..MorphSet::default()
        };
        let s = skel().with_morphs(Morphs::new(vec![
            set("face", Some(5)),
            set("glove_L", Some(3)),
            set("loose", None),
        ]));
        let m = JointMask::empty(&s).subtree(&s, "neck", 1.0).unwrap();
        assert_eq!(&m.weights()[6..], &[1.0, 0.0, 0.0]);
        let m = JointMask::empty(&s).side(&s, Side::Left, 0.5);
        assert_eq!(&m.weights()[6..], &[0.0, 0.5, 0.0]);
        let m = JointMask::empty(&s).joint(&s, "neck", 0.25).unwrap();
        assert_eq!(&m.weights()[6..], &[0.25, 0.0, 0.0]);
        let m = JointMask::empty(&s).morphs(&s, "loose", 1.0).unwrap();
        assert_eq!(&m.weights()[6..], &[0.0, 0.0, 1.0]);
        let m = JointMask::full(&s).morphs(&s, "face.blink", 0.0).unwrap();
        assert_eq!(&m.weights()[6..], &[0.0, 1.0, 1.0]);
        assert!(matches!(
            JointMask::empty(&s).morphs(&s, "smile", 1.0),
            Err(GraphError::UnknownMorph(_))
        ));
        let joints_only = JointMask::from_weights(vec![0.0, 0.0, 0.0, 0.7, 0.0, 0.2]);
        assert_eq!(joints_only.resolved(&s).unwrap()[6..], [0.2, 0.7, 0.0]);
        assert_eq!(JointMask::from_weights(vec![1.0; 2]).resolved(&s), None);
    }
}
