//! A parsed BVH as a [`Model`]: its joints (End Sites as end joints named `<parent>_End`) with
//! their offsets as the rest pose (no rotation), and its motion as one clip named after the
//! file, keyed at every frame (`Frame Time` apart, linear).
//!
//! Rotation channels compose in the order the file lists them (`Zrotation Xrotation
//! Yrotation` is `Rz · Rx · Ry`, intrinsic, as every BVH reader does); position channels, on
//! any joint, replace the offset's components they name. BVH is Y up and right-handed like
//! glTF (a file whose body stands along +Z, as Blender writes them, is turned upright, with a
//! note); lengths are scaled to metres by the unit ([`crate::units`]).

use glam::{Mat4, Quat, Vec3};

use super::parse::{BvhFile, ChannelKind};
use crate::units::{height_note, ImportOptions, Unit};
use marionette_anim::{
    continuous_rotations, Clip, Interpolation, JointIndex, JointTracks, Model, Skeleton, Track,
    Transform,
};

/// The largest extent of the rest pose (End Sites included), in the file's units.
fn rest_extent(file: &BvhFile) -> f32 {
    let mut at: Vec<Vec3> = Vec::with_capacity(file.joints.len());
    let (mut low, mut high) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for j in &file.joints {
        let p = j.parent.map_or(Vec3::ZERO, |p| at[p]) + j.offset;
        low = low.min(p);
        high = high.max(p);
        at.push(p);
    }
    (high - low).max_element().max(0.0)
}

/// The rotation of `angles` (degrees, per axis) composed in the file's channel order.
fn rotation(channels: &[ChannelKind], values: &[f32]) -> Quat {
    let mut q = Quat::IDENTITY;
    for (c, v) in channels.iter().zip(values) {
        if let ChannelKind::Rotation(axis) = c {
            let a = v.to_radians();
            q *= match axis {
                0 => Quat::from_rotation_x(a),
                1 => Quat::from_rotation_y(a),
                _ => Quat::from_rotation_z(a),
            };
        }
    }
    q.normalize()
}

/// The turn that puts a Z-up file's body upright in Y up (a quarter turn about X), when the
/// rest's head is above its root along +Z rather than +Y: Blender's BVH exporter writes its
/// own Z-up axes. `None` for a Y-up file or a body without a joint named like a head.
fn z_up_fix(file: &BvhFile) -> Option<Quat> {
    let mut at: Vec<Vec3> = Vec::with_capacity(file.joints.len());
    for j in &file.joints {
        at.push(j.parent.map_or(Vec3::ZERO, |p| at[p]) + j.offset);
    }
    let head = file
        .joints
        .iter()
        .position(|j| !j.end && j.name.to_ascii_lowercase().contains("head"))?;
    let up = at[head] - at[0];
    (up.z > 0.0 && up.z > 2.0 * up.y.abs() && up.z > 2.0 * up.x.abs())
        .then(|| Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2))
}

/// Builds the model; `label` names the file in notes, `clip_name` names its clip.
pub(crate) fn to_model(
    file: BvhFile,
    label: &str,
    clip_name: &str,
    options: &ImportOptions,
) -> Result<Model, String> {
    let mut warnings: Vec<String> = file
        .warnings
        .iter()
        .map(|w| format!("{label}: {w}"))
        .collect();
    let extent = rest_extent(&file);
    let unit = match options.unit {
        Some(u) => u,
        None => {
            let u = Unit::guess(extent);
            warnings.push(format!(
                "{label}: BVH has no unit; its body is {extent:.2} units tall, read as {} ({:.3} m \
                 tall); --unit (or unit = \"...\" in marionette.rig) names another",
                long_name(u),
                extent * u.metres()
            ));
            u
        }
    };
    let scale = unit.metres();
    if let Some(note) = height_note(label, extent * scale, unit) {
        warnings.push(note);
    }
    if extent == 0.0 && file.joints.len() > 1 {
        warnings.push(format!(
            "{label}: every OFFSET is 0: the rest pose has no size (the joints all sit at the root)"
        ));
    }
    let fix = z_up_fix(&file);
    if fix.is_some() {
        warnings.push(format!(
            "{label}: the body's head is above its root along +Z: read as a Z-up file (as \
             Blender's BVH exporter writes) and turned upright in Y up"
        ));
    }
    let turn = fix.unwrap_or(Quat::IDENTITY);
    let unturn = turn.conjugate();
    let names: Vec<String> = file.joints.iter().map(|j| j.name.clone()).collect();
    let parents: Vec<Option<usize>> = file.joints.iter().map(|j| j.parent).collect();
    let rest: Vec<Transform> = file
        .joints
        .iter()
        .map(|j| Transform::from_translation(turn * (j.offset * scale)))
        .collect();
    let built = Skeleton::new(names, parents, rest, Mat4::IDENTITY).map_err(|e| e.to_string())?;
    warnings.extend(
        built
            .skeleton
            .warnings()
            .iter()
            .map(|w| format!("{label}: {w}")),
    );
    let mut clips = Vec::new();
    if file.frames > 0 {
        let frame_time = whole_rate(file.frame_time);
        let times: Vec<f32> = (0..file.frames)
            .map(|f| (f as f64 * frame_time) as f32)
            .collect();
        let mut tracks = Vec::new();
        for (i, j) in file.joints.iter().enumerate() {
            if j.channels.is_empty() {
                continue;
            }
            let frame = |f: usize| {
                let start = f * file.values_per_frame + j.first_value;
                &file.values[start..start + j.channels.len()]
            };
            let mut t = JointTracks::new(built.remap[i] as JointIndex);
            let has = |want: fn(&ChannelKind) -> bool| j.channels.iter().any(want);
            if has(|c| matches!(c, ChannelKind::Position(_))) {
                let values = (0..file.frames)
                    .map(|f| {
                        let mut p = j.offset;
                        for (c, v) in j.channels.iter().zip(frame(f)) {
                            if let ChannelKind::Position(axis) = c {
                                p[*axis] = *v;
                            }
                        }
                        turn * (p * scale)
                    })
                    .collect();
                t.translation = Some(Track {
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values,
                });
            }
            if has(|c| matches!(c, ChannelKind::Rotation(_))) {
                let values = continuous_rotations(
                    (0..file.frames)
                        .map(|f| (turn * rotation(&j.channels, frame(f)) * unturn).normalize()),
                );
                t.rotation = Some(Track {
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values,
                });
            }
            tracks.push(t);
        }
        if !tracks.is_empty() {
            // key times in f32: a frame time too small for the clip's length collapses them
            let check = Track {
                interpolation: Interpolation::Linear,
                times,
                values: vec![Vec3::ZERO; file.frames],
            };
            check
                .validate()
                .map_err(|e| format!("the frames' times ({} s apart): {e}", file.frame_time))?;
            clips.push(Clip::new(clip_name, tracks));
        } else {
            warnings.push(format!(
                "{label}: no joint has CHANNELS: the file holds a skeleton and no motion"
            ));
        }
    }
    let joint_nodes = (0..built.skeleton.len()).collect();
    Ok(Model {
        source: Default::default(),
        skeleton: built.skeleton,
        joint_nodes,
        clips,
        warnings,
        ..Default::default()
    })
}

/// The frame time as written, or `1 / rate` when it is a whole rate written to a few decimals
/// (Blender writes 120 fps as `0.008333`: read as 1/120 s, so 240 frames last 2 s, not
/// 1.99992).
fn whole_rate(frame_time: f32) -> f64 {
    let t = f64::from(frame_time);
    let rate = (1.0 / t).round();
    if rate >= 1.0 && ((1.0 / t) - rate).abs() / rate < 5e-4 {
        1.0 / rate
    } else {
        t
    }
}

/// `centimetres`, as notes write a unit.
pub(crate) fn long_name(unit: Unit) -> &'static str {
    match unit {
        Unit::M => "metres",
        Unit::Cm => "centimetres",
        Unit::Mm => "millimetres",
        Unit::In => "inches",
    }
}
