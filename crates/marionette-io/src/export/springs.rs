//! Writes a skeleton's spring bones ([`marionette_anim::Skeleton::springs`], read from a VRM
//! file) back as `VRMC_springBone` 1.0, joints by their node, so a model read from an avatar
//! keeps its springs when written again.

use serde_json::{json, Value};

use crate::import::springs::EXTENSION;
use marionette_anim::rigging::spring::Shape;
use marionette_anim::rigging::vrm::VrmSprings;

/// The extension's JSON for `springs` with each joint's node from `node_of` (`None`: nothing to
/// write).
pub(crate) fn write(springs: &VrmSprings, node_of: impl Fn(u16) -> usize) -> Option<Value> {
    if springs.is_empty() {
        return None;
    }
    let v3 = |v: glam::Vec3| json!([v.x, v.y, v.z]);
    let colliders: Vec<Value> = springs
        .colliders
        .iter()
        .map(|c| {
            let shape = match c.shape {
                Shape::Sphere { offset, radius } => {
                    json!({ "sphere": { "offset": v3(offset), "radius": radius } })
                }
                Shape::Capsule {
                    offset,
                    tail,
                    radius,
                } => json!({ "capsule": { "offset": v3(offset), "tail": v3(tail), "radius": radius } }),
            };
            json!({ "node": node_of(c.joint), "shape": shape })
        })
        .collect();
    let groups: Vec<Value> = springs
        .groups
        .iter()
        .map(|g| json!({ "name": g.name, "colliders": g.colliders }))
        .collect();
    let list: Vec<Value> = springs
        .springs
        .iter()
        .map(|s| {
            let joints: Vec<Value> = s
                .joints
                .iter()
                .map(|j| {
                    json!({
                        "node": node_of(j.joint),
                        "hitRadius": j.hit_radius,
                        "stiffness": j.stiffness,
                        "gravityPower": j.gravity_power,
                        "gravityDir": v3(j.gravity_dir),
                        "dragForce": j.drag,
                    })
                })
                .collect();
            let mut v = json!({ "name": s.name, "joints": joints });
            if !s.groups.is_empty() {
                v["colliderGroups"] = json!(s.groups);
            }
            if let Some(c) = s.center {
                v["center"] = json!(node_of(c));
            }
            v
        })
        .collect();
    let mut ext = json!({ "specVersion": "1.0", "springs": list });
    if !colliders.is_empty() {
        ext["colliders"] = Value::Array(colliders);
    }
    if !groups.is_empty() {
        ext["colliderGroups"] = Value::Array(groups);
    }
    Some(ext)
}

/// Puts `ext` into `json`'s root `extensions` and `extensionsUsed`.
pub(crate) fn put(json: &mut Value, ext: Value) {
    if !json["extensions"].is_object() {
        json["extensions"] = json!({});
    }
    json["extensions"][EXTENSION] = ext;
    if !json["extensionsUsed"].is_array() {
        json["extensionsUsed"] = json!([]);
    }
    if let Value::Array(used) = &mut json["extensionsUsed"] {
        if !used.iter().any(|u| u == EXTENSION) {
            used.push(json!(EXTENSION));
        }
    }
}
