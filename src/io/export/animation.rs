//! Clips to glTF `animations` (for model export and for baked takes): one sampler per channel,
//! key-time accessors shared when equal, rotation values normalised, every number finite.

use glam::{Quat, Vec3};
use serde_json::{json, Value};

use super::buffer;
use crate::anim::{Channel, Clip, KeyValue, Track};
use crate::io::{Document, GltfError};

/// Writes every clip's keys into `doc`'s buffer and returns one glTF animation per clip, with
/// the tracks of joint `j` targeting node `joint_nodes[j]`.
pub fn write_animations(
    doc: &mut Document,
    clips: &[Clip],
    joint_nodes: &[usize],
) -> Result<Vec<Value>, GltfError> {
    let joint_count = joint_nodes.len();
    // Identical key-time arrays (compared bit for bit) share one input accessor.
    let mut inputs: Vec<(Vec<u32>, usize)> = Vec::new();
    let mut out = Vec::with_capacity(clips.len());
    for (ci, clip) in clips.iter().enumerate() {
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        for jt in &clip.tracks {
            let joint = jt.joint as usize;
            let Some(&node) = joint_nodes.get(joint) else {
                return Err(GltfError::BadTrackJoint {
                    clip: ci,
                    name: clip.name.clone(),
                    joint,
                    count: joint_count,
                });
            };
            let ctx = |channel: Channel| TrackCtx {
                clip: ci,
                name: &clip.name,
                joint,
                channel,
            };
            if let Some(t) = &jt.translation {
                let s = write_vec3(doc, &mut inputs, t, ctx(Channel::Translation))?;
                samplers.push(s);
                channels.push(channel(samplers.len() - 1, node, Channel::Translation));
            }
            if let Some(t) = &jt.rotation {
                let s = write_quat(doc, &mut inputs, t, ctx(Channel::Rotation))?;
                samplers.push(s);
                channels.push(channel(samplers.len() - 1, node, Channel::Rotation));
            }
            if let Some(t) = &jt.scale {
                let s = write_vec3(doc, &mut inputs, t, ctx(Channel::Scale))?;
                samplers.push(s);
                channels.push(channel(samplers.len() - 1, node, Channel::Scale));
            }
        }
        if channels.is_empty() {
            return Err(GltfError::EmptyClip {
                clip: ci,
                name: clip.name.clone(),
            });
        }
        out.push(json!({ "name": clip.name, "channels": channels, "samplers": samplers }));
    }
    Ok(out)
}

struct TrackCtx<'a> {
    clip: usize,
    name: &'a str,
    joint: usize,
    channel: Channel,
}

fn channel(sampler: usize, node: usize, path: Channel) -> Value {
    json!({ "sampler": sampler, "target": { "node": node, "path": path.as_gltf() } })
}

fn check<T: KeyValue>(track: &Track<T>, ctx: &TrackCtx<'_>) -> Result<(), GltfError> {
    track.validate().map_err(|source| GltfError::BadTrack {
        clip: ctx.clip,
        name: ctx.name.to_string(),
        joint: ctx.joint,
        channel: ctx.channel.as_gltf(),
        source,
    })
}

fn input(doc: &mut Document, inputs: &mut Vec<(Vec<u32>, usize)>, times: &[f32]) -> usize {
    let bits: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
    if let Some((_, acc)) = inputs.iter().find(|(b, _)| *b == bits) {
        return *acc;
    }
    let acc = buffer::floats(doc, times, 1, "SCALAR", None, true);
    inputs.push((bits, acc));
    acc
}

fn sampler(input: usize, output: usize, track_interp: &'static str) -> Value {
    json!({ "input": input, "output": output, "interpolation": track_interp })
}

fn write_vec3(
    doc: &mut Document,
    inputs: &mut Vec<(Vec<u32>, usize)>,
    track: &Track<Vec3>,
    ctx: TrackCtx<'_>,
) -> Result<Value, GltfError> {
    check(track, &ctx)?;
    let i = input(doc, inputs, &track.times);
    let flat: Vec<f32> = track.values.iter().flat_map(|v| v.to_array()).collect();
    let o = buffer::floats(doc, &flat, 3, "VEC3", None, false);
    Ok(sampler(i, o, track.interpolation.as_gltf()))
}

/// Rotation values are written normalised (glTF requires unit quaternions); cubic-spline
/// tangents are written as stored.
fn write_quat(
    doc: &mut Document,
    inputs: &mut Vec<(Vec<u32>, usize)>,
    track: &Track<Quat>,
    ctx: TrackCtx<'_>,
) -> Result<Value, GltfError> {
    check(track, &ctx)?;
    let i = input(doc, inputs, &track.times);
    let stride = track.stride();
    let flat: Vec<f32> = track
        .values
        .iter()
        .enumerate()
        .flat_map(|(k, q)| {
            let is_value = stride == 1 || k % 3 == 1;
            let q = if is_value { q.normalize() } else { *q };
            q.to_array()
        })
        .collect();
    let o = buffer::floats(doc, &flat, 4, "VEC4", None, false);
    Ok(sampler(i, o, track.interpolation.as_gltf()))
}
