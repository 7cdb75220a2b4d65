//! Clips to glTF `animations` (for model export and for baked takes): one sampler per channel,
//! key-time accessors shared when equal, rotation values unit length, every number finite;
//! a clip's morph weight tracks as `weights` channels on every node that carries their set.

use glam::{Quat, Vec3};
use serde_json::{json, Value};

use super::buffer;
use super::nodes::unit;
use crate::{Document, GltfError};
use marionette_anim::{rotation_codes, Channel, Clip, KeyValue, MorphTrack, Track};

/// One animation to write.
#[derive(Clone, Debug)]
pub struct Animation<'a> {
    /// The keys; the clip's name is the animation's.
    pub clip: &'a Clip,
    /// The rate the key times were sampled at, if any: key-time accessors are shared only
    /// between tracks of the same rate (`None`: between any tracks with equal times).
    pub rate: Option<f32>,
    /// The animation's `extras` (`Value::Null`: none).
    pub extras: Value,
    /// Rotation tracks whose every value is exactly a 16-bit code ([`rotation_codes`]) are
    /// written as normalized SHORTs (half the bytes, no loss); false: every value a float.
    pub snorm_rotations: bool,
}

/// What makes two tracks share an input accessor: the rate and the key times, bit for bit.
type InputKey = (Option<u32>, Vec<u32>);

/// Writes every animation's keys into `doc`'s buffer and returns one glTF animation each, with
/// the tracks of joint `j` targeting node `joint_nodes[j]` and the weights of morph set `s`
/// every node of `morph_nodes[s]` (one channel each, sharing the sampler).
pub fn write_animations(
    doc: &mut Document,
    animations: &[Animation<'_>],
    joint_nodes: &[usize],
    morph_nodes: &[Vec<usize>],
) -> Result<Vec<Value>, GltfError> {
    let joint_count = joint_nodes.len();
    // Identical key-time arrays (compared bit for bit) share one input accessor.
    let mut inputs: Vec<(InputKey, usize)> = Vec::new();
    let mut out = Vec::with_capacity(animations.len());
    for (ci, anim) in animations.iter().enumerate() {
        let clip = anim.clip;
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
                snorm: anim.snorm_rotations,
                rate: anim.rate.map(f32::to_bits),
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
        for track in &clip.morphs {
            let set = usize::from(track.set);
            let nodes = morph_nodes
                .get(set)
                .filter(|n| !n.is_empty())
                .ok_or_else(|| GltfError::NoMorphNode {
                    clip: ci,
                    name: clip.name.clone(),
                    set,
                })?;
            let rate = anim.rate.map(f32::to_bits);
            samplers.push(write_weights(
                doc,
                &mut inputs,
                track,
                rate,
                (ci, &clip.name),
            )?);
            for &node in nodes {
                channels.push(json!({
                    "sampler": samplers.len() - 1,
                    "target": { "node": node, "path": "weights" }
                }));
            }
        }
        if channels.is_empty() {
            return Err(GltfError::EmptyClip {
                clip: ci,
                name: clip.name.clone(),
            });
        }
        let mut animation =
            json!({ "name": clip.name, "channels": channels, "samplers": samplers });
        if !anim.extras.is_null() {
            animation["extras"] = anim.extras.clone();
        }
        out.push(animation);
    }
    Ok(out)
}

struct TrackCtx<'a> {
    snorm: bool,
    rate: Option<u32>,
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

fn input(
    doc: &mut Document,
    inputs: &mut Vec<(InputKey, usize)>,
    times: &[f32],
    rate: Option<u32>,
) -> usize {
    let key = (rate, times.iter().map(|t| t.to_bits()).collect());
    if let Some((_, acc)) = inputs.iter().find(|(k, _)| *k == key) {
        return *acc;
    }
    let acc = buffer::floats(doc, times, 1, "SCALAR", None, true);
    inputs.push((key, acc));
    acc
}

fn sampler(input: usize, output: usize, track_interp: &'static str) -> Value {
    json!({ "input": input, "output": output, "interpolation": track_interp })
}

fn write_vec3(
    doc: &mut Document,
    inputs: &mut Vec<(InputKey, usize)>,
    track: &Track<Vec3>,
    ctx: TrackCtx<'_>,
) -> Result<Value, GltfError> {
    check(track, &ctx)?;
    let i = input(doc, inputs, &track.times, ctx.rate);
    let flat: Vec<f32> = track.values.iter().flat_map(|v| v.to_array()).collect();
    let o = buffer::floats(doc, &flat, 3, "VEC3", None, false);
    Ok(sampler(i, o, track.interpolation.as_gltf()))
}

/// Rotation values are written unit length (glTF requires unit quaternions, see [`unit`]);
/// cubic-spline tangents are written as stored. With [`Animation::snorm_rotations`], a track
/// whose values are all exactly 16-bit codes is written as those codes.
fn write_quat(
    doc: &mut Document,
    inputs: &mut Vec<(InputKey, usize)>,
    track: &Track<Quat>,
    ctx: TrackCtx<'_>,
) -> Result<Value, GltfError> {
    check(track, &ctx)?;
    let i = input(doc, inputs, &track.times, ctx.rate);
    if ctx.snorm {
        let codes: Option<Vec<[i16; 4]>> =
            track.values.iter().map(|&q| rotation_codes(q)).collect();
        if let Some(codes) = codes {
            let o = buffer::snorm16(doc, &codes);
            return Ok(sampler(i, o, track.interpolation.as_gltf()));
        }
    }
    let stride = track.stride();
    let flat: Vec<f32> = track
        .values
        .iter()
        .enumerate()
        .flat_map(|(k, q)| {
            let is_value = stride == 1 || k % 3 == 1;
            let q = if is_value { unit(*q) } else { *q };
            q.to_array()
        })
        .collect();
    let o = buffer::floats(doc, &flat, 4, "VEC4", None, false);
    Ok(sampler(i, o, track.interpolation.as_gltf()))
}

/// A weights track: one SCALAR output of keys × targets values (in/value/out groups for
/// CUBICSPLINE), as glTF lays a `weights` channel out.
fn write_weights(
    doc: &mut Document,
    inputs: &mut Vec<(InputKey, usize)>,
    track: &MorphTrack,
    rate: Option<u32>,
    (clip, name): (usize, &str),
) -> Result<Value, GltfError> {
    track
        .validate()
        .map_err(|source| GltfError::BadMorphTrack {
            clip,
            name: name.to_string(),
            set: usize::from(track.set),
            source,
        })?;
    let i = input(doc, inputs, &track.times, rate);
    let o = buffer::floats(doc, &track.values, 1, "SCALAR", None, false);
    Ok(sampler(i, o, track.interpolation.as_gltf()))
}
