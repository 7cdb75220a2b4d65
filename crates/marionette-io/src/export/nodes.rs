//! Numbers and nodes as every Marionette glTF writer writes them: finite floats in their
//! shortest form, TRS with identity parts omitted and rotations normalised, and the skeleton's
//! joints as nodes `0..J` under an optional `Armature` node.

use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};

use crate::GltfError;
use marionette_anim::{Skeleton, Transform};

/// Name of the node holding the root joints when the skeleton's armature transform is not the
/// identity.
pub const ARMATURE_NODE: &str = "Armature";

/// A float as JSON: the shortest decimal when it reads back to the same `f32`, else the exact
/// widened value. `what` names the value in the error when it is not finite.
pub(crate) fn num(x: f32, what: &str) -> Result<Value, GltfError> {
    if !x.is_finite() {
        return Err(GltfError::NotFinite(what.to_string()));
    }
    let short: f64 = format!("{x}").parse().unwrap_or(f64::from(x));
    Ok(json!(if short as f32 == x {
        short
    } else {
        f64::from(x)
    }))
}

/// Floats as a JSON array (see [`num`]).
pub(crate) fn nums(xs: &[f32], what: &str) -> Result<Value, GltfError> {
    Ok(Value::Array(
        xs.iter().map(|&x| num(x, what)).collect::<Result<_, _>>()?,
    ))
}

/// How far a rotation's squared length may be from 1 and still count as unit length: a few
/// `f32` rounding steps, what normalising in `f32` itself leaves.
const UNIT_TOLERANCE: f32 = 1e-6;

/// `q` as a unit quaternion, as glTF requires: normalised when it is off unit length, written
/// bit for bit when it already is unit length (normalising again would only move its last bits,
/// and a baked key must equal the previewed pose to the bit).
pub(crate) fn unit(q: Quat) -> Quat {
    if (q.length_squared() - 1.0).abs() <= UNIT_TOLERANCE {
        q
    } else {
        q.normalize()
    }
}

/// TRS properties of a node, identity parts omitted, the rotation unit length ([`unit`]).
pub(crate) fn trs(node: &mut Value, t: &Transform, what: &str) -> Result<(), GltfError> {
    if t.translation != Vec3::ZERO {
        node["translation"] = nums(&t.translation.to_array(), what)?;
    }
    if t.rotation != Quat::IDENTITY {
        node["rotation"] = nums(&unit(t.rotation).to_array(), what)?;
    }
    if t.scale != Vec3::ONE {
        node["scale"] = nums(&t.scale.to_array(), what)?;
    }
    Ok(())
}

/// The skeleton as glTF nodes.
pub(crate) struct SkeletonNodes {
    /// Nodes `0..J` are the joints (node index == joint index), then the armature node if any.
    pub nodes: Vec<Value>,
    /// The scene's root nodes: the armature node, or the root joints.
    pub scene_nodes: Vec<usize>,
    /// The [`ARMATURE_NODE`], when the armature transform is not the identity.
    pub armature: Option<usize>,
}

/// Joints as nodes with names, children and TRS; a non-identity armature becomes one more node,
/// [`ARMATURE_NODE`], above the root joints (decomposed to TRS, so shear is lost).
pub(crate) fn skeleton_nodes(skel: &Skeleton) -> Result<SkeletonNodes, GltfError> {
    let joint_count = skel.len();
    let mut nodes: Vec<Value> = Vec::with_capacity(joint_count + 1);
    for j in 0..joint_count {
        let mut node = json!({ "name": skel.names()[j] });
        trs(
            &mut node,
            &skel.rest_pose()[j],
            &format!("joint '{}'", skel.names()[j]),
        )?;
        let children: Vec<usize> = skel.children(j as u16).map(usize::from).collect();
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        nodes.push(node);
    }
    let roots: Vec<usize> = (0..joint_count)
        .filter(|&j| skel.parents()[j].is_none())
        .collect();
    if skel.armature() != Mat4::IDENTITY && !roots.is_empty() {
        let mut node = json!({ "name": ARMATURE_NODE, "children": roots });
        trs(
            &mut node,
            &Transform::from_matrix(&skel.armature()),
            "armature",
        )?;
        nodes.push(node);
        let armature = nodes.len() - 1;
        Ok(SkeletonNodes {
            nodes,
            scene_nodes: vec![armature],
            armature: Some(armature),
        })
    } else {
        Ok(SkeletonNodes {
            nodes,
            scene_nodes: roots,
            armature: None,
        })
    }
}
