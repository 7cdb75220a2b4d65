//! Finding a character's body in its skeleton: the hips, the spine and neck chains, the head,
//! and each arm and leg (shoulder, upper, lower, end joint, toe), from joint names
//! ([`super::names`]) checked against the hierarchy.
//!
//! Names say what a joint is; the hierarchy says which of several candidates is meant and
//! settles the names that depend on the scheme (Mixamo's `LeftLeg` is a calf because a
//! `LeftUpLeg` sits above it). Chains follow the hierarchy: the spine is every joint between the
//! hips and the neck, whatever those are called. Two joints found above the hips matter for
//! translation: the **anchor**, the lowest joint above both the hips and the legs (the hips
//! themselves on most rigs; `Body` on a rig whose legs do not hang from its hips), and the
//! **root**, the top of the hierarchy when it is not the anchor.

use crate::mirror::Side;
use crate::{JointIndex, Skeleton};

use super::names::{ambiguous_stem, parts, role_of_stem, Role};

/// One arm or leg.
#[derive(Clone, Debug, PartialEq)]
pub struct Limb {
    /// Which side.
    pub side: Side,
    /// The clavicle (arms only, where there is one).
    pub shoulder: Option<JointIndex>,
    /// Upper arm or thigh.
    pub upper: JointIndex,
    /// Forearm or calf (a descendant of `upper`).
    pub lower: JointIndex,
    /// Hand or foot, where there is one. It need not hang from `lower`: a rig may keep its feet
    /// elsewhere (`FootL` under the root of `RobotExpressive.glb`), see [`Limb::end_in_chain`].
    pub end: Option<JointIndex>,
    /// True when `end` is a descendant of `lower`.
    pub end_in_chain: bool,
    /// Toes (legs only).
    pub toe: Option<JointIndex>,
}

/// The body parts found in a skeleton.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Humanoid {
    /// The top of the hierarchy above the anchor, when it is not the anchor itself.
    pub root: Option<JointIndex>,
    /// The lowest joint above the hips and both legs (see the module docs).
    pub anchor: Option<JointIndex>,
    /// The pelvis.
    pub hips: Option<JointIndex>,
    /// Joints from the hips (excluded) up to the neck (excluded), bottom first.
    pub spine: Vec<JointIndex>,
    /// Joints from the neck up to the head (excluded), bottom first.
    pub neck: Vec<JointIndex>,
    /// The head.
    pub head: Option<JointIndex>,
    /// Left and right arm.
    pub arms: [Option<Limb>; 2],
    /// Left and right leg.
    pub legs: [Option<Limb>; 2],
    /// What could not be found, or was ambiguous, in words.
    pub notes: Vec<String>,
}

/// Index 0 for the left side, 1 for the right.
pub fn side_index(side: Side) -> usize {
    match side {
        Side::Left => 0,
        Side::Right => 1,
    }
}

/// The joints from `j` up to the top, `j` first.
fn ancestors(skeleton: &Skeleton, j: JointIndex) -> Vec<JointIndex> {
    let mut out = vec![j];
    let mut k = j;
    while let Some(p) = skeleton.parent(k) {
        out.push(p);
        k = p;
    }
    out
}

/// The lowest common ancestor of `joints` (a joint counts as its own ancestor).
fn common_ancestor(skeleton: &Skeleton, joints: &[JointIndex]) -> Option<JointIndex> {
    let (first, rest) = joints.split_first()?;
    let mut path = ancestors(skeleton, *first);
    for &j in rest {
        let theirs = ancestors(skeleton, j);
        path.retain(|a| theirs.contains(a));
    }
    path.first().copied()
}

fn depth(skeleton: &Skeleton, j: JointIndex) -> usize {
    ancestors(skeleton, j).len()
}

/// The path from `from` down to `to` (both included), or `None` when `to` is not below `from`.
fn path_down(skeleton: &Skeleton, from: JointIndex, to: JointIndex) -> Option<Vec<JointIndex>> {
    let mut up = ancestors(skeleton, to);
    let at = up.iter().position(|&a| a == from)?;
    up.truncate(at + 1);
    up.reverse();
    Some(up)
}

impl Humanoid {
    /// Finds the body parts of `skeleton`. Never fails: what is missing is left out and noted.
    pub fn find(skeleton: &Skeleton) -> Humanoid {
        let n = skeleton.len();
        let mut roles: Vec<Option<(Role, Option<Side>)>> = vec![None; n];
        for j in 0..n {
            let p = parts(&skeleton.names()[j]);
            if p.helper {
                continue;
            }
            let Some(mut role) = role_of_stem(&p.stem) else {
                continue;
            };
            if ambiguous_stem(&p.stem) {
                // `arm`/`leg` below an upper bone of the same side is the lower bone
                let upper = if role == Role::UpperArm {
                    Role::UpperArm
                } else {
                    Role::UpperLeg
                };
                let mut k = skeleton.parent(j as JointIndex);
                while let Some(a) = k {
                    if roles[a as usize] == Some((upper, p.side)) {
                        role = if upper == Role::UpperArm {
                            Role::LowerArm
                        } else {
                            Role::LowerLeg
                        };
                        break;
                    }
                    k = skeleton.parent(a);
                }
            }
            if role.sided() != p.side.is_some() {
                // `hand` without a side, `spine_L`: not what the tables mean
                continue;
            }
            roles[j] = Some((role, p.side));
        }
        let with = |role: Role, side: Option<Side>| -> Vec<JointIndex> {
            (0..n)
                .filter(|&j| roles[j] == Some((role, side)))
                .map(|j| j as JointIndex)
                .collect()
        };
        let topmost = |c: &[JointIndex]| c.iter().copied().min_by_key(|&j| depth(skeleton, j));
        let mut h = Humanoid::default();
        for side in [Side::Left, Side::Right] {
            h.legs[side_index(side)] = find_limb(skeleton, &with, side, false, &mut h.notes);
            h.arms[side_index(side)] = find_limb(skeleton, &with, side, true, &mut h.notes);
        }
        let uppers: Vec<JointIndex> = h.legs.iter().flatten().map(|l| l.upper).collect();
        h.hips = topmost(&with(Role::Hips, None)).or_else(|| {
            // no joint says hips: the joint both legs hang from
            (uppers.len() == 2)
                .then(|| common_ancestor(skeleton, &uppers))
                .flatten()
        });
        let Some(hips) = h.hips else {
            h.notes.push("no hips (pelvis) joint found".into());
            return h;
        };
        let mut anchor_of = uppers.clone();
        anchor_of.push(hips);
        h.anchor = common_ancestor(skeleton, &anchor_of);
        let top = *ancestors(skeleton, hips).last().unwrap_or(&hips);
        h.root = (Some(top) != h.anchor).then_some(top);
        // the neck: the topmost neck joint above the hips, else the joint both arms hang from
        let necks: Vec<JointIndex> = with(Role::Neck, None)
            .into_iter()
            .filter(|&j| skeleton.is_descendant_of(j, hips))
            .collect();
        let heads: Vec<JointIndex> = with(Role::Head, None)
            .into_iter()
            .filter(|&j| skeleton.is_descendant_of(j, hips))
            .collect();
        let arm_roots: Vec<JointIndex> = h
            .arms
            .iter()
            .flatten()
            .map(|a| a.shoulder.unwrap_or(a.upper))
            .collect();
        let chest = (arm_roots.len() == 2)
            .then(|| common_ancestor(skeleton, &arm_roots))
            .flatten();
        let neck = topmost(&necks);
        h.head = match neck {
            Some(nk) => topmost(
                &heads
                    .iter()
                    .copied()
                    .filter(|&j| skeleton.is_descendant_of(j, nk))
                    .collect::<Vec<_>>(),
            ),
            None => topmost(&heads),
        };
        match (neck, chest) {
            (Some(nk), _) => {
                if let Some(path) = path_down(skeleton, hips, nk) {
                    h.spine = path[1..path.len() - 1].to_vec();
                }
                if let Some(head) = h.head {
                    if let Some(path) = path_down(skeleton, nk, head) {
                        h.neck = path[..path.len() - 1].to_vec();
                    }
                } else {
                    h.neck = vec![nk];
                    h.notes.push("no head joint found".into());
                }
            }
            (None, Some(chest)) => {
                if let Some(path) = path_down(skeleton, hips, chest) {
                    h.spine = path[1..].to_vec();
                }
                h.notes.push("no neck joint found".into());
            }
            (None, None) => h.notes.push("no neck joint found".into()),
        }
        if let Some(note) = not_upright(skeleton, &h) {
            h.notes.push(note);
        }
        h
    }

    /// The joints found, with the role each plays (for reports and the map): sided roles with
    /// their side.
    pub fn joints(&self) -> Vec<(JointIndex, Role, Option<Side>)> {
        let mut out = Vec::new();
        let mut push = |j: Option<JointIndex>, r: Role, s: Option<Side>| {
            if let Some(j) = j {
                out.push((j, r, s));
            }
        };
        push(self.root, Role::Root, None);
        push(self.hips, Role::Hips, None);
        for &j in &self.spine {
            push(Some(j), Role::Spine, None);
        }
        for &j in &self.neck {
            push(Some(j), Role::Neck, None);
        }
        push(self.head, Role::Head, None);
        let kinds = [
            (&self.arms, [Role::UpperArm, Role::LowerArm, Role::Hand]),
            (&self.legs, [Role::UpperLeg, Role::LowerLeg, Role::Foot]),
        ];
        for (limbs, [u, l, e]) in kinds {
            for limb in limbs.iter().flatten() {
                let s = Some(limb.side);
                push(limb.shoulder, Role::Shoulder, s);
                push(Some(limb.upper), u, s);
                push(Some(limb.lower), l, s);
                push(limb.end, e, s);
                push(limb.toe, Role::Toe, s);
            }
        }
        out
    }
}

/// Finds one arm (`arm`) or leg of `side`.
fn find_limb(
    skeleton: &Skeleton,
    with: &dyn Fn(Role, Option<Side>) -> Vec<JointIndex>,
    side: Side,
    arm: bool,
    notes: &mut Vec<String>,
) -> Option<Limb> {
    let (upper_r, lower_r, end_r) = if arm {
        (Role::UpperArm, Role::LowerArm, Role::Hand)
    } else {
        (Role::UpperLeg, Role::LowerLeg, Role::Foot)
    };
    let what = |r: Role| {
        format!(
            "{} {}",
            if side == Side::Left { "left" } else { "right" },
            r.name()
        )
    };
    let s = Some(side);
    let nearest_below = |top: JointIndex, cands: Vec<JointIndex>| {
        cands
            .into_iter()
            .filter(|&j| j != top && skeleton.is_descendant_of(j, top))
            .min_by_key(|&j| depth(skeleton, j))
    };
    let uppers = with(upper_r, s);
    let upper = uppers.iter().copied().min_by_key(|&j| depth(skeleton, j))?;
    let Some(lower) = nearest_below(upper, with(lower_r, s)) else {
        notes.push(format!(
            "no {} below '{}'",
            what(lower_r),
            skeleton.name(upper)
        ));
        return None;
    };
    let shoulder = if arm {
        let mut k = skeleton.parent(upper);
        let mut found = None;
        while let Some(a) = k {
            if with(Role::Shoulder, s).contains(&a) {
                found = Some(a);
                break;
            }
            k = skeleton.parent(a);
        }
        found
    } else {
        None
    };
    let ends = with(end_r, s);
    let below: Vec<JointIndex> = ends
        .iter()
        .copied()
        .filter(|&j| skeleton.is_descendant_of(j, lower) && j != lower)
        .collect();
    let nearest_depth = below.iter().map(|&j| depth(skeleton, j)).min();
    let closest: Vec<JointIndex> = below
        .iter()
        .copied()
        .filter(|&j| Some(depth(skeleton, j)) == nearest_depth)
        .collect();
    let (end, end_in_chain) = match closest.as_slice() {
        [one] => (Some(*one), true),
        [] => match ends.as_slice() {
            // a foot kept outside the leg's chain (an IK-driven rig)
            [one] if !skeleton.is_descendant_of(*one, upper) => (Some(*one), false),
            _ => {
                notes.push(format!("no {} found", what(end_r)));
                (None, false)
            }
        },
        several => {
            let names: Vec<&str> = several.iter().map(|&j| skeleton.name(j)).collect();
            notes.push(format!(
                "several joints could be the {} ({}): none taken",
                what(end_r),
                names.join(", ")
            ));
            (None, false)
        }
    };
    let toe = match (arm, end) {
        (false, Some(e)) => nearest_below(e, with(Role::Toe, s)),
        _ => None,
    };
    Some(Limb {
        side,
        shoulder,
        upper,
        lower,
        end,
        end_in_chain,
        toe,
    })
}

/// How far from the world's up a body leans at rest, hips to head (or to the top of the
/// spine), in degrees: beyond this it is not a standing body.
const UPRIGHT_DEGREES: f32 = 45.0;

/// A note when the body does not stand upright at rest (a quadruped, a rig lying down): the
/// retarget reads the hips-to-head direction as up and the limbs as a standing body's, so such
/// a rig's front legs are taken for arms and its motion comes out wrong.
fn not_upright(skeleton: &Skeleton, h: &Humanoid) -> Option<String> {
    let hips = h.hips?;
    let top = h
        .head
        .or(h.neck.last().copied())
        .or(h.spine.last().copied())?;
    let rest = crate::rest_positions(skeleton);
    let at = |j: JointIndex| rest[j as usize];
    let spine = (at(top) - at(hips)).try_normalize()?;
    let degrees = spine
        .dot(glam::Vec3::Y)
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees();
    (degrees > UPRIGHT_DEGREES).then(|| {
        format!(
            "the body does not stand upright at rest (hips to {} {degrees:.0} degrees from up; a \
             quadruped?): the retarget expects standing bodies and will take front legs for \
             arms; check the map and the result",
            skeleton.name(top)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Transform;
    use glam::{Mat4, Vec3};

    fn skeleton(joints: &[(&str, Option<usize>)]) -> Skeleton {
        let rest = joints
            .iter()
            .map(|_| Transform::from_translation(Vec3::Y * 0.1))
            .collect();
        Skeleton::new(
            joints.iter().map(|j| j.0.to_string()).collect(),
            joints.iter().map(|j| j.1).collect(),
            rest,
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton
    }

    #[test]
    fn mannequin_body() {
        let m = crate::mannequin::build().skeleton;
        let h = Humanoid::find(&m);
        let name = |j: Option<JointIndex>| j.map(|j| m.name(j).to_string());
        assert_eq!(name(h.root).as_deref(), Some("root"));
        assert_eq!(name(h.hips).as_deref(), Some("pelvis"));
        assert_eq!(h.anchor, h.hips);
        let spine: Vec<&str> = h.spine.iter().map(|&j| m.name(j)).collect();
        assert_eq!(spine, ["spine_01", "spine_02", "chest"]);
        assert_eq!(name(h.head).as_deref(), Some("head"));
        let leg = h.legs[0].as_ref().unwrap();
        assert_eq!(m.name(leg.upper), "L_thigh");
        assert_eq!(name(leg.end).as_deref(), Some("L_foot"));
        assert_eq!(name(leg.toe).as_deref(), Some("L_toe"));
        let arm = h.arms[1].as_ref().unwrap();
        assert_eq!(name(arm.shoulder).as_deref(), Some("R_clavicle"));
        assert_eq!(name(arm.end).as_deref(), Some("R_hand"));
        assert!(h.notes.is_empty(), "{:?}", h.notes);
    }

    #[test]
    fn a_body_lying_down_is_noted() {
        let m = crate::mannequin::build().skeleton;
        let lying = |angle: f32| {
            let armature = Mat4::from_rotation_x(angle);
            let s = Skeleton::new(
                m.names().to_vec(),
                m.parents().iter().map(|p| p.map(usize::from)).collect(),
                m.rest_pose().to_vec(),
                armature,
            )
            .unwrap()
            .skeleton;
            Humanoid::find(&s).notes
        };
        // leaning 30 degrees is still standing; on its back (90) it is not
        assert!(lying(30f32.to_radians()).is_empty());
        let notes = lying(std::f32::consts::FRAC_PI_2);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("does not stand upright") && notes[0].contains("90 degrees"),
            "{notes:?}"
        );
    }

    #[test]
    fn mixamo_and_robot_layouts() {
        let mixamo = skeleton(&[
            ("mixamorig:Hips", None),
            ("mixamorig:Spine", Some(0)),
            ("mixamorig:Spine1", Some(1)),
            ("mixamorig:Neck", Some(2)),
            ("mixamorig:Head", Some(3)),
            ("mixamorig:LeftUpLeg", Some(0)),
            ("mixamorig:LeftLeg", Some(5)),
            ("mixamorig:LeftFoot", Some(6)),
            ("mixamorig:RightUpLeg", Some(0)),
            ("mixamorig:RightLeg", Some(8)),
            ("mixamorig:RightFoot", Some(9)),
            ("mixamorig:LeftShoulder", Some(2)),
            ("mixamorig:LeftArm", Some(11)),
            ("mixamorig:LeftForeArm", Some(12)),
            ("mixamorig:LeftHand", Some(13)),
        ]);
        let h = Humanoid::find(&mixamo);
        assert_eq!(h.root, None);
        assert_eq!(h.anchor, Some(0));
        let leg = h.legs[0].as_ref().unwrap();
        assert_eq!((leg.upper, leg.lower, leg.end), (5, 6, Some(7)));
        let arm = h.arms[0].as_ref().unwrap();
        assert_eq!((arm.shoulder, arm.upper, arm.lower), (Some(11), 12, 13));
        assert!(h.arms[1].is_none());

        // legs beside the hips under a body joint; feet under the root, outside the legs
        let robot = skeleton(&[
            ("Bone", None),
            ("FootL", Some(0)),
            ("Body", Some(0)),
            ("Hips", Some(2)),
            ("Abdomen", Some(3)),
            ("Neck", Some(4)),
            ("Head", Some(5)),
            ("UpperLegL", Some(2)),
            ("LowerLegL", Some(7)),
            ("UpperLegR", Some(2)),
            ("LowerLegR", Some(9)),
            ("FootR", Some(0)),
            ("PoleTargetL", Some(0)),
        ]);
        let h = Humanoid::find(&robot);
        assert_eq!((h.root, h.anchor, h.hips), (Some(0), Some(2), Some(3)));
        assert_eq!(h.spine, vec![4]);
        let leg = h.legs[0].as_ref().unwrap();
        assert_eq!((leg.end, leg.end_in_chain), (Some(1), false));
        assert_eq!(h.legs[1].as_ref().unwrap().end, Some(11));
    }
}
