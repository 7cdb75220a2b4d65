//! Meshes to glTF: one primitive per [`SkinnedMesh`](marionette_anim::SkinnedMesh) with its
//! attributes, indices, material and morph targets (POSITION deltas with bounds, NORMAL deltas
//! when the mesh has normals; tangent deltas are not written, as the model keeps no tangents).

use serde_json::{json, Value};

use super::buffer::{
    self, accessor, floats, le_bytes_u16, le_bytes_u32, AccessorSpec, ARRAY_BUFFER,
    ELEMENT_ARRAY_BUFFER,
};
use super::nodes::nums;
use crate::{Document, GltfError};
use marionette_anim::Model;

/// A mesh error naming the mesh.
pub fn bad_mesh(model: &Model, mesh: usize, what: String) -> GltfError {
    GltfError::BadMesh {
        mesh,
        name: model.meshes[mesh].name.clone(),
        what,
    }
}

/// Writes one mesh's attributes and indices; returns the primitive and its material.
pub fn write_mesh(
    doc: &mut Document,
    model: &Model,
    mi: usize,
) -> Result<(Value, Value), GltfError> {
    let mesh = &model.meshes[mi];
    let n = mesh.positions.len();
    let bad = |what: String| bad_mesh(model, mi, what);
    if n == 0 {
        return Err(bad("no vertices".into()));
    }
    for (len, what) in [(mesh.normals.len(), "normals"), (mesh.uvs.len(), "uvs")] {
        if len != 0 && len != n {
            return Err(bad(format!("{len} {what} for {n} positions")));
        }
    }
    let pos: Vec<f32> = mesh.positions.iter().flat_map(|p| p.to_array()).collect();
    if pos.iter().any(|v| !v.is_finite()) {
        return Err(bad("a position is not finite".into()));
    }
    let mut attrs = json!({ "POSITION": floats(doc, &pos, 3, "VEC3", Some(ARRAY_BUFFER), true) });
    if !mesh.normals.is_empty() {
        let v: Vec<f32> = mesh.normals.iter().flat_map(|p| p.to_array()).collect();
        attrs["NORMAL"] = json!(floats(doc, &v, 3, "VEC3", Some(ARRAY_BUFFER), false));
    }
    if !mesh.uvs.is_empty() {
        let v: Vec<f32> = mesh.uvs.iter().flat_map(|p| p.to_array()).collect();
        attrs["TEXCOORD_0"] = json!(floats(doc, &v, 2, "VEC2", Some(ARRAY_BUFFER), false));
    }
    if let Some(si) = mesh.skin {
        let skin = model
            .skins
            .get(si)
            .ok_or_else(|| bad(format!("skin {si} does not exist")))?;
        if mesh.joints.len() != n || mesh.weights.len() != n {
            return Err(bad(format!(
                "{} joint and {} weight entries for {n} vertices",
                mesh.joints.len(),
                mesh.weights.len()
            )));
        }
        let slots = skin.joints.len();
        if let Some(s) = mesh.joints.iter().flatten().find(|&&s| s as usize >= slots) {
            return Err(bad(format!(
                "joint slot {s} but skin {si} has {slots} joints"
            )));
        }
        let flat: Vec<u16> = mesh.joints.iter().flatten().copied().collect();
        let (bytes, ct) = if slots <= 256 {
            (
                flat.iter().map(|&s| s as u8).collect(),
                buffer::UNSIGNED_BYTE,
            )
        } else {
            (le_bytes_u16(&flat), buffer::UNSIGNED_SHORT)
        };
        attrs["JOINTS_0"] = json!(accessor(
            doc,
            AccessorSpec {
                bytes: &bytes,
                count: n,
                component_type: ct,
                kind: "VEC4",
                target: Some(ARRAY_BUFFER),
                bounds: None,
            }
        ));
        let w: Vec<f32> = mesh.weights.iter().flatten().copied().collect();
        if w.iter().any(|v| !v.is_finite()) {
            return Err(bad("a weight is not finite".into()));
        }
        attrs["WEIGHTS_0"] = json!(floats(doc, &w, 4, "VEC4", Some(ARRAY_BUFFER), false));
    }
    let mut prim = json!({ "attributes": attrs, "material": mi, "mode": 4 });
    if !mesh.targets.is_empty() {
        prim["targets"] = write_targets(doc, model, mi)?;
    }
    if !mesh.indices.is_empty() {
        if let Some(i) = mesh.indices.iter().find(|&&i| i as usize >= n) {
            return Err(bad(format!("index {i} but only {n} vertices")));
        }
        let (bytes, ct) = if n <= u16::MAX as usize {
            let v: Vec<u16> = mesh.indices.iter().map(|&i| i as u16).collect();
            (le_bytes_u16(&v), buffer::UNSIGNED_SHORT)
        } else {
            (le_bytes_u32(&mesh.indices), buffer::UNSIGNED_INT)
        };
        prim["indices"] = json!(accessor(
            doc,
            AccessorSpec {
                bytes: &bytes,
                count: mesh.indices.len(),
                component_type: ct,
                kind: "SCALAR",
                target: Some(ELEMENT_ARRAY_BUFFER),
                bounds: None,
            }
        ));
    }
    let mut pbr = json!({
        "baseColorFactor": nums(&mesh.base_color, "base colour")?,
        "metallicFactor": 0.0,
        "roughnessFactor": 0.8,
    });
    if let Some(t) = mesh.base_color_texture {
        if t >= model.images.len() {
            return Err(bad(format!("texture image {t} does not exist")));
        }
        pbr["baseColorTexture"] = json!({ "index": t });
    }
    Ok((
        prim,
        json!({ "name": mesh.name, "pbrMetallicRoughness": pbr }),
    ))
}

/// The primitive's `targets`: per target, POSITION deltas (with the bounds glTF requires) and,
/// when the mesh has normals and any target moves them, NORMAL deltas (zeros for a target that
/// does not).
fn write_targets(doc: &mut Document, model: &Model, mi: usize) -> Result<Value, GltfError> {
    let mesh = &model.meshes[mi];
    let n = mesh.positions.len();
    let bad = |what: String| bad_mesh(model, mi, what);
    let with_normals =
        !mesh.normals.is_empty() && mesh.targets.iter().any(|t| !t.normals.is_empty());
    mesh.check_targets().map_err(bad)?;
    let mut out = Vec::with_capacity(mesh.targets.len());
    for (t, target) in mesh.targets.iter().enumerate() {
        let flat = |v: &[glam::Vec3]| -> Vec<f32> {
            if v.is_empty() {
                vec![0.0; 3 * n]
            } else {
                v.iter().flat_map(|d| d.to_array()).collect()
            }
        };
        let pos = flat(&target.positions);
        if pos.iter().any(|v| !v.is_finite()) {
            return Err(bad(format!(
                "morph target {t} has a delta that is not finite"
            )));
        }
        let mut attrs =
            json!({ "POSITION": floats(doc, &pos, 3, "VEC3", Some(ARRAY_BUFFER), true) });
        if with_normals {
            let nrm = flat(&target.normals);
            if nrm.iter().any(|v| !v.is_finite()) {
                return Err(bad(format!(
                    "morph target {t} has a normal delta that is not finite"
                )));
            }
            attrs["NORMAL"] = json!(floats(doc, &nrm, 3, "VEC3", Some(ARRAY_BUFFER), false));
        }
        out.push(attrs);
    }
    Ok(Value::Array(out))
}
