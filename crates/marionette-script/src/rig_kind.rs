//! The procedural-rigging post operations as a script writes them (`constrain.*`, `ik.chain`,
//! `ik.spline`, `spring`: joints by name, angles in degrees) and how each lowers to the graph's
//! [`RigOp`] (the maths: `marionette_anim::rigging`). Their Lua constructors are
//! `api/constrain.rs`, `api/chain.rs` and `api/spring.rs`.

use glam::Vec3;

use marionette_anim::graph::{self as g, RigOp, Target};
use marionette_anim::rigging::aim::{AimSettings, Up};
use marionette_anim::rigging::chain_ik::{ChainSettings, Solver};
use marionette_anim::rigging::copy::{Channels, CopySettings, Damped, Mix, RestPair};
use marionette_anim::rigging::spring::{tail_of, Collider, Shape, SpringChain};
use marionette_anim::rigging::twist::Limit;
use marionette_anim::rigging::vrm::from_vrm;
use marionette_anim::rigging::{self, AxisLimits};
use marionette_anim::{JointIndex, Skeleton};

use crate::lookup::Lookup;

/// A target as written: a point or vec3 parameter, or a joint's name.
#[derive(Debug, Clone, PartialEq)]
pub enum TargetSpec {
    /// `{x, y, z}` in model space, or a vec3 parameter.
    Point(g::Vec3Value<String>),
    /// A joint (its position when the operation runs).
    Joint(String),
}

/// The options `constrain.aim` and `constrain.multi_aim` share.
#[derive(Debug, Clone, PartialEq)]
pub struct AimSpec {
    /// Local aim axis.
    pub axis: Vec3,
    /// Local up axis.
    pub up: Vec3,
    /// Model-space direction the up axis turns towards.
    pub world_up: Vec3,
    /// Or a joint it turns towards.
    pub up_joint: Option<String>,
    /// Largest turn, degrees.
    pub limit: f32,
    /// Per-axis ranges, degrees (XYZ Euler of the turn in the joint's frame).
    pub limits: Option<[[f32; 2]; 3]>,
}

/// A chain's per-joint turn limit, degrees.
#[derive(Debug, Clone, PartialEq)]
pub enum ChainLimits {
    /// None.
    None,
    /// The same for every joint.
    All(f32),
    /// By joint name (the others free).
    Named(Vec<(String, f32)>),
}

/// A spring collider as written.
#[derive(Debug, Clone, PartialEq)]
pub struct ColliderSpec {
    /// The joint it moves with.
    pub joint: String,
    /// Its shape in the joint's frame.
    pub shape: Shape,
}

/// A procedural-rigging operation as written; the subject of its [`crate::spec::PostSpec`] is
/// the joint it changes (the tip of a chain, the first joint of a spring).
#[derive(Debug, Clone, PartialEq)]
pub enum RigKind {
    /// `constrain.aim(joint, target, opts)`.
    Aim {
        /// What it aims at.
        target: TargetSpec,
        /// Axes and limits.
        aim: AimSpec,
    },
    /// `constrain.multi_aim(joint, { {target, weight}, ... }, opts)`.
    MultiAim {
        /// Targets and weights.
        targets: Vec<(TargetSpec, g::Value<String>)>,
        /// Axes and limits.
        aim: AimSpec,
    },
    /// `constrain.copy(joint, source, opts)`.
    Copy {
        /// The joint copied.
        source: String,
        /// What is copied.
        channels: Channels,
        /// Model space (`"model"`/`"world"`) or local.
        model: bool,
        /// Keep the rest offset.
        offset: bool,
        /// Replace or add.
        mix: Mix,
    },
    /// `constrain.damped(joint, source, opts)`.
    Damped {
        /// The joint followed.
        source: String,
        /// Rotation time constant, seconds.
        lag: f32,
        /// Position time constant, seconds (`None`: the joint stays on its parent).
        position_lag: Option<f32>,
    },
    /// `constrain.twist(joint, twist_joints, opts)`.
    Twist {
        /// The twist bones.
        twisters: Vec<String>,
        /// Local twist axis (`None`: towards the joint's first child).
        axis: Option<Vec3>,
        /// Each twist bone's share (`None`: 1/(n+1), 2/(n+1), ...).
        weights: Option<Vec<f32>>,
        /// Take the shares off the joint.
        remove: bool,
    },
    /// `constrain.limit(joint, opts)`.
    Limit {
        /// Local twist axis (`None`: towards the joint's first child).
        axis: Option<Vec3>,
        /// Cone, degrees.
        cone: Option<f32>,
        /// Twist range, degrees.
        twist: Option<[f32; 2]>,
        /// Angular speed, degrees per second.
        speed: Option<f32>,
    },
    /// `ik.chain(root, tip, target, opts)`.
    Chain {
        /// The chain's root.
        root: String,
        /// What the tip reaches.
        target: TargetSpec,
        /// The solver.
        solver: Solver,
        /// Most iterations (`None`: the solver's default).
        iterations: Option<u32>,
        /// Metres.
        tolerance: f32,
        /// Turn limits.
        limits: ChainLimits,
        /// What the chain bends towards.
        pole: Option<TargetSpec>,
        /// Stretch to reach.
        stretch: bool,
    },
    /// `ik.spline(root, tip, points, opts)`.
    Spline {
        /// The chain's root.
        root: String,
        /// The curve's points.
        points: Vec<TargetSpec>,
    },
    /// Spring `index` of the rig's file (`VRMC_springBone`, from `rig:springs()`), with the
    /// file's own settings per joint.
    VrmSpring {
        /// Index into the skeleton's springs.
        index: usize,
    },
    /// `spring(joints, opts)`.
    Spring {
        /// The joints, root first (each the child of the one before).
        joints: Vec<String>,
        /// Hz.
        stiffness: g::Value<String>,
        /// Damping ratio.
        damping: g::Value<String>,
        /// m/s^2.
        gravity: Vec3,
        /// Metres.
        radius: f32,
        /// The colliders.
        colliders: Vec<ColliderSpec>,
    },
}

impl TargetSpec {
    fn lower<L: Lookup>(&self, l: &L) -> Result<Target, L::Error> {
        Ok(match self {
            TargetSpec::Point(v) => Target::Point(v.try_map(|n| l.param(n))?),
            TargetSpec::Joint(n) => Target::Joint(l.joint(n)?),
        })
    }
}

impl AimSpec {
    fn lower<L: Lookup>(&self, l: &L) -> Result<(AimSettings, Option<JointIndex>), L::Error> {
        let up_joint = match &self.up_joint {
            Some(n) => Some(l.joint(n)?),
            None => None,
        };
        let limits = self
            .limits
            .map(|r| AxisLimits(r.map(|[lo, hi]| [lo.to_radians(), hi.to_radians()])));
        Ok((
            AimSettings {
                axis: self.axis,
                up_axis: self.up,
                up: Up::Direction(self.world_up),
                limit: self.limit.to_radians(),
                axis_limits: limits,
            },
            up_joint,
        ))
    }
}

/// A joint's bone axis in its own frame: towards its first child at rest (+Y without one).
pub(crate) fn bone_axis(skeleton: &Skeleton, joint: JointIndex) -> Vec3 {
    let rest = skeleton.rest_pose();
    skeleton
        .children(joint)
        .next()
        .and_then(|c| rest[c as usize].translation.try_normalize())
        .unwrap_or(Vec3::Y)
}

impl RigKind {
    /// The graph's operation for `joint` (the subject).
    pub(crate) fn lower<L: Lookup>(&self, joint: &str, l: &L) -> Result<RigOp, L::Error> {
        let me = l.joint(joint)?;
        let sk = l.skeleton();
        let parents = sk.parents();
        let rest = sk.rest_pose();
        let chain_of = |root: &str| -> Result<Vec<JointIndex>, L::Error> {
            let r = l.joint(root)?;
            // (checked by the constructor at the script's line)
            Ok(rigging::chain(parents, r, me).unwrap_or_else(|| vec![r, me]))
        };
        Ok(match self {
            RigKind::Aim { target, aim } => {
                let (settings, up_joint) = aim.lower(l)?;
                RigOp::Aim {
                    joint: me,
                    target: target.lower(l)?,
                    settings,
                    up_joint,
                }
            }
            RigKind::MultiAim { targets, aim } => {
                let (settings, up_joint) = aim.lower(l)?;
                let mut ts = Vec::new();
                for (t, w) in targets {
                    ts.push((t.lower(l)?, w.try_map(|n| l.param(n))?));
                }
                RigOp::MultiAim {
                    joint: me,
                    targets: ts,
                    settings,
                    up_joint,
                }
            }
            RigKind::Copy {
                source,
                channels,
                model,
                offset,
                mix,
            } => {
                let source = l.joint(source)?;
                RigOp::Copy {
                    joint: me,
                    source,
                    rest: RestPair::new(parents, rest, me, source),
                    settings: CopySettings {
                        channels: *channels,
                        model: *model,
                        offset: *offset,
                        mix: *mix,
                    },
                }
            }
            RigKind::Damped {
                source,
                lag,
                position_lag,
            } => {
                let source = l.joint(source)?;
                RigOp::Damped(Damped {
                    joint: me,
                    source,
                    rest: RestPair::new(parents, rest, me, source),
                    rotation_lag: *lag,
                    position_lag: *position_lag,
                })
            }
            RigKind::Twist {
                twisters,
                axis,
                weights,
                remove,
            } => {
                let mut js = Vec::new();
                for t in twisters {
                    js.push(l.joint(t)?);
                }
                let n = js.len();
                RigOp::Twist {
                    joint: me,
                    rest: rest[me as usize].rotation,
                    axis: axis.unwrap_or_else(|| bone_axis(sk, me)),
                    twisters: js,
                    weights: weights
                        .clone()
                        .unwrap_or_else(|| (1..=n).map(|k| k as f32 / (n + 1) as f32).collect()),
                    remove: *remove,
                }
            }
            RigKind::Limit {
                axis,
                cone,
                twist,
                speed,
            } => RigOp::Limit(Limit {
                joint: me,
                rest: rest[me as usize].rotation,
                axis: axis.unwrap_or_else(|| bone_axis(sk, me)),
                cone: cone.map(f32::to_radians),
                twist: twist.map(|[a, b]| [a.to_radians(), b.to_radians()]),
                speed: speed.map(f32::to_radians),
            }),
            RigKind::Chain {
                root,
                target,
                solver,
                iterations,
                tolerance,
                limits,
                pole,
                stretch,
            } => {
                let joints = chain_of(root)?;
                let limits = match limits {
                    ChainLimits::None => Vec::new(),
                    ChainLimits::All(d) => vec![d.to_radians(); joints.len()],
                    ChainLimits::Named(named) => {
                        let mut v = vec![std::f32::consts::PI; joints.len()];
                        for (n, d) in named {
                            let j = l.joint(n)?;
                            if let Some(k) = joints.iter().position(|&x| x == j) {
                                v[k] = d.to_radians();
                            }
                        }
                        v
                    }
                };
                RigOp::Chain {
                    target: target.lower(l)?,
                    pole: match pole {
                        Some(p) => Some(p.lower(l)?),
                        None => None,
                    },
                    settings: ChainSettings {
                        solver: *solver,
                        iterations: *iterations,
                        tolerance: *tolerance,
                        limits,
                        pole: None,
                        stretch: *stretch,
                    },
                    joints,
                }
            }
            RigKind::Spline { root, points } => {
                let joints = chain_of(root)?;
                let mut ps = Vec::new();
                for p in points {
                    ps.push(p.lower(l)?);
                }
                RigOp::Spline { joints, points: ps }
            }
            RigKind::VrmSpring { index } => vrm_spring(sk, *index),
            RigKind::Spring {
                joints,
                stiffness,
                damping,
                gravity,
                radius,
                colliders,
            } => {
                let mut js = Vec::new();
                for n in joints {
                    js.push(l.joint(n)?);
                }
                let tails = js
                    .iter()
                    .enumerate()
                    .map(|(k, &j)| tail_of(parents, rest, j, js.get(k + 1).copied()))
                    .collect();
                let mut cs = Vec::new();
                for c in colliders {
                    cs.push(Collider {
                        joint: l.joint(&c.joint)?,
                        shape: c.shape,
                    });
                }
                RigOp::Spring {
                    chain: SpringChain {
                        joints: js,
                        tails,
                        colliders: cs,
                        per_joint: Vec::new(),
                    },
                    stiffness: stiffness.try_map(|n| l.param(n))?,
                    damping: damping.try_map(|n| l.param(n))?,
                    gravity: *gravity,
                    radius: *radius,
                }
            }
        })
    }
}

/// The graph's spring for spring `index` of the skeleton's file: its joints but the last turn
/// (the last is the tail of the one before; a one-joint spring gets a tail of its own), each
/// with the file's settings converted ([`from_vrm`]), and the colliders of its groups.
fn vrm_spring(sk: &Skeleton, index: usize) -> RigOp {
    let springs = sk.springs();
    let Some(spring) = springs.springs.get(index) else {
        // (rig:springs() made it from this skeleton)
        return RigOp::Spring {
            chain: SpringChain {
                joints: Vec::new(),
                tails: Vec::new(),
                colliders: Vec::new(),
                per_joint: Vec::new(),
            },
            stiffness: g::Value::Const(0.0),
            damping: g::Value::Const(0.0),
            gravity: Vec3::ZERO,
            radius: 0.0,
        };
    };
    let (parents, rest) = (sk.parents(), sk.rest_pose());
    let all: Vec<JointIndex> = spring.joints.iter().map(|j| j.joint).collect();
    let moving = if all.len() > 1 { all.len() - 1 } else { 1 };
    let joints: Vec<JointIndex> = all[..moving].to_vec();
    let tails: Vec<Vec3> = (0..moving)
        .map(|k| tail_of(parents, rest, all[k], all.get(k + 1).copied()))
        .collect();
    let per_joint = spring.joints[..moving]
        .iter()
        .zip(&tails)
        .map(|(j, t)| from_vrm(j, t.length()))
        .collect();
    let colliders = springs
        .colliders_of(index)
        .into_iter()
        .map(|c| Collider {
            joint: c.joint,
            shape: c.shape,
        })
        .collect();
    RigOp::Spring {
        chain: SpringChain {
            joints,
            tails,
            colliders,
            per_joint,
        },
        stiffness: g::Value::Const(0.0),
        damping: g::Value::Const(0.0),
        gravity: Vec3::ZERO,
        radius: 0.0,
    }
}
