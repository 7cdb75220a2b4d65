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

mod build;
pub mod ground;
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
use crate::{JointIndex, Transform};
use limb::compose;
use limb::{IkLimb, Lowering};

/// How a retarget is done (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct RetargetOptions {
    /// The pose both rigs are aligned in.
    pub reference: ReferencePose,
    /// Translation scale per axis of the character's world; `None`: the ratio of leg lengths.
    pub scale: Option<Vec3>,
    /// Run the IK pass on the legs.
    pub ik_feet: bool,
    /// Run the IK pass on the arms (off by default: a differently proportioned arm reaching
    /// the source's hand positions bends its elbow away from the capture's).
    pub ik_hands: bool,
    /// Where the source's feet are when planted in its clips, along its model up
    /// ([`ground::planted_height`]): the source's floor. `None`: its rest pose stands on it.
    pub source_ground: Option<f32>,
    /// The source's local pose where what it plays starts (its clip's first key): its anchor's
    /// position over the ground there is taken as the reference's, so the character starts
    /// where it stands, not at the capture's absolute position (Unreal's root motion
    /// extraction does the same). `None`: displacements from the source's reference.
    pub source_start: Option<Vec<Transform>>,
}

impl Default for RetargetOptions {
    fn default() -> Self {
        Self {
            reference: ReferencePose::Auto,
            scale: None,
            ik_feet: true,
            ik_hands: false,
            source_ground: None,
            source_start: None,
        }
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
    /// The source pose the last [`Retargeter::apply`] read, in the source's model space: the
    /// joints it reads ([`Retargeter::reads_source`]); the others hold stale values.
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
    /// At most four: two legs, two arms.
    limbs: Vec<IkLimb>,
    /// Lowers the hips when a foot's goal is out of the leg's reach.
    lowering: Option<Lowering>,
    morphs: Vec<(usize, usize)>,
    target_morph_defaults: Vec<f32>,
    scale: Vec3,
    notes: Vec<String>,
    map: JointMap,
    /// The poses the two rigs were aligned in ([`ReferencePose::Auto`] resolved).
    reference: ReferencePose,
}

impl Retargeter {
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

    /// The poses the two rigs were aligned in: their rests, or a T-pose (never
    /// [`ReferencePose::Auto`]: that is resolved when the retarget is built).
    pub fn reference(&self) -> ReferencePose {
        self.reference
    }

    /// Whether [`Retargeter::apply`] computes `joint`'s model transform in the source (the
    /// joints it reads and their ancestors; the others are left as they were in
    /// [`RetargetScratch::source_model`]).
    pub fn reads_source(&self, joint: JointIndex) -> bool {
        self.source_needed.binary_search(&joint).is_ok()
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
            lower.apply(
                &self.limbs,
                &self.target_parents,
                &goals,
                out,
                &mut x.target,
            );
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
