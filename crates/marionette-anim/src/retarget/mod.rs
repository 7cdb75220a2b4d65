//! Retargeting: a pose of one skeleton (the **source**) put on another (the **target**, the
//! character), as Unreal's IK Retargeter and Godot's retarget modifier do it.
//!
//! - **Rotations** are transferred relative to each rig's reference pose (its rest, or a T-pose
//!   made from it: [`ReferencePose`]) in world space: a mapped joint turns, in the world, by
//!   what its source joint turned away from the source's reference. Bone rolls, rest
//!   orientations and armature transforms (rotated, scaled, Z-up armatures) cancel out; the two
//!   characters' frames (which way is left, up, forward, [`reference`]) are aligned first.
//!   Unmapped joints keep the character's rest pose (relative to their parent).
//! - **Chains** of different lengths ([`ChainMap`]) spread the source chain's rotation along
//!   the target's: each target joint takes the source chain's rotation at the same fraction of
//!   the chain, interpolated.
//! - **Translation**: the root and the anchor (the joint above the hips and both legs,
//!   [`Humanoid`]) move as the source's do, from their reference positions, scaled by the ratio
//!   of the legs' lengths (or a given scale per axis), and the hips stand as high over the feet,
//!   in leg lengths, as the source's do (a rig resting with bent knees puts the other's hips as
//!   low, so its strides stay within reach). A target with a root the source lacks
//!   takes the anchor's motion over the ground on its root. Other joints keep their bone
//!   lengths.
//! - **IK** ([`limb`]): feet and hands reach the source's ends' positions, measured from the
//!   reference and scaled the same way, so a planted foot stays planted; where a foot's goal is
//!   out of its leg's reach the hips are lowered (by at most a quarter of the leg) until it is
//!   not. A limb without an end joint is skipped with a note.
//! - **Root motion** deltas ([`Retargeter::motion`]) and **morph weights** (same target name)
//!   carry over.
//!
//! Build a [`Retargeter`] once from both skeletons and a [`JointMap`] (the one proposed by
//! [`JointMap::auto`], or a script's) and call [`Retargeter::apply`] per frame; it does not
//! allocate. The blend graph's retarget node does that over any subgraph of the source rig.

pub mod humanoid;
pub(crate) mod limb;
pub mod map;
pub mod names;
pub mod reference;

use glam::{Mat3, Quat, Vec3};

pub use humanoid::{Humanoid, Limb};
pub use map::{AutoMap, ChainMap, JointMap, MapError};
pub use names::Role;
pub use reference::ReferencePose;

use crate::root_motion::MotionBlend;
use crate::{JointIndex, Skeleton, Transform};
use limb::{path_below, subtree, IkLimb, Lowering};
use reference::RigReference;

/// How a retarget is done (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct RetargetOptions {
    /// The pose both rigs are aligned in.
    pub reference: ReferencePose,
    /// Translation scale per axis of the character's world; `None`: the ratio of leg lengths.
    pub scale: Option<Vec3>,
    /// Run the IK pass on the legs.
    pub ik_feet: bool,
    /// Run the IK pass on the arms.
    pub ik_hands: bool,
}

impl Default for RetargetOptions {
    fn default() -> Self {
        Self {
            reference: ReferencePose::Rest,
            scale: None,
            ik_feet: true,
            ik_hands: true,
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

/// How one target joint gets its rotation.
#[derive(Clone, Copy, Debug)]
enum Drive {
    /// Its rest rotation.
    Rest,
    /// From one source joint: model rotation `c · source · fix`.
    Pair { source: JointIndex, fix: Quat },
    /// From a source chain at a fraction between two of its joints.
    Chain {
        a: JointIndex,
        b: JointIndex,
        f: f32,
        /// The target joint's reference model rotation.
        reference: Quat,
    },
}

/// A target joint placed by a source joint's displacement.
#[derive(Clone, Copy, Debug)]
struct Place {
    source: JointIndex,
    /// Only the displacement over the ground (a root standing in for the source's anchor).
    ground: bool,
    /// Added in the target's model space (the anchor's change of stance).
    offset: Vec3,
}

/// Buffers for [`Retargeter::apply`] (model-space poses of both rigs).
#[derive(Clone, Debug, Default)]
pub struct RetargetScratch {
    source: Vec<Transform>,
    target: Vec<Transform>,
}

impl RetargetScratch {
    /// The source pose the last [`Retargeter::apply`] read, in the source's model space.
    pub fn source_model(&self) -> &[Transform] {
        &self.source
    }
}

/// A prepared retarget from one skeleton onto another. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Retargeter {
    source_parents: Vec<Option<JointIndex>>,
    /// The source joints the retarget reads and their ancestors, parent-first (the rest of the
    /// source's model pose is never computed).
    source_needed: Vec<JointIndex>,
    /// Target joints whose model transform the pass needs (driven, placed or IK joints and
    /// their ancestors); the others keep their rest, and the IK pass recomputes what it moves.
    target_needed: Vec<bool>,
    target_parents: Vec<Option<JointIndex>>,
    target_rest: Vec<Transform>,
    source_reference: Vec<Transform>,
    target_reference: Vec<Transform>,
    drives: Vec<Drive>,
    places: Vec<Option<Place>>,
    /// Per source joint: `reference⁻¹ · c⁻¹` (a chain's deltas).
    chain_fix: Vec<Quat>,
    /// Source model rotation -> target model rotation.
    c: Quat,
    /// Source model displacement -> target model displacement (frames, armatures, scale).
    m: Mat3,
    /// The character's up in its model space.
    up: Vec3,
    /// World units per model unit (the armature's scale).
    world_per_model: f32,
    /// At most four: two legs, two arms.
    limbs: Vec<IkLimb>,
    /// Lowers the hips when a foot's goal is out of the leg's reach.
    lowering: Option<Lowering>,
    morphs: Vec<(usize, usize)>,
    target_morph_defaults: Vec<f32>,
    scale: Vec3,
    notes: Vec<String>,
    map: JointMap,
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
        let rt = RigReference::new(target, &bt, options.reference);
        let rs = RigReference::new(source, &bs, options.reference);
        let mut notes = Vec::new();
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
        let mut mark = |j: JointIndex| {
            let mut k = Some(j);
            while let Some(a) = k {
                if std::mem::replace(&mut needed[a as usize], true) {
                    break;
                }
                k = source.parent(a);
            }
        };
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
        let mut mark = |j: JointIndex| {
            let mut k = Some(j);
            while let Some(a) = k {
                if std::mem::replace(&mut target_needed[a as usize], true) {
                    break;
                }
                k = target.parent(a);
            }
        };
        for t in 0..target.len() {
            if !matches!(drives[t], Drive::Rest) || places[t].is_some() {
                mark(t as JointIndex);
            }
        }
        for l in &limbs {
            mark(l.lower);
            mark(l.end);
        }

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
            world_per_model,
            limbs,
            lowering,
            morphs,
            target_morph_defaults: tm.defaults().to_vec(),
            scale,
            notes,
            map: map.clone(),
        }
    }

    /// The joint map it follows.
    pub fn map(&self) -> &JointMap {
        &self.map
    }

    /// Translation scale per axis of the character's world.
    pub fn scale(&self) -> Vec3 {
        self.scale
    }

    /// What was left out or guessed (missing body parts, skipped IK, default scale).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Number of source joints the retarget reads.
    pub fn source_joints(&self) -> usize {
        self.source_parents.len()
    }

    /// Number of target joints it writes.
    pub fn target_joints(&self) -> usize {
        self.target_parents.len()
    }

    /// The source joint whose motion `target` follows (by translation or rotation), if any:
    /// where the source's root motion is measured for a target root-motion joint.
    pub fn source_for(&self, target: JointIndex) -> Option<JointIndex> {
        let t = target as usize;
        if let Some(p) = self.places.get(t).copied().flatten() {
            return Some(p.source);
        }
        match self.drives.get(t)? {
            Drive::Pair { source, .. } => Some(*source),
            _ => None,
        }
    }

    /// Buffers sized for this retarget.
    pub fn scratch(&self) -> RetargetScratch {
        RetargetScratch {
            source: vec![Transform::IDENTITY; self.source_parents.len()],
            target: vec![Transform::IDENTITY; self.target_parents.len()],
        }
    }

    /// Root-motion deltas of the source (accumulated in its root joints' parent space) as the
    /// character's: rotations through the frames, translations scaled.
    pub fn motion(&self, blend: &mut MotionBlend) {
        blend.transform(self.m, self.c);
    }

    /// One root-motion delta of the source as the character's.
    pub fn motion_delta(&self, d: &Transform) -> Transform {
        Transform {
            translation: self.m * d.translation,
            rotation: (self.c * d.rotation * self.c.conjugate()).normalize(),
            scale: Vec3::ONE,
        }
    }

    /// Retargets a local pose of the source (and its morph weights) onto the character.
    /// Slices must have the skeletons' lengths ([`Retargeter::source_joints`],
    /// [`Retargeter::target_joints`]); shorter ones leave the rest untouched.
    pub fn apply(
        &self,
        source: &[Transform],
        source_morphs: &[f32],
        out: &mut [Transform],
        out_morphs: &mut [f32],
        x: &mut RetargetScratch,
    ) {
        let (ns, nt) = (self.source_parents.len(), self.target_parents.len());
        if source.len() < ns || out.len() < nt {
            return;
        }
        x.source.resize(ns, Transform::IDENTITY);
        x.target.resize(nt, Transform::IDENTITY);
        for &j in &self.source_needed {
            let j = j as usize;
            x.source[j] = match self.source_parents[j] {
                Some(p) => compose(&x.source[p as usize], &source[j]),
                None => source[j],
            };
        }
        let ms = &x.source;
        let delta = |s: JointIndex| {
            (self.c * ms[s as usize].rotation * self.chain_fix[s as usize]).normalize()
        };
        // (`t` indexes the target's joints in every per-joint list)
        #[allow(clippy::needless_range_loop)]
        for t in 0..nt {
            if !self.target_needed[t] {
                out[t] = self.target_rest[t];
                continue;
            }
            let parent = self.target_parents[t].map(|p| x.target[p as usize]);
            let mut local = self.target_rest[t];
            let want = match self.drives[t] {
                Drive::Rest => None,
                Drive::Pair { source, fix } => Some(self.c * ms[source as usize].rotation * fix),
                Drive::Chain { a, b, f, reference } => {
                    let d = if a == b {
                        delta(a)
                    } else {
                        delta(a).slerp(delta(b), f)
                    };
                    Some(d * reference)
                }
            };
            if let Some(q) = want {
                let l = parent.map_or(q, |p| p.rotation.conjugate() * q).normalize();
                // the rest's hemisphere, so consecutive frames never change sign
                local.rotation = if l.dot(local.rotation) < 0.0 { -l } else { l };
            }
            if let Some(place) = self.places[t] {
                let s = place.source as usize;
                let mut d = self.m * (ms[s].translation - self.source_reference[s].translation);
                if place.ground {
                    d -= self.up * d.dot(self.up);
                }
                let p = self.target_reference[t].translation + d + place.offset;
                let at = parent.map_or(p, |pm| pm.inverse().transform_point(p));
                if at.is_finite() {
                    local.translation = at;
                }
            }
            // a driven joint's model rotation is what it was driven to: its children need not
            // wait for the local rotation (a chain of dependent normalisations otherwise)
            x.target[t] = match (parent, want) {
                (Some(p), Some(q)) => Transform {
                    translation: p.rotation * (local.translation * p.scale) + p.translation,
                    rotation: q,
                    scale: p.scale * local.scale,
                },
                (Some(p), None) => compose(&p, &local),
                (None, _) => local,
            };
            out[t] = local;
        }
        let mut goals = [None; 4];
        for (g, limb) in goals.iter_mut().zip(&self.limbs) {
            *g = limb.source_end.map(|s| {
                let s = s as usize;
                let e = limb.end as usize;
                self.target_reference[e].translation
                    + self.m * (ms[s].translation - self.source_reference[s].translation)
            });
        }
        if let Some(lower) = &self.lowering {
            lower.apply(self, &goals, out, &mut x.target);
        }
        for (limb, goal) in self.limbs.iter().zip(goals) {
            limb.apply(&self.target_parents, goal, out, &mut x.target);
        }
        let n = out_morphs.len().min(self.target_morph_defaults.len());
        out_morphs[..n].copy_from_slice(&self.target_morph_defaults[..n]);
        for &(t, s) in &self.morphs {
            if let (Some(o), Some(w)) = (out_morphs.get_mut(t), source_morphs.get(s)) {
                *o = *w;
            }
        }
    }
}

#[cfg(test)]
mod tests;
