//! The puppet: a second character made by project code, built to differ from the mannequin in
//! everything retargeting has to cope with, so the bundled example (`scripts/retarget.lua`) and
//! the tests have another rig to take clips from: Mixamo-style names (`mixamorig:LeftUpLeg`),
//! no root joint (the hips are the top), a two-joint spine, longer legs and arms and a shorter
//! torso, an A-pose rest (arms 40 degrees down), other bone rolls (each joint's X axis points
//! forward), and a Z-up armature in centimetres (`Armature` scaled 0.01 and turned, as
//! exporters write them). Its mesh is the mannequin's body fitted to those proportions; its
//! clips are its own: `Bow` and `March`, keyed on its joints. Deterministic like the mannequin
//! (`marionette mannequin --puppet` writes `scripts/puppet.glb`, beside the example that names
//! it: a script names files in its own folder).

use glam::{Mat4, Quat, Vec3};

use super::rig::{frame, Rig};
use crate::{
    Clip, Interpolation, JointTracks, Model, Skeleton, Skin, SkinnedMesh, Track, Transform,
};

/// Puppet joints: name, parent, and the mannequin joint whose place it takes.
const JOINTS: [(&str, Option<usize>, &str); 22] = [
    ("mixamorig:Hips", None, "pelvis"),
    ("mixamorig:Spine", Some(0), "spine_01"),
    ("mixamorig:Spine1", Some(1), "chest"),
    ("mixamorig:Neck", Some(2), "neck"),
    ("mixamorig:Head", Some(3), "head"),
    ("mixamorig:HeadTop_End", Some(4), "head_end"),
    ("mixamorig:LeftShoulder", Some(2), "L_clavicle"),
    ("mixamorig:LeftArm", Some(6), "L_upperarm"),
    ("mixamorig:LeftForeArm", Some(7), "L_forearm"),
    ("mixamorig:LeftHand", Some(8), "L_hand"),
    ("mixamorig:RightShoulder", Some(2), "R_clavicle"),
    ("mixamorig:RightArm", Some(10), "R_upperarm"),
    ("mixamorig:RightForeArm", Some(11), "R_forearm"),
    ("mixamorig:RightHand", Some(12), "R_hand"),
    ("mixamorig:LeftUpLeg", Some(0), "L_thigh"),
    ("mixamorig:LeftLeg", Some(14), "L_calf"),
    ("mixamorig:LeftFoot", Some(15), "L_foot"),
    ("mixamorig:LeftToeBase", Some(16), "L_toe"),
    ("mixamorig:RightUpLeg", Some(0), "R_thigh"),
    ("mixamorig:RightLeg", Some(18), "R_calf"),
    ("mixamorig:RightFoot", Some(19), "R_foot"),
    ("mixamorig:RightToeBase", Some(20), "R_toe"),
];

/// Index of a puppet joint by name (the table is fixed, so a miss is a bug).
fn at(name: &str) -> usize {
    JOINTS
        .iter()
        .position(|j| j.0 == name)
        .unwrap_or_else(|| unreachable!("no puppet joint {name}"))
}

/// Leg, arm and torso proportions against the mannequin's.
const LEGS: f32 = 1.12;
const ARMS: f32 = 1.1;
const TORSO: f32 = 0.92;
/// How far the arms hang below horizontal at rest.
const A_POSE: f32 = 40.0;

/// The armature: model space is Z-up in centimetres; the world is Y-up in metres.
fn armature() -> Mat4 {
    Mat4::from_scale_rotation_translation(
        Vec3::splat(0.01),
        Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
        Vec3::ZERO,
    )
}

/// Where a mannequin joint's rest position (world, Y-up, metres) goes on the puppet: the legs
/// and arms lengthened from the hips and shoulders, the arms turned down into the A-pose, the
/// torso shortened about the pelvis and lifted by what the legs gained.
fn place(m: &Rig, name: &str) -> Vec3 {
    let find = |n: &str| {
        m.names
            .iter()
            .position(|x| x == n)
            .unwrap_or_else(|| unreachable!("no mannequin joint {n}"))
    };
    let p = |n: &str| m.rest_model[find(n)].translation;
    let pelvis = p("pelvis");
    let lift = (LEGS - 1.0) * (p("L_thigh").y - p("L_foot").y);
    let torso = |v: Vec3| pelvis + (v - pelvis) * TORSO + Vec3::Y * lift;
    let v = p(name);
    let side = &name[..1];
    let is = |parts: &[&str]| parts.iter().any(|x| name.contains(x));
    if is(&["thigh", "calf", "foot", "toe"]) {
        let hip = p(&format!("{side}_thigh"));
        torso(hip) + (v - hip) * LEGS
    } else if is(&["upperarm", "forearm", "hand"]) {
        let shoulder = p(&format!("{side}_upperarm"));
        let sign = if side == "L" { 1.0 } else { -1.0 };
        let down = Quat::from_rotation_z(-sign * A_POSE.to_radians());
        torso(shoulder) + down * ((v - shoulder) * ARMS)
    } else {
        torso(v)
    }
}

/// World-space rest positions of the puppet's joints.
fn world_positions(m: &Rig) -> Vec<Vec3> {
    JOINTS.iter().map(|&(_, _, from)| place(m, from)).collect()
}

/// The puppet's rest: model-space transforms (Z-up, centimetres) with each joint's +Y axis
/// aimed at its first child (or away from its parent for an end joint) and its X axis forward.
fn rest_model(world: &[Vec3]) -> Vec<Transform> {
    let to_model = armature().inverse();
    let model: Vec<Vec3> = world
        .iter()
        .map(|p| to_model.transform_point3(*p))
        .collect();
    let forward = to_model.transform_vector3(Vec3::Z).normalize();
    (0..JOINTS.len())
        .map(|j| {
            let child = JOINTS.iter().position(|c| c.1 == Some(j));
            let aim = match (child, JOINTS[j].1) {
                (Some(c), _) => model[c] - model[j],
                (None, Some(p)) => model[j] - model[p],
                (None, None) => Vec3::Z,
            };
            // (an aim along forward would leave no roll: then the up axis hints it)
            let hint = if aim.normalize().dot(forward).abs() > 0.9 {
                to_model.transform_vector3(Vec3::Y).normalize()
            } else {
                forward
            };
            Transform::new(model[j], frame(aim, hint), Vec3::ONE)
        })
        .collect()
}

fn locals(model: &[Transform]) -> Vec<Transform> {
    JOINTS
        .iter()
        .enumerate()
        .map(|(j, d)| match d.1 {
            None => model[j],
            Some(p) => model[p].inverse().mul_transform(&model[j]),
        })
        .collect()
}

/// The mannequin's body mesh fitted to the puppet: each mannequin joint's part moved, turned
/// (its bone onto the puppet's) and scaled (by the bone's change of length) from the
/// mannequin's rest to the puppet's, blended by the skin weights; the weights then go to the
/// puppet joints that took those joints' places (the mannequin's root and second spine joint
/// to the hips and the first spine joint).
fn body(m: &Rig, mesh: &SkinnedMesh) -> SkinnedMesh {
    let puppet_joint = |name: &str| match name {
        "root" => 0u16,
        "spine_02" => 1,
        n => JOINTS.iter().position(|j| j.2 == n).unwrap_or(0) as u16,
    };
    let first_child = |i: usize| m.parents.iter().position(|p| *p == Some(i));
    let moves: Vec<(u16, Mat4)> = (0..m.names.len())
        .map(|i| {
            // the bone from this joint to its child, before and after (an end joint: its parent's)
            let bone = first_child(i)
                .map(|c| (i, c))
                .or_else(|| m.parents[i].map(|p| (p, i)));
            let (from, to, scale) = match bone {
                Some((a, b)) => {
                    let before = m.rest_model[b].translation - m.rest_model[a].translation;
                    let after = place(m, &m.names[b]) - place(m, &m.names[a]);
                    let scale = after.length() / before.length().max(1e-6);
                    (before, after, scale)
                }
                None => (Vec3::Y, Vec3::Y, 1.0),
            };
            let turn = match (from.try_normalize(), to.try_normalize()) {
                (Some(f), Some(t)) => Quat::from_rotation_arc(f, t),
                _ => Quat::IDENTITY,
            };
            let here = m.rest_model[i].translation;
            let mv = Mat4::from_translation(place(m, &m.names[i]))
                * Mat4::from_quat(turn)
                * Mat4::from_scale(Vec3::splat(scale))
                * Mat4::from_translation(-here);
            (puppet_joint(&m.names[i]), mv)
        })
        .collect();
    let to_model = armature().inverse();
    let mut out = mesh.clone();
    for (v, (js, ws)) in mesh.joints.iter().zip(&mesh.weights).enumerate() {
        let mut p = Vec3::ZERO;
        let mut n = Vec3::ZERO;
        for (j, w) in js.iter().zip(ws) {
            let mv = moves[*j as usize].1;
            p += mv.transform_point3(mesh.positions[v]) * *w;
            if let Some(normal) = mesh.normals.get(v) {
                n += mv.transform_vector3(*normal) * *w;
            }
        }
        out.positions[v] = to_model.transform_point3(p);
        if let Some(slot) = out.normals.get_mut(v) {
            *slot = to_model.transform_vector3(n).normalize_or(Vec3::Y);
        }
        // two mannequin joints may go to one puppet joint: one slot each, weights summed
        let mut slots: [(u16, f32); 4] = [(0, 0.0); 4];
        let mut n = 0;
        for (j, w) in js.iter().zip(ws) {
            if *w <= 0.0 {
                continue;
            }
            let k = moves[*j as usize].0;
            match slots[..n].iter_mut().find(|s| s.0 == k) {
                Some(s) => s.1 += *w,
                None => {
                    slots[n] = (k, *w);
                    n += 1;
                }
            }
        }
        let total: f32 = slots.iter().map(|s| s.1).sum();
        out.joints[v] = slots.map(|s| s.0);
        out.weights[v] = slots.map(|s| if total > 0.0 { s.1 / total } else { 0.0 });
    }
    out.name = "puppet".into();
    out.base_color = [0.55, 0.62, 0.8, 1.0];
    out
}

/// A clip from poses sampled at 30 fps: `pose(t)` gives model-space rotations to apply (as
/// world-space turns of the named joints, in order, on top of the rest).
fn keyed(
    name: &str,
    duration: f32,
    model_rest: &[Transform],
    turns: impl Fn(f32) -> Vec<(&'static str, Vec3, f32)>,
) -> Clip {
    let frames = (duration * 30.0).round() as usize;
    let to_model = armature().inverse();
    let times: Vec<f32> = (0..=frames).map(|i| i as f32 / 30.0).collect();
    let mut values: Vec<Vec<Quat>> = vec![Vec::new(); JOINTS.len()];
    for &t in &times {
        let mut model = model_rest.to_vec();
        for (joint, axis, degrees) in turns(t) {
            let j = at(joint);
            let axis = to_model.transform_vector3(axis).normalize();
            let q = Quat::from_axis_angle(axis, degrees.to_radians());
            let pivot = model[j].translation;
            // the joint and everything below it turn about the joint
            for k in 0..JOINTS.len() {
                let below = k == j || {
                    let mut a = JOINTS[k].1;
                    loop {
                        match a {
                            Some(x) if x == j => break true,
                            Some(x) => a = JOINTS[x].1,
                            None => break false,
                        }
                    }
                };
                if below {
                    model[k].rotation = (q * model[k].rotation).normalize();
                    model[k].translation = pivot + q * (model[k].translation - pivot);
                }
            }
        }
        for (j, l) in locals(&model).iter().enumerate() {
            values[j].push(l.rotation);
        }
    }
    let tracks = values
        .into_iter()
        .enumerate()
        .filter(|(_, v)| v.windows(2).any(|w| w[0].dot(w[1]).abs() < 1.0 - 1e-7))
        .map(|(j, v)| {
            let mut jt = JointTracks::new(j as u16);
            jt.rotation = Some(Track {
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values: v,
            });
            jt
        })
        .collect();
    Clip::new(name, tracks)
}

/// A smooth 0 -> 1 -> 0 over `[0, 1]`.
fn bump(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    (std::f32::consts::PI * x).sin().powi(2)
}

/// The puppet's own clips: `Bow` (2 s: a bow from the waist, the arms coming in, the head down) and
/// `March` (1.2 s loop: knees up in turn, arms swinging), keyed in its own space.
fn clips(model_rest: &[Transform]) -> Vec<Clip> {
    let lateral = Vec3::X; // the character's left: turning about it bends forward
    let bow = keyed("Bow", 2.0, model_rest, |t| {
        let b = bump(t / 2.0);
        vec![
            ("mixamorig:Spine", lateral, 22.0 * b),
            ("mixamorig:Spine1", lateral, 18.0 * b),
            ("mixamorig:Head", lateral, 15.0 * b),
            // the arms come in to the sides and a little forward
            ("mixamorig:LeftArm", Vec3::Z, -30.0 * b),
            ("mixamorig:RightArm", Vec3::Z, 30.0 * b),
            ("mixamorig:LeftForeArm", lateral, 25.0 * b),
            ("mixamorig:RightForeArm", lateral, 25.0 * b),
        ]
    });
    let march = keyed("March", 1.2, model_rest, |t| {
        let ph = std::f32::consts::TAU * t / 1.2;
        let (l, r) = (ph.sin().max(0.0), (-ph.sin()).max(0.0));
        vec![
            ("mixamorig:LeftUpLeg", lateral, -55.0 * l),
            ("mixamorig:LeftLeg", lateral, 70.0 * l),
            ("mixamorig:RightUpLeg", lateral, -55.0 * r),
            ("mixamorig:RightLeg", lateral, 70.0 * r),
            ("mixamorig:LeftArm", lateral, 30.0 * ph.sin()),
            ("mixamorig:RightArm", lateral, -30.0 * ph.sin()),
        ]
    });
    vec![bow, march]
}

/// Builds the puppet.
pub fn build() -> Model {
    let m = Rig::new();
    let world = world_positions(&m);
    let model = rest_model(&world);
    let names: Vec<String> = JOINTS.iter().map(|j| j.0.to_string()).collect();
    let parents = JOINTS.iter().map(|j| j.1).collect();
    let built = Skeleton::new(names, parents, locals(&model), armature());
    let skeleton = match built {
        Ok(b) => b.skeleton,
        Err(e) => unreachable!("puppet rig is invalid: {e}"),
    };
    let skin = Skin {
        name: "puppet".into(),
        joints: (0..JOINTS.len() as u16).collect(),
        inverse_bind: model.iter().map(super::rig::inverse_bind).collect(),
    };
    let mesh = body(&m, &super::mesh::build());
    Model {
        source: Default::default(),
        skeleton,
        joint_nodes: (0..JOINTS.len()).collect(),
        skins: vec![skin],
        meshes: vec![mesh],
        clips: clips(&model),
        images: Vec::new(),
        warnings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retarget::{Humanoid, JointMap};

    #[test]
    fn the_puppet_differs_where_retargeting_must_cope() {
        let p = build();
        let s = &p.skeleton;
        assert_eq!(s.len(), 22);
        assert_ne!(s.armature(), Mat4::IDENTITY);
        // its body is found despite the names, and the mannequin maps onto it
        let body = Humanoid::find(s);
        assert_eq!(body.hips, Some(0));
        assert_eq!(body.root, None);
        assert_eq!(body.spine.len(), 2);
        assert!(body.notes.is_empty(), "{:?}", body.notes);
        let m = crate::mannequin::build().skeleton;
        let auto = JointMap::auto(s, &m);
        assert_eq!(
            auto.map.chains.len(),
            1,
            "a two-joint spine from a three-joint one"
        );
        let unmapped: Vec<&str> = auto.unmapped.iter().map(|&j| s.name(j)).collect();
        assert_eq!(unmapped, ["mixamorig:HeadTop_End"]);
        // the world is Y-up, metres: standing on the ground, taller than the mannequin
        let mut w = vec![Transform::IDENTITY; s.len()];
        crate::retarget::reference::model_pose(s, s.rest_pose(), &mut w);
        let a = s.armature();
        let ys: Vec<f32> = w
            .iter()
            .map(|t| a.transform_point3(t.translation).y)
            .collect();
        let (lo, hi) = (
            ys.iter().copied().fold(f32::MAX, f32::min),
            ys.iter().copied().fold(f32::MIN, f32::max),
        );
        assert!(lo > -0.01 && lo < 0.1 && hi > 1.8 && hi < 2.2, "{lo} {hi}");
        let names: Vec<&str> = p.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Bow", "March"]);
        assert!(p.clips.iter().all(|c| c.duration() > 1.0));
        assert_eq!(
            p.meshes[0].positions.len(),
            crate::mannequin::build().meshes[0].positions.len()
        );
    }
}
