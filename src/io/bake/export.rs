//! Writing reduced takes as glTF animations, into the source rig or into a skeleton-only file.
//!
//! # The `extras` of a baked animation
//!
//! Every animation Marionette bakes carries, in `animations[i].extras.marionette`:
//!
//! ```json
//! {
//!   "take": "walk_to_run",          // the take (or clip) name, also the animation name
//!   "fps": 30.0,                    // key k of any sampler is at time frame_k / fps
//!   "frames": 121,                  // frames baked: 0 ..= frames - 1
//!   "markers": [ { "name": "contact_l", "time": 0.5 } ],
//!   "events":  [ { "name": "jump", "time": 2.0, "value": 1 } ]
//! }
//! ```
//!
//! Times are seconds from the start of the animation; `value` is present only when the event
//! carries one. `markers` and `events` are always present (possibly empty) and in time order.

use std::collections::BTreeMap;

use glam::{Quat, Vec3};
use serde_json::{json, Value};

use super::document::Document;
use super::{frame_time, ExportError, Fitted, ReducedTake};
use crate::anim::{Skeleton, Transform};

/// glTF `componentType` FLOAT.
const FLOAT: u32 = 5126;

/// Appends one animation per take, targeting `joint_nodes[joint]`. An existing animation of
/// the same name (an unnamed one counts as `animation_<index>`, as the importer names it) is
/// replaced in place, so baking a rig's clips back into it does not duplicate them.
pub fn append_takes(
    doc: &mut Document,
    takes: &[ReducedTake],
    joint_nodes: &[usize],
) -> Result<(), ExportError> {
    let mut times_cache: BTreeMap<(u32, Vec<u32>), usize> = BTreeMap::new();
    for take in takes {
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        for j in &take.joints {
            let node = *joint_nodes.get(j.joint as usize).ok_or_else(|| {
                ExportError::MissingJointNode {
                    take: take.name.clone(),
                    joint: j.joint as usize,
                }
            })?;
            let mut add = |path: &str, input: usize, output: usize, interp: &str| {
                samplers.push(json!({"input": input, "output": output, "interpolation": interp}));
                channels.push(json!({"sampler": samplers.len() - 1,
                                     "target": {"node": node, "path": path}}));
            };
            if let Some(f) = &j.translation {
                let (i, o) = write_track(doc, &mut times_cache, f, take.fps, vec3_floats);
                add("translation", i, o, f.interpolation.as_gltf());
            }
            if let Some(f) = &j.rotation {
                let (i, o) = write_track(doc, &mut times_cache, f, take.fps, quat_floats);
                add("rotation", i, o, f.interpolation.as_gltf());
            }
            if let Some(f) = &j.scale {
                let (i, o) = write_track(doc, &mut times_cache, f, take.fps, vec3_floats);
                add("scale", i, o, f.interpolation.as_gltf());
            }
        }
        let anim = json!({
            "name": take.name,
            "channels": channels,
            "samplers": samplers,
            "extras": {"marionette": {
                "take": take.name,
                "fps": take.fps,
                "frames": take.frame_count,
                "markers": take.meta.markers,
                "events": take.meta.events,
            }},
        });
        let existing = doc.json["animations"].as_array().and_then(|a| {
            a.iter()
                .enumerate()
                .position(|(i, x)| match x["name"].as_str() {
                    Some(name) => name == take.name,
                    // the importer calls an unnamed animation `animation_<index>`
                    None => take.name == format!("animation_{i}"),
                })
        });
        match existing {
            Some(i) => doc.json["animations"][i] = anim,
            None => {
                doc.push("animations", anim);
            }
        }
    }
    Ok(())
}

fn vec3_floats(v: &[Vec3]) -> (Vec<f32>, &'static str) {
    (v.iter().flat_map(|x| x.to_array()).collect(), "VEC3")
}

fn quat_floats(v: &[Quat]) -> (Vec<f32>, &'static str) {
    (v.iter().flat_map(|x| x.to_array()).collect(), "VEC4")
}

fn le_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Writes a track's input (shared between tracks with the same keys) and output accessors.
fn write_track<T>(
    doc: &mut Document,
    times_cache: &mut BTreeMap<(u32, Vec<u32>), usize>,
    f: &Fitted<T>,
    fps: f32,
    floats: fn(&[T]) -> (Vec<f32>, &'static str),
) -> (usize, usize) {
    let key = (fps.to_bits(), f.frames.clone());
    let input = match times_cache.get(&key) {
        Some(&a) => a,
        None => {
            let times: Vec<f32> = f.frames.iter().map(|&i| frame_time(i, fps)).collect();
            let view = doc.add_view(&le_bytes(&times), None);
            let (min, max) = (times[0], times[times.len() - 1]);
            let a = doc.push(
                "accessors",
                json!({"bufferView": view, "componentType": FLOAT, "count": times.len(),
                       "type": "SCALAR", "min": [min], "max": [max]}),
            );
            times_cache.insert(key, a);
            a
        }
    };
    let (data, kind) = floats(&f.values);
    let view = doc.add_view(&le_bytes(&data), None);
    let output = doc.push(
        "accessors",
        json!({"bufferView": view, "componentType": FLOAT, "count": f.values.len(),
               "type": kind}),
    );
    (input, output)
}

/// TRS fields of a node, leaving out the parts equal to the identity.
fn trs_fields(node: &mut Value, t: &Transform) {
    if t.translation != Vec3::ZERO {
        node["translation"] = json!(t.translation.to_array());
    }
    if t.rotation != Quat::IDENTITY {
        node["rotation"] = json!(t.rotation.to_array());
    }
    if t.scale != Vec3::ONE {
        node["scale"] = json!(t.scale.to_array());
    }
}

/// A document holding only the skeleton's nodes (joint `j` is node `j`; a non-identity
/// armature becomes one more node, `armature`, above the root joints). Returns it with the
/// node of each joint.
pub fn skeleton_document(skeleton: &Skeleton) -> (Document, Vec<usize>) {
    let mut doc = Document::new();
    let n = skeleton.len();
    let mut roots = Vec::new();
    for (j, rest) in skeleton.rest_pose().iter().enumerate() {
        let mut node = json!({"name": skeleton.names()[j]});
        trs_fields(&mut node, rest);
        let children: Vec<usize> = skeleton.children(j as u16).map(usize::from).collect();
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        if skeleton.parents()[j].is_none() {
            roots.push(j);
        }
        doc.push("nodes", node);
    }
    let armature = skeleton.armature();
    let scene_nodes = if armature.abs_diff_eq(glam::Mat4::IDENTITY, 0.0) {
        roots
    } else {
        let mut node = json!({"name": "armature", "children": roots});
        trs_fields(&mut node, &Transform::from_matrix(&armature));
        vec![doc.push("nodes", node)]
    };
    doc.json["scenes"] = json!([{"nodes": scene_nodes}]);
    doc.json["scene"] = json!(0);
    (doc, (0..n).collect())
}
