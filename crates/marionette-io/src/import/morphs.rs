//! Morph targets on import: each primitive's POSITION, NORMAL and TANGENT deltas (dense,
//! sparse or normalised integers, as the accessor reader reads any attribute), and one
//! [`MorphSet`] per node whose mesh has targets: target names from `extras.targetNames`
//! (Blender, three.js), else `target<k>`; default weights from the node's `weights`, else the
//! mesh's, else zeros; the joint the mesh follows ([`follow_joint`]).
//!
//! Counts glTF requires to agree are errors naming the path: primitives of one mesh with
//! different target counts (`meshes[m].primitives[p].targets`), weights whose count is not the
//! target count (`nodes[n].weights`, `meshes[m].weights`), a delta accessor whose count is not
//! the primitive's vertex count.

use glam::Vec3;

use super::accessor::{read_floats, Ints};
use super::component::Type;
use super::container::Parsed;
use super::schema::{Mesh, Primitive};
use crate::error::{Fault, FaultResult};
use marionette_anim::{JointIndex, MorphSet, MorphTarget, Skin, SkinnedMesh};

/// The number of morph targets of mesh `m`, checked to be the same on every primitive.
pub(crate) fn target_count(mesh: &Mesh, m: usize) -> FaultResult<usize> {
    let Some(first) = mesh.primitives.first() else {
        return Ok(0);
    };
    let count = first.targets.len();
    for (p, prim) in mesh.primitives.iter().enumerate().skip(1) {
        if prim.targets.len() != count {
            return Err(Fault::new(
                format!("meshes[{m}].primitives[{p}].targets"),
                format!(
                    "has {} morph targets but primitives[0] has {count}; glTF requires every \
                     primitive of a mesh to have the same number",
                    prim.targets.len()
                ),
            ));
        }
    }
    Ok(count)
}

/// The morph set of node `n`'s instance of mesh `m` (named `name`, `count` targets), without
/// its joint (see [`follow_joint`]).
pub(crate) fn new_set(
    doc: &Parsed,
    (n, m): (usize, usize),
    name: &str,
    count: usize,
    warnings: &mut Vec<String>,
) -> FaultResult<MorphSet> {
    let mesh = &doc.root.meshes[m];
    let targets = target_names(mesh, m, count, warnings);
    let weights = |w: &Option<Vec<f32>>, path: String| -> FaultResult<Option<Vec<f32>>> {
        match w {
            Some(w) if w.len() != count => Err(Fault::new(
                path,
                format!(
                    "has {} weights but mesh {m} has {count} morph targets; glTF requires one \
                     weight per target",
                    w.len()
                ),
            )),
            w => Ok(w.clone()),
        }
    };
    let node_weights = weights(&doc.root.nodes[n].weights, format!("nodes[{n}].weights"))?;
    let mesh_weights = weights(&mesh.weights, format!("meshes[{m}].weights"))?;
    let defaults = node_weights
        .or(mesh_weights)
        .unwrap_or_else(|| vec![0.0; count]);
    Ok(MorphSet {
        name: name.to_string(),
        targets,
        defaults,
        joint: None,
        node: Some(n),
    })
}

/// Target names: `extras.targetNames` when it names every target (empty or repeated names
/// replaced, with a warning), else `target<k>`.
fn target_names(mesh: &Mesh, m: usize, count: usize, warnings: &mut Vec<String>) -> Vec<String> {
    let generated = |k: usize| format!("target{k}");
    let Some(given) = &mesh.target_names else {
        return (0..count).map(generated).collect();
    };
    if given.len() != count {
        warnings.push(format!(
            "meshes[{m}].extras.targetNames: {} names for {count} morph targets; ignored \
             (targets named target0, target1, ...)",
            given.len()
        ));
        return (0..count).map(generated).collect();
    }
    let mut out: Vec<String> = Vec::with_capacity(count);
    for (k, name) in given.iter().enumerate() {
        let name = name.trim();
        let fresh = if name.is_empty() {
            Some(generated(k))
        } else if out.iter().any(|o| o == name) {
            Some(format!("{name}_{k}"))
        } else {
            None
        };
        match fresh {
            Some(fresh) => {
                warnings.push(format!(
                    "meshes[{m}].extras.targetNames[{k}]: '{name}' is empty or used twice; \
                     called it '{fresh}'"
                ));
                out.push(fresh);
            }
            None => out.push(name.to_string()),
        }
    }
    out
}

/// The morph targets of one primitive with `vertices` vertices.
pub(crate) fn primitive_targets(
    doc: &Parsed,
    prim: &Primitive,
    path: &str,
    vertices: usize,
) -> FaultResult<Vec<MorphTarget>> {
    // Deltas may be normalised integers (glTF 2.0), any integers with KHR_mesh_quantization.
    let ints = if doc.quantized {
        Ints::Any
    } else {
        Ints::Normalized
    };
    let mut out = Vec::with_capacity(prim.targets.len());
    for (t, attrs) in prim.targets.iter().enumerate() {
        let mut target = MorphTarget::default();
        for (name, acc) in attrs {
            let at = format!("{path}.targets[{t}][\"{name}\"]");
            let slot = match name.as_str() {
                "POSITION" => &mut target.positions,
                "NORMAL" => &mut target.normals,
                "TANGENT" => &mut target.tangents,
                // other attributes (TEXCOORD_n, COLOR_n deltas) change nothing Marionette
                // draws or animates
                _ => continue,
            };
            let (values, count) = read_floats(doc, *acc, &at, name, &[Type::Vec3], ints)?;
            if count != vertices {
                return Err(Fault::new(
                    at,
                    format!(
                        "accessor {acc} has {count} elements but the primitive has {vertices} \
                         vertices"
                    ),
                ));
            }
            *slot = values.chunks_exact(3).map(Vec3::from_slice).collect();
        }
        out.push(target);
    }
    Ok(out)
}

/// The joint a morph set follows (the rule masks use, see `marionette_anim::morph`): a rigid
/// mesh's joint; for a skinned mesh, the joint with the most skin weight over the vertices its
/// targets move, each vertex counted by how far the targets move it (all vertices alike when
/// no target moves any). `meshes` are the set's primitives.
pub(crate) fn follow_joint(meshes: &[&SkinnedMesh], skins: &[Skin]) -> Option<JointIndex> {
    if let Some(j) = meshes.iter().find_map(|m| m.node_joint) {
        return Some(j);
    }
    let mut score: Vec<(JointIndex, f64)> = Vec::new();
    for mesh in meshes {
        let Some(skin) = mesh.skin.and_then(|s| skins.get(s)) else {
            continue;
        };
        for (v, (slots, weights)) in mesh.joints.iter().zip(&mesh.weights).enumerate() {
            let moved: f64 = mesh
                .targets
                .iter()
                .filter_map(|t| t.positions.get(v))
                .map(|d| f64::from(d.length()))
                .sum();
            for (&slot, &w) in slots.iter().zip(weights) {
                let Some(&joint) = skin.joints.get(usize::from(slot)) else {
                    continue;
                };
                let add = f64::from(w) * moved;
                let add_any = f64::from(w) * 1e-12;
                match score.iter_mut().find(|(j, _)| *j == joint) {
                    Some((_, s)) => *s += add + add_any,
                    None => score.push((joint, add + add_any)),
                }
            }
        }
    }
    score
        .into_iter()
        .fold(None::<(JointIndex, f64)>, |best, (j, s)| match best {
            Some((_, b)) if b >= s => best,
            _ => Some((j, s)),
        })
        .map(|(j, _)| j)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skinned mesh follows the joint carrying the moved vertices, not the one carrying
    /// most vertices; a rigid mesh follows its joint.
    #[test]
    fn skinned_sets_follow_the_moved_vertices() {
        let skin = Skin {
            name: "s".into(),
            joints: vec![3, 7],
            inverse_bind: vec![glam::Mat4::IDENTITY; 2],
        };
        let mesh = SkinnedMesh {
            skin: Some(0),
            positions: vec![Vec3::ZERO; 3],
            joints: vec![[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]],
            weights: vec![[1.0, 0.0, 0.0, 0.0]; 3],
            targets: vec![MorphTarget {
                positions: vec![Vec3::ZERO, Vec3::ZERO, Vec3::Y],
                ..MorphTarget::default()
            }],
            ..SkinnedMesh::default()
        };
        assert_eq!(follow_joint(&[&mesh], std::slice::from_ref(&skin)), Some(7));
        let still = SkinnedMesh {
            targets: vec![],
            ..mesh.clone()
        };
        assert_eq!(follow_joint(&[&still], &[skin]), Some(3));
        let rigid = SkinnedMesh {
            node_joint: Some(2),
            ..SkinnedMesh::default()
        };
        assert_eq!(follow_joint(&[&rigid], &[]), Some(2));
    }
}
