//! Which FBX nodes become joints, and the skeleton they make.
//!
//! Joints: every node with a bone attribute or a skin cluster bound to it, and every unskinned
//! mesh's node that has no such joint above it (a prop or a character exported without its
//! skin moves with its node), with all their ancestors. A file without bones or skins makes
//! every node a joint, meshes following theirs. The scene's root is not a joint: what ufbx's
//! conversion to Y up and metres puts there is folded into the nodes.

use glam::Mat4;

use super::values::transform;
use marionette_anim::{Skeleton, Transform};

/// The joints of a scene: the ufbx node (index in `scene.nodes`) of each joint, and the joint of
/// each node.
pub(crate) struct Joints {
    pub skeleton: Skeleton,
    /// The ufbx node of each joint.
    pub nodes: Vec<usize>,
    /// The joint of each ufbx node (`None`: not a joint).
    pub of_node: Vec<Option<usize>>,
}

impl Joints {
    /// The joint of `node` or of its nearest ancestor that is one.
    pub fn at_or_above(&self, scene: &ufbx::Scene, node: &ufbx::Node) -> Option<usize> {
        let mut n = Some(node);
        while let Some(node) = n {
            if let Some(j) = self
                .of_node
                .get(node.element.typed_id as usize)
                .copied()
                .flatten()
            {
                return Some(j);
            }
            n = node
                .parent
                .as_ref()
                .and_then(|p| scene.nodes.get(p.element.typed_id as usize))
                .map(|r| &**r);
        }
        None
    }
}

fn skinned(node: &ufbx::Node) -> bool {
    node.mesh
        .as_ref()
        .is_some_and(|m| !m.skin_deformers.is_empty())
}

/// Chooses the joints and builds the skeleton (`scale`: the unit override's factor).
pub(crate) fn joints(scene: &ufbx::Scene, scale: f64) -> Result<Joints, String> {
    let n = scene.nodes.len();
    let mut marked = vec![false; n];
    let mut any_bone = false;
    for node in scene.nodes.iter() {
        if node.is_root {
            continue;
        }
        if node.bone.is_some() {
            marked[node.element.typed_id as usize] = true;
            any_bone = true;
        }
    }
    for cluster in scene.skin_clusters.iter() {
        if let Some(b) = &cluster.bone_node {
            if !b.is_root {
                marked[b.element.typed_id as usize] = true;
                any_bone = true;
            }
        }
    }
    let parent_of = |node: &ufbx::Node| node.parent.as_ref().map(|p| p.element.typed_id as usize);
    if any_bone {
        for node in scene.nodes.iter() {
            if node.is_root || node.mesh.is_none() || skinned(node) {
                continue;
            }
            let mut above = parent_of(node);
            let mut covered = false;
            while let Some(p) = above {
                if marked[p] {
                    covered = true;
                    break;
                }
                above = scene.nodes.get(p).and_then(|n| parent_of(n));
            }
            if !covered {
                marked[node.element.typed_id as usize] = true;
            }
        }
    } else {
        for node in scene.nodes.iter() {
            marked[node.element.typed_id as usize] = !node.is_root;
        }
    }
    // with their ancestors (the scene root aside)
    for i in 0..n {
        if !marked[i] {
            continue;
        }
        let mut above = scene.nodes.get(i).and_then(|n| parent_of(n));
        while let Some(p) = above {
            let Some(node) = scene.nodes.get(p) else {
                break;
            };
            if node.is_root || marked[p] {
                break;
            }
            marked[p] = true;
            above = parent_of(node);
        }
    }
    // parent-first: ufbx lists nodes in any order; sort by depth
    let mut order: Vec<usize> = (0..n).filter(|&i| marked[i]).collect();
    order.sort_by_key(|&i| scene.nodes.get(i).map_or(0, |n| n.node_depth));
    let mut of_node = vec![None; n];
    for (j, &i) in order.iter().enumerate() {
        of_node[i] = Some(j);
    }
    let mut names = Vec::with_capacity(order.len());
    let mut parents = Vec::with_capacity(order.len());
    let mut rest: Vec<Transform> = Vec::with_capacity(order.len());
    for &i in &order {
        let node = &scene.nodes[i];
        names.push(node.element.name.to_string());
        parents.push(parent_of(node).and_then(|p| of_node[p]));
        rest.push(transform(&node.local_transform, scale));
    }
    let built = Skeleton::new(names, parents, rest, Mat4::IDENTITY).map_err(|e| e.to_string())?;
    // (sorted by depth, the order is parent-first and the remap the identity; followed all the
    // same)
    let mut by_joint = vec![0usize; order.len()];
    for (input, &j) in built.remap.iter().enumerate() {
        by_joint[j as usize] = order[input];
    }
    let mut of_node = vec![None; n];
    for (j, &i) in by_joint.iter().enumerate() {
        of_node[i] = Some(j);
    }
    Ok(Joints {
        skeleton: built.skeleton,
        nodes: by_joint,
        of_node,
    })
}
