//! Procedural post-process operations applied, in order, to the blended local pose after root
//! motion is removed (see [`crate::ik`] for the maths). Targets are in model space;
//! weights and targets may be parameters.
//!
//! Everything the graph does with an operation is here, one match each: its checks when the
//! graph is built ([`PostOp::check`]), its name and the joints it writes (for provenance),
//! and [`PostOp::apply`]. **Adding an operation** touches four files besides its tests and its
//! prose: this one (its variant and its arms), the script crate's `post_kind.rs` (what a script
//! writes and how it lowers to this), its Lua constructor (`api/ik.rs`, or `api/morph.rs` for
//! a morph operation) and its stub in `scripts/marionette.d.lua`; a test fails when an `ik.*`,
//! `adjust.*` or `morph.*` function is missing from the stubs or the guide.

use glam::{Quat, Vec3};

pub use super::foot_lock::{FootLock, LockedFoot};
use super::params::{check_number, check_vec, Params, Value, Vec3Value};
use super::rig_op::RigOp;
use super::GraphError;
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
    /// Feet held where their contacts began ([`FootLock`]; the one operation with memory,
    /// applied by the graph with its state).
    FootLock {
        /// The feet and the release time.
        lock: FootLock,
        /// Blend weight.
        weight: Value,
    },
    /// A procedural-rigging operation: constraints, chain IK, springs ([`RigOp`]; those with
    /// memory are applied by the graph with their state).
    Rig {
        /// The operation.
        op: Box<RigOp>,
        /// Blend weight.
        weight: Value,
        /// Per joint, how much of its effect shows (`None`: all of it).
        mask: Option<Vec<f32>>,
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
            PostOp::Rig { op, .. } => Some(op.joint()),
            PostOp::SetMorph { .. } | PostOp::FootLock { .. } => None,
        }
    }

    /// Its name for people (provenance, the editor): `"look at"`, `"two-bone IK"`, ...
    pub fn name(&self) -> &'static str {
        match self {
            PostOp::SetRotation { .. } => "set rotation",
            PostOp::AddRotation { .. } => "add rotation",
            PostOp::SetTranslation { .. } => "set translation",
            PostOp::AddTranslation { .. } => "add translation",
            PostOp::LookAt { .. } => "look at",
            PostOp::TwoBoneIk { .. } => "two-bone IK",
            PostOp::FootLock { .. } => "foot lock",
            PostOp::Rig { op, .. } => op.name(),
            PostOp::SetMorph { .. } => "set morph",
        }
    }

    /// Its blend weight.
    pub fn weight(&self) -> &Value {
        match self {
            PostOp::SetRotation { weight, .. }
            | PostOp::AddRotation { weight, .. }
            | PostOp::SetTranslation { weight, .. }
            | PostOp::AddTranslation { weight, .. }
            | PostOp::LookAt { weight, .. }
            | PostOp::TwoBoneIk { weight, .. }
            | PostOp::FootLock { weight, .. }
            | PostOp::Rig { weight, .. }
            | PostOp::SetMorph { weight, .. } => weight,
        }
    }

    /// Whether it writes `joint`'s local value (a two-bone IK bends the tip's parent and
    /// grandparent; the tip keeps its local value).
    pub fn writes(&self, parents: &[Option<JointIndex>], joint: usize) -> bool {
        match self {
            PostOp::TwoBoneIk { tip, .. } => {
                let mid = parents.get(*tip as usize).copied().flatten();
                let upper = mid.and_then(|m| parents.get(m as usize).copied().flatten());
                [mid, upper].contains(&Some(joint as _))
            }
            PostOp::FootLock { lock, .. } => lock.feet.iter().any(|f| {
                let mid = parents.get(f.tip as usize).copied().flatten();
                let upper = mid.and_then(|m| parents.get(m as usize).copied().flatten());
                [Some(f.tip), mid, upper].contains(&Some(joint as _))
            }),
            PostOp::Rig { op, mask, .. } => {
                op.writes(joint)
                    && mask
                        .as_ref()
                        .is_none_or(|m| m.get(joint).is_some_and(|&w| w > 0.0))
            }
            _ => self.joint().is_some_and(|j| j as usize == joint),
        }
    }

    /// Whether it remembers earlier frames (a foot lock, a spring, a damped follow, a speed
    /// limit): then the graph evaluates it at every step.
    pub fn remembers(&self) -> bool {
        match self {
            PostOp::FootLock { .. } => true,
            PostOp::Rig { op, .. } => op.remembers(),
            _ => false,
        }
    }

    /// Checks it against a rig of `joints` joints and `morphs` morph targets and the declared
    /// parameters, when the graph is built: its joint, its morph targets, then its numbers and
    /// points.
    pub(crate) fn check(
        &self,
        joints: usize,
        morphs: usize,
        params: &Params,
    ) -> Result<(), GraphError> {
        if let Some(j) = self.joint().filter(|&j| j as usize >= joints) {
            return Err(GraphError::UnknownJoint(format!("#{j}")));
        }
        if let PostOp::FootLock { lock, .. } = self {
            if let Some(f) = lock.feet.iter().find(|f| f.tip as usize >= joints) {
                return Err(GraphError::UnknownJoint(format!("#{}", f.tip)));
            }
        }
        if let PostOp::Rig { op, .. } = self {
            op.check(joints, params)?;
        }
        if let PostOp::SetMorph { targets, .. } = self {
            if let Some(k) = targets.iter().find(|&&k| k as usize >= morphs) {
                return Err(GraphError::UnknownMorph(format!("#{k}")));
            }
        }
        let invalid = |reason: String| GraphError::Invalid {
            id: None,
            node: "post-process".into(),
            reason,
        };
        let targets: Vec<&Vec3Value> = match self {
            PostOp::SetRotation { .. }
            | PostOp::AddRotation { .. }
            | PostOp::SetTranslation { .. }
            | PostOp::AddTranslation { .. }
            | PostOp::Rig { .. } => vec![],
            PostOp::LookAt { target, .. } => vec![target],
            PostOp::SetMorph { value, .. } => {
                check_number(value, params, "morph value").map_err(invalid)?;
                vec![]
            }
            PostOp::TwoBoneIk { target, pole, .. } => vec![target, pole],
            PostOp::FootLock { lock, .. } => {
                lock.feet.iter().filter_map(|f| f.pole.as_ref()).collect()
            }
        };
        check_number(self.weight(), params, "post-process weight").map_err(invalid)?;
        targets.into_iter().try_for_each(|t| check_vec(t, params))
    }

    /// Applies the operation to `pose` and its morph `weights` (a foot lock and a rigging
    /// operation, which need the graph's state and placement, do nothing here: the graph
    /// applies them).
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
            PostOp::SetMorph { .. } | PostOp::FootLock { .. } | PostOp::Rig { .. } => {}
        }
    }
}
