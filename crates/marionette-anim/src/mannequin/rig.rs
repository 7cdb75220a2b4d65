//! The mannequin's joints: names, hierarchy and bind pose (Y-up, metres, facing +Z).
//!
//! Every joint's local +Y axis aims at its child; the local X axis is the joint's main bend
//! axis (lateral for spine and legs, the elbow hinge for arms), chosen so the left and right
//! sides are mirror images. The bind pose is a T-pose with elbows and knees bent a few degrees
//! in their natural direction, so IK knows which way they bend.

use glam::{Mat3, Quat, Vec3};

use crate::Transform;

/// One joint of the rig description.
pub(super) struct JointDef {
    name: String,
    parent: Option<usize>,
    /// Bind position in model space.
    pos: Vec3,
    /// Point the joint's +Y axis aims at (its child, or an end point for leaf joints).
    aim_at: Vec3,
    /// Hint for the local X axis.
    x_hint: Vec3,
}

/// Joint indices by name, for the clip builders.
pub mod j {
    #![allow(missing_docs)]
    pub const ROOT: usize = 0;
    pub const PELVIS: usize = 1;
    pub const SPINE_01: usize = 2;
    pub const SPINE_02: usize = 3;
    pub const CHEST: usize = 4;
    pub const NECK: usize = 5;
    pub const HEAD: usize = 6;
    /// `[L, R]` clavicle.
    pub const CLAVICLE: [usize; 2] = [8, 12];
    pub const UPPERARM: [usize; 2] = [9, 13];
    pub const FOREARM: [usize; 2] = [10, 14];
    pub const HAND: [usize; 2] = [11, 15];
    pub const THIGH: [usize; 2] = [16, 20];
    pub const CALF: [usize; 2] = [17, 21];
    pub const FOOT: [usize; 2] = [18, 22];
    pub const TOE: [usize; 2] = [19, 23];
}

/// Number of joints in the rig.
pub const JOINT_COUNT: usize = 24;

/// Model-space landmark points used by the rig and the mesh, for the left side (`side` = 0)
/// or the right side (`side` = 1, mirrored in X).
pub struct Landmarks;

impl Landmarks {
    /// Mirror factor for X: +1 for left (the character's left is +X when facing +Z), -1 for right.
    pub fn sx(side: usize) -> f32 {
        if side == 0 {
            1.0
        } else {
            -1.0
        }
    }
    /// Shoulder (upper arm joint).
    pub fn shoulder(side: usize) -> Vec3 {
        Vec3::new(0.19 * Self::sx(side), 1.46, -0.02)
    }
    /// Elbow (forearm joint).
    pub fn elbow(side: usize) -> Vec3 {
        Vec3::new(0.47 * Self::sx(side), 1.46, -0.045)
    }
    /// Wrist (hand joint).
    pub fn wrist(side: usize) -> Vec3 {
        Vec3::new(0.73 * Self::sx(side), 1.46, -0.02)
    }
    /// Finger tips.
    pub fn hand_end(side: usize) -> Vec3 {
        Vec3::new(0.90 * Self::sx(side), 1.46, -0.02)
    }
    /// Hip (thigh joint).
    pub fn hip(side: usize) -> Vec3 {
        Vec3::new(0.095 * Self::sx(side), 0.95, 0.0)
    }
    /// Knee (calf joint).
    pub fn knee(side: usize) -> Vec3 {
        Vec3::new(0.095 * Self::sx(side), 0.52, 0.025)
    }
    /// Ankle (foot joint).
    pub fn ankle(side: usize) -> Vec3 {
        Vec3::new(0.095 * Self::sx(side), 0.085, -0.02)
    }
    /// Ball of the foot (toe joint).
    pub fn ball(side: usize) -> Vec3 {
        Vec3::new(0.095 * Self::sx(side), 0.025, 0.13)
    }
    /// Tip of the toes.
    pub fn toe_end(side: usize) -> Vec3 {
        Vec3::new(0.095 * Self::sx(side), 0.02, 0.21)
    }
    /// Back of the heel, on the ground.
    pub fn heel(side: usize) -> Vec3 {
        Vec3::new(0.095 * Self::sx(side), 0.0, -0.075)
    }
}

/// The inverse bind matrix of a joint at `rest` (model space): its inverse, with the last row
/// exactly (0, 0, 0, 1) as glTF requires of an affine matrix.
pub fn inverse_bind(rest: &Transform) -> glam::Mat4 {
    let mut m = rest.to_matrix().inverse();
    m.x_axis.w = 0.0;
    m.y_axis.w = 0.0;
    m.z_axis.w = 0.0;
    m.w_axis.w = 1.0;
    m
}

/// Rotation whose +Y axis is `aim` and whose X axis is as close to `x_hint` as possible.
pub fn frame(aim: Vec3, x_hint: Vec3) -> Quat {
    let y = aim.normalize();
    let z = x_hint.cross(y).normalize();
    let x = y.cross(z);
    Quat::from_mat3(&Mat3::from_cols(x, y, z)).normalize()
}

pub(super) fn defs() -> Vec<JointDef> {
    let up = Vec3::Y;
    let lat = Vec3::X;
    let mut d = vec![
        jd("root", None, Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0), lat),
        jd(
            "pelvis",
            Some(0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 1.1, -0.01),
            lat,
        ),
        jd(
            "spine_01",
            Some(1),
            Vec3::new(0.0, 1.1, -0.01),
            Vec3::new(0.0, 1.23, -0.015),
            lat,
        ),
        jd(
            "spine_02",
            Some(2),
            Vec3::new(0.0, 1.23, -0.015),
            Vec3::new(0.0, 1.36, -0.01),
            lat,
        ),
        jd(
            "chest",
            Some(3),
            Vec3::new(0.0, 1.36, -0.01),
            Vec3::new(0.0, 1.52, -0.01),
            lat,
        ),
        jd(
            "neck",
            Some(4),
            Vec3::new(0.0, 1.52, -0.01),
            Vec3::new(0.0, 1.62, 0.0),
            lat,
        ),
        jd(
            "head",
            Some(5),
            Vec3::new(0.0, 1.62, 0.0),
            Vec3::new(0.0, 1.81, 0.0),
            lat,
        ),
        jd(
            "head_end",
            Some(6),
            Vec3::new(0.0, 1.81, 0.0),
            Vec3::new(0.0, 1.9, 0.0),
            lat,
        ),
    ];
    for side in 0..2 {
        let sx = Landmarks::sx(side);
        let hinge = up * sx;
        let prefix = if side == 0 { "L_" } else { "R_" };
        let base = d.len();
        let clav = Vec3::new(0.03 * sx, 1.45, 0.01);
        d.push(jd2(
            prefix,
            "clavicle",
            Some(j::CHEST),
            clav,
            Landmarks::shoulder(side),
            hinge,
        ));
        d.push(jd2(
            prefix,
            "upperarm",
            Some(base),
            Landmarks::shoulder(side),
            Landmarks::elbow(side),
            hinge,
        ));
        d.push(jd2(
            prefix,
            "forearm",
            Some(base + 1),
            Landmarks::elbow(side),
            Landmarks::wrist(side),
            hinge,
        ));
        d.push(jd2(
            prefix,
            "hand",
            Some(base + 2),
            Landmarks::wrist(side),
            Landmarks::hand_end(side),
            hinge,
        ));
    }
    for side in 0..2 {
        let prefix = if side == 0 { "L_" } else { "R_" };
        let base = d.len();
        d.push(jd2(
            prefix,
            "thigh",
            Some(j::PELVIS),
            Landmarks::hip(side),
            Landmarks::knee(side),
            lat,
        ));
        d.push(jd2(
            prefix,
            "calf",
            Some(base),
            Landmarks::knee(side),
            Landmarks::ankle(side),
            lat,
        ));
        d.push(jd2(
            prefix,
            "foot",
            Some(base + 1),
            Landmarks::ankle(side),
            Landmarks::ball(side),
            lat,
        ));
        d.push(jd2(
            prefix,
            "toe",
            Some(base + 2),
            Landmarks::ball(side),
            Landmarks::toe_end(side),
            lat,
        ));
    }
    d
}

pub(super) fn jd(
    name: &str,
    parent: Option<usize>,
    pos: Vec3,
    aim_at: Vec3,
    x_hint: Vec3,
) -> JointDef {
    JointDef {
        name: name.to_string(),
        parent,
        pos,
        aim_at,
        x_hint,
    }
}

fn jd2(
    prefix: &str,
    name: &str,
    parent: Option<usize>,
    pos: Vec3,
    aim_at: Vec3,
    x_hint: Vec3,
) -> JointDef {
    JointDef {
        name: format!("{prefix}{name}"),
        parent,
        pos,
        aim_at,
        x_hint,
    }
}

/// The rig: names, parents, bind pose as local TRS and as model-space transforms.
pub struct Rig {
    /// Joint names.
    pub names: Vec<String>,
    /// Parent of each joint (parent-first order).
    pub parents: Vec<Option<usize>>,
    /// Bind pose, local TRS.
    pub rest_local: Vec<Transform>,
    /// Bind pose, model space.
    pub rest_model: Vec<Transform>,
}

impl Rig {
    /// Builds the rig from the joint table.
    pub fn new() -> Rig {
        Rig::from_defs(defs())
    }

    /// Builds a rig from a joint table (parent-first).
    pub(super) fn from_defs(defs: Vec<JointDef>) -> Rig {
        let model: Vec<Transform> = defs
            .iter()
            .map(|d| Transform::new(d.pos, frame(d.aim_at - d.pos, d.x_hint), Vec3::ONE))
            .collect();
        let local = defs
            .iter()
            .enumerate()
            .map(|(i, d)| match d.parent {
                None => model[i],
                Some(p) => {
                    let inv = model[p].rotation.conjugate();
                    Transform::new(
                        inv * (model[i].translation - model[p].translation),
                        (inv * model[i].rotation).normalize(),
                        Vec3::ONE,
                    )
                }
            })
            .collect();
        Rig {
            names: defs.iter().map(|d| d.name.clone()).collect(),
            parents: defs.iter().map(|d| d.parent).collect(),
            rest_local: local,
            rest_model: model,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame's Y axis is the aim and its X axis the hint when they are perpendicular.
    #[test]
    fn frame_axes() {
        let q = frame(Vec3::new(0.0, -2.0, 0.0), Vec3::X);
        assert!((q * Vec3::Y).abs_diff_eq(-Vec3::Y, 1e-6));
        assert!((q * Vec3::X).abs_diff_eq(Vec3::X, 1e-6));
        assert!((q * Vec3::Z).abs_diff_eq(-Vec3::Z, 1e-6));
    }

    /// Each child's local translation lies on its parent's +Y axis (aim toward the child).
    #[test]
    fn aim_axis_points_at_child() {
        let rig = Rig::new();
        assert_eq!(rig.names.len(), JOINT_COUNT);
        for (i, p) in rig.parents.iter().enumerate() {
            let Some(p) = *p else { continue };
            let t = rig.rest_local[i].translation;
            let is_main_child = rig.parents.iter().position(|q| *q == Some(p)) == Some(i);
            if is_main_child {
                assert!(
                    t.x.abs() < 1e-5 && t.z.abs() < 1e-5,
                    "{}: {t}",
                    rig.names[i]
                );
            }
        }
    }
}
