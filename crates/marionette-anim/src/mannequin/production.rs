//! The production-size test rig, made by code like the mannequin and never shipped: the
//! mannequin's 24 joints, hands with five three-joint fingers (and their ends), twist bones on
//! the arms and legs, a face (jaw, tongue, eyes, brows, cheeks, lips, nose), then hair strands
//! from the head and skirt chains from the pelvis until the rig has the joints asked for
//! ([`JOINTS`] by default, 256; `marionette mannequin --production --joints 1000` for the
//! scaling table). Twenty clips: the mannequin's five in four versions each, every joint past
//! the mannequin's swaying, so a bake has every channel to carry. The body mesh is the
//! mannequin's (skinned to its own joints); the added joints carry no vertices.

use glam::{Mat4, Vec3};

use super::rig::{defs, j, jd, JointDef, Landmarks as L, Rig};
use crate::{Model, Morphs, Skeleton, Skin};

/// Joints of the default production rig.
pub const JOINTS: usize = 256;

/// The fewest joints a production rig has (the mannequin's and the named extras).
pub fn min_joints() -> usize {
    named().len()
}

/// The mannequin's joints and the named extras (fingers, twist bones, face).
fn named() -> Vec<JointDef> {
    let mut d = defs();
    for side in 0..2 {
        let sx = L::sx(side);
        let p = if side == 0 { "L_" } else { "R_" };
        // fingers fan out from the hand's end along the arm, thumb forward
        let root = L::hand_end(side) - Vec3::new(0.05 * sx, 0.0, 0.0);
        for (f, finger) in ["thumb", "index", "middle", "ring", "pinky"]
            .iter()
            .enumerate()
        {
            let z = 0.035 - 0.0175 * f as f32;
            let mut at = root + Vec3::new(0.0, if f == 0 { -0.02 } else { 0.0 }, z);
            let len = [0.03, 0.035, 0.038, 0.035, 0.028][f];
            let mut parent = j::HAND[side];
            for k in 0..4 {
                let next = at + Vec3::new(len * sx, 0.0, 0.0);
                let name = if k == 3 {
                    format!("{p}{finger}_end")
                } else {
                    format!("{p}{finger}_{:02}", k + 1)
                };
                d.push(jd(&name, Some(parent), at, next, Vec3::Z));
                parent = d.len() - 1;
                at = next;
            }
        }
        // twist bones half way along each long bone
        let mid = |a: Vec3, b: Vec3| (a + b) * 0.5;
        let twists = [
            (
                "upperarm_twist",
                j::UPPERARM[side],
                L::shoulder(side),
                L::elbow(side),
                Vec3::Z,
            ),
            (
                "forearm_twist",
                j::FOREARM[side],
                L::elbow(side),
                L::wrist(side),
                Vec3::Z,
            ),
            (
                "thigh_twist",
                j::THIGH[side],
                L::hip(side),
                L::knee(side),
                Vec3::X,
            ),
            (
                "calf_twist",
                j::CALF[side],
                L::knee(side),
                L::ankle(side),
                Vec3::X,
            ),
        ];
        for (name, parent, a, b, hint) in twists {
            d.push(jd(&format!("{p}{name}"), Some(parent), mid(a, b), b, hint));
        }
    }
    // the face, off the head, facing +Z
    let head = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    let fwd = Vec3::new(0.0, 0.0, 0.03);
    let jaw = d.len();
    d.push(jd(
        "jaw",
        Some(j::HEAD),
        head(0.0, 1.66, 0.0),
        head(0.0, 1.6, 0.08),
        Vec3::X,
    ));
    d.push(jd(
        "jaw_end",
        Some(jaw),
        head(0.0, 1.6, 0.08),
        head(0.0, 1.59, 0.1),
        Vec3::X,
    ));
    let mut tongue = jaw;
    for k in 0..3 {
        let at = head(0.0, 1.61, 0.02 + 0.02 * k as f32);
        d.push(jd(
            &format!("tongue_{:02}", k + 1),
            Some(tongue),
            at,
            at + Vec3::new(0.0, 0.0, 0.02),
            Vec3::X,
        ));
        tongue = d.len() - 1;
    }
    for side in 0..2 {
        let sx = L::sx(side);
        let p = if side == 0 { "L_" } else { "R_" };
        let eye = d.len();
        let e = head(0.032 * sx, 1.72, 0.085);
        d.push(jd(&format!("{p}eye"), Some(j::HEAD), e, e + fwd, Vec3::X));
        d.push(jd(
            &format!("{p}eye_end"),
            Some(eye),
            e + fwd,
            e + fwd * 2.0,
            Vec3::X,
        ));
        for (k, part) in ["brow_inner", "brow_mid", "brow_outer"].iter().enumerate() {
            let b = head((0.015 + 0.02 * k as f32) * sx, 1.75, 0.09);
            d.push(jd(
                &format!("{p}{part}"),
                Some(j::HEAD),
                b,
                b + fwd,
                Vec3::X,
            ));
        }
        let c = head(0.045 * sx, 1.67, 0.08);
        d.push(jd(&format!("{p}cheek"), Some(j::HEAD), c, c + fwd, Vec3::X));
        let l = head(0.025 * sx, 1.63, 0.095);
        d.push(jd(
            &format!("{p}lip_corner"),
            Some(j::HEAD),
            l,
            l + fwd,
            Vec3::X,
        ));
    }
    for (name, parent, y) in [("lip_upper", j::HEAD, 1.645), ("lip_lower", jaw, 1.62)] {
        let l = head(0.0, y, 0.1);
        d.push(jd(name, Some(parent), l, l + fwd, Vec3::X));
    }
    let n = head(0.0, 1.69, 0.1);
    d.push(jd("nose", Some(j::HEAD), n, n + fwd, Vec3::X));
    d
}

/// `d` grown to `joints` with hair strands (six joints down the back of the head) and skirt
/// chains (five joints down from the pelvis), taking turns round the head and the hips.
fn grow(mut d: Vec<JointDef>, joints: usize) -> Vec<JointDef> {
    let mut strand = 0usize;
    while d.len() < joints {
        let hair = strand.is_multiple_of(2);
        let k = strand / 2;
        let (len, parent, start, step) = if hair {
            let a = 2.4 * (k as f32 * 0.61803).fract() - 1.2;
            let at = Vec3::new(0.07 * a.sin(), 1.78, -0.07 * a.cos().abs() - 0.02);
            (6, j::HEAD, at, Vec3::new(0.0, -0.045, -0.008))
        } else {
            let a = std::f32::consts::TAU * (k as f32 * 0.61803).fract();
            let out = Vec3::new(a.sin(), 0.0, a.cos());
            (
                5,
                j::PELVIS,
                Vec3::new(0.0, 0.97, 0.0) + out * 0.16,
                Vec3::new(0.0, -0.07, 0.0) + out * 0.012,
            )
        };
        let mut parent = parent;
        let mut at = start;
        for s in 0..len {
            if d.len() >= joints {
                break;
            }
            let name = if hair {
                format!("hair_{:03}_{:02}", k + 1, s + 1)
            } else {
                format!("skirt_{:03}_{:02}", k + 1, s + 1)
            };
            d.push(jd(&name, Some(parent), at, at + step, Vec3::X));
            parent = d.len() - 1;
            at += step;
        }
        strand += 1;
    }
    d
}

/// Builds the production rig with `joints` joints (at least [`min_joints`]; fewer are made
/// that many).
pub fn build(joints: usize) -> Model {
    let rig = Rig::from_defs(grow(named(), joints.max(min_joints())));
    let n = rig.names.len();
    let (face, face_morphs) = super::face::build();
    let skeleton = match Skeleton::new(
        rig.names.clone(),
        rig.parents.clone(),
        rig.rest_local.clone(),
        Mat4::IDENTITY,
    ) {
        Ok(b) => b.skeleton.with_morphs(Morphs::new(vec![face_morphs])),
        Err(e) => unreachable!("production rig is invalid: {e}"),
    };
    let mut body = super::mesh::build();
    body.name = "production".into();
    let skin = Skin {
        name: "production".into(),
        joints: (0..n as u16).collect(),
        inverse_bind: rig
            .rest_model
            .iter()
            .map(super::rig::inverse_bind)
            .collect(),
    };
    Model {
        source: Default::default(),
        skeleton,
        joint_nodes: (0..n).collect(),
        skins: vec![skin],
        meshes: vec![body, face],
        clips: super::clips::build_swaying(&rig, super::rig::JOINT_COUNT),
        images: Vec::new(),
        warnings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_production_rig_has_hands_twists_a_face_and_twenty_clips() {
        let m = build(JOINTS);
        let s = &m.skeleton;
        assert_eq!(s.len(), JOINTS);
        assert!(
            min_joints() > 90 && min_joints() < JOINTS,
            "{}",
            min_joints()
        );
        for name in [
            "L_thumb_01",
            "R_pinky_end",
            "L_forearm_twist",
            "R_calf_twist",
            "jaw",
            "tongue_03",
            "L_eye",
            "R_brow_outer",
            "lip_lower",
            "nose",
            "hair_001_01",
            "skirt_001_05",
            "L_foot",
        ] {
            assert!(s.find(name).is_some(), "{name}");
        }
        assert_eq!(s.parent(s.find("L_index_01").unwrap()), s.find("L_hand"));
        assert_eq!(m.clips.len(), 20);
        // every joint past the mannequin's is animated in every clip
        for c in &m.clips {
            let animated = c
                .tracks
                .iter()
                .filter(|t| usize::from(t.joint) >= 24)
                .count();
            assert_eq!(animated, JOINTS - 24, "{}", c.name);
        }
        let names: Vec<&str> = m.clips.iter().map(|c| c.name.as_str()).collect();
        assert!(
            names.contains(&"walk") && names.contains(&"wave_04"),
            "{names:?}"
        );
        // the 1000-joint variant, and the same bytes for the same call
        assert_eq!(build(1000).skeleton.len(), 1000);
        assert_eq!(build(min_joints()).skeleton.len(), min_joints());
        assert_eq!(build(JOINTS).skeleton.names(), m.skeleton.names());
    }
}
