//! Mesh primitives to [`SkinnedMesh`]es: attributes, indices, influences reduced to four (fixes
//! counted once per mesh), rigid meshes attached to the joint they sit under, and morph
//! targets (one [`MorphSet`] per node whose mesh has them, see [`super::morphs`]).

use glam::{DMat3, DMat4, Vec2, Vec3};

use super::accessor::{read_floats, read_uints, Ints};
use super::component::{ComponentType, Type};
use super::container::Parsed;
use super::material::{base_color, Images};
use super::morphs;
use super::nodes::NodeGraph;
use super::schema::Primitive;
use super::skeleton::Joints;
use crate::error::{Fault, FaultResult};
use marionette_anim::{reduce_influences, JointIndex, MorphSet, Skin, SkinnedMesh};

/// The validator's tolerance for a unit vector's length (|1 - length|).
const NORMAL_LENGTH_TOLERANCE: f32 = 0.00674;

/// Everything mesh building reads.
pub(crate) struct MeshInputs<'a> {
    /// The document.
    pub doc: &'a Parsed,
    /// Directory for external images.
    pub base_dir: Option<&'a std::path::Path>,
    /// Node hierarchy.
    pub graph: &'a NodeGraph,
    /// Skeleton and node mapping.
    pub joints: &'a Joints,
    /// Skins, in file order.
    pub skins: &'a [Skin],
}

/// Builds one mesh per primitive of every node that has a mesh, in node order, and the morph
/// set of each node whose mesh has morph targets (the meshes' `morph_set` index it).
pub(crate) fn meshes(
    input: &MeshInputs<'_>,
    images: &mut Images,
    warnings: &mut Vec<String>,
) -> FaultResult<(Vec<SkinnedMesh>, Vec<MorphSet>)> {
    let root = &input.doc.root;
    let mut uses = vec![0usize; root.meshes.len()];
    for node in &root.nodes {
        if let Some(m) = node.mesh.and_then(|m| uses.get_mut(m)) {
            *m += 1;
        }
    }
    let mut out = Vec::new();
    let mut sets: Vec<MorphSet> = Vec::new();
    for (n, node) in root.nodes.iter().enumerate() {
        let Some(m) = node.mesh else {
            continue;
        };
        let Some(mesh) = root.meshes.get(m) else {
            return Err(Fault::new(
                format!("nodes[{n}].mesh"),
                format!("mesh {m} does not exist"),
            ));
        };
        // The mesh's name, else its node's name, else `mesh_<index>`.
        let node_name = node.name.as_deref().map(str::trim).unwrap_or("");
        let mut base = match mesh.name.as_deref().map(str::trim) {
            Some(name) if !name.is_empty() => name.to_string(),
            _ if !node_name.is_empty() => node_name.to_string(),
            _ => format!("mesh_{m}"),
        };
        if uses[m] > 1 && base != node_name {
            base = format!("{base}@{}", input.graph.names[n]);
        }
        let target_count = morphs::target_count(mesh, m)?;
        if target_count == 0 && (mesh.weights.is_some() || node.weights.is_some()) {
            warnings.push(format!(
                "mesh '{base}' (meshes[{m}]): has weights but no morph targets; ignored"
            ));
        }
        let first_of_node = out.len();
        let mut set: Option<usize> = None;
        // How the mesh follows the skeleton: a skin, or rigidly a joint (with the offset from
        // that joint to the mesh's node baked into the vertices).
        let skin = node.skin;
        let mut attach: Option<(JointIndex, Option<DMat4>)> = None;
        // a mesh neither skinned nor under a joint (a prop, a ground, a character exported
        // without its skin) stays where its node puts it: its vertices in the armature's space,
        // which is where the skeleton's static meshes are drawn and written
        let mut fixed: Option<DMat4> = None;
        if skin.is_none() {
            attach = rigid_attachment(input, n);
            if attach.is_none() {
                fixed = Some(static_placement(input, n));
            }
        }
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let name = if mesh.primitives.len() > 1 {
                format!("{base}.{p}")
            } else {
                base.clone()
            };
            let path = format!("meshes[{m}].primitives[{p}]");
            if prim.mode != 4 {
                let mode = match prim.mode {
                    0 => "Points",
                    1 => "Lines",
                    2 => "LineLoop",
                    3 => "LineStrip",
                    5 => "TriangleStrip",
                    6 => "TriangleFan",
                    _ => "unknown",
                };
                warnings.push(format!(
                    "{path} (mesh '{name}'): mode {mode} ({}) is not supported (only triangles); \
                     skipped",
                    prim.mode
                ));
                continue;
            }
            let mut sm = primitive(input, prim, &path, &name, images, warnings)?;
            if target_count > 0 {
                let vertices = sm.positions.len();
                sm.targets = morphs::primitive_targets(input.doc, prim, &path, vertices)?;
            }
            match (skin, attach) {
                (Some(s), _) => {
                    let Some(skin_data) = input.skins.get(s) else {
                        return Err(Fault::new(
                            format!("nodes[{n}].skin"),
                            format!("skin {s} does not exist"),
                        ));
                    };
                    if !skin_influences(input.doc, prim, &path, skin_data, &mut sm, warnings)? {
                        warnings.push(format!(
                            "{path} (mesh '{name}'): nodes[{n}] '{}' has a skin but the \
                             primitive has no JOINTS_0/WEIGHTS_0; skipped",
                            input.graph.names[n]
                        ));
                        continue;
                    }
                    sm.skin = Some(s);
                }
                (None, Some((joint, offset))) => {
                    sm.node_joint = Some(joint);
                    if let Some(offset) = offset {
                        bake(&mut sm, offset);
                    }
                }
                (None, None) => {
                    if let Some(place) = fixed {
                        bake(&mut sm, place);
                    }
                }
            }
            if target_count > 0 {
                let s = match set {
                    Some(s) => s,
                    None => {
                        let at = (n, m);
                        let built = morphs::new_set(input.doc, at, &base, target_count, warnings)?;
                        sets.push(built);
                        *set.insert(sets.len() - 1)
                    }
                };
                sm.morph_set = Some(s);
            }
            out.push(sm);
        }
        if let Some(s) = set {
            let kept: Vec<&SkinnedMesh> = out[first_of_node..].iter().collect();
            sets[s].joint = morphs::follow_joint(&kept, input.skins);
        }
    }
    Ok((out, sets))
}

/// The joint a non-skinned node is or sits under, and the offset from it when the node is not
/// the joint itself.
fn rigid_attachment(input: &MeshInputs<'_>, node: usize) -> Option<(JointIndex, Option<DMat4>)> {
    let g = input.graph;
    if let Some(j) = input.joints.node_joint[node] {
        return Some((j, None));
    }
    let mut offset = g.local_matrix[node];
    let mut at = node;
    while let Some(a) = g.parent[at] {
        if let Some(j) = input.joints.node_joint[a] {
            return Some((j, Some(offset)));
        }
        offset = g.local_matrix[a] * offset;
        at = a;
    }
    None
}

/// A static mesh's node placed in the armature's space: `armature⁻¹ · world(node)`.
fn static_placement(input: &MeshInputs<'_>, node: usize) -> DMat4 {
    let g = input.graph;
    let mut world = g.local_matrix[node];
    let mut at = node;
    while let Some(a) = g.parent[at] {
        world = g.local_matrix[a] * world;
        at = a;
    }
    let armature = input.joints.skeleton.armature().as_dmat4();
    let inverse = armature.inverse();
    if inverse.is_finite() {
        inverse * world
    } else {
        world
    }
}

/// Moves vertices (and normals) by a fixed node offset, and turns the morph deltas with them:
/// position deltas by the offset's linear part, normal deltas as the normals (each scaled as
/// its vertex's normal is renormalised, so a morphed normal turns exactly as an unmorphed one).
fn bake(mesh: &mut SkinnedMesh, offset: DMat4) {
    let linear = DMat3::from_mat4(offset);
    let normal = linear.inverse().transpose();
    for p in &mut mesh.positions {
        *p = offset.transform_point3(p.as_dvec3()).as_vec3();
    }
    // 1 / |N n| per vertex: what renormalising the turned normal divides by
    let rescale: Vec<f64> = mesh
        .normals
        .iter()
        .map(|n| {
            let len = (normal * n.as_dvec3()).length();
            if len > 0.0 {
                1.0 / len
            } else {
                0.0
            }
        })
        .collect();
    for n in &mut mesh.normals {
        *n = (normal * n.as_dvec3()).normalize_or_zero().as_vec3();
    }
    for target in &mut mesh.targets {
        for d in &mut target.positions {
            *d = (linear * d.as_dvec3()).as_vec3();
        }
        for d in &mut target.tangents {
            *d = (linear * d.as_dvec3()).as_vec3();
        }
        for (d, k) in target.normals.iter_mut().zip(&rescale) {
            *d = (normal * d.as_dvec3() * *k).as_vec3();
        }
    }
}

/// Positions, normals, UVs, indices and material of one primitive.
fn primitive(
    input: &MeshInputs<'_>,
    prim: &Primitive,
    path: &str,
    name: &str,
    images: &mut Images,
    warnings: &mut Vec<String>,
) -> FaultResult<SkinnedMesh> {
    let doc = input.doc;
    let attr_path = |s: &str| format!("{path}.attributes[\"{s}\"]");
    let pos = prim
        .attribute("POSITION")
        .ok_or_else(|| Fault::new(attr_path("POSITION"), "is missing"))?;
    // KHR_mesh_quantization allows integer positions, normals and texture coordinates.
    let (any, normalized) = if doc.quantized {
        (Ints::Any, Ints::Normalized)
    } else {
        (Ints::None, Ints::None)
    };
    let (values, count) = read_floats(
        doc,
        pos,
        &attr_path("POSITION"),
        "POSITION",
        &[Type::Vec3],
        any,
    )?;
    let positions: Vec<Vec3> = values.chunks_exact(3).map(Vec3::from_slice).collect();
    let same_count = |other: usize, what: &str, acc: usize| -> FaultResult<()> {
        if other == count {
            return Ok(());
        }
        Err(Fault::new(
            attr_path(what),
            format!("accessor {acc} has {other} elements but POSITION has {count}"),
        ))
    };
    let mut normals = Vec::new();
    if let Some(acc) = prim.attribute("NORMAL") {
        let (v, c) = read_floats(
            doc,
            acc,
            &attr_path("NORMAL"),
            "NORMAL",
            &[Type::Vec3],
            normalized,
        )?;
        same_count(c, "NORMAL", acc)?;
        normals = v.chunks_exact(3).map(Vec3::from_slice).collect();
        let not_unit = normals
            .iter()
            .filter(|n| (1.0 - n.length()).abs() > NORMAL_LENGTH_TOLERANCE)
            .count();
        if not_unit > 0 {
            for n in &mut normals {
                *n = n.normalize_or_zero();
            }
            warnings.push(format!(
                "{} (mesh '{name}'): {not_unit} normal(s) are not unit length; normalised",
                attr_path("NORMAL")
            ));
        }
    }
    let mut uvs = Vec::new();
    if let Some(acc) = prim.attribute("TEXCOORD_0") {
        let p = attr_path("TEXCOORD_0");
        let ints = if doc.quantized {
            Ints::Any
        } else {
            Ints::Normalized
        };
        let (v, c) = read_floats(doc, acc, &p, "TEXCOORD_0", &[Type::Vec2], ints)?;
        same_count(c, "TEXCOORD_0", acc)?;
        uvs = v.chunks_exact(2).map(Vec2::from_slice).collect();
    }
    let indices = match prim.indices {
        Some(acc) => {
            let p = format!("{path}.indices");
            let types = [ComponentType::U8, ComponentType::U16, ComponentType::U32];
            let (idx, _) = read_uints(doc, acc, &p, "indices", Type::Scalar, &types)?;
            if let Some((k, &i)) = idx.iter().enumerate().find(|(_, &i)| i as usize >= count) {
                return Err(Fault::new(
                    p,
                    format!("index {k} is {i}, but the primitive has {count} vertices"),
                ));
            }
            idx
        }
        None => (0..count as u32).collect(),
    };
    if !indices.len().is_multiple_of(3) {
        return Err(Fault::new(
            path,
            format!(
                "{} indices is not a whole number of triangles",
                indices.len()
            ),
        ));
    }
    let material = prim.material;
    let (color, texture) = base_color(doc, input.base_dir, path, material, images, warnings);
    Ok(SkinnedMesh {
        name: name.to_string(),
        skin: None,
        node_joint: None,
        positions,
        normals,
        uvs,
        indices,
        joints: Vec::new(),
        weights: Vec::new(),
        base_color: color,
        base_color_texture: texture,
        morph_set: None,
        targets: Vec::new(),
    })
}

/// Reads every JOINTS_n/WEIGHTS_n set, reduces each vertex to four influences and reports the
/// fixes once for the mesh. Returns false when the primitive has no influences at all.
fn skin_influences(
    doc: &Parsed,
    prim: &Primitive,
    path: &str,
    skin: &Skin,
    mesh: &mut SkinnedMesh,
    warnings: &mut Vec<String>,
) -> FaultResult<bool> {
    let count = mesh.positions.len();
    let mut sets = Vec::new();
    for set in 0u32.. {
        let j = prim.attribute(&format!("JOINTS_{set}"));
        let w = prim.attribute(&format!("WEIGHTS_{set}"));
        let (jp, wp) = (
            format!("{path}.attributes[\"JOINTS_{set}\"]"),
            format!("{path}.attributes[\"WEIGHTS_{set}\"]"),
        );
        let (j, w) = match (j, w) {
            (None, None) => break,
            (Some(j), Some(w)) => (j, w),
            (None, Some(_)) => return Err(Fault::new(jp, "is missing but WEIGHTS_ is present")),
            (Some(_), None) => return Err(Fault::new(wp, "is missing but JOINTS_ is present")),
        };
        let types = [ComponentType::U8, ComponentType::U16];
        let (jv, jc) = read_uints(doc, j, &jp, "JOINTS", Type::Vec4, &types)?;
        let (wv, wc) = read_floats(doc, w, &wp, "WEIGHTS", &[Type::Vec4], Ints::Normalized)?;
        for (c, p, acc) in [(jc, &jp, j), (wc, &wp, w)] {
            if c != count {
                return Err(Fault::new(
                    p.clone(),
                    format!("accessor {acc} has {c} elements but POSITION has {count}"),
                ));
            }
        }
        sets.push((jv, wv, jp));
    }
    if sets.is_empty() {
        return Ok(false);
    }
    let slots = skin.joints.len();
    let (mut dropped, mut clamped, mut renormalized, mut all_zero) = (0, 0, 0, 0);
    let mut influences: Vec<(u16, f32)> = Vec::with_capacity(4 * sets.len());
    mesh.joints.reserve(count);
    mesh.weights.reserve(count);
    for v in 0..count {
        influences.clear();
        for (jv, wv, jp) in &sets {
            for k in 0..4 {
                let (slot, weight) = (jv[4 * v + k] as usize, wv[4 * v + k]);
                if slot < slots {
                    influences.push((slot as u16, weight));
                } else if weight > 0.0 {
                    return Err(Fault::new(
                        jp.clone(),
                        format!(
                            "vertex {v} uses joint {slot} of the skin '{}', which has only {slots} \
                             joints",
                            skin.name
                        ),
                    ));
                }
            }
        }
        let (joints, weights, fixes) = reduce_influences(&influences);
        dropped += fixes.dropped as usize;
        clamped += fixes.clamped as usize;
        renormalized += fixes.renormalized as usize;
        all_zero += fixes.all_zero as usize;
        mesh.joints.push(joints);
        mesh.weights.push(weights);
    }
    let name = &mesh.name;
    for (n, what) in [
        (dropped, "had more than 4 influences (kept the strongest 4)"),
        (clamped, "had weights outside [0, 1] (clamped)"),
        (renormalized, "had weights not summing to 1 (renormalised)"),
        (
            all_zero,
            "had no weight at all (bound to the skin's first joint)",
        ),
    ] {
        if n > 0 {
            warnings.push(format!("mesh '{name}': {n} vertices {what}"));
        }
    }
    Ok(true)
}
