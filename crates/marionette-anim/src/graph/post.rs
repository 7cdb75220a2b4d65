//! Procedural post-process operations applied, in order, to the blended local pose after root
//! motion is removed (see [`crate::ik`] for the maths). Targets are in model space;
//! weights and targets may be parameters.

use glam::{Quat, Vec3};

use super::params::{Params, Value, Vec3Value};
use crate::ik::{self, LookAt, Space};
use crate::{JointIndex, Transform};

/// One post-process operation.
#[derive(Clone, Debug, PartialEq)]
pub enum PostOp {
    /// Blend a joint's rotation towards a value.
    SetRotation {
        /// The joint.
        joint: JointIndex,
        /// The rotation.
        rotation: Quat,
        /// Space of `rotation`.
        space: Space,
        /// Blend weight.
        weight: Value,
    },
    /// Add a rotation to a joint.
    AddRotation {
        /// The joint.
        joint: JointIndex,
        /// The rotation added.
        rotation: Quat,
        /// Space of `rotation`.
        space: Space,
        /// Blend weight.
        weight: Value,
    },
    /// Blend a joint's position towards a value.
    SetTranslation {
        /// The joint.
        joint: JointIndex,
        /// The position.
        translation: Vec3,
        /// Space of `translation`.
        space: Space,
        /// Blend weight.
        weight: Value,
    },
    /// Move a joint by an offset.
    AddTranslation {
        /// The joint.
        joint: JointIndex,
        /// The offset.
        offset: Vec3,
        /// Space of `offset`.
        space: Space,
        /// Blend weight.
        weight: Value,
    },
    /// Aim a joint at a target.
    LookAt {
        /// The joint.
        joint: JointIndex,
        /// Model-space target.
        target: Vec3Value,
        /// Axes, limit (its `weight` is multiplied by `weight`).
        settings: LookAt,
        /// Blend weight.
        weight: Value,
    },
    /// Set morph target weights: `lerp(current, value, weight)`, the result clamped to
    /// `[0, 1]` ([`crate::morph::clamp_weight`]).
    SetMorph {
        /// The weights set (indices into the pose's weights, see [`crate::Morphs::find`]).
        targets: Vec<u32>,
        /// The value (a float parameter or a constant).
        value: Value,
        /// Blend weight.
        weight: Value,
    },
    /// Two-bone IK ending at `tip`.
    TwoBoneIk {
        /// The end joint (its parent and grandparent bend).
        tip: JointIndex,
        /// Model-space target.
        target: Vec3Value,
        /// Model-space pole target (the middle joint bends towards it).
        pole: Vec3Value,
        /// Blend weight.
        weight: Value,
    },
}

impl PostOp {
    /// The joint the operation is about (for validation); `None` for a morph operation.
    pub fn joint(&self) -> Option<JointIndex> {
        match self {
            PostOp::SetRotation { joint, .. }
            | PostOp::AddRotation { joint, .. }
            | PostOp::SetTranslation { joint, .. }
            | PostOp::AddTranslation { joint, .. }
            | PostOp::LookAt { joint, .. } => Some(*joint),
            PostOp::TwoBoneIk { tip, .. } => Some(*tip),
            PostOp::SetMorph { .. } => None,
        }
    }

    /// Applies the operation to `pose` and its morph `weights`.
    pub fn apply(
        &self,
        parents: &[Option<JointIndex>],
        pose: &mut [Transform],
        weights: &mut [f32],
        params: &Params,
    ) {
        if let PostOp::SetMorph {
            targets,
            value,
            weight,
        } = self
        {
            let (v, w) = (value.get(params), weight.get(params));
            if !(v.is_finite() && w.is_finite()) || w <= 0.0 {
                return;
            }
            let w = w.min(1.0);
            for &k in targets {
                if let Some(x) = weights.get_mut(k as usize) {
                    *x = crate::morph::clamp_weight(*x + (v - *x) * w);
                }
            }
            return;
        }
        if self
            .joint()
            .is_none_or(|j| j as usize >= pose.len().min(parents.len()))
        {
            return;
        }
        match self {
            PostOp::SetRotation {
                joint,
                rotation,
                space,
                weight,
            } => ik::set_rotation(parents, pose, *joint, *rotation, *space, weight.get(params)),
            PostOp::AddRotation {
                joint,
                rotation,
                space,
                weight,
            } => ik::add_rotation(parents, pose, *joint, *rotation, *space, weight.get(params)),
            PostOp::SetTranslation {
                joint,
                translation,
                space,
                weight,
            } => ik::set_translation(
                parents,
                pose,
                *joint,
                *translation,
                *space,
                weight.get(params),
            ),
            PostOp::AddTranslation {
                joint,
                offset,
                space,
                weight,
            } => ik::add_translation(parents, pose, *joint, *offset, *space, weight.get(params)),
            PostOp::LookAt {
                joint,
                target,
                settings,
                weight,
            } => {
                let s = LookAt {
                    weight: settings.weight * weight.get(params),
                    ..*settings
                };
                ik::look_at(parents, pose, *joint, target.get(params), &s)
            }
            PostOp::TwoBoneIk {
                tip,
                target,
                pole,
                weight,
            } => ik::two_bone(
                parents,
                pose,
                *tip,
                target.get(params),
                pole.get(params),
                weight.get(params),
            ),
            PostOp::SetMorph { .. } => {}
        }
    }
}
