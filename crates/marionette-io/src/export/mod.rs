//! glTF 2.0 writers: a [`Model`] to a [`Document`] (`.glb` bytes or `.gltf` JSON plus a `.bin`
//! buffer), and animations appended to a document ([`append_animations`], used by the bake).
//!
//! Layout of the written file (stable, so tools and tests can rely on it):
//! - nodes `0..J` are the skeleton joints in skeleton order (node index == joint index; the
//!   model's `joint_nodes` from import is not used), with names, children and TRS (identity
//!   parts omitted);
//! - node `J` is an [`ARMATURE_NODE`] (`Armature`) node holding the root joints when the skeleton's armature
//!   transform is not the identity (decomposed to TRS, so shear is lost);
//! - then one node per [`SkinnedMesh`](marionette_anim::SkinnedMesh): skinned meshes sit at the
//!   scene root (glTF ignores their transform), rigid meshes are children of their
//!   `node_joint` with identity transform (their vertices are in that joint's space);
//! - one glTF mesh with one primitive and one material per model mesh; materials are
//!   non-metallic (`metallicFactor` 0, `roughnessFactor` 0.8: the model stores base colour only);
//!   a mesh with morph targets carries them with its set's default `weights` and
//!   `extras.targetNames`, and its node is a target of the set's `weights` channels;
//! - skins with `inverseBindMatrices` and `skeleton` = the joints' common root;
//! - animations in clip order, one sampler per channel (`export/animation.rs`, shared with the
//!   bake's [`append_animations`]);
//! - images embedded in the binary buffer, one texture per image.
//!
//! The output depends only on the model: the same model gives the same bytes.

mod animation;
mod buffer;
mod mesh;
mod nodes;
mod springs;
mod takes;
#[cfg(test)]
mod tests;

pub use animation::Animation;
pub use nodes::ARMATURE_NODE;
pub use takes::{append_animations, skeleton_document};

use serde_json::{json, Value};

use crate::{Document, GltfError};
use marionette_anim::Model;
use marionette_anim::Skeleton;

/// Writes the model as one binary `.glb` file (images embedded).
pub fn to_glb(model: &Model) -> Result<Vec<u8>, GltfError> {
    to_document(model)?.to_glb()
}

/// Writes the model as pretty-printed `.gltf` JSON whose single buffer is the returned bytes,
/// referenced by the relative URI `bin_name` (write them next to the JSON under that name).
pub fn to_gltf(model: &Model, bin_name: &str) -> Result<(String, Vec<u8>), GltfError> {
    to_document(model)?.to_gltf(bin_name)
}

/// The model as a glTF [`Document`] (write it with [`crate::write_document`]).
pub fn to_document(model: &Model) -> Result<Document, GltfError> {
    Ok(model_document(model, true)?.0)
}

/// A converted model's document, the node of each joint and the nodes of each morph set.
pub type ConvertedDocument = (Document, Vec<usize>, Vec<Vec<usize>>);

/// A model read from another format (BVH, FBX) as the glTF a bake writes into: its skeleton,
/// skins, meshes and images without its clips (the bake writes the takes), with the node of
/// each joint (`0..J`) and the nodes of each morph set, as a bake into a glTF source's copy
/// has them.
pub fn converted_document(model: &Model) -> Result<ConvertedDocument, GltfError> {
    let (doc, morph_nodes) = model_document(model, false)?;
    Ok((doc, (0..model.skeleton.len()).collect(), morph_nodes))
}

/// The document of `model` (its clips as animations when `clips`) and the nodes of each morph
/// set.
fn model_document(model: &Model, clips: bool) -> Result<(Document, Vec<Vec<usize>>), GltfError> {
    let skel = &model.skeleton;
    let joint_count = skel.len();
    let mut doc = Document::new();
    let nodes::SkeletonNodes {
        mut nodes,
        mut scene_nodes,
        armature,
    } = nodes::skeleton_nodes(skel)?;

    let skins = write_skins(&mut doc, model, armature)?;
    let images: Vec<Value> = model
        .images
        .iter()
        .map(|img| {
            let view = doc.add_view(&img.data, None);
            let mut v = json!({ "bufferView": view, "mimeType": img.mime_type });
            if let Some(n) = &img.name {
                v["name"] = json!(n);
            }
            v
        })
        .collect();

    let mut meshes = Vec::new();
    let mut materials = Vec::new();
    let sets = skel.morphs().sets();
    let mut morph_nodes: Vec<Vec<usize>> = vec![Vec::new(); sets.len()];
    for (mi, mesh) in model.meshes.iter().enumerate() {
        let (prim, material) = mesh::write_mesh(&mut doc, model, mi)?;
        materials.push(material);
        let mut gltf_mesh = json!({ "name": mesh.name, "primitives": [prim] });
        nodes.push(Value::Null);
        let node_index = nodes.len() - 1;
        if let Some(s) = mesh.morph_set.filter(|_| !mesh.targets.is_empty()) {
            let set = sets
                .get(s)
                .filter(|set| set.targets.len() == mesh.targets.len());
            let Some(set) = set else {
                return Err(mesh::bad_mesh(
                    model,
                    mi,
                    format!(
                        "{} morph targets, but its morph set {s} does not have as many",
                        mesh.targets.len()
                    ),
                ));
            };
            gltf_mesh["weights"] = nodes::nums(&set.defaults, "morph weight")?;
            gltf_mesh["extras"] = json!({ "targetNames": set.targets });
            morph_nodes[s].push(node_index);
        }
        meshes.push(gltf_mesh);
        let mut node = json!({ "name": mesh.name, "mesh": mi });
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
            // a static mesh's vertices are in the armature's space: under it
            (None, None) => match armature {
                Some(arm) => {
                    let children = nodes[arm]
                        .as_object_mut()
                        .map(|o| o.entry("children").or_insert_with(|| json!([])));
                    if let Some(Value::Array(c)) = children {
                        c.push(json!(node_index));
                    }
                }
                None => scene_nodes.push(node_index),
            },
        }
        nodes[node_index] = node;
    }
    let joint_nodes: Vec<usize> = (0..joint_count).collect();
    let clips: Vec<Animation<'_>> = model
        .clips
        .iter()
        .filter(|_| clips)
        .map(|clip| Animation {
            clip,
            rate: None,
            extras: Value::Null,
            snorm_rotations: false,
        })
        .collect();
    let animations = animation::write_animations(&mut doc, &clips, &joint_nodes, &morph_nodes)?;

    let json = &mut doc.json;
    json["scene"] = json!(0);
    json["scenes"] = json!([{ "nodes": scene_nodes }]);
    json["nodes"] = Value::Array(nodes);
    let put = |json: &mut Value, key: &str, v: Vec<Value>| {
        if !v.is_empty() {
            json[key] = Value::Array(v);
        }
    };
    put(json, "meshes", meshes);
    put(json, "materials", materials);
    put(json, "skins", skins);
    put(json, "animations", animations);
    // (joint j is node j in this document)
    if let Some(ext) = springs::write(skel.springs(), usize::from) {
        springs::put(json, ext);
    }
    if !images.is_empty() {
        let textures = (0..images.len())
            .map(|i| json!({ "source": i, "sampler": 0 }))
            .collect();
        put(json, "textures", textures);
        put(json, "images", images);
        json["samplers"] = json!([{ "magFilter": 9729, "minFilter": 9987 }]);
    }
    Ok((doc, morph_nodes))
}

/// The nearest joint that is an ancestor of (or equal to) every joint in `joints`: the deepest
/// joint whose subtree holds them all (one pass up the parent-first order, at any depth).
fn common_root(skel: &Skeleton, joints: &[u16]) -> Option<u16> {
    let n = skel.len();
    let mut inside = vec![0usize; n];
    for &j in joints {
        if let Some(slot) = inside.get_mut(usize::from(j)) {
            *slot = 1;
        }
    }
    let total: usize = inside.iter().sum();
    if total == 0 {
        return None;
    }
    for j in (0..n).rev() {
        if let Some(p) = skel.parents()[j] {
            inside[p as usize] += inside[j];
        }
    }
    // the joints holding all of them form a chain from a root down; parent-first, the deepest
    // comes last
    (0..n).rev().find(|&j| inside[j] == total).map(|j| j as u16)
}

fn write_skins(
    doc: &mut Document,
    model: &Model,
    armature_node: Option<usize>,
) -> Result<Vec<Value>, GltfError> {
    let skel = &model.skeleton;
    let mut out = Vec::new();
    for (si, skin) in model.skins.iter().enumerate() {
        let bad = |what: String| GltfError::BadSkin {
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
        let ibm = buffer::floats(doc, &flat, 16, "MAT4", None, false);
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
