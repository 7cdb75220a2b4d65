//! Lowering: each node description ([`NodeSpec`]) checked against the skeleton and the
//! parameters (errors name the node) and turned into a compiled [`Node`] with what is
//! precomputed from it (clip lengths, root tracks, reference poses, triangulations, masks);
//! and the checks of post-process ops.

use glam::Vec2;

use super::blend_space::triangulate;
use super::compiled::{Node, RootTracks};
use super::curve::Curve;
use super::kinds::LowerCx;
use super::mask::JointMask;
use super::nodes::{NodeSpec, Reference};
use super::params::{check_number, ParamId, ParamKind, Params};
use super::sample::{sample_clip, sample_morphs, ClipCache};
use super::state_machine::{Condition, StateEventTime, StateMachine};
use super::GraphError;
use crate::root_motion::{motion_of, RootMotionMode, RootSpace};
use crate::{Clip, JointIndex, JointTracks, Skeleton};

fn check_param_kind(
    p: ParamId,
    params: &Params,
    kinds: &[ParamKind],
    what: &str,
) -> Result<(), String> {
    let def = params
        .defs()
        .get(p.index())
        .ok_or_else(|| format!("{what} uses an unknown parameter"))?;
    if kinds.contains(&def.default.kind()) {
        Ok(())
    } else {
        Err(format!(
            "{what} parameter '{}' is a {}",
            def.name,
            def.default.kind().name()
        ))
    }
}

/// The mask's weights over the skeleton's joints and morph targets (see
/// [`JointMask::resolved`]).
fn check_mask(mask: Option<JointMask>, skeleton: &Skeleton) -> Result<Option<Vec<f32>>, String> {
    let Some(m) = mask else {
        return Ok(None);
    };
    m.resolved(skeleton).map(Some).ok_or_else(|| {
        let (joints, morphs) = (skeleton.len(), skeleton.morphs().len());
        let also = if morphs > 0 {
            format!(" (or {} with its {morphs} morph targets)", joints + morphs)
        } else {
            String::new()
        };
        format!(
            "mask has {} weights for {joints} joints{also}",
            m.weights().len()
        )
    })
}

pub(crate) fn lower_node(
    spec: NodeSpec,
    skeleton: &Skeleton,
    params: &Params,
    root_motion: Option<(JointIndex, RootMotionMode)>,
    mirror_pairs: Option<&[(JointIndex, JointIndex)]>,
    invalid: &dyn Fn(String) -> GraphError,
) -> Result<Node, GraphError> {
    let joints = skeleton.len();
    let numeric = [ParamKind::Float, ParamKind::Bool, ParamKind::Trigger];
    Ok(match spec {
        NodeSpec::Clip(c) => {
            check_number(&c.speed, params, "speed").map_err(invalid)?;
            if !c.start.is_finite() {
                return Err(invalid("start offset is not a finite number".into()));
            }
            if let Some(e) = c.events.iter().find(|e| !e.time.is_finite()) {
                return Err(invalid(format!(
                    "event '{}' has a time that is not finite",
                    e.name
                )));
            }
            let len = (c.clip.end - c.clip.start).max(0.0);
            let root = root_motion.map(|(j, mode)| root_tracks(&c.clip, j, mode, skeleton));
            Node::Clip { spec: c, len, root }
        }
        NodeSpec::Blend(b) => {
            if b.inputs.is_empty() {
                return Err(invalid("a blend needs at least one input".into()));
            }
            for (_, w) in &b.inputs {
                check_number(w, params, "weight").map_err(invalid)?;
            }
            Node::Blend {
                weights: b.inputs.iter().map(|i| i.1).collect(),
            }
        }
        NodeSpec::BlendSpace1D(b) => {
            check_param_kind(b.param, params, &numeric, "position").map_err(invalid)?;
            if b.samples.is_empty() {
                return Err(invalid("a blend space needs at least one sample".into()));
            }
            let xs: Vec<f32> = b.samples.iter().map(|s| s.0).collect();
            if xs.iter().any(|x| !x.is_finite()) {
                return Err(invalid("a sample position is not finite".into()));
            }
            if xs.windows(2).any(|w| w[0] >= w[1]) {
                return Err(invalid(format!(
                    "sample positions must be distinct and increasing, got {xs:?}"
                )));
            }
            Node::Space1D {
                param: b.param,
                xs,
                sync: b.sync,
            }
        }
        NodeSpec::BlendSpace2D(b) => {
            check_param_kind(b.x, params, &numeric, "x").map_err(invalid)?;
            check_param_kind(b.y, params, &numeric, "y").map_err(invalid)?;
            let points: Vec<Vec2> = b.samples.iter().map(|s| s.0).collect();
            if points.iter().any(|p| !p.is_finite()) {
                return Err(invalid("a sample point is not finite".into()));
            }
            for (i, p) in points.iter().enumerate() {
                if points[..i].contains(p) {
                    return Err(invalid(format!("two samples at {p}")));
                }
            }
            let tris = triangulate(&points);
            if tris.is_empty() {
                return Err(invalid(
                    "a 2D blend space needs three samples not all on one line".into(),
                ));
            }
            Node::Space2D {
                x: b.x,
                y: b.y,
                points,
                tris,
                sync: b.sync,
            }
        }
        NodeSpec::Additive(a) => {
            check_number(&a.weight, params, "weight").map_err(invalid)?;
            // the reference's morph weights: the defaults, or the clip's at that time
            let mut reference_morphs = skeleton.morphs().defaults().to_vec();
            let reference = match a.reference {
                Reference::RestPose => skeleton.rest_pose().to_vec(),
                Reference::Pose(p) if p.len() == joints => p,
                Reference::Pose(p) => {
                    return Err(invalid(format!(
                        "reference pose has {} joints, skeleton {joints}",
                        p.len()
                    )))
                }
                Reference::ClipAt(clip, t) => {
                    let mut out = skeleton.rest_pose().to_vec();
                    let mut cache = ClipCache::default();
                    sample_clip(
                        &clip,
                        clip.start + t,
                        skeleton.rest_pose(),
                        &mut cache,
                        &mut out,
                    );
                    sample_morphs(
                        &clip,
                        clip.start + t,
                        skeleton,
                        &mut cache,
                        &mut reference_morphs,
                    );
                    out
                }
            };
            Node::Additive {
                reference,
                reference_morphs,
                weight: a.weight,
                mask: check_mask(a.mask, skeleton).map_err(invalid)?,
            }
        }
        NodeSpec::Layer(l) => {
            check_number(&l.weight, params, "weight").map_err(invalid)?;
            Node::Layer {
                weight: l.weight,
                mask: check_mask(l.mask, skeleton).map_err(invalid)?,
            }
        }
        NodeSpec::Kind(k) => Node::Kind(k.lower(&LowerCx {
            skeleton,
            params,
            mirror_pairs,
            invalid,
        })?),
        NodeSpec::StateMachine(sm) => {
            check_state_machine(&sm, params).map_err(invalid)?;
            Node::StateMachine(sm)
        }
        NodeSpec::Retarget(r) => Node::Retarget {
            from: r.from,
            retargeter: r.retargeter,
        },
    })
}

fn check_state_machine(sm: &StateMachine, params: &Params) -> Result<(), String> {
    let states = sm.states();
    if states.is_empty() {
        return Err("a state machine needs at least one state".into());
    }
    for (i, s) in states.iter().enumerate() {
        if states[..i].iter().any(|o| o.name == s.name) {
            return Err(format!("two states named '{}'", s.name));
        }
    }
    if sm.initial_state().index() >= states.len() {
        return Err("the initial state does not exist".into());
    }
    for e in sm.events() {
        if e.state.index() >= states.len() {
            return Err(format!(
                "event '{}' is on a state that does not exist",
                e.name
            ));
        }
        if let StateEventTime::After(t) = e.at {
            if !(t.is_finite() && t > 0.0) {
                return Err(format!(
                    "event '{}' of state '{}' is at {t} s (it must be a number > 0)",
                    e.name,
                    states[e.state.index()].name
                ));
            }
        }
    }
    let name = |i: usize| states.get(i).map_or("?", |s| s.name.as_str()).to_string();
    for (k, t) in sm.transitions().iter().enumerate() {
        let what = format!(
            "transition {k} ({} -> {})",
            t.from
                .map_or_else(|| "any".to_string(), |f| name(f.index())),
            name(t.to.index())
        );
        if t.to.index() >= states.len() || t.from.is_some_and(|f| f.index() >= states.len()) {
            return Err(format!("{what} names a state that does not exist"));
        }
        if t.conditions.is_empty() {
            return Err(format!("{what} has no condition"));
        }
        if !(t.duration.is_finite() && t.duration >= 0.0) {
            return Err(format!("{what} has blend duration {}", t.duration));
        }
        if let Curve::Bezier(a, b, c, d) = t.curve {
            if ![a, b, c, d].iter().all(|v| v.is_finite()) {
                return Err(format!(
                    "{what} has a Bézier curve with a control value that is not finite"
                ));
            }
        }
        for c in &t.conditions {
            match c {
                Condition::Trigger(p) => {
                    check_param_kind(*p, params, &[ParamKind::Trigger], &what)?
                }
                Condition::Flag(p, _) => {
                    check_param_kind(*p, params, &[ParamKind::Bool, ParamKind::Trigger], &what)?
                }
                Condition::Compare(p, _, v) => {
                    check_param_kind(
                        *p,
                        params,
                        &[ParamKind::Float, ParamKind::Bool, ParamKind::Trigger],
                        &what,
                    )?;
                    if !v.is_finite() {
                        return Err(format!("{what} compares with a value that is not finite"));
                    }
                }
                Condition::ExitTime(x) if !x.is_finite() => {
                    return Err(format!("{what} has exit time {x}"))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The root joint's tracks of `clip` as a one-joint clip, with the motion at its first and last
/// key.
fn root_tracks(
    clip: &Clip,
    joint: JointIndex,
    mode: RootMotionMode,
    skeleton: &Skeleton,
) -> RootTracks {
    let tracks = clip
        .tracks
        .iter()
        .filter(|t| t.joint == joint)
        .map(|t| JointTracks {
            joint: 0,
            ..t.clone()
        })
        .collect();
    let sub = Clip::new(format!("{}:root", clip.name), tracks);
    let rest = [skeleton.rest_pose()[joint as usize]];
    let mut out = rest;
    let mut cache = ClipCache::default();
    let space = RootSpace::of(skeleton);
    sample_clip(&sub, clip.start, &rest, &mut cache, &mut out);
    let start = motion_of(mode, &space, &out[0]);
    sample_clip(&sub, clip.end, &rest, &mut cache, &mut out);
    let end = motion_of(mode, &space, &out[0]);
    RootTracks {
        clip: sub,
        start,
        end,
    }
}
