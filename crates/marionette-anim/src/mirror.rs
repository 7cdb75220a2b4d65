//! Mirroring poses: left and right joints swap (paired by name) and every joint is reflected
//! across the character's sagittal plane.
//!
//! For glTF characters (+Y up, +Z forward) the sagittal plane is `X = 0`. Reflecting a transform
//! across it conjugates it by `S = diag(-1, 1, 1)`: translation `(x, y, z) -> (-x, y, z)`,
//! rotation `(x, y, z, w) -> (x, -y, -z, w)`. Conjugation commutes with the hierarchy, so it can
//! be done on local poses. Rigs whose left and right joints do not have mirror-image rest frames
//! (a DCC tool's bone roll, say) get a per-joint correction computed from the rest pose, so the
//! mirrored pose is right in model space for any rig; for symmetric rigs the correction is the
//! identity. Joints without a partner mirror in place. Mirroring twice gives the original pose.
//!
//! Pairs are found by name: `L_`/`R_` (and `l_`/`r_`) prefixes, `.L`/`.R`, `_L`/`_R`, `.l`/`.r`,
//! `_l`/`_r` suffixes, and `Left`/`Right` (also `left`/`right`, `LEFT`/`RIGHT`) anywhere in the
//! name, with the rig's own case, and a capital `L`/`R` closing a capitalised name (`UpperArmL`,
//! `Palm2R`). Trailing exporter node numbers are ignored when pairing (`b_LeftLeg01_015` pairs
//! with `b_RightLeg01_019`). [`MirrorMap::with_pairs`] takes a script's own pairs on top.
//!
//! Morph weights swap the same way: a target pairs with the target of the mirrored name in its
//! mesh (`smile_L` with `smile_R`), else with the target of the same name in the mirrored mesh
//! (`Eye_L.blink` with `Eye_R.blink`); unpaired targets keep their weight.
//!
//! ```
//! use glam::{Mat4, Vec3};
//! use marionette_anim::{mirror::MirrorMap, Skeleton, Transform};
//!
//! let skel = Skeleton::new(
//!     vec!["root".into(), "L_hand".into(), "R_hand".into()],
//!     vec![None, Some(0), Some(0)],
//!     vec![
//!         Transform::IDENTITY,
//!         Transform::from_translation(Vec3::new(1.0, 0.0, 0.0)),
//!         Transform::from_translation(Vec3::new(-1.0, 0.0, 0.0)),
//!     ],
//!     Mat4::IDENTITY,
//! )
//! .unwrap()
//! .skeleton;
//! let map = MirrorMap::new(&skel);
//! let mut pose = skel.rest_pose().to_vec();
//! pose[1].translation.y = 0.5; // raise the left hand
//! let mut out = pose.clone();
//! map.mirror(&pose, &mut out);
//! assert_eq!(out[2].translation, Vec3::new(-1.0, 0.5, 0.0)); // now the right hand is raised
//! ```

#![warn(missing_docs)]

use glam::{Quat, Vec3};

use super::{JointIndex, Skeleton, Transform};

/// Name patterns that mark a side, as (left, right) pairs.
const PREFIXES: [(&str, &str); 2] = [("L_", "R_"), ("l_", "r_")];
const SUFFIXES: [(&str, &str); 4] = [(".L", ".R"), ("_L", "_R"), (".l", ".r"), ("_l", "_r")];
const WORDS: [(&str, &str); 3] = [("Left", "Right"), ("left", "right"), ("LEFT", "RIGHT")];

/// Which side of the character a joint name says it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A left joint (`L_arm`, `arm.L`, `LeftArm`, ...).
    Left,
    /// A right joint.
    Right,
}

/// The side a joint name marks and the name of its partner on the other side, if any.
pub fn side_of(name: &str) -> Option<(Side, String)> {
    for (l, r) in PREFIXES {
        if let Some(rest) = name.strip_prefix(l) {
            return Some((Side::Left, format!("{r}{rest}")));
        }
        if let Some(rest) = name.strip_prefix(r) {
            return Some((Side::Right, format!("{l}{rest}")));
        }
    }
    for (l, r) in SUFFIXES {
        if let Some(rest) = name.strip_suffix(l) {
            return Some((Side::Left, format!("{rest}{r}")));
        }
        if let Some(rest) = name.strip_suffix(r) {
            return Some((Side::Right, format!("{rest}{l}")));
        }
    }
    for (l, r) in WORDS {
        if name.contains(l) {
            return Some((Side::Left, name.replacen(l, r, 1)));
        }
        if name.contains(r) {
            return Some((Side::Right, name.replacen(r, l, 1)));
        }
    }
    // `UpperArmL`, `Palm2R`: a capital L/R closing a capitalised word (or a number after one)
    let mut chars = name.chars().rev();
    let (last, before) = (chars.next()?, chars.next()?);
    let capitalised = name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    if capitalised && (before.is_ascii_lowercase() || before.is_ascii_digit()) {
        let stem = &name[..name.len() - 1];
        match last {
            'L' => return Some((Side::Left, format!("{stem}R"))),
            'R' => return Some((Side::Right, format!("{stem}L"))),
            _ => {}
        }
    }
    None
}

/// A name without an exporter's trailing node number (`b_LeftLeg01_015` -> `b_LeftLeg01`), so
/// partners whose numbers differ still pair.
fn without_number(name: &str) -> &str {
    match name.rfind('_') {
        Some(i)
            if i > 0 && name[i + 1..].chars().all(|c| c.is_ascii_digit()) && i + 1 < name.len() =>
        {
            &name[..i]
        }
        _ => name,
    }
}

/// The partner of joint `j` by name: the exact mirrored name, else the joint whose name matches
/// it once trailing node numbers are ignored.
fn partner_by_name(skeleton: &Skeleton, j: usize) -> Option<JointIndex> {
    let (_, other) = side_of(&skeleton.names()[j])?;
    skeleton.find(&other).or_else(|| {
        let want = without_number(&other);
        let found = skeleton
            .names()
            .iter()
            .position(|n| n != &skeleton.names()[j] && without_number(n) == want)?;
        Some(found as JointIndex)
    })
}

/// Reflects a transform across the `X = 0` plane (conjugation by `diag(-1, 1, 1)`).
#[inline]
pub fn reflect_x(t: &Transform) -> Transform {
    Transform {
        translation: Vec3::new(-t.translation.x, t.translation.y, t.translation.z),
        rotation: Quat::from_xyzw(t.rotation.x, -t.rotation.y, -t.rotation.z, t.rotation.w),
        scale: t.scale,
    }
}

/// Left/right pairs and rest-frame corrections of one skeleton, built once.
#[derive(Clone, Debug, PartialEq)]
pub struct MirrorMap {
    /// Partner of each joint (itself when unpaired).
    pair: Vec<JointIndex>,
    /// Parent of each joint.
    parents: Vec<Option<JointIndex>>,
    /// Per-joint model-space correction `(S·B_pair·S)⁻¹·B_j` (identity for symmetric rigs).
    correction: Vec<Transform>,
    /// True when every correction is the identity (the fast path).
    symmetric: bool,
    /// Partner of each morph weight (itself when unpaired).
    morph_pair: Vec<u32>,
}

impl MirrorMap {
    /// Pairs joints by name and computes the rest-frame corrections.
    pub fn new(skeleton: &Skeleton) -> Self {
        Self::with_pairs(skeleton, &[])
    }

    /// Like [`MirrorMap::new`], with `explicit` pairs (either order) taking precedence over the
    /// pairs found by name.
    pub fn with_pairs(skeleton: &Skeleton, explicit: &[(JointIndex, JointIndex)]) -> Self {
        let n = skeleton.len();
        let mut pair: Vec<JointIndex> = (0..n)
            .map(|j| partner_by_name(skeleton, j).unwrap_or(j as JointIndex))
            .collect();
        for &(a, b) in explicit {
            if usize::from(a) < n && usize::from(b) < n {
                pair[usize::from(a)] = b;
                pair[usize::from(b)] = a;
            }
        }
        // Rest model-space transforms, parent-first.
        let rest = skeleton.rest_pose();
        let mut model: Vec<Transform> = Vec::with_capacity(n);
        for (r, parent) in rest.iter().zip(skeleton.parents()) {
            let m = match parent {
                Some(p) => model[*p as usize].mul_transform(r),
                None => *r,
            };
            model.push(m);
        }
        let correction: Vec<Transform> = (0..n)
            .map(|j| {
                reflect_x(&model[pair[j] as usize])
                    .inverse()
                    .mul_transform(&model[j])
            })
            .collect();
        let symmetric = correction
            .iter()
            .all(|c| c.abs_diff_eq(&Transform::IDENTITY, 1e-5));
        Self {
            pair,
            parents: skeleton.parents().to_vec(),
            correction,
            symmetric,
            morph_pair: morph_pairs(skeleton),
        }
    }

    /// Writes the mirror image of morph `weights` into `out`: paired targets swap.
    pub fn mirror_morphs(&self, weights: &[f32], out: &mut [f32]) {
        for ((o, &p), &w) in out.iter_mut().zip(&self.morph_pair).zip(weights) {
            *o = weights.get(p as usize).copied().unwrap_or(w);
        }
    }

    /// The partner of morph weight `k` (itself when unpaired).
    pub fn morph_partner(&self, k: usize) -> usize {
        self.morph_pair.get(k).map_or(k, |&p| p as usize)
    }

    /// How many joints have a partner other than themselves.
    pub fn paired(&self) -> usize {
        self.pair
            .iter()
            .enumerate()
            .filter(|(j, p)| usize::from(**p) != *j)
            .count()
    }

    /// The partner of `joint` (itself when unpaired).
    pub fn partner(&self, joint: JointIndex) -> JointIndex {
        self.pair[joint as usize]
    }

    /// True when the rig's rest pose is its own mirror image (no corrections needed).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Writes the mirror image of `pose` into `out` (both with one transform per joint).
    pub fn mirror(&self, pose: &[Transform], out: &mut [Transform]) {
        let n = self.pair.len().min(pose.len()).min(out.len());
        for j in 0..n {
            let m = reflect_x(&pose[self.pair[j] as usize]);
            out[j] = if self.symmetric {
                m
            } else {
                let c_parent =
                    self.parents[j].map_or(Transform::IDENTITY, |p| self.correction[p as usize]);
                c_parent
                    .inverse()
                    .mul_transform(&m)
                    .mul_transform(&self.correction[j])
            };
        }
    }
}

/// The partner of each morph weight (see the module docs).
fn morph_pairs(skeleton: &Skeleton) -> Vec<u32> {
    let morphs = skeleton.morphs();
    let mut out: Vec<u32> = (0..morphs.len() as u32).collect();
    for (s, set) in morphs.sets().iter().enumerate() {
        let base = morphs.range(s).start;
        for (t, target) in set.targets.iter().enumerate() {
            let within = side_of(target)
                .and_then(|(_, other)| set.targets.iter().position(|x| *x == other))
                .map(|o| base + o);
            let across = || {
                let (_, other_set) = side_of(&set.name)?;
                let o = morphs.sets().iter().position(|x| x.name == other_set)?;
                let ot = morphs.sets()[o].targets.iter().position(|x| x == target)?;
                Some(morphs.range(o).start + ot)
            };
            if let Some(p) = within.or_else(across) {
                out[base + t] = p as u32;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat4;

    fn skeleton(rest: Vec<Transform>) -> Skeleton {
        let names = ["pelvis", "L_thigh", "R_thigh", "spine", "hand.L", "hand.R"];
        Skeleton::new(
            names.iter().map(|s| s.to_string()).collect(),
            vec![None, Some(0), Some(0), Some(0), Some(3), Some(3)],
            rest,
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton
    }

    fn symmetric_rest() -> Vec<Transform> {
        vec![
            Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            Transform::from_translation(Vec3::new(0.1, 0.0, 0.0)),
            Transform::from_translation(Vec3::new(-0.1, 0.0, 0.0)),
            Transform::from_translation(Vec3::new(0.0, 0.3, 0.0)),
            Transform::from_translation(Vec3::new(0.5, 0.2, 0.0)),
            Transform::from_translation(Vec3::new(-0.5, 0.2, 0.0)),
        ]
    }

    fn posed(rest: &[Transform]) -> Vec<Transform> {
        rest.iter()
            .enumerate()
            .map(|(j, r)| {
                let k = j as f32;
                Transform::new(
                    r.translation + Vec3::new(0.01 * k, 0.02, -0.03 * k),
                    (r.rotation * Quat::from_euler(glam::EulerRot::XYZ, 0.1 * k, 0.3, -0.2 * k))
                        .normalize(),
                    Vec3::ONE,
                )
            })
            .collect()
    }

    /// Names pair for every supported convention, keeping the rig's case.
    /// The naming conventions of issue 12 are recognised (moved from the script's mask tests);
    /// centre joints have no side.
    #[test]
    fn sides_from_names() {
        let side = |n: &str| side_of(n).map(|(s, _)| s);
        assert_eq!(side("L_thigh"), Some(Side::Left));
        assert_eq!(side("R_hand"), Some(Side::Right));
        assert_eq!(side("LeftArm"), Some(Side::Left));
        assert_eq!(side("hand.R"), Some(Side::Right));
        assert_eq!(side("foot_l"), Some(Side::Left));
        assert_eq!(side("spine_01"), None);
        assert_eq!(side("head"), None);
        assert_eq!(side("b_LeftLeg01_015"), Some(Side::Left));
        assert_eq!(side_of("UpperArmL"), Some((Side::Left, "UpperArmR".into())));
        assert_eq!(side_of("Palm2R"), Some((Side::Right, "Palm2L".into())));
        assert_eq!(side("FootL"), Some(Side::Left));
        assert_eq!(side("Bone"), None);
        assert_eq!(side("ROOT"), None);
        assert_eq!(without_number("b_RightLeg01_019"), "b_RightLeg01");
        assert_eq!(without_number("spine_"), "spine_");
    }

    #[test]
    fn side_names() {
        assert_eq!(side_of("L_arm"), Some((Side::Left, "R_arm".into())));
        assert_eq!(side_of("arm.R"), Some((Side::Right, "arm.L".into())));
        assert_eq!(side_of("arm_l"), Some((Side::Left, "arm_r".into())));
        assert_eq!(
            side_of("mixamorig:RightHand"),
            Some((Side::Right, "mixamorig:LeftHand".into()))
        );
        assert_eq!(side_of("spine"), None);
    }

    /// Symmetric rig: the left thigh's pose lands reflected on the right thigh, by the formula.
    #[test]
    fn swaps_and_reflects() {
        let skel = skeleton(symmetric_rest());
        let map = MirrorMap::new(&skel);
        assert!(map.is_symmetric());
        assert_eq!(map.partner(1), 2);
        assert_eq!(map.partner(3), 3);
        let pose = posed(skel.rest_pose());
        let mut out = pose.clone();
        map.mirror(&pose, &mut out);
        let l = pose[1];
        assert_eq!(
            out[2].translation,
            Vec3::new(-l.translation.x, l.translation.y, l.translation.z)
        );
        let q = l.rotation;
        assert_eq!(out[2].rotation, Quat::from_xyzw(q.x, -q.y, -q.z, q.w));
        // an unpaired joint mirrors in place
        assert_eq!(out[3].translation.x, -pose[3].translation.x);
    }

    /// Mirroring twice is the identity, for symmetric and for asymmetric (rolled) rest frames.
    #[test]
    fn twice_is_identity() {
        let mut rolled = symmetric_rest();
        rolled[4].rotation = Quat::from_rotation_x(0.7);
        rolled[5].rotation = Quat::from_rotation_z(-1.1);
        for rest in [symmetric_rest(), rolled] {
            let skel = skeleton(rest);
            let map = MirrorMap::new(&skel);
            let pose = posed(skel.rest_pose());
            let mut once = pose.clone();
            let mut twice = pose.clone();
            map.mirror(&pose, &mut once);
            map.mirror(&once, &mut twice);
            for (a, b) in pose.iter().zip(&twice) {
                assert!(a.abs_diff_eq(b, 1e-5), "{a:?} vs {b:?}");
            }
        }
    }

    /// On a rolled rig the mirrored rest pose is the rest pose (rest is symmetric in model space).
    #[test]
    fn rolled_rest_mirrors_to_itself() {
        let mut rest = symmetric_rest();
        rest[4].rotation = Quat::from_rotation_x(0.7);
        rest[5].rotation = Quat::from_rotation_z(-1.1);
        let skel = skeleton(rest.clone());
        let map = MirrorMap::new(&skel);
        assert!(!map.is_symmetric());
        let mut out = rest.clone();
        map.mirror(&rest, &mut out);
        for (a, b) in rest.iter().zip(&out) {
            assert!(a.abs_diff_eq(b, 1e-5), "{a:?} vs {b:?}");
        }
    }

    /// Sided targets swap within a mesh, sided meshes swap their same-named targets; others
    /// stay.
    #[test]
    fn morphs_swap_by_name() {
        use crate::{MorphSet, Morphs};
        let set = |name: &str, targets: &[&str]| MorphSet {
            name: name.into(),
            targets: targets.iter().map(|t| t.to_string()).collect(),
            ..MorphSet::default()
        };
        let skel = skeleton(symmetric_rest()).with_morphs(Morphs::new(vec![
            set("face", &["smile_L", "smile_R", "jaw_open"]),
            set("Eye_L", &["blink"]),
            set("Eye_R", &["blink"]),
        ]));
        let map = MirrorMap::new(&skel);
        let mut out = [0.0; 5];
        map.mirror_morphs(&[0.1, 0.2, 0.3, 0.4, 0.5], &mut out);
        assert_eq!(out, [0.2, 0.1, 0.3, 0.5, 0.4]);
        assert_eq!(map.morph_partner(2), 2);
    }
}
