//! FBX meshes as Marionette's: triangulated, one vertex per face corner (positions, normals,
//! UVs), skinned by their skin deformer (the four strongest influences, renormalised; a skin
//! per mesh, its inverse bind matrices from the clusters) or moving rigidly with their node's
//! joint, with their blend channels as morph targets (position deltas per vertex).

use glam::{Mat4, Vec3};

use super::clips::Channel;
use super::joints::Joints;
use super::values::{dir3, matrix, vec2, vec3};
use marionette_anim::{JointIndex, MorphSet, MorphTarget, Skin, SkinnedMesh};

/// What the meshes make: meshes, skins, morph sets and the blend channels behind them.
pub(crate) struct Meshes<'a> {
    pub meshes: Vec<SkinnedMesh>,
    pub skins: Vec<Skin>,
    pub sets: Vec<MorphSet>,
    pub channels: Vec<Channel<'a>>,
}

/// Reads every mesh instance (a node with a mesh).
pub(crate) fn meshes<'a>(
    scene: &'a ufbx::Scene,
    joints: &Joints,
    scale: f64,
    warnings: &mut Vec<String>,
) -> Result<Meshes<'a>, String> {
    let mut out = Meshes {
        meshes: Vec::new(),
        skins: Vec::new(),
        sets: Vec::new(),
        channels: Vec::new(),
    };
    for node in scene.nodes.iter() {
        let Some(mesh) = node.mesh.as_ref() else {
            continue;
        };
        let name = if node.element.name.is_empty() {
            mesh.element.name.to_string()
        } else {
            node.element.name.to_string()
        };
        // one vertex per face corner
        let mut corners: Vec<u32> = Vec::new();
        let mut tri = Vec::new();
        for face in mesh.faces.iter() {
            let n = ufbx::triangulate_face_vec(&mut tri, mesh, *face);
            corners.extend_from_slice(&tri[..(n as usize * 3).min(tri.len())]);
        }
        if corners.is_empty() {
            warnings.push(format!("mesh '{name}' has no triangles: skipped"));
            continue;
        }
        let skin_deformer = mesh.skin_deformers.first();
        if mesh.skin_deformers.len() > 1 {
            warnings.push(format!(
                "mesh '{name}' has {} skins: the first is used",
                mesh.skin_deformers.len()
            ));
        }
        // geometry space -> the space its vertices are kept in: a skinned mesh's bind space
        // (its clusters' geometry-to-bone matrices start from there), else its joint's
        let (place, skin, node_joint) = match skin_deformer {
            Some(deformer) => {
                let mut skin = Skin {
                    name: format!("{name}_skin"),
                    joints: Vec::new(),
                    inverse_bind: Vec::new(),
                };
                for cluster in deformer.clusters.iter() {
                    let joint = cluster
                        .bone_node
                        .as_ref()
                        .and_then(|b| joints.of_node[b.element.typed_id as usize]);
                    let Some(joint) = joint else {
                        return Err(format!(
                            "skin cluster '{}' of mesh '{name}' is bound to no node",
                            cluster.element.name
                        ));
                    };
                    skin.joints.push(joint as JointIndex);
                    skin.inverse_bind
                        .push(matrix(&cluster.geometry_to_bone, scale));
                }
                out.skins.push(skin);
                (Mat4::IDENTITY, Some(out.skins.len() - 1), None)
            }
            None => {
                let Some(j) = joints.at_or_above(scene, node) else {
                    return Err(format!("mesh '{name}': its node is under no joint"));
                };
                // geometry -> world, then world -> the joint's rest world
                let joint_node = &scene.nodes[joints.nodes[j]];
                let to_joint = matrix(&joint_node.node_to_world, scale).inverse()
                    * matrix(&node.geometry_to_world, scale);
                (to_joint, None, Some(j as JointIndex))
            }
        };
        let normal_place = glam::Mat3::from_mat4(place).inverse().transpose();
        let mut m = SkinnedMesh {
            name: name.clone(),
            skin,
            node_joint,
            base_color: [0.8, 0.8, 0.8, 1.0],
            ..Default::default()
        };
        for &c in &corners {
            let c = c as usize;
            m.positions
                .push(place.transform_point3(vec3(mesh.vertex_position[c], scale)));
            if mesh.vertex_normal.exists {
                let n = normal_place * dir3(mesh.vertex_normal[c]);
                m.normals.push(n.normalize_or(Vec3::Y));
            }
            if mesh.vertex_uv.exists {
                let uv = vec2(mesh.vertex_uv[c]);
                // FBX's V runs up, glTF's down
                m.uvs.push(glam::Vec2::new(uv.x, 1.0 - uv.y));
            }
        }
        m.indices = (0..corners.len() as u32).collect();
        if let Some(deformer) = skin_deformer {
            for &c in &corners {
                let v = mesh.vertex_indices[c as usize] as usize;
                let mut slots = [(0u16, 0.0f32); 4];
                if let Some(sv) = deformer.vertices.get(v) {
                    let begin = sv.weight_begin as usize;
                    let end = begin + sv.num_weights as usize;
                    let mut ws: Vec<(u16, f32)> = deformer
                        .weights
                        .get(begin..end)
                        .unwrap_or(&[])
                        .iter()
                        .map(|w| (w.cluster_index as u16, w.weight as f32))
                        .filter(|(_, w)| w.is_finite() && *w > 0.0)
                        .collect();
                    ws.sort_by(|a, b| b.1.total_cmp(&a.1));
                    for (slot, w) in slots.iter_mut().zip(ws) {
                        *slot = w;
                    }
                }
                let sum: f32 = slots.iter().map(|s| s.1).sum();
                if sum > 0.0 {
                    m.joints.push(slots.map(|s| s.0));
                    m.weights.push(slots.map(|s| s.1 / sum));
                } else {
                    // unweighted: the first cluster's joint holds it
                    m.joints.push([0; 4]);
                    m.weights.push([1.0, 0.0, 0.0, 0.0]);
                }
            }
        }
        // blend channels: morph targets over the corners
        let channels: Vec<&ufbx::BlendChannel> = mesh
            .blend_deformers
            .iter()
            .flat_map(|d| d.channels.iter().map(|c| &**c))
            .collect();
        if !channels.is_empty() {
            let set = out.sets.len();
            let mut targets = Vec::new();
            let mut names = Vec::new();
            let mut defaults = Vec::new();
            let linear = glam::Mat3::from_mat4(place);
            for (t, channel) in channels.iter().enumerate() {
                let mut deltas = vec![Vec3::ZERO; mesh.num_vertices];
                if let Some(shape) = channel.target_shape.as_ref() {
                    for (&v, &d) in shape
                        .offset_vertices
                        .iter()
                        .zip(shape.position_offsets.iter())
                    {
                        if let Some(slot) = deltas.get_mut(v as usize) {
                            *slot = linear * vec3(d, scale);
                        }
                    }
                }
                let positions = corners
                    .iter()
                    .map(|&c| deltas[mesh.vertex_indices[c as usize] as usize])
                    .collect();
                targets.push(MorphTarget {
                    positions,
                    ..Default::default()
                });
                names.push(channel.element.name.to_string());
                defaults.push(channel.weight as f32);
                out.channels.push(Channel {
                    channel,
                    set,
                    target: t,
                });
            }
            m.morph_set = Some(set);
            m.targets = targets;
            // the joint the face follows: its node's, or for a skinned mesh the one carrying
            // most of what its targets move (as the glTF importer decides)
            let joint = crate::import::morphs::follow_joint(&[&m], &out.skins);
            out.sets.push(MorphSet {
                name: name.clone(),
                targets: names,
                defaults,
                joint,
                node: None,
            });
        }
        out.meshes.push(m);
    }
    Ok(out)
}
