//! Which nodes are joints, the parent-first [`Skeleton`] built from them, and the skins.

use glam::{DMat4, Mat4};

use super::accessor::{all_zero, read_floats, Ints};
use super::component::Type;
use super::container::Parsed;
use super::nodes::NodeGraph;
use super::schema::Root;
use crate::error::{Fault, FaultResult};
use marionette_anim::{JointIndex, Skeleton, Skin};

/// The skeleton and how its joints map to glTF nodes.
pub(crate) struct Joints {
    /// The parent-first skeleton.
    pub skeleton: Skeleton,
    /// glTF node of each joint.
    pub joint_nodes: Vec<usize>,
    /// Joint of each glTF node, if it is one.
    pub node_joint: Vec<Option<JointIndex>>,
}

/// Largest element-wise difference between two matrices, relative to their size.
fn differ(a: &DMat4, b: &DMat4) -> bool {
    let scale = a
        .to_cols_array()
        .iter()
        .chain(b.to_cols_array().iter())
        .fold(1.0f64, |m, v| m.max(v.abs()));
    a.to_cols_array()
        .iter()
        .zip(b.to_cols_array().iter())
        .any(|(x, y)| (x - y).abs() > 1e-6 * scale)
}

/// Marks skin joints and animation targets, then nodes lying between two marked nodes, then (if
/// the root joints sit under different transforms) ancestors up to a common one.
fn select(root: &Root, graph: &NodeGraph) -> (Vec<bool>, DMat4) {
    let n = graph.len();
    let mut is_joint = vec![false; n];
    for skin in &root.skins {
        for &j in &skin.joints {
            if let Some(slot) = is_joint.get_mut(j) {
                *slot = true;
            }
        }
    }
    for anim in &root.animations {
        for ch in &anim.channels {
            let animated = matches!(ch.path.as_str(), "translation" | "rotation" | "scale");
            if let (true, Some(slot)) = (animated, ch.node.and_then(|n| is_joint.get_mut(n))) {
                *slot = true;
            }
        }
    }
    // Nodes between two joints become joints: a node with a joint above it and a joint below
    // it (one pass down for "above", one pass up for "below": linear at any depth).
    let mut above = vec![false; n];
    for &i in &graph.order {
        if let Some(p) = graph.parent[i] {
            above[i] = above[p] || is_joint[p];
        }
    }
    let mut below = vec![false; n];
    for &i in graph.order.iter().rev() {
        if let Some(p) = graph.parent[i] {
            below[p] = below[p] || below[i] || is_joint[i];
        }
    }
    for i in 0..n {
        if above[i] && below[i] {
            is_joint[i] = true;
        }
    }
    // A node whose mesh's morph weights are animated is an animation target too, when nothing
    // else carries its mesh (not skinned, no joint above it): AnimatedMorphCube's one node.
    for anim in &root.animations {
        for ch in anim.channels.iter().filter(|ch| ch.path == "weights") {
            let Some(node) = ch.node.filter(|&n| n < root.nodes.len()) else {
                continue;
            };
            if root.nodes[node].skin.is_none() && !above[node] {
                is_joint[node] = true;
            }
        }
    }

    let roots: Vec<usize> = (0..n)
        .filter(|&j| is_joint[j] && graph.parent[j].is_none_or(|p| !is_joint[p]))
        .collect();
    let Some(&first) = roots.first() else {
        return (is_joint, DMat4::IDENTITY);
    };
    let armature = graph.parent_world(first);
    if roots
        .iter()
        .all(|&r| !differ(&graph.parent_world(r), &armature))
    {
        return (is_joint, armature);
    }
    // Root joints sit under different transforms: include their ancestors up to the deepest
    // one above all of them. `under[a]` counts the root joints below node a; the nodes above
    // every root joint form a chain from the top, whose deepest node is the common ancestor.
    let mut under = vec![0usize; n];
    for &r in &roots {
        under[r] = 1;
    }
    for &i in graph.order.iter().rev() {
        if let Some(p) = graph.parent[i] {
            under[p] += under[i];
        }
    }
    let common = graph
        .order
        .iter()
        .copied()
        .rev()
        .find(|&a| under[a] == roots.len() && !is_joint[a]);
    for a in 0..n {
        if under[a] > 0 && (common.is_none() || under[a] < roots.len()) {
            is_joint[a] = true;
        }
    }
    let armature = common.map_or(DMat4::IDENTITY, |c| graph.world(c));
    (is_joint, armature)
}

/// Builds the skeleton from the selected joints (in glTF node order, then parent-first).
pub(crate) fn build(root: &Root, graph: &NodeGraph) -> FaultResult<Joints> {
    let (is_joint, armature) = select(root, graph);
    let nodes: Vec<usize> = (0..graph.len()).filter(|&i| is_joint[i]).collect();
    let mut input_of_node = vec![None; graph.len()];
    for (i, &node) in nodes.iter().enumerate() {
        input_of_node[node] = Some(i);
    }
    let names = nodes.iter().map(|&n| graph.names[n].clone()).collect();
    let parents = nodes
        .iter()
        .map(|&n| graph.parent[n].and_then(|p| input_of_node[p]))
        .collect();
    let rest = nodes.iter().map(|&n| graph.local[n]).collect();
    let armature = armature.as_mat4();
    if !armature.is_finite() {
        return Err(Fault::new(
            "nodes",
            "the armature's world transform is not finite",
        ));
    }
    let built = Skeleton::new(names, parents, rest, armature)
        .map_err(|e| Fault::new("nodes", format!("cannot build the skeleton: {e}")))?;
    let mut joint_nodes = vec![0; nodes.len()];
    let mut node_joint = vec![None; graph.len()];
    for (i, &node) in nodes.iter().enumerate() {
        let j = built.remap[i];
        joint_nodes[j as usize] = node;
        node_joint[node] = Some(j);
    }
    Ok(Joints {
        skeleton: built.skeleton,
        joint_nodes,
        node_joint,
    })
}

/// Reads every skin: its joints (as skeleton joints) and inverse bind matrices. A joint listed
/// twice or joints without a common root are read with a warning; inverse bind matrices that
/// are not affine are refused.
pub(crate) fn skins(
    doc: &Parsed,
    graph: &NodeGraph,
    joints: &Joints,
    warnings: &mut Vec<String>,
) -> FaultResult<Vec<Skin>> {
    let mut out = Vec::with_capacity(doc.root.skins.len());
    for (s, skin) in doc.root.skins.iter().enumerate() {
        if skin.joints.is_empty() {
            return Err(Fault::new(
                format!("skins[{s}].joints"),
                "is empty; a skin needs at least one joint",
            ));
        }
        let mut slots = Vec::with_capacity(skin.joints.len());
        for (k, &node) in skin.joints.iter().enumerate() {
            let joint = joints.node_joint.get(node).copied().flatten();
            let joint = joint.ok_or_else(|| {
                Fault::new(
                    format!("skins[{s}].joints[{k}]"),
                    format!("node {node} does not exist"),
                )
            })?;
            if let Some(first) = skin.joints[..k].iter().position(|&n| n == node) {
                warnings.push(format!(
                    "skins[{s}].joints[{k}]: node {node} is already joints[{first}]; a joint may \
                     be listed once (both slots bind to it)"
                ));
            }
            slots.push(joint);
        }
        common_root(graph, &skin.joints, s, warnings);
        let inverse_bind = match skin.inverse_bind_matrices {
            None => vec![Mat4::IDENTITY; slots.len()],

            Some(acc) => {
                let path = format!("skins[{s}].inverseBindMatrices");
                let what = "inverse bind matrices";
                let (values, count) =
                    read_floats(doc, acc, &path, what, &[Type::Mat4], Ints::None)?;
                if count < slots.len() {
                    return Err(Fault::new(
                        path,
                        format!(
                            "accessor {acc} has {count} matrices but the skin has {} joints",
                            slots.len()
                        ),
                    ));
                }
                if all_zero(doc, acc) {
                    warnings.push(format!(
                        "{path}: accessor {acc} has no bufferView, so its matrices are all zero; \
                         identity matrices used instead"
                    ));
                    out.push(skin_of(s, skin.name.as_deref(), slots, None));
                    continue;
                }
                let matrices: Vec<Mat4> = values
                    .chunks_exact(16)
                    .take(slots.len())
                    .map(Mat4::from_cols_slice)
                    .collect();
                for (i, m) in matrices.iter().enumerate() {
                    let row = m.row(3).to_array();
                    if row
                        .iter()
                        .zip([0.0, 0.0, 0.0, 1.0])
                        .any(|(a, b)| (a - b).abs() > 1e-5)
                    {
                        return Err(Fault::new(
                            path,
                            format!(
                                "matrix {i} is not affine: its last row is {row:?}, not \
                                 [0, 0, 0, 1]"
                            ),
                        ));
                    }
                }
                matrices
            }
        };
        out.push(skin_of(s, skin.name.as_deref(), slots, Some(inverse_bind)));
    }
    Ok(out)
}

/// Skin `s` named `name` (`skin_<s>` when unnamed) with its joints and inverse bind matrices
/// (identity when `None`).
fn skin_of(s: usize, name: Option<&str>, joints: Vec<JointIndex>, ibm: Option<Vec<Mat4>>) -> Skin {
    let name = match name.map(str::trim) {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("skin_{s}"),
    };
    Skin {
        name,
        inverse_bind: ibm.unwrap_or_else(|| vec![Mat4::IDENTITY; joints.len()]),
        joints,
    }
}

/// Warns when the joints of skin `s` lie in separate node trees (glTF wants one common root).
fn common_root(graph: &NodeGraph, joints: &[usize], s: usize, warnings: &mut Vec<String>) {
    let top = |mut n: usize| {
        while let Some(p) = graph.parent[n] {
            n = p;
        }
        n
    };
    let Some(&first) = joints.first() else {
        return;
    };
    let root = top(first);
    if let Some(&other) = joints.iter().find(|&&j| top(j) != root) {
        warnings.push(format!(
            "skins[{s}].joints: the joints have no common root (nodes {first} and {other} are in \
             separate node trees); imported as separate roots"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn joints_of(json: &str) -> Joints {
        let value = serde_json::from_str(json).unwrap_or_else(|e| panic!("test JSON: {e}"));
        let mut warnings = Vec::new();
        let root = super::super::schema_read::parse(value, &mut warnings)
            .unwrap_or_else(|f| panic!("{f}"));
        let graph = NodeGraph::new(&root, &mut warnings).unwrap_or_else(|f| panic!("{f}"));
        build(&root, &graph).unwrap_or_else(|f| panic!("{f}"))
    }

    /// Skin joints, an animated non-skinned node and the node between two joints are joints;
    /// the scaled non-joint parent becomes the armature.
    #[test]
    fn joints_between_and_animated_nodes() {
        let j = joints_of(
            r#"{"asset":{"version":"2.0"},
            "nodes":[{"name":"Armature","scale":[2,2,2],"children":[1,4]},
                     {"name":"hip","children":[2]},{"name":"mid","children":[3]},
                     {"name":"hand"},{"name":"prop"}],
            "skins":[{"joints":[1,3]}],
            "animations":[{"channels":[{"sampler":0,"target":{"node":4,"path":"translation"}}],
                           "samplers":[{"input":0,"output":1}]}],
            "accessors":[{"componentType":5126,"count":1,"type":"SCALAR"},
                         {"componentType":5126,"count":1,"type":"VEC3"}]}"#,
        );
        assert_eq!(j.skeleton.names(), &["hip", "mid", "hand", "prop"]);
        assert_eq!(j.joint_nodes, vec![1, 2, 3, 4]);
        assert_eq!(j.skeleton.parents(), &[None, Some(0), Some(1), None]);
        assert_eq!(j.skeleton.armature(), Mat4::from_scale(Vec3::splat(2.0)));
        assert_eq!(j.node_joint[0], None);
    }

    /// Root joints under different transforms pull in their ancestors up to the common one,
    /// whose world transform is the armature.
    #[test]
    fn different_root_parents_include_ancestors() {
        let j = joints_of(
            r#"{"asset":{"version":"2.0"},
            "nodes":[{"name":"top","scale":[3,3,3],"children":[1,2]},
                     {"name":"A","translation":[1,0,0],"children":[3]},
                     {"name":"B","translation":[0,5,0],"children":[4]},
                     {"name":"j1"},{"name":"j2"}],
            "skins":[{"joints":[3,4]}]}"#,
        );
        assert_eq!(j.skeleton.names(), &["A", "B", "j1", "j2"]);
        assert_eq!(j.skeleton.armature(), Mat4::from_scale(Vec3::splat(3.0)));
        let j = joints_of(
            r#"{"asset":{"version":"2.0"},
            "nodes":[{"name":"A","translation":[1,0,0],"children":[2]},
                     {"name":"B","translation":[0,5,0],"children":[3]},
                     {"name":"j1"},{"name":"j2"}],
            "skins":[{"joints":[2,3]}]}"#,
        );
        assert_eq!(j.skeleton.names(), &["A", "B", "j1", "j2"]);
        assert_eq!(j.skeleton.armature(), Mat4::IDENTITY);
    }
}
