//! `VRMC_springBone` (VRM 1.0 spring bones) read into the skeleton's
//! [`marionette_anim::rigging::vrm::VrmSprings`], so an avatar's own springs work in a script
//! (`rig:springs()`). Read leniently: the springs are extra, so a malformed extension is a
//! warning naming its path and the model imports without them; a joint the skeleton does not
//! hold (a node that is neither a skin joint nor animated) is left out of its spring, with a
//! warning.

use glam::Vec3;
use serde_json::Value;

use super::json_obj::Obj;
use crate::error::FaultResult;
use marionette_anim::rigging::spring::Shape;
use marionette_anim::rigging::vrm::{
    VrmCollider, VrmColliderGroup, VrmJoint, VrmSpring, VrmSprings,
};
use marionette_anim::JointIndex;

/// The extension's name.
pub const EXTENSION: &str = "VRMC_springBone";

/// Reads the extension from the document's JSON (none: empty springs).
pub(crate) fn read(
    json: &Value,
    node_joint: &[Option<JointIndex>],
    warnings: &mut Vec<String>,
) -> VrmSprings {
    let Some(ext) = json.get("extensions").and_then(|e| e.get(EXTENSION)) else {
        return VrmSprings::default();
    };
    match parse(ext, node_joint, warnings) {
        Ok(s) => s,
        Err(f) => {
            warnings.push(format!("{f}; the file's spring bones are not read"));
            VrmSprings::default()
        }
    }
}

fn parse(
    ext: &Value,
    node_joint: &[Option<JointIndex>],
    warnings: &mut Vec<String>,
) -> FaultResult<VrmSprings> {
    let root = Obj::new(ext, format!("extensions.{EXTENSION}"))?;
    if let Some(v) = root.string("specVersion")? {
        if v != "1.0" && !v.starts_with("1.0-") {
            warnings.push(format!(
                "{}: spec version {v}; read as 1.0",
                root.at("specVersion")
            ));
        }
    }
    let joint_of = |node: usize, at: &str, warnings: &mut Vec<String>| -> Option<JointIndex> {
        let j = node_joint.get(node).copied().flatten();
        if j.is_none() {
            warnings.push(format!(
                "{at}: node {node} is not a joint of the skeleton (neither a skin joint nor animated); left out"
            ));
        }
        j
    };
    let mut colliders = Vec::new();
    // a collider left out keeps its slot, so the groups' indices still point right
    let mut kept: Vec<Option<usize>> = Vec::new();
    for c in root.objects("colliders")? {
        let node = c.req_index("node")?;
        let shape = c.req_object("shape")?;
        let shape = if let Some(s) = shape.object("sphere")? {
            Shape::Sphere {
                offset: Vec3::from_array(s.floats::<3>("offset")?.unwrap_or([0.0; 3])),
                radius: s.float("radius")?.unwrap_or(0.0).max(0.0),
            }
        } else if let Some(s) = shape.object("capsule")? {
            Shape::Capsule {
                offset: Vec3::from_array(s.floats::<3>("offset")?.unwrap_or([0.0; 3])),
                tail: Vec3::from_array(s.floats::<3>("tail")?.unwrap_or([0.0; 3])),
                radius: s.float("radius")?.unwrap_or(0.0).max(0.0),
            }
        } else {
            warnings.push(format!(
                "{}: neither a sphere nor a capsule; left out",
                shape.path()
            ));
            kept.push(None);
            continue;
        };
        match joint_of(node, &format!("{}.node", c.path()), warnings) {
            Some(joint) => {
                kept.push(Some(colliders.len()));
                colliders.push(VrmCollider { joint, shape });
            }
            None => kept.push(None),
        }
    }
    let mut groups = Vec::new();
    for g in root.objects("colliderGroups")? {
        let mut list = Vec::new();
        for c in g.indices("colliders")? {
            if let Some(Some(k)) = kept.get(c) {
                list.push(*k);
            }
        }
        groups.push(VrmColliderGroup {
            name: g.string("name")?.unwrap_or_default().to_string(),
            colliders: list,
        });
    }
    let mut springs = Vec::new();
    for s in root.objects("springs")? {
        let mut joints = Vec::new();
        for j in s.objects("joints")? {
            let node = j.req_index("node")?;
            let Some(joint) = joint_of(node, &format!("{}.node", j.path()), warnings) else {
                continue;
            };
            let num = |key: &str, default: f32| -> FaultResult<f32> {
                Ok(j.float(key)?.unwrap_or(default))
            };
            joints.push(VrmJoint {
                joint,
                hit_radius: num("hitRadius", 0.0)?,
                stiffness: num("stiffness", 1.0)?,
                gravity_power: num("gravityPower", 0.0)?,
                gravity_dir: Vec3::from_array(
                    j.floats::<3>("gravityDir")?.unwrap_or([0.0, -1.0, 0.0]),
                ),
                drag: num("dragForce", 0.5)?,
            });
        }
        let groups_of: Vec<usize> = s
            .indices("colliderGroups")?
            .into_iter()
            .filter(|&g| g < groups.len())
            .collect();
        let center = match s.index("center")? {
            Some(n) => joint_of(n, &format!("{}.center", s.path()), warnings),
            None => None,
        };
        springs.push(VrmSpring {
            name: s.string("name")?.unwrap_or_default().to_string(),
            joints,
            groups: groups_of,
            center,
        });
    }
    Ok(VrmSprings {
        colliders,
        groups,
        springs,
    })
}
