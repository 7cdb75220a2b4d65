//! The procedural-rigging post operations ([`RigOp`], the maths in [`crate::rigging`]) as the
//! graph holds them: their joints, targets (a point, a vec3 parameter or a joint), weights and
//! memory. [`super::PostOp::Rig`] carries one (with its weight and mask); everything the graph
//! does with it is here, one match each: its name, what it writes, whether it remembers, its
//! checks, its application and its gizmos.
//!
//! **Adding a rigging operation**: its maths in `rigging/`, its variant and arms here; in the
//! script crate its declaration (`api/rig_decl.rs`: Lua name, arguments, options, which the
//! stubs are tested against), its `RigKind` and lowering (`rig_kind.rs`) and its constructor
//! (`api/constrain.rs`, `api/chain.rs` or `api/spring.rs`); its stub in
//! `scripts/marionette.d.lua` and its prose in `docs/src/rigging.md` (a test fails without
//! either).

use glam::{Quat, Vec3};

use super::params::{check_number, check_vec, Params, Value, Vec3Value};
use super::GraphError;
use crate::ik::model_transform;
use crate::rigging::aim::{aim, multi_aim, AimSettings, Up};
use crate::rigging::chain_ik::{solve, spline, ChainSettings};
use crate::rigging::copy::{copy, CopySettings, Damped, DampedState, RestPair};
use crate::rigging::spring::{SpringChain, SpringSettings, SpringState};
use crate::rigging::twist::{twist, Limit, LimitState};
use crate::{JointIndex, Transform};

/// Where an operation aims or reaches: a model-space point (or vec3 parameter), or a joint's
/// position in the pose as it is when the operation runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A point or a vec3 parameter.
    Point(Vec3Value),
    /// A joint.
    Joint(JointIndex),
}

impl Target {
    /// The model-space point.
    pub fn get(&self, parents: &[Option<JointIndex>], pose: &[Transform], params: &Params) -> Vec3 {
        match self {
            Target::Point(v) => v.get(params),
            Target::Joint(j) => model_transform(parents, pose, *j).translation,
        }
    }

    fn joint(&self) -> Option<JointIndex> {
        match self {
            Target::Joint(j) => Some(*j),
            Target::Point(_) => None,
        }
    }

    fn point(&self) -> Option<&Vec3Value> {
        match self {
            Target::Point(v) => Some(v),
            Target::Joint(_) => None,
        }
    }
}

/// One procedural-rigging operation.
#[derive(Clone, Debug, PartialEq)]
pub enum RigOp {
    /// `constrain.aim`.
    Aim {
        /// The joint.
        joint: JointIndex,
        /// What it aims at.
        target: Target,
        /// Axes and limits (an up joint's point is filled in per frame).
        settings: AimSettings,
        /// A joint the up axis turns towards (instead of `settings.up`).
        up_joint: Option<JointIndex>,
    },
    /// `constrain.multi_aim`.
    MultiAim {
        /// The joint.
        joint: JointIndex,
        /// The targets and their weights.
        targets: Vec<(Target, Value)>,
        /// Axes and limits.
        settings: AimSettings,
        /// A joint the up axis turns towards.
        up_joint: Option<JointIndex>,
    },
    /// `constrain.copy`.
    Copy {
        /// The joint.
        joint: JointIndex,
        /// The joint copied.
        source: JointIndex,
        /// Their rest transforms.
        rest: RestPair,
        /// What and how.
        settings: CopySettings,
    },
    /// `constrain.damped`.
    Damped(Damped),
    /// `constrain.twist`.
    Twist {
        /// The joint whose twist is spread.
        joint: JointIndex,
        /// Its rest rotation.
        rest: Quat,
        /// The local twist axis.
        axis: Vec3,
        /// The twist bones.
        twisters: Vec<JointIndex>,
        /// The share of each.
        weights: Vec<f32>,
        /// Take the shares off the joint.
        remove: bool,
    },
    /// `constrain.limit`.
    Limit(Limit),
    /// `ik.chain`.
    Chain {
        /// Root to tip.
        joints: Vec<JointIndex>,
        /// What the tip reaches.
        target: Target,
        /// Solver settings (the pole is filled in per frame).
        settings: ChainSettings,
        /// What the chain bends towards.
        pole: Option<Target>,
    },
    /// `ik.spline`.
    Spline {
        /// Root to tip.
        joints: Vec<JointIndex>,
        /// The curve's points after the root.
        points: Vec<Target>,
    },
    /// `spring`.
    Spring {
        /// The chain and its colliders.
        chain: SpringChain,
        /// Natural frequency, Hz.
        stiffness: Value,
        /// Damping ratio.
        damping: Value,
        /// World acceleration, m/s^2.
        gravity: Vec3,
        /// Particle radius, metres.
        radius: f32,
    },
}

/// What a rigging operation remembers between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum RigMemory {
    /// Nothing (yet).
    #[default]
    None,
    /// A damped follow's.
    Damped(DampedState),
    /// An angular-speed limit's.
    Limit(LimitState),
    /// A spring's.
    Spring(SpringState),
}

/// Gets the memory of kind `$kind`, replacing whatever else was there.
macro_rules! memory {
    ($m:expr, $kind:ident) => {{
        if !matches!($m, RigMemory::$kind(_)) {
            *$m = RigMemory::$kind(Default::default());
        }
        match $m {
            RigMemory::$kind(s) => s,
            _ => unreachable!("just set"),
        }
    }};
}

impl RigOp {
    /// The joint the operation is about (the chain's tip, the spring's first joint).
    pub fn joint(&self) -> JointIndex {
        match self {
            RigOp::Aim { joint, .. }
            | RigOp::MultiAim { joint, .. }
            | RigOp::Copy { joint, .. }
            | RigOp::Twist { joint, .. } => *joint,
            RigOp::Damped(d) => d.joint,
            RigOp::Limit(l) => l.joint,
            RigOp::Chain { joints, .. } | RigOp::Spline { joints, .. } => {
                joints.last().copied().unwrap_or(0)
            }
            RigOp::Spring { chain, .. } => chain.joints.first().copied().unwrap_or(0),
        }
    }

    /// Its name for people.
    pub fn name(&self) -> &'static str {
        match self {
            RigOp::Aim { .. } => "aim",
            RigOp::MultiAim { .. } => "multi-aim",
            RigOp::Copy { .. } => "copy",
            RigOp::Damped(_) => "damped",
            RigOp::Twist { .. } => "twist",
            RigOp::Limit(_) => "limit",
            RigOp::Chain { .. } => "chain IK",
            RigOp::Spline { .. } => "spline IK",
            RigOp::Spring { .. } => "spring",
        }
    }

    /// Whether it remembers earlier frames (then the graph evaluates it at every step).
    pub fn remembers(&self) -> bool {
        match self {
            RigOp::Damped(_) | RigOp::Spring { .. } => true,
            RigOp::Limit(l) => l.speed.is_some(),
            _ => false,
        }
    }

    /// Whether it writes `joint`'s local value.
    pub fn writes(&self, joint: usize) -> bool {
        let j = joint as JointIndex;
        match self {
            RigOp::Twist {
                joint: me,
                twisters,
                remove,
                ..
            } => twisters.contains(&j) || (*remove && *me == j),
            // (a chain's tip keeps its local rotation)
            RigOp::Chain { joints, .. } | RigOp::Spline { joints, .. } => {
                joints[..joints.len().saturating_sub(1)].contains(&j)
            }
            RigOp::Spring { chain, .. } => chain.joints.contains(&j),
            _ => self.joint() == j,
        }
    }

    /// Every joint it names (checked against the rig).
    fn joints(&self) -> Vec<JointIndex> {
        let mut out = vec![self.joint()];
        match self {
            RigOp::Aim {
                target, up_joint, ..
            } => out.extend(target.joint().into_iter().chain(*up_joint)),
            RigOp::MultiAim {
                targets, up_joint, ..
            } => {
                out.extend(targets.iter().filter_map(|(t, _)| t.joint()));
                out.extend(*up_joint);
            }
            RigOp::Copy { source, .. } => out.push(*source),
            RigOp::Damped(d) => out.push(d.source),
            RigOp::Twist { twisters, .. } => out.extend(twisters),
            RigOp::Limit(_) => {}
            RigOp::Chain {
                joints,
                target,
                pole,
                ..
            } => {
                out.extend(joints);
                out.extend(target.joint());
                out.extend(pole.as_ref().and_then(Target::joint));
            }
            RigOp::Spline { joints, points } => {
                out.extend(joints);
                out.extend(points.iter().filter_map(Target::joint));
            }
            RigOp::Spring { chain, .. } => {
                out.extend(&chain.joints);
                out.extend(chain.colliders.iter().map(|c| c.joint));
            }
        }
        out
    }

    /// Checks its joints against a rig of `joints` joints and its parameters.
    pub(crate) fn check(&self, joints: usize, params: &Params) -> Result<(), GraphError> {
        if let Some(j) = self.joints().into_iter().find(|&j| j as usize >= joints) {
            return Err(GraphError::UnknownJoint(format!("#{j}")));
        }
        let invalid = |reason: String| GraphError::Invalid {
            id: None,
            node: format!("post-process {}", self.name()),
            reason,
        };
        let points: Vec<&Vec3Value> = match self {
            RigOp::Aim { target, .. } => target.point().into_iter().collect(),
            RigOp::MultiAim { targets, .. } => {
                for (_, w) in targets {
                    check_number(w, params, "multi-aim target weight").map_err(invalid)?;
                }
                targets.iter().filter_map(|(t, _)| t.point()).collect()
            }
            RigOp::Chain { target, pole, .. } => target
                .point()
                .into_iter()
                .chain(pole.as_ref().and_then(Target::point))
                .collect(),
            RigOp::Spline { points, .. } => points.iter().filter_map(Target::point).collect(),
            RigOp::Spring {
                stiffness, damping, ..
            } => {
                check_number(stiffness, params, "spring stiffness").map_err(invalid)?;
                check_number(damping, params, "spring damping").map_err(invalid)?;
                Vec::new()
            }
            _ => Vec::new(),
        };
        points.into_iter().try_for_each(|v| check_vec(v, params))
    }

    /// Applies it to `pose` at `time` with `to_world` placing the model in the world, blended in
    /// by `weight` (in `[0, 1]`), with its `memory`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn apply(
        &self,
        parents: &[Option<JointIndex>],
        pose: &mut [Transform],
        params: &Params,
        to_world: &Transform,
        time: f64,
        weight: f32,
        memory: &mut RigMemory,
    ) {
        let up = |s: &AimSettings, up_joint: &Option<JointIndex>, pose: &[Transform]| match up_joint
        {
            Some(j) => AimSettings {
                up: Up::Point(model_transform(parents, pose, *j).translation),
                ..*s
            },
            None => *s,
        };
        match self {
            RigOp::Aim {
                joint,
                target,
                settings,
                up_joint,
            } => {
                let t = target.get(parents, pose, params);
                let s = up(settings, up_joint, pose);
                aim(parents, pose, *joint, t, &s, weight)
            }
            RigOp::MultiAim {
                joint,
                targets,
                settings,
                up_joint,
            } => {
                let ts: Vec<(Vec3, f32)> = targets
                    .iter()
                    .map(|(t, w)| (t.get(parents, pose, params), w.get(params)))
                    .collect();
                let s = up(settings, up_joint, pose);
                multi_aim(parents, pose, *joint, &ts, &s, weight)
            }
            RigOp::Copy {
                joint,
                source,
                rest,
                settings,
            } => copy(parents, pose, *joint, *source, rest, settings, weight),
            RigOp::Damped(d) => {
                let st = memory!(memory, Damped);
                d.apply(parents, pose, to_world, time, weight, st)
            }
            RigOp::Twist {
                joint,
                rest,
                axis,
                twisters,
                weights,
                remove,
            } => twist(
                pose, *joint, *rest, *axis, twisters, weights, *remove, weight,
            ),
            RigOp::Limit(l) => {
                let st = memory!(memory, Limit);
                l.apply(pose, time, weight, st)
            }
            RigOp::Chain {
                joints,
                target,
                settings,
                pole,
            } => {
                let t = target.get(parents, pose, params);
                let s = match pole {
                    Some(p) => ChainSettings {
                        pole: Some(p.get(parents, pose, params)),
                        ..settings.clone()
                    },
                    None => settings.clone(),
                };
                solve(parents, pose, joints, t, &s, weight);
            }
            RigOp::Spline { joints, points } => {
                let ps: Vec<Vec3> = points
                    .iter()
                    .map(|p| p.get(parents, pose, params))
                    .collect();
                spline(parents, pose, joints, &ps, weight)
            }
            RigOp::Spring {
                chain,
                stiffness,
                damping,
                gravity,
                radius,
            } => {
                let s = SpringSettings {
                    stiffness: stiffness.get(params),
                    damping: damping.get(params),
                    drag: 0.0,
                    gravity: *gravity,
                    radius: *radius,
                };
                let st = memory!(memory, Spring);
                chain.apply(parents, pose, to_world, time, &s, weight, st)
            }
        }
    }
}

/// What the editor draws for an operation: model-space points, lines and collider shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gizmo {
    /// A target or pole.
    Target(Vec3),
    /// A line from a joint to what it follows or aims at.
    Link(Vec3, Vec3),
    /// A bone of a chain or spring the operation moves.
    Bone(Vec3, Vec3),
    /// A sphere collider: centre, radius.
    Sphere(Vec3, f32),
    /// A capsule collider: the segment's ends, radius.
    Capsule(Vec3, Vec3, f32),
}

impl RigOp {
    /// Its gizmos over the local `pose` (model space).
    pub fn gizmos(
        &self,
        parents: &[Option<JointIndex>],
        pose: &[Transform],
        params: &Params,
        out: &mut Vec<Gizmo>,
    ) {
        let at = |j: JointIndex| model_transform(parents, pose, j);
        let bones = |joints: &[JointIndex], out: &mut Vec<Gizmo>| {
            for pair in joints.windows(2) {
                out.push(Gizmo::Bone(
                    at(pair[0]).translation,
                    at(pair[1]).translation,
                ));
            }
        };
        match self {
            RigOp::Aim { joint, target, .. } => {
                let t = target.get(parents, pose, params);
                out.push(Gizmo::Target(t));
                out.push(Gizmo::Link(at(*joint).translation, t));
            }
            RigOp::MultiAim { joint, targets, .. } => {
                let p = at(*joint).translation;
                for (t, _) in targets {
                    let t = t.get(parents, pose, params);
                    out.push(Gizmo::Target(t));
                    out.push(Gizmo::Link(p, t));
                }
            }
            RigOp::Copy { joint, source, .. } => {
                out.push(Gizmo::Link(at(*source).translation, at(*joint).translation))
            }
            RigOp::Damped(d) => out.push(Gizmo::Link(
                at(d.source).translation,
                at(d.joint).translation,
            )),
            RigOp::Twist { .. } | RigOp::Limit(_) => {}
            RigOp::Chain {
                joints,
                target,
                pole,
                ..
            } => {
                bones(joints, out);
                out.push(Gizmo::Target(target.get(parents, pose, params)));
                if let Some(p) = pole {
                    out.push(Gizmo::Target(p.get(parents, pose, params)));
                }
            }
            RigOp::Spline { joints, points } => {
                bones(joints, out);
                let mut last = joints.first().map(|&j| at(j).translation);
                for p in points {
                    let p = p.get(parents, pose, params);
                    out.push(Gizmo::Target(p));
                    if let Some(l) = last {
                        out.push(Gizmo::Link(l, p));
                    }
                    last = Some(p);
                }
            }
            RigOp::Spring { chain, .. } => {
                bones(&chain.joints, out);
                if let (Some(&j), Some(&tail)) = (chain.joints.last(), chain.tails.last()) {
                    let m = at(j);
                    out.push(Gizmo::Bone(m.translation, m.transform_point(tail)));
                }
                for c in &chain.colliders {
                    let m = at(c.joint);
                    let s = m.scale.x.abs();
                    out.push(match c.shape {
                        crate::rigging::spring::Shape::Sphere { offset, radius } => {
                            Gizmo::Sphere(m.transform_point(offset), radius * s)
                        }
                        crate::rigging::spring::Shape::Capsule {
                            offset,
                            tail,
                            radius,
                        } => Gizmo::Capsule(
                            m.transform_point(offset),
                            m.transform_point(tail),
                            radius * s,
                        ),
                    });
                }
            }
        }
    }
}
