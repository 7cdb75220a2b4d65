//! The creature: the mannequin with a tail (six joints off the pelvis) and two ears (two joints
//! and an end each, on the head), made by project code for the procedural-rigging example
//! (`scripts/creature.lua`: springs on the tail and ears, a look-at). Its clips are the
//! mannequin's, which leave the tail and ears at rest: everything they do comes from the
//! script. The ears' springs are the file's own, as a VRM avatar carries them
//! (`VRMC_springBone`, which the script takes with `rig:springs()`), with a sphere collider on
//! the head. `marionette mannequin --creature` writes `scripts/creature.glb`, beside the example.

use glam::{Mat4, Vec3};

use super::mesh::{emit, pt, Tube};
use super::rig::{defs, j, jd, Rig};
use crate::rigging::spring::Shape;
use crate::rigging::vrm::{VrmCollider, VrmColliderGroup, VrmJoint, VrmSpring, VrmSprings};
use crate::{JointIndex, Model, Morphs, Skeleton, Skin};

/// The tail's joints, root first, and the point the last one aims at.
const TAIL: [[f32; 3]; 7] = [
    [0.0, 0.93, -0.13],
    [0.0, 0.88, -0.24],
    [0.0, 0.83, -0.35],
    [0.0, 0.80, -0.46],
    [0.0, 0.79, -0.57],
    [0.0, 0.80, -0.67],
    [0.0, 0.82, -0.76],
];

/// An ear's two joints and its tip, on the left (the right mirrors it).
const EAR: [[f32; 3]; 3] = [[0.06, 1.79, 0.0], [0.1, 1.88, -0.01], [0.13, 1.97, -0.02]];

/// The ears' springs as a VRM file sets them: a three-joint chain each (the end is the tail),
/// stiffness 1.05 (about 4 Hz on a 10 cm bone), drag 0.22, no gravity, against a sphere on the
/// head. `base` is the first of the creature's own joints (the tail's).
fn ear_springs(base: usize) -> VrmSprings {
    let ear = |first: usize, name: &str| VrmSpring {
        name: name.into(),
        joints: (first..first + 3)
            .map(|j| VrmJoint {
                joint: j as JointIndex,
                hit_radius: 0.015,
                stiffness: 1.05,
                gravity_power: 0.0,
                gravity_dir: Vec3::NEG_Y,
                drag: 0.22,
            })
            .collect(),
        groups: vec![0],
        center: None,
    };
    VrmSprings {
        colliders: vec![VrmCollider {
            joint: j::HEAD as JointIndex,
            shape: Shape::Sphere {
                offset: Vec3::new(0.0, 0.07, 0.015),
                radius: 0.09,
            },
        }],
        groups: vec![VrmColliderGroup {
            name: "head".into(),
            colliders: vec![0],
        }],
        springs: vec![ear(base + 6, "L_ear"), ear(base + 9, "R_ear")],
    }
}

/// Builds the creature.
pub fn build() -> Model {
    let mut d = defs();
    let base = d.len();
    let v = |p: [f32; 3]| Vec3::from_array(p);
    for k in 0..6 {
        let parent = if k == 0 { j::PELVIS } else { base + k - 1 };
        d.push(jd(
            &format!("tail_{:02}", k + 1),
            Some(parent),
            v(TAIL[k]),
            v(TAIL[k + 1]),
            Vec3::X,
        ));
    }
    for (side, prefix) in ["L_", "R_"].iter().enumerate() {
        let m = |p: [f32; 3]| Vec3::new(if side == 0 { p[0] } else { -p[0] }, p[1], p[2]);
        let first = d.len();
        d.push(jd(
            &format!("{prefix}ear_01"),
            Some(j::HEAD),
            m(EAR[0]),
            m(EAR[1]),
            Vec3::Z,
        ));
        d.push(jd(
            &format!("{prefix}ear_02"),
            Some(first),
            m(EAR[1]),
            m(EAR[2]),
            Vec3::Z,
        ));
        d.push(jd(
            &format!("{prefix}ear_end"),
            Some(first + 1),
            m(EAR[2]),
            m(EAR[2]) + (m(EAR[2]) - m(EAR[1])) * 0.3,
            Vec3::Z,
        ));
    }
    let rig = Rig::from_defs(d);
    let n = rig.names.len();
    let (face, face_morphs) = super::face::build();
    let skeleton = match Skeleton::new(
        rig.names.clone(),
        rig.parents.clone(),
        rig.rest_local.clone(),
        Mat4::IDENTITY,
    ) {
        Ok(b) => b
            .skeleton
            .with_morphs(Morphs::new(vec![face_morphs]))
            .with_springs(ear_springs(base)),
        Err(e) => unreachable!("creature rig is invalid: {e}"),
    };
    let mut body = super::mesh::build();
    body.name = "creature".into();
    let tail = Tube {
        pts: (0..7)
            .map(|k| {
                let r = 0.055 - 0.006 * k as f32;
                pt(v(TAIL[k]), r, r, base + k.min(5))
            })
            .collect(),
        side: Vec3::X,
        caps: (0.04, 0.03),
        falloff: 0.04,
    };
    emit(&mut body, &tail);
    for side in 0..2 {
        let m = |p: [f32; 3]| Vec3::new(if side == 0 { p[0] } else { -p[0] }, p[1], p[2]);
        let first = base + 6 + 3 * side;
        emit(
            &mut body,
            &Tube {
                pts: vec![
                    pt(m(EAR[0]), 0.035, 0.012, first),
                    pt(m(EAR[1]), 0.04, 0.012, first + 1),
                    pt(m(EAR[2]), 0.015, 0.008, first + 1),
                ],
                side: Vec3::Z,
                caps: (0.02, 0.02),
                falloff: 0.03,
            },
        );
    }
    let skin = Skin {
        name: "creature".into(),
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
        clips: super::clips::build(&rig),
        images: Vec::new(),
        warnings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_creature_is_the_mannequin_with_a_tail_and_ears() {
        let c = super::build();
        let m = crate::mannequin::build();
        let s = &c.skeleton;
        assert_eq!(s.len(), m.skeleton.len() + 12);
        // the ears' springs, as a VRM file carries them
        let springs = s.springs();
        assert_eq!(springs.springs.len(), 2);
        for sp in &springs.springs {
            let names: Vec<&str> = sp.joints.iter().map(|j| s.name(j.joint)).collect();
            assert!(
                names[0].ends_with("ear_01") && names[2].ends_with("ear_end"),
                "{names:?}"
            );
            assert_eq!(springs.colliders_of(0).len(), 1);
        }
        for name in [
            "tail_01", "tail_06", "L_ear_02", "R_ear_01", "head", "L_foot",
        ] {
            assert!(s.find(name).is_some(), "{name}");
        }
        // the tail is one chain off the pelvis, each ear one chain off the head
        let tail_01 = s.find("tail_01").expect("tail");
        assert_eq!(s.parent(tail_01), s.find("pelvis"));
        let chain = crate::rigging::chain(s.parents(), tail_01, s.find("tail_06").expect("tip"));
        assert_eq!(chain.map(|c| c.len()), Some(6));
        let names: Vec<&str> = c.clips.iter().map(|c| c.name.as_str()).collect();
        let theirs: Vec<&str> = m.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, theirs);
        assert!(c.meshes[0].positions.len() > m.meshes[0].positions.len());
        assert!(c.meshes[0]
            .joints
            .iter()
            .flatten()
            .all(|&j| (j as usize) < s.len()));
    }
}
