//! glTF 2.0 writer: a [`Model`] to `.glb` bytes or `.gltf` JSON plus a `.bin` buffer.
//!
//! Layout of the written file (stable, so tools and tests can rely on it):
//! - nodes `0..J` are the skeleton joints in skeleton order (node index == joint index; the
//!   model's `joint_nodes` from import is not used), with names, children and TRS (identity
//!   parts omitted);
//! - node `J` is an `Armature` node holding the root joints when the skeleton's armature
//!   transform is not the identity (decomposed to TRS, so shear is lost);
//! - then one node per [`SkinnedMesh`](crate::anim::SkinnedMesh): skinned meshes sit at the
//!   scene root (glTF ignores their transform), rigid meshes are children of their
//!   `node_joint` with identity transform (their vertices are in that joint's space);
//! - one glTF mesh with one primitive and one material per model mesh; materials are
//!   non-metallic (`metallicFactor` 0, `roughnessFactor` 0.8: the model stores base colour only);
//! - skins with `inverseBindMatrices` and `skeleton` = the joints' common root;
//! - animations in clip order, one sampler per channel (`export/animation.rs`);
//! - images embedded in the binary buffer, one texture per image.
//!
//! The output depends only on the model: the same model gives the same bytes.

#[path = "export/animation.rs"]
mod animation;
#[path = "export/buffer.rs"]
mod buffer;
#[path = "export/mesh.rs"]
mod mesh;
#[cfg(test)]
#[path = "export/tests.rs"]
mod tests;

use glam::Mat4;
use serde_json::{json, Value};

use crate::anim::{ClipError, Skeleton, Transform};
use crate::io::Model;
use buffer::Bin;

/// Why a model could not be written as glTF.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A skin is inconsistent with the skeleton.
    #[error("skins[{skin}] '{name}': {what}")]
    BadSkin {
        /// Skin index.
        skin: usize,
        /// Skin name.
        name: String,
        /// What is wrong.
        what: String,
    },
    /// A mesh's arrays disagree or point outside the model.
    #[error("meshes[{mesh}] '{name}': {what}")]
    BadMesh {
        /// Mesh index.
        mesh: usize,
        /// Mesh name.
        name: String,
        /// What is wrong.
        what: String,
    },
    /// A clip without channels (glTF animations need at least one).
    #[error("clips[{clip}] '{name}' has no animated channels")]
    EmptyClip {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
    },
    /// A track targets a joint the skeleton does not have.
    #[error("clips[{clip}] '{name}' animates joint {joint}, but the skeleton has {count} joints")]
    BadTrackJoint {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
        /// Joint index found.
        joint: usize,
        /// Joint count.
        count: usize,
    },
    /// A track's keys are invalid.
    #[error("clips[{clip}] '{name}', joint {joint} {channel}: {source}")]
    BadTrack {
        /// Clip index.
        clip: usize,
        /// Clip name.
        name: String,
        /// Joint index.
        joint: usize,
        /// glTF channel path.
        channel: &'static str,
        /// The key problem.
        source: ClipError,
    },
    /// A NaN or infinite number where glTF needs a finite one.
    #[error("{0} is not finite")]
    NotFinite(String),
    /// The output would not fit a GLB's 32-bit length fields.
    #[error("output of {0} bytes exceeds the GLB size limit of 4 GiB")]
    TooLarge(usize),
    /// JSON serialisation failed.
    #[error("writing glTF JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Writes the model as one binary `.glb` file (images embedded).
pub fn to_glb(model: &Model) -> Result<Vec<u8>, ExportError> {
    let (doc, bin) = document(model, None)?;
    buffer::glb(&serde_json::to_string(&doc)?, &bin)
}

/// Writes the model as pretty-printed `.gltf` JSON whose single buffer is the returned bytes,
/// referenced by the relative URI `bin_name` (write them next to the JSON under that name).
pub fn to_gltf(model: &Model, bin_name: &str) -> Result<(String, Vec<u8>), ExportError> {
    let (doc, bin) = document(model, Some(bin_name))?;
    Ok((serde_json::to_string_pretty(&doc)?, bin))
}

/// A float as JSON: the shortest decimal when it reads back to the same `f32`, else the exact
/// widened value.
fn num(x: f32, what: &str) -> Result<Value, ExportError> {
    if !x.is_finite() {
        return Err(ExportError::NotFinite(what.to_string()));
    }
    let short: f64 = format!("{x}").parse().unwrap_or(f64::from(x));
    Ok(json!(if short as f32 == x {
        short
    } else {
        f64::from(x)
    }))
}

fn nums(xs: &[f32], what: &str) -> Result<Value, ExportError> {
    Ok(Value::Array(
        xs.iter().map(|&x| num(x, what)).collect::<Result<_, _>>()?,
    ))
}

/// TRS properties of a node, identity parts omitted.
fn trs(node: &mut Value, t: &Transform, what: &str) -> Result<(), ExportError> {
    if t.translation != glam::Vec3::ZERO {
        node["translation"] = nums(&t.translation.to_array(), what)?;
    }
    if t.rotation != glam::Quat::IDENTITY {
        node["rotation"] = nums(&t.rotation.normalize().to_array(), what)?;
    }
    if t.scale != glam::Vec3::ONE {
        node["scale"] = nums(&t.scale.to_array(), what)?;
    }
    Ok(())
}

fn document(model: &Model, bin_name: Option<&str>) -> Result<(Value, Vec<u8>), ExportError> {
    let skel = &model.skeleton;
    let joint_count = skel.len();
    let mut bin = Bin::default();
    let mut nodes: Vec<Value> = Vec::new();
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
    let mut scene_nodes = Vec::new();
    let armature_node = if skel.armature() != Mat4::IDENTITY && !roots.is_empty() {
        let mut node = json!({ "name": "Armature", "children": roots });
        trs(
            &mut node,
            &Transform::from_matrix(&skel.armature()),
            "armature",
        )?;
        nodes.push(node);
        scene_nodes.push(nodes.len() - 1);
        Some(nodes.len() - 1)
    } else {
        scene_nodes.extend(&roots);
        None
    };

    let skins = write_skins(&mut bin, model, armature_node)?;
    let images: Vec<Value> = model
        .images
        .iter()
        .map(|img| {
            let view = bin.view(&img.data, None);
            let mut v = json!({ "bufferView": view, "mimeType": img.mime_type });
            if let Some(n) = &img.name {
                v["name"] = json!(n);
            }
            v
        })
        .collect();

    let mut meshes = Vec::new();
    let mut materials = Vec::new();
    for (mi, mesh) in model.meshes.iter().enumerate() {
        let (prim, material) = mesh::write_mesh(&mut bin, model, mi)?;
        materials.push(material);
        meshes.push(json!({ "name": mesh.name, "primitives": [prim] }));
        let mut node = json!({ "name": mesh.name, "mesh": mi });
        nodes.push(Value::Null);
        let node_index = nodes.len() - 1;
        match (mesh.skin, mesh.node_joint) {
            (Some(skin), _) => {
                node["skin"] = json!(skin);
                scene_nodes.push(node_index);
            }
            (None, Some(j)) if (j as usize) < joint_count => {
                let children = nodes[j as usize]
                    .as_object_mut()
                    .map(|o| o.entry("children").or_insert_with(|| json!([])));
                if let Some(Value::Array(c)) = children {
                    c.push(json!(node_index));
                }
            }
            (None, Some(j)) => {
                return Err(mesh::bad_mesh(model, mi, format!("node joint {j} missing")))
            }
            (None, None) => scene_nodes.push(node_index),
        }
        nodes[node_index] = node;
    }
    let animations = animation::write_animations(&mut bin, &model.clips, joint_count)?;

    let mut doc = json!({
        "asset": { "version": "2.0", "generator": "Marionette" },
        "scene": 0,
        "scenes": [{ "nodes": scene_nodes }],
        "nodes": nodes,
    });
    let put = |doc: &mut Value, key: &str, v: Vec<Value>| {
        if !v.is_empty() {
            doc[key] = Value::Array(v);
        }
    };
    put(&mut doc, "meshes", meshes);
    put(&mut doc, "materials", materials);
    put(&mut doc, "skins", skins);
    put(&mut doc, "animations", animations);
    if !images.is_empty() {
        let textures = (0..images.len())
            .map(|i| json!({ "source": i, "sampler": 0 }))
            .collect();
        put(&mut doc, "textures", textures);
        put(&mut doc, "images", images);
        doc["samplers"] = json!([{ "magFilter": 9729, "minFilter": 9987 }]);
    }
    let Bin {
        data,
        views,
        accessors,
    } = bin;
    put(&mut doc, "accessors", accessors);
    put(&mut doc, "bufferViews", views);
    if !data.is_empty() {
        let mut buf = json!({ "byteLength": data.len() });
        if let Some(uri) = bin_name {
            buf["uri"] = json!(uri);
        }
        doc["buffers"] = json!([buf]);
    }
    Ok((doc, data))
}

/// The nearest joint that is an ancestor of (or equal to) every joint in `joints`.
fn common_root(skel: &Skeleton, joints: &[u16]) -> Option<u16> {
    let first = *joints.first()?;
    let mut candidate = Some(first);
    while let Some(c) = candidate {
        if joints.iter().all(|&j| skel.is_descendant_of(j, c)) {
            return Some(c);
        }
        candidate = skel.parent(c);
    }
    None
}

fn write_skins(
    bin: &mut Bin,
    model: &Model,
    armature_node: Option<usize>,
) -> Result<Vec<Value>, ExportError> {
    let skel = &model.skeleton;
    let mut out = Vec::new();
    for (si, skin) in model.skins.iter().enumerate() {
        let bad = |what: String| ExportError::BadSkin {
            skin: si,
            name: skin.name.clone(),
            what,
        };
        if skin.joints.is_empty() {
            return Err(bad("no joints".into()));
        }
        if skin.joints.len() != skin.inverse_bind.len() {
            return Err(bad(format!(
                "{} joints but {} inverse bind matrices",
                skin.joints.len(),
                skin.inverse_bind.len()
            )));
        }
        if let Some(&j) = skin.joints.iter().find(|&&j| j as usize >= skel.len()) {
            return Err(bad(format!(
                "joint {j} is not in the {}-joint skeleton",
                skel.len()
            )));
        }
        let flat: Vec<f32> = skin
            .inverse_bind
            .iter()
            .flat_map(|m| m.to_cols_array())
            .collect();
        if flat.iter().any(|v| !v.is_finite()) {
            return Err(bad("inverse bind matrix is not finite".into()));
        }
        let ibm = bin.floats(&flat, 16, "MAT4", None, false);
        let mut v = json!({ "name": skin.name, "joints": skin.joints, "inverseBindMatrices": ibm });
        match (common_root(skel, &skin.joints), armature_node) {
            (Some(root), _) => v["skeleton"] = json!(root),
            (None, Some(arm)) => v["skeleton"] = json!(arm),
            (None, None) => {}
        }
        out.push(v);
    }
    Ok(out)
}
