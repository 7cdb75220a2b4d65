//! Per-joint soft masks for layers and additive nodes: one weight in `[0, 1]` per joint, built
//! from joint names, whole subtrees, or a side of the body (by the rig's L/R naming, see
//! [`crate::mirror::side_of`]).
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
    /// Every joint at weight 0.
    pub fn empty(skeleton: &Skeleton) -> Self {
        Self {
            weights: vec![0.0; skeleton.len()],
        }
    }

    /// Every joint at weight 1.
    pub fn full(skeleton: &Skeleton) -> Self {
        Self {
            weights: vec![1.0; skeleton.len()],
        }
    }

    /// A mask from explicit per-joint weights (clamped to `[0, 1]`; NaN becomes 0).
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
        Ok(self)
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
        Ok(self)
    }

    /// Sets the weight of every joint whose name marks the given side, and of their subtrees.
    pub fn side(mut self, skeleton: &Skeleton, side: Side, weight: f32) -> Self {
        let marked: Vec<bool> = skeleton
            .names()
            .iter()
            .map(|n| side_of(n).is_some_and(|(s, _)| s == side))
            .collect();
        for j in 0..skeleton.len() {
            let mut k = Some(j as JointIndex);
            while let Some(c) = k {
                if marked[c as usize] {
                    self.set(j as JointIndex, weight);
                    break;
                }
                k = skeleton.parent(c);
            }
        }
        self
    }

    fn set(&mut self, joint: JointIndex, weight: f32) {
        if let Some(w) = self.weights.get_mut(joint as usize) {
            *w = if weight.is_nan() {
                0.0
            } else {
                weight.clamp(0.0, 1.0)
            };
        }
    }

    /// The weights, one per joint.
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
}
