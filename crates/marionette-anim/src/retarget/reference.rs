//! What a retarget measures motion against, per rig: the reference pose (the rest pose, or a
//! T-pose made from it), its model-space transforms, the character's frame (which way its left,
//! up and forward point) and its leg length.

use glam::{Mat3, Quat, Vec3};

use crate::{JointIndex, Skeleton, Transform};

use super::humanoid::Humanoid;

/// How far apart (degrees) the two rests' limbs may point before `rest = "auto"` aligns the
/// rigs in a T-pose.
pub const AUTO_LIMIT_DEGREES: f32 = 15.0;

/// The pose both rigs are aligned in: a joint at its reference rotation in the source puts the
/// mapped joint at its reference rotation in the character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReferencePose {
    /// Chosen by measurement: [`ReferencePose::Rest`] when the two rests agree within
    /// [`AUTO_LIMIT_DEGREES`] at every limb, else [`ReferencePose::TPose`] (with a note).
    #[default]
    Auto,
    /// Each rig's rest pose (right when both rest in the same stance).
    Rest,
    /// Each rig's rest pose with its arms straightened out sideways and its legs straight
    /// down: for rigs whose rests differ (an A-pose and a T-pose).
    TPose,
}

impl ReferencePose {
    /// The script's name (`"auto"`, `"rest"`, `"tpose"`).
    pub fn name(self) -> &'static str {
        match self {
            ReferencePose::Auto => "auto",
            ReferencePose::Rest => "rest",
            ReferencePose::TPose => "tpose",
        }
    }

    /// The pose called `name`.
    pub fn from_name(name: &str) -> Option<ReferencePose> {
        match name {
            "auto" => Some(ReferencePose::Auto),
            "rest" => Some(ReferencePose::Rest),
            "tpose" | "t-pose" | "t_pose" => Some(ReferencePose::TPose),
            _ => None,
        }
    }
}

/// Model-space transforms of a local pose (parent-first skeleton) into `out` (same length).
pub fn model_pose(skeleton: &Skeleton, local: &[Transform], out: &mut [Transform]) {
    for (j, p) in skeleton.parents().iter().enumerate() {
        out[j] = match p {
            Some(p) => out[*p as usize].mul_transform(&local[j]),
            None => local[j],
        };
    }
}

/// A rig's reference, measured once.
#[derive(Clone, Debug)]
pub(crate) struct RigReference {
    /// Its model-space transforms.
    pub model: Vec<Transform>,
    /// The armature's rotation.
    pub armature_rotation: Quat,
    /// The armature's linear part (rotation and scale), model -> world.
    pub armature_linear: Mat3,
    /// The character's frame in world space: columns left, up, forward.
    pub frame: Mat3,
    /// Leg length in world units (`None` without legs or hips).
    pub leg_length: Option<f32>,
    /// How high the hip joints stand over the leg ends, in world units (`None` without legs
    /// with ends).
    pub stance: Option<f32>,
}

impl RigReference {
    pub fn new(skeleton: &Skeleton, body: &Humanoid, pose: ReferencePose) -> RigReference {
        let armature = skeleton.armature();
        let armature_linear = Mat3::from_mat4(armature);
        let (_, armature_rotation, _) = armature.to_scale_rotation_translation();
        let armature_rotation = if armature_rotation.is_finite() {
            armature_rotation.normalize()
        } else {
            Quat::IDENTITY
        };
        let mut local = skeleton.rest_pose().to_vec();
        let mut model = local.clone();
        model_pose(skeleton, &local, &mut model);
        let to_world = |p: Vec3| armature.transform_point3(p);
        let frame = frame_of(body, &model, &to_world);
        if pose == ReferencePose::TPose {
            let model_frame = Mat3::from_quat(armature_rotation.conjugate()) * frame;
            straighten(skeleton, body, model_frame, &mut local, &mut model);
        }
        let world = |j: JointIndex| to_world(model[j as usize].translation);
        let legs: Vec<f32> = body
            .legs
            .iter()
            .flatten()
            .filter_map(|l| {
                let e = l.end?;
                Some(world(l.upper).distance(world(l.lower)) + world(l.lower).distance(world(e)))
            })
            .collect();
        let stance = {
            let up = frame.y_axis;
            let h: Vec<f32> = body
                .legs
                .iter()
                .flatten()
                .filter_map(|l| Some((world(l.upper) - world(l.end?)).dot(up)))
                .collect();
            (!h.is_empty()).then(|| h.iter().sum::<f32>() / h.len() as f32)
        };
        let leg_length = if legs.is_empty() {
            // no leg chain: the anchor's height above the lowest joint
            body.anchor.map(|a| {
                let up = frame.y_axis;
                let lowest = (0..skeleton.len())
                    .map(|j| world(j as JointIndex).dot(up))
                    .fold(f32::INFINITY, f32::min);
                world(a).dot(up) - lowest
            })
        } else {
            Some(legs.iter().sum::<f32>() / legs.len() as f32)
        };
        RigReference {
            model,
            armature_rotation,
            armature_linear,
            frame,
            leg_length: leg_length.filter(|l| l.is_finite() && *l > 1e-6),
            stance: stance.filter(|h| h.is_finite()),
        }
    }
}

/// An orthonormal right-handed frame from a left and an up direction (up wins; forward is
/// left x up). Falls back to the glTF convention (+X left, +Y up, +Z forward).
fn orthonormal(left: Vec3, up: Vec3) -> Mat3 {
    let Some(up) = up.try_normalize() else {
        return Mat3::IDENTITY;
    };
    let Some(left) = (left - up * left.dot(up)).try_normalize() else {
        return Mat3::IDENTITY;
    };
    Mat3::from_cols(left, up, left.cross(up))
}

/// The character's frame in world space. Up is the world's +Y (glTF's convention, which an
/// armature's transform establishes); left is the direction from the right leg (or arm) to the
/// left one, snapped to the nearest of +X, -X, +Z, -Z: characters are built facing along an
/// axis, and a measured direction would take a rig's asymmetries (a hip turned a few degrees)
/// for a turn of the whole character. Without legs or arms: +X (the glTF convention, facing
/// +Z).
fn frame_of(body: &Humanoid, model: &[Transform], to_world: &dyn Fn(Vec3) -> Vec3) -> Mat3 {
    let at = |j: JointIndex| to_world(model[j as usize].translation);
    let pair = |limbs: &[Option<super::humanoid::Limb>; 2]| match limbs {
        [Some(l), Some(r)] => Some(at(l.upper) - at(r.upper)),
        _ => None,
    };
    let left = pair(&body.legs).or(pair(&body.arms)).unwrap_or(Vec3::X);
    let snapped = [Vec3::X, -Vec3::X, Vec3::Z, -Vec3::Z]
        .into_iter()
        .max_by(|a, b| a.dot(left).total_cmp(&b.dot(left)))
        .filter(|_| left.is_finite() && (left.x.abs() + left.z.abs()) > 1e-9)
        .unwrap_or(Vec3::X);
    orthonormal(snapped, Vec3::Y)
}

/// Turns a joint in model space so the bone from it to `child` points along `dir`.
fn aim(
    skeleton: &Skeleton,
    local: &mut [Transform],
    model: &mut [Transform],
    joint: JointIndex,
    child: JointIndex,
    dir: Vec3,
) {
    let (j, c) = (joint as usize, child as usize);
    let Some(now) = (model[c].translation - model[j].translation).try_normalize() else {
        return;
    };
    let q = Quat::from_rotation_arc(now, dir);
    let parent = skeleton
        .parent(joint)
        .map_or(Quat::IDENTITY, |p| model[p as usize].rotation);
    local[j].rotation = (parent.conjugate() * q * model[j].rotation).normalize();
    model_pose(skeleton, local, model);
}

/// The T-pose: arms out sideways, legs straight down, each bone aimed in model space.
fn straighten(
    skeleton: &Skeleton,
    body: &Humanoid,
    frame: Mat3,
    local: &mut [Transform],
    model: &mut [Transform],
) {
    let (left, up) = (frame.x_axis, frame.y_axis);
    for (k, arm) in body.arms.iter().enumerate() {
        let Some(arm) = arm else { continue };
        let out = if k == 0 { left } else { -left };
        aim(skeleton, local, model, arm.upper, arm.lower, out);
        if let (Some(e), true) = (arm.end, arm.end_in_chain) {
            aim(skeleton, local, model, arm.lower, e, out);
        }
    }
    for leg in body.legs.iter().flatten() {
        aim(skeleton, local, model, leg.upper, leg.lower, -up);
        if let (Some(e), true) = (leg.end, leg.end_in_chain) {
            aim(skeleton, local, model, leg.lower, e, -up);
        }
    }
}
