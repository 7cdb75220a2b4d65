//! Every FBX animation stack as a clip: each joint's local transform (and each blend channel's
//! weight) evaluated by ufbx at the scene's frame rate over the stack's time span, keyed
//! linearly from 0. A joint that never leaves its rest pose gets no track.

use glam::Vec3;

use super::joints::Joints;
use super::values::transform;
use marionette_anim::{
    continuous_rotations, Clip, Interpolation, JointIndex, JointTracks, MorphTrack, Track,
    Transform,
};

/// The most keys a stack is sampled at (a day at 120 fps is far beyond any clip).
const MAX_FRAMES: f64 = 1.0e6;

/// A blend channel and the morph set and target it drives.
pub(crate) struct Channel<'a> {
    pub channel: &'a ufbx::BlendChannel,
    pub set: usize,
    pub target: usize,
}

/// The clips of every stack; `channels` are the blend channels read as morph targets, `sets`
/// the number of targets of each morph set.
pub(crate) fn clips(
    scene: &ufbx::Scene,
    joints: &Joints,
    channels: &[Channel<'_>],
    sets: &[usize],
    scale: f64,
    warnings: &mut Vec<String>,
) -> Result<Vec<Clip>, String> {
    let fps = if scene.settings.frames_per_second > 0.0 {
        scene.settings.frames_per_second
    } else {
        30.0
    };
    let rest = joints.skeleton.rest_pose();
    let mut out = Vec::new();
    for stack in scene.anim_stacks.iter() {
        let name = stack.element.name.to_string();
        let span = stack.time_end - stack.time_begin;
        if !span.is_finite() || span < 0.0 {
            warnings.push(format!(
                "animation stack '{name}': its time span is not valid: skipped"
            ));
            continue;
        }
        let frames = (span * fps).round().min(MAX_FRAMES) as usize + 1;
        let times: Vec<f32> = (0..frames).map(|f| (f as f64 / fps) as f32).collect();
        let at = |f: usize| stack.time_begin + f as f64 / fps;
        let mut tracks = Vec::new();
        for (j, &node) in joints.nodes.iter().enumerate() {
            let node = &scene.nodes[node];
            let poses: Vec<Transform> = (0..frames)
                .map(|f| transform(&ufbx::evaluate_transform(&stack.anim, node, at(f)), scale))
                .collect();
            let r = rest[j];
            let moves_t = poses
                .iter()
                .any(|p| p.translation.distance(r.translation) > 1e-6);
            let moves_r = poses
                .iter()
                .any(|p| p.rotation.dot(r.rotation).abs() < 1.0 - 1e-7);
            let moves_s = poses.iter().any(|p| p.scale.distance(r.scale) > 1e-6);
            if !(moves_t || moves_r || moves_s) {
                continue;
            }
            let mut t = JointTracks::new(j as JointIndex);
            let track3 = |values: Vec<Vec3>| Track {
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values,
            };
            if moves_t {
                t.translation = Some(track3(poses.iter().map(|p| p.translation).collect()));
            }
            if moves_s {
                t.scale = Some(track3(poses.iter().map(|p| p.scale).collect()));
            }
            if moves_r {
                t.rotation = Some(Track {
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values: continuous_rotations(poses.iter().map(|p| p.rotation)),
                });
            }
            tracks.push(t);
        }
        let mut morphs = Vec::new();
        for (set, &count) in sets.iter().enumerate() {
            let mine: Vec<&Channel<'_>> = channels.iter().filter(|c| c.set == set).collect();
            let mut values = vec![0.0f32; frames * count];
            let mut moves = false;
            for c in &mine {
                for f in 0..frames {
                    let p = ufbx::evaluate_prop(
                        &stack.anim,
                        &c.channel.element,
                        "DeformPercent",
                        at(f),
                    );
                    let w = (p.value_vec4.x / 100.0) as f32;
                    let w = if w.is_finite() { w } else { 0.0 };
                    moves |= (w - c.channel.weight as f32).abs() > 1e-6;
                    values[f * count + c.target] = w;
                }
            }
            if moves {
                morphs.push(MorphTrack {
                    set: set as u16,
                    targets: count,
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values,
                });
            }
        }
        if tracks.is_empty() && morphs.is_empty() {
            warnings.push(format!("animation stack '{name}' moves nothing: skipped"));
            continue;
        }
        out.push(Clip::new(name, tracks).with_morphs(morphs));
    }
    Ok(out)
}
