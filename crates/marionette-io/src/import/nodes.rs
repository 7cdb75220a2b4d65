//! The node hierarchy: parents, local transforms and world matrices (in f64), with checks for
//! nodes that have two parents and for cycles.

use glam::{DMat4, Mat4, Quat, Vec3};

use super::schema::{Node, Root};
use crate::error::{Fault, FaultResult};
use marionette_anim::Transform;

/// Parents and local transforms of every glTF node.
pub(crate) struct NodeGraph {
    /// Parent node of each node.
    pub parent: Vec<Option<usize>>,
    /// Local TRS of each node (`matrix` nodes decomposed).
    pub local: Vec<Transform>,
    /// Local matrix of each node, exactly as written (kept for `matrix` nodes with shear).
    pub local_matrix: Vec<DMat4>,
    /// Display name of each node (`node_<i>` when unnamed).
    pub names: Vec<String>,
    /// Every node, parents before children (so top-down passes are one loop, whatever the
    /// depth).
    pub order: Vec<usize>,
    /// World matrix of each node in the glTF scene (product of local matrices from the root
    /// down), computed in one pass.
    world: Vec<DMat4>,
}

impl NodeGraph {
    /// Reads the hierarchy and local transforms, rejecting shared children and cycles. Linear
    /// in the number of nodes, however deep the hierarchy. Transforms glTF forbids but that can
    /// be read (a matrix beside TRS, a sheared matrix, a rotation that is not unit length) are
    /// read with a warning each.
    pub fn new(root: &Root, warnings: &mut Vec<String>) -> FaultResult<Self> {
        let n = root.nodes.len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        for (p, node) in root.nodes.iter().enumerate() {
            for (k, &c) in node.children.iter().enumerate() {
                let path = format!("nodes[{p}].children[{k}]");
                if c >= n {
                    return Err(Fault::new(path, format!("node {c} does not exist")));
                }
                if c == p {
                    return Err(Fault::new(path, "a node cannot be its own child"));
                }
                if let Some(other) = parent[c] {
                    return Err(Fault::new(
                        path,
                        format!(
                            "node {c} is already a child of node {other}; a node may have only \
                             one parent"
                        ),
                    ));
                }
                parent[c] = Some(p);
            }
        }
        // Parents first: breadth-first from the nodes without a parent. With one parent per
        // node, a node never reached lies on (or under) a cycle.
        let mut order: Vec<usize> = (0..n).filter(|&i| parent[i].is_none()).collect();
        let mut next = 0;
        while next < order.len() {
            let p = order[next];
            next += 1;
            order.extend(root.nodes[p].children.iter().copied());
        }
        if order.len() < n {
            let mut reached = vec![false; n];
            for &i in &order {
                reached[i] = true;
            }
            let start = reached.iter().position(|r| !r).unwrap_or(0);
            return Err(Fault::new(
                format!("nodes[{start}]"),
                "the node hierarchy has a cycle (a node is its own ancestor)",
            ));
        }
        let mut local = Vec::with_capacity(n);
        let mut local_matrix = Vec::with_capacity(n);
        let mut names = Vec::with_capacity(n);
        for (i, node) in root.nodes.iter().enumerate() {
            let (t, m) = node_transform(node, i, warnings)?;
            if node.skin.is_some() && node.mesh.is_none() {
                warnings.push(format!(
                    "nodes[{i}].skin: the node has no mesh, so the skin binds nothing here"
                ));
            }
            local.push(t);
            local_matrix.push(m);
            let name = node.name.as_deref().map(str::trim).unwrap_or("");
            names.push(if name.is_empty() {
                format!("node_{i}")
            } else {
                name.to_string()
            });
        }
        let mut world = local_matrix.clone();
        for &i in &order {
            if let Some(p) = parent[i] {
                world[i] = world[p] * local_matrix[i];
            }
        }
        Ok(Self {
            parent,
            local,
            local_matrix,
            names,
            order,
            world,
        })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// World matrix of `node` in the glTF scene (product of local matrices from the root down).
    pub fn world(&self, node: usize) -> DMat4 {
        self.world[node]
    }

    /// World matrix of the parent of `node` (identity for scene roots).
    pub fn parent_world(&self, node: usize) -> DMat4 {
        self.parent[node].map_or(DMat4::IDENTITY, |p| self.world(p))
    }
}

/// `q` scaled to unit length, robust to tiny (1e-30) and huge (1e38) components; `None` when
/// it has no direction (all zero) or is not finite.
pub(crate) fn unit_quat(q: [f32; 4]) -> Option<Quat> {
    let m = q.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if !(m.is_finite() && m > 0.0) {
        return None;
    }
    let u = Quat::from_array(q.map(|v| v / m)).normalize();
    u.is_finite().then_some(u)
}

/// The validator's tolerance for a unit quaternion's length (|1 - length|).
pub(crate) const UNIT_LENGTH_TOLERANCE: f32 = 0.00769;

/// Local TRS and matrix of one node.
fn node_transform(
    node: &Node,
    i: usize,
    warnings: &mut Vec<String>,
) -> FaultResult<(Transform, DMat4)> {
    if let Some(m) = node.matrix {
        if node.translation.is_some() || node.rotation.is_some() || node.scale.is_some() {
            warnings.push(format!(
                "nodes[{i}]: has both a matrix and translation/rotation/scale, which glTF forbids; \
                 the matrix is used"
            ));
        }
        return matrix_transform(m, i, warnings);
    }
    let translation = node.translation.unwrap_or([0.0; 3]);
    let rotation = node.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let scale = node.scale.unwrap_or([1.0; 3]);
    let rotation = unit_quat(rotation).ok_or_else(|| {
        Fault::new(
            format!("nodes[{i}].rotation"),
            "is a zero-length quaternion (not a rotation)",
        )
    })?;
    let length = Quat::from_array(node.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0])).length();
    if (1.0 - length).abs() > UNIT_LENGTH_TOLERANCE {
        warnings.push(format!(
            "nodes[{i}].rotation: is not a unit quaternion (length {length}); normalised"
        ));
    }
    let t = Transform::new(
        Vec3::from_array(translation),
        rotation,
        Vec3::from_array(scale),
    );
    Ok((t, trs_dmat4(&t)))
}

/// Local TRS and matrix of a `matrix` node: refused when it is not affine or has no TRS
/// decomposition; a shear (which TRS cannot hold) is dropped with a warning.
fn matrix_transform(
    m: [f32; 16],
    i: usize,
    warnings: &mut Vec<String>,
) -> FaultResult<(Transform, DMat4)> {
    let path = format!("nodes[{i}].matrix");
    let last_row = [m[3], m[7], m[11], m[15]];
    if last_row != [0.0, 0.0, 0.0, 1.0] {
        return Err(Fault::new(
            path,
            format!("is not affine: its last row is {last_row:?}, not [0, 0, 0, 1]"),
        ));
    }
    let mat = Mat4::from_cols_array(&m);
    let t = Transform::from_matrix(&mat);
    if !t.is_finite() || t.scale.cmpeq(Vec3::ZERO).any() {
        return Err(Fault::new(
            path,
            "cannot be decomposed into translation, rotation and scale",
        ));
    }
    let back = t.to_matrix().to_cols_array();
    let size = m.iter().fold(1.0f32, |a, v| a.max(v.abs()));
    if back
        .iter()
        .zip(&m)
        .any(|(a, b)| (a - b).abs() > 1e-4 * size)
    {
        warnings.push(format!(
            "{path}: is not a translation-rotation-scale matrix (it has shear); the shear is \
             dropped where the node is a joint"
        ));
    }
    Ok((t, mat.as_dmat4()))
}

/// `T * R * S` in f64 from an f32 transform.
pub(crate) fn trs_dmat4(t: &Transform) -> DMat4 {
    DMat4::from_scale_rotation_translation(
        t.scale.as_dvec3(),
        t.rotation.as_dquat(),
        t.translation.as_dvec3(),
    )
}
