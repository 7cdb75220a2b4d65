//! Building a [`Retargeter`]: both rigs' bodies and references measured, each character joint
//! given what drives it (a mapped joint, a chain, its rest), the root and anchor placed, the
//! limbs set up for IK, the notes on what is left out, and the joints a frame reads and writes.

use glam::{Mat3, Quat, Vec3};

use super::humanoid::Humanoid;
use super::limb::{path_below, subtree, IkLimb, Lowering};
use super::reference::{RigReference, AUTO_LIMIT_DEGREES};
use super::{Drive, JointMap, Place, ReferencePose, RetargetOptions, Retargeter};
use crate::{JointIndex, Skeleton, Transform};

/// Marks `joint` and its ancestors in `marked` (stopping at the first already marked: its
/// ancestors are too).
fn with_ancestors(skeleton: &Skeleton, marked: &mut [bool], joint: JointIndex) {
    let mut k = Some(joint);
    while let Some(a) = k {
        if std::mem::replace(&mut marked[a as usize], true) {
            break;
        }
        k = skeleton.parent(a);
    }
}

/// The largest angle (degrees) between the two rests' limb bones (upper and lower bone of each
/// arm and leg both rigs have), their frames aligned, and which limb it is at.
fn rest_difference(
    rt: &RigReference,
    rs: &RigReference,
    bt: &Humanoid,
    bs: &Humanoid,
) -> Option<(f32, String)> {
    let align = rt.frame * rs.frame.transpose();
    let bone = |r: &RigReference, a: JointIndex, b: JointIndex| {
        (r.armature_linear * (r.model[b as usize].translation - r.model[a as usize].translation))
            .try_normalize()
    };
    let mut worst: Option<(f32, String)> = None;
    for (what, tl, sl) in [("leg", &bt.legs, &bs.legs), ("arm", &bt.arms, &bs.arms)] {
        for k in 0..2 {
            let (Some(t), Some(s)) = (&tl[k], &sl[k]) else {
                continue;
            };
            let mut segments = vec![(t.upper, t.lower, s.upper, s.lower)];
            if let (Some(te), Some(se)) = (t.end, s.end) {
                segments.push((t.lower, te, s.lower, se));
            }
            for (ta, tb, sa, sb) in segments {
                let (Some(dt), Some(ds)) = (bone(rt, ta, tb), bone(rs, sa, sb)) else {
                    continue;
                };
                let degrees = dt.angle_between(align * ds).to_degrees();
                if degrees.is_finite() && worst.as_ref().is_none_or(|(w, _)| degrees > *w) {
                    let side = if k == 0 { "left" } else { "right" };
                    worst = Some((degrees, format!("{side} {what}")));
                }
            }
        }
    }
    worst
}

/// Moves the source's reference along its up so its feet stand where its clips plant them
/// (`planted`, [`super::ground::planted_height`]): displacements are then measured from a pose
/// standing on the capture's floor, whatever height the rest pose hangs at.
fn stand_on_floor(rs: &mut RigReference, bs: &Humanoid, planted: f32, notes: &mut Vec<String>) {
    let up = (rs.armature_rotation.conjugate() * rs.frame.y_axis).normalize_or(Vec3::Y);
    let feet = bs
        .legs
        .iter()
        .flatten()
        .filter_map(|l| l.end)
        .map(|e| rs.model[e as usize].translation.dot(up))
        .fold(f32::INFINITY, f32::min);
    let shift = planted - feet;
    if !shift.is_finite() {
        return;
    }
    for t in &mut rs.model {
        t.translation += up * shift;
    }
    let world = (rs.armature_linear * up).length() * shift;
    let leg = rs.leg_length.unwrap_or(0.0);
    if world.abs() > 0.1 * leg {
        notes.push(format!(
            "source: its clips plant its feet {:.3} m {} its rest pose's: motion measured from \
             its floor, so the character stands on its own",
            world.abs(),
            if world > 0.0 { "above" } else { "below" }
        ));
    }
}

/// Moves the source's reference over the ground to where its anchor is in `start` (a local
/// pose: where what the retarget plays starts), so horizontal motion is measured from there.
fn start_where_it_stands(
    source: &Skeleton,
    rs: &mut RigReference,
    bs: &Humanoid,
    start: &[Transform],
) {
    let Some(anchor) = bs.anchor.map(usize::from) else {
        return;
    };
    if start.len() != source.len() {
        return;
    }
    let mut model = start.to_vec();
    super::reference::model_pose(source, start, &mut model);
    let up = (rs.armature_rotation.conjugate() * rs.frame.y_axis).normalize_or(Vec3::Y);
    let d = model[anchor].translation - rs.model[anchor].translation;
    let over_ground = d - up * d.dot(up);
    if !over_ground.is_finite() {
        return;
    }
    for t in &mut rs.model {
        t.translation += over_ground;
    }
}

/// How far (degrees) a source's start may be turned from its reference's facing before the
/// retarget turns it back.
pub const START_TURN_LIMIT_DEGREES: f32 = 20.0;

/// The turn about the character's `up` (its model space) of the source's anchor in `start`
/// against its reference, `c` bringing source model rotations into the character's; `None`
/// under [`START_TURN_LIMIT_DEGREES`] (a capture's sway is not a turn).
fn start_turn(
    source: &Skeleton,
    rs: &RigReference,
    bs: &Humanoid,
    start: &[Transform],
    c: Quat,
    up: Vec3,
) -> Option<Quat> {
    let anchor = usize::from(bs.anchor?);
    if start.len() != source.len() {
        return None;
    }
    let mut model = start.to_vec();
    super::reference::model_pose(source, start, &mut model);
    let delta =
        c * (model[anchor].rotation * rs.model[anchor].rotation.conjugate()) * c.conjugate();
    // its twist about up
    let axis = Vec3::new(delta.x, delta.y, delta.z);
    let along = up * axis.dot(up);
    let raw = Quat::from_xyzw(along.x, along.y, along.z, delta.w);
    let size = raw.length_squared();
    if size.is_nan() || size <= 1e-12 {
        return None;
    }
    let twist = raw.normalize();
    let degrees: f32 = (2.0 * twist.w.abs().min(1.0).acos()).to_degrees();
    (degrees.is_finite() && degrees > START_TURN_LIMIT_DEGREES).then_some(twist)
}

impl Retargeter {
    /// Prepares a retarget of `source` poses onto `target` by `map` (checked against both
    /// skeletons by [`JointMap::new`]).
    pub fn new(
        target: &Skeleton,
        source: &Skeleton,
        map: &JointMap,
        options: &RetargetOptions,
    ) -> Retargeter {
        let (bt, bs) = (Humanoid::find(target), Humanoid::find(source));
        let mut notes = Vec::new();
        let reference = match options.reference {
            ReferencePose::Auto => {
                let rt = RigReference::new(target, &bt, ReferencePose::Rest);
                let rs = RigReference::new(source, &bs, ReferencePose::Rest);
                match rest_difference(&rt, &rs, &bt, &bs) {
                    Some((degrees, limb)) if degrees > AUTO_LIMIT_DEGREES => {
                        notes.push(format!(
                            "the rests differ by {degrees:.0} degrees at the {limb}: both rigs \
                             aligned in a T-pose (rest = \"rest\" keeps their rests)"
                        ));
                        ReferencePose::TPose
                    }
                    _ => ReferencePose::Rest,
                }
            }
            other => other,
        };
        let rt = RigReference::new(target, &bt, reference);
        let mut rs = RigReference::new(source, &bs, reference);
        if let Some(planted) = options.source_ground {
            stand_on_floor(&mut rs, &bs, planted, &mut notes);
        }
        if let Some(start) = &options.source_start {
            start_where_it_stands(source, &mut rs, &bs, start);
        }
        // world source -> world target: align the characters' frames
        let align = rt.frame * rs.frame.transpose();
        let align_q = Quat::from_mat3(&align).normalize();
        let c = (rt.armature_rotation.conjugate() * align_q * rs.armature_rotation).normalize();
        let scale = match (options.scale, rt.leg_length, rs.leg_length) {
            (Some(s), ..) => s,
            (None, Some(lt), Some(ls)) => Vec3::splat(lt / ls),
            (None, ..) => {
                notes.push(
                    "translation scale 1: the legs of one rig were not found (give scale = n)"
                        .to_string(),
                );
                Vec3::ONE
            }
        };
        let k = rt.frame * Mat3::from_diagonal(scale) * rt.frame.transpose();
        let m = rt.armature_linear.inverse() * k * align * rs.armature_linear;
        let m = if m.is_finite() { m } else { Mat3::IDENTITY };
        let up = (rt.armature_rotation.conjugate() * rt.frame.y_axis).normalize_or(Vec3::Y);
        let world_per_model = (rt.armature_linear * up).length();

        let mut drives = vec![Drive::Rest; target.len()];
        for &(t, s) in &map.pairs {
            let fix = rs.model[s as usize].rotation.conjugate()
                * c.conjugate()
                * rt.model[t as usize].rotation;
            drives[t as usize] = Drive::Pair {
                source: s,
                fix: fix.normalize(),
            };
        }
        for chain in &map.chains {
            let n = chain.target.len();
            let last = chain.source.len() - 1;
            for (i, &t) in chain.target.iter().enumerate() {
                // joint i of n sits at fraction i / (n - 1); the source chain likewise
                let u = if n > 1 {
                    i as f32 / (n - 1) as f32
                } else {
                    1.0
                };
                let x = u * last as f32;
                let a = (x.floor() as usize).min(last);
                let b = (a + 1).min(last);
                drives[t as usize] = Drive::Chain {
                    a: chain.source[a],
                    b: chain.source[b],
                    f: x - a as f32,
                    reference: rt.model[t as usize].rotation,
                };
            }
        }
        let chain_fix = rs
            .model
            .iter()
            .map(|r| (r.rotation.conjugate() * c.conjugate()).normalize())
            .collect();

        let mut places = vec![None; target.len()];
        let anchors = (bt.anchor, bs.anchor);
        // the hips keep the source's height over the feet, in leg lengths: a rig resting with
        // bent knees puts the other's hips as low, so its strides stay in reach
        let stance = match (rt.stance, rs.stance) {
            (Some(ht), Some(hs)) => {
                let d = rt.frame.y_axis * (scale.y * hs - ht);
                rt.armature_linear.inverse() * d
            }
            _ => Vec3::ZERO,
        };
        let stance = if stance.is_finite() {
            stance
        } else {
            Vec3::ZERO
        };
        if let (Some(t), Some(s)) = anchors {
            places[t as usize] = Some(Place {
                source: s,
                ground: false,
                offset: stance,
            });
        }
        match ((bt.root, bs.root), anchors) {
            ((Some(t), Some(s)), _) => {
                places[t as usize] = Some(Place {
                    source: s,
                    ground: false,
                    offset: Vec3::ZERO,
                })
            }
            ((Some(t), None), (_, Some(s))) => {
                places[t as usize] = Some(Place {
                    source: s,
                    ground: true,
                    offset: Vec3::ZERO,
                })
            }
            _ => {}
        }
        if anchors.0.is_none() || anchors.1.is_none() {
            // no body found: the mapped roots carry the translation
            for &(t, s) in &map.pairs {
                if target.parent(t).is_none() {
                    places[t as usize] = Some(Place {
                        source: s,
                        ground: false,
                        offset: Vec3::ZERO,
                    });
                }
            }
        }

        let mut limbs = Vec::new();
        let kinds = [
            ("leg", &bt.legs, &bs.legs, options.ik_feet),
            ("arm", &bt.arms, &bs.arms, options.ik_hands),
        ];
        // notes on the limbs' ends are said once, with what they cost (the IK pass)
        let mut explained: Vec<String> = Vec::new();
        for (what, tl, sl, on) in kinds {
            let end_name = if what == "leg" { "foot" } else { "hand" };
            // (side, why, detail)
            let mut skipped: Vec<(&str, String, Option<String>)> = Vec::new();
            for k in 0..2 {
                let Some(limb) = &tl[k] else { continue };
                let side = if k == 0 { "left" } else { "right" };
                let Some(end) = limb.end else {
                    if on {
                        let why = format!("no {end_name} joint in the character");
                        let about = format!("{side} {end_name}");
                        explained.extend(bt.notes.iter().filter(|n| n.contains(&about)).cloned());
                        skipped.push((side, why, None));
                    }
                    continue;
                };
                let mapped = map.source_of(end);
                if mapped.is_some() {
                    // the map names the end: what the source's names left unsure is settled
                    let about = format!("{side} {end_name}");
                    explained.extend(bs.notes.iter().filter(|n| n.contains(&about)).cloned());
                }
                let source_end = mapped.or_else(|| sl[k].as_ref().and_then(|l| l.end));
                if on && source_end.is_none() {
                    let about = format!("{side} {end_name}");
                    let said: Vec<String> = bs
                        .notes
                        .iter()
                        .filter(|n| n.contains(&about))
                        .cloned()
                        .collect();
                    let why = format!("no {end_name} joint in the source to follow (map one)");
                    skipped.push((side, why, said.first().cloned()));
                    explained.extend(said);
                }
                if !on && limb.end_in_chain {
                    continue;
                }
                let r = &rt.model;
                let (u, l, e) = (limb.upper as usize, limb.lower as usize, end as usize);
                let tip_offset = r[l].inverse().transform_point(r[e].translation);
                // the reference bend: the knee's or elbow's side of the line to the tip,
                // else forward for knees and backward for elbows
                let line = r[e].translation - r[u].translation;
                let mid = r[l].translation - r[u].translation;
                let bend = (mid - line * (mid.dot(line) / line.length_squared().max(1e-12)))
                    .try_normalize()
                    .unwrap_or_else(|| {
                        let fwd = rt.armature_rotation.conjugate() * rt.frame.z_axis;
                        if what == "leg" {
                            fwd
                        } else {
                            -fwd
                        }
                    });
                limbs.push(IkLimb {
                    upper: limb.upper,
                    lower: limb.lower,
                    tip_offset,
                    end,
                    end_in_chain: limb.end_in_chain,
                    source_end: source_end.filter(|_| on),
                    pole_local: r[u].rotation.conjugate() * bend,
                    to_lower: path_below(target, limb.upper, limb.lower),
                    to_end: {
                        let mut p = path_below(target, limb.lower, end);
                        p.pop();
                        p
                    },
                    leg: what == "leg",
                    lengths: (
                        r[u].translation.distance(r[l].translation),
                        r[l].translation.distance(r[e].translation),
                    ),
                });
            }
            let detail =
                |d: &Option<String>| d.as_ref().map_or(String::new(), |d| format!(" ({d})"));
            match skipped.as_slice() {
                [(_, a, da), (_, b, db)] if a == b => {
                    let both: Vec<&str> =
                        [da, db].into_iter().flatten().map(String::as_str).collect();
                    let d = (!both.is_empty()).then(|| both.join("; "));
                    notes.push(format!("IK skipped for both {what}s: {a}{}", detail(&d)));
                }
                list => notes.extend(list.iter().map(|(side, why, d)| {
                    format!("IK skipped for the {side} {what}: {why}{}", detail(d))
                })),
            }
        }

        limbs.truncate(4);
        let legs: Vec<usize> = (0..limbs.len())
            .filter(|&i| limbs[i].source_end.is_some() && limbs[i].leg)
            .collect();
        let lowering = match bt.anchor {
            Some(a) if !legs.is_empty() => Some(Lowering {
                anchor: a,
                below: subtree(target, a),
                legs,
                up,
                world_per_model,
                limit: rt.leg_length.unwrap_or(0.0) * 0.25,
            }),
            _ => None,
        };
        let (tm, sm) = (target.morphs(), source.morphs());
        let morphs = (0..tm.len())
            .filter_map(|k| {
                let (set, t) = tm.locate(k)?;
                let name = &tm.sets()[set].targets[t];
                Some((k, *sm.find_target(name).first()?))
            })
            .collect();
        let unexplained = |n: &&String| !explained.contains(n);
        notes.extend(
            bt.notes
                .iter()
                .filter(unexplained)
                .map(|n| format!("character: {n}")),
        );
        notes.extend(
            bs.notes
                .iter()
                .filter(unexplained)
                .map(|n| format!("source: {n}")),
        );
        // the source joints read: drivers, chains, placed and IK sources, with their ancestors
        let mut needed = vec![false; source.len()];
        let mut mark = |j: JointIndex| with_ancestors(source, &mut needed, j);
        for d in &drives {
            match *d {
                Drive::Pair { source, .. } => mark(source),
                Drive::Chain { a, b, .. } => {
                    mark(a);
                    mark(b);
                }
                Drive::Rest => {}
            }
        }
        for p in places.iter().flatten() {
            mark(p.source);
        }
        for l in &limbs {
            if let Some(s) = l.source_end {
                mark(s);
            }
        }
        let source_needed = (0..source.len() as JointIndex)
            .filter(|&j| needed[j as usize])
            .collect();
        let mut target_needed = vec![false; target.len()];
        let mut mark = |j: JointIndex| with_ancestors(target, &mut target_needed, j);
        for t in 0..target.len() {
            if !matches!(drives[t], Drive::Rest) || places[t].is_some() {
                mark(t as JointIndex);
            }
        }
        for l in &limbs {
            mark(l.lower);
            mark(l.end);
        }

        // a capture that starts turned away from its rest's facing starts facing the
        // character's way: its start turn about up taken out of every rotation and motion
        let (c, m) = match &options.source_start {
            Some(start) => match start_turn(source, &rs, &bs, start, c, up) {
                Some(turn) => (
                    (turn.conjugate() * c).normalize(),
                    Mat3::from_quat(turn.conjugate()) * m,
                ),
                None => (c, m),
            },
            None => (c, m),
        };
        Retargeter {
            source_needed,
            target_needed,
            source_parents: source.parents().to_vec(),
            target_parents: target.parents().to_vec(),
            target_rest: target.rest_pose().to_vec(),
            source_reference: rs.model,
            target_reference: rt.model,
            drives,
            places,
            chain_fix,
            c,
            m,
            up,
            limbs,
            lowering,
            morphs,
            target_morph_defaults: tm.defaults().to_vec(),
            scale,
            notes,
            map: map.clone(),
            reference,
        }
    }
}
