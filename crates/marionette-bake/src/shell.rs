//! Where the skin is: the shell distance of each joint, at which its rotation (and scale)
//! errors are measured (seed 004: ACL measures 0.1 mm "at a shell distance").
//!
//! A vertex skinned to joint `k` sits at `p = inverse_bind_k · v` in `k`'s space, and moves
//! with `k`'s world matrix `M_k` as `M_k · p`. Between a reference and an approximation the
//! vertex moves by at most `|Δo_k| + σ(ΔA_k) · |p|` (`o` the origin, `A` the 3×3 linear part,
//! `σ` its largest singular value), and under linear blend skinning (weights summing to 1)
//! a vertex of several joints moves by at most the largest of their bounds. So measuring each
//! joint at the farthest `|p|` of its vertices ([`shell_error`]) bounds **every vertex** of
//! the character: that radius is the joint's shell.
//!
//! - A joint that skins vertices: the farthest of them (in its own space).
//! - A mesh rigidly attached to a joint's node: its farthest vertex from the node.
//! - A joint with no vertices: the reach of its descendants' shells (through its rest
//!   children), and at least [`VIRTUAL_DISTANCE`] (10 cm) in the world (a rig without a mesh
//!   is measured as ACL does).
//! - `--shell-mm` ([`Shells::fixed`]): the same world distance for every joint.
//!
//! Radii are in each joint's local units (the world distance divides by the joint's smallest
//! world scale at rest), so a scaled armature (centimetre rigs) is measured in the world.

use glam::{DMat3, DMat4, DVec3};

use super::world::VIRTUAL_DISTANCE;
use marionette_anim::world_matrices;
use marionette_anim::Model;
use marionette_anim::Skeleton;

/// The shell radius of every joint, in the joint's local units.
#[derive(Clone, Debug, PartialEq)]
pub struct Shells {
    radius: Vec<f64>,
    /// How the radii were chosen (for reports).
    pub rule: ShellRule,
}

/// How a bake chose its shells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShellRule {
    /// The farthest vertex of each joint (descendants' reach for joints without vertices;
    /// 10 cm at least for those).
    Vertices,
    /// No mesh: 10 cm around every joint.
    Floor,
    /// The same world distance for every joint, in metres (`--shell-mm`).
    Fixed(f32),
}

impl ShellRule {
    /// The fixed shell distance in millimetres (`--shell-mm`), if any.
    pub fn fixed_mm(self) -> Option<f32> {
        match self {
            ShellRule::Fixed(metres) => Some(metres * 1e3),
            ShellRule::Vertices | ShellRule::Floor => None,
        }
    }
}

impl Shells {
    /// [`VIRTUAL_DISTANCE`] (10 cm) in the world around every joint: a rig without a mesh.
    pub fn floor(skeleton: &Skeleton) -> Self {
        Self::world(skeleton, VIRTUAL_DISTANCE, ShellRule::Floor)
    }

    /// `metres` in the world around every joint (`--shell-mm`).
    pub fn fixed(skeleton: &Skeleton, metres: f32) -> Self {
        Self::world(skeleton, f64::from(metres), ShellRule::Fixed(metres))
    }

    fn world(skeleton: &Skeleton, metres: f64, rule: ShellRule) -> Self {
        let scale = rest_scales(skeleton);
        Self {
            radius: scale.iter().map(|s| metres / s).collect(),
            rule,
        }
    }

    /// The farthest vertex of each joint of `model` (see the module docs); the
    /// [`floor`](Shells::floor) when the model has no vertices.
    pub fn of_model(model: &Model) -> Self {
        let skeleton = &model.skeleton;
        let n = skeleton.len();
        let mut own = vec![0.0f64; n];
        let mut any = false;
        for mesh in &model.meshes {
            match mesh.skin.and_then(|s| model.skins.get(s)) {
                Some(skin) => {
                    for (v, (slots, weights)) in mesh
                        .positions
                        .iter()
                        .zip(mesh.joints.iter().zip(&mesh.weights))
                    {
                        for (&slot, &w) in slots.iter().zip(weights) {
                            let slot = usize::from(slot);
                            let (Some(&joint), Some(ibm)) =
                                (skin.joints.get(slot), skin.inverse_bind.get(slot))
                            else {
                                continue;
                            };
                            if w <= 0.0 {
                                continue;
                            }
                            let p = ibm.as_dmat4().transform_point3(v.as_dvec3());
                            if let Some(r) = own.get_mut(joint as usize) {
                                if p.is_finite() {
                                    *r = r.max(p.length());
                                    any = true;
                                }
                            }
                        }
                    }
                }
                None => {
                    let Some(r) = mesh.node_joint.and_then(|j| own.get_mut(j as usize)) else {
                        continue;
                    };
                    for v in &mesh.positions {
                        let d = f64::from(v.length());
                        if d.is_finite() {
                            *r = r.max(d);
                            any = true;
                        }
                    }
                }
            }
        }
        if !any {
            return Self::floor(skeleton);
        }
        let floor = Self::floor(skeleton).radius;
        // joints without vertices: their rest children's reach (children come after parents,
        // so walking backwards finishes a child before its parent reads it)
        let rest = skeleton.rest_pose();
        let mut radius = own.clone();
        for c in (0..n).rev() {
            if radius[c] == 0.0 {
                radius[c] = floor[c];
            }
            if let Some(p) = skeleton.parents()[c].map(|p| p as usize) {
                if own[p] == 0.0 {
                    let m = rest[c].to_dmat4();
                    let reach = m.w_axis.truncate().length() + radius[c] * max_axis(&m);
                    if reach.is_finite() {
                        radius[p] = radius[p].max(reach);
                    }
                }
            }
        }
        Self {
            radius,
            rule: ShellRule::Vertices,
        }
    }

    /// The shell radius of `joint`, in its local units.
    pub fn radius(&self, joint: usize) -> f64 {
        self.radius.get(joint).copied().unwrap_or(VIRTUAL_DISTANCE)
    }

    /// Every joint's radius.
    pub fn radii(&self) -> &[f64] {
        &self.radius
    }
}

/// The smallest axis scale of each joint's world matrix at rest (armature included), at least
/// 1e-6 so a degenerate joint does not divide by zero.
fn rest_scales(skeleton: &Skeleton) -> Vec<f64> {
    let mut worlds = Vec::new();
    world_matrices(skeleton, skeleton.rest_pose(), &mut worlds);
    worlds
        .iter()
        .map(|m| {
            let a = [m.x_axis, m.y_axis, m.z_axis].map(|c| c.truncate().length());
            a.into_iter().fold(f64::INFINITY, f64::min).max(1e-6)
        })
        .collect()
}

fn max_axis(m: &DMat4) -> f64 {
    [m.x_axis, m.y_axis, m.z_axis]
        .map(|c| c.truncate().length())
        .into_iter()
        .fold(0.0, f64::max)
}

/// Largest singular value of a 3×3 matrix: the most it stretches any vector (the square root of
/// the largest eigenvalue of `mᵀm`, by the closed form for symmetric 3×3 matrices).
pub fn largest_singular_value(m: &DMat3) -> f64 {
    let b = m.transpose() * *m;
    let (b00, b11, b22) = (b.x_axis.x, b.y_axis.y, b.z_axis.z);
    let (b01, b02, b12) = (b.y_axis.x, b.z_axis.x, b.z_axis.y);
    let p1 = b01 * b01 + b02 * b02 + b12 * b12;
    let q = (b00 + b11 + b22) / 3.0;
    let p2 = (b00 - q).powi(2) + (b11 - q).powi(2) + (b22 - q).powi(2) + 2.0 * p1;
    let p = (p2 / 6.0).sqrt();
    let top = if p <= f64::EPSILON * q.abs() || p == 0.0 {
        b00.max(b11).max(b22)
    } else {
        let c = (b - DMat3::from_diagonal(DVec3::splat(q))) * (1.0 / p);
        let r = (c.determinant() / 2.0).clamp(-1.0, 1.0);
        q + 2.0 * p * (r.acos() / 3.0).cos()
    };
    // the closed form loses about half the digits where two eigenvalues meet (a rotation
    // error has two equal singular values): a relative margin keeps the result an upper bound
    top.max(0.0).sqrt() * (1.0 + 1e-6)
}

/// The most any point within `radius` (local units) of a joint moves between world matrices
/// `a` and `b`: `|Δorigin| + σ(ΔA) · radius` (see the module docs). An upper bound, exact for a
/// rotation error at the farthest point of a sphere.
pub fn shell_error(a: &DMat4, b: &DMat4, radius: f64) -> f64 {
    let d = *a - *b;
    let linear = DMat3::from_cols(
        d.x_axis.truncate(),
        d.y_axis.truncate(),
        d.z_axis.truncate(),
    );
    d.w_axis.truncate().length() + largest_singular_value(&linear) * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Vec3};
    use marionette_anim::{Skin, SkinnedMesh, Transform};

    /// The largest singular value of a rotation difference is 2 sin(θ/2), about any axis.
    #[test]
    fn singular_value_of_rotation_error() {
        for axis in [DVec3::X, DVec3::new(1.0, 1.0, 1.0).normalize(), DVec3::Z] {
            let a = DMat3::from_axis_angle(axis, 0.3);
            let s = largest_singular_value(&(a - DMat3::IDENTITY));
            let want = 2.0 * (0.15f64).sin();
            assert!(s >= want && s <= want * (1.0 + 2e-6), "{axis}: {s}");
        }
        let d = DMat3::from_diagonal(DVec3::new(1.0, -3.0, 2.0));
        assert!((largest_singular_value(&d) - 3.0).abs() < 1e-5);
        assert_eq!(largest_singular_value(&DMat3::ZERO), 0.0);
    }

    /// A rotation about an axis off the coordinate axes moves the farthest point of the shell
    /// by the bound exactly; the four-point measure sees less.
    #[test]
    fn shell_error_bounds_every_point() {
        let axis = DVec3::new(1.0, 1.0, 1.0).normalize();
        let a = DMat4::IDENTITY;
        let b = DMat4::from_axis_angle(axis, 0.01);
        let e = shell_error(&a, &b, 2.0);
        // a point 2 m out, perpendicular to the axis
        let p = DVec3::new(1.0, -1.0, 0.0).normalize() * 2.0;
        let moved = b.transform_point3(p).distance(p);
        assert!(e >= moved && e <= moved * (1.0 + 2e-6), "{e} vs {moved}");
        assert!(super::super::world::joint_error(&a, &b) < e * 0.1);
    }

    fn two_joints() -> Skeleton {
        Skeleton::new(
            vec!["hips".into(), "hand".into()],
            vec![None, Some(0)],
            vec![
                Transform::IDENTITY,
                Transform::from_translation(Vec3::new(0.0, 0.5, 0.0)),
            ],
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton
    }

    /// Shells come from the skinned vertices in each joint's space; a joint without vertices
    /// reaches over its children; a rig without a mesh gets the 10 cm floor.
    #[test]
    fn shells_of_a_model() {
        let skeleton = two_joints();
        let mut model = Model {
            skeleton: skeleton.clone(),
            skins: vec![Skin {
                name: "s".into(),
                joints: vec![0, 1],
                inverse_bind: vec![
                    Mat4::IDENTITY,
                    Mat4::from_translation(Vec3::new(0.0, -0.5, 0.0)),
                ],
            }],
            ..Model::default()
        };
        assert_eq!(Shells::of_model(&model).rule, ShellRule::Floor);
        model.meshes.push(SkinnedMesh {
            skin: Some(0),
            // 1.5 m above the origin, 1 m above the hand, all on the hand
            positions: vec![Vec3::new(0.0, 1.5, 0.0)],
            joints: vec![[1, 0, 0, 0]],
            weights: vec![[1.0, 0.0, 0.0, 0.0]],
            ..SkinnedMesh::default()
        });
        let shells = Shells::of_model(&model);
        assert_eq!(shells.rule, ShellRule::Vertices);
        assert!(
            (shells.radius(1) - 1.0).abs() < 1e-6,
            "{:?}",
            shells.radii()
        );
        // the hips skin nothing: the hand's reach from the hips is 0.5 + 1
        assert!(
            (shells.radius(0) - 1.5).abs() < 1e-6,
            "{:?}",
            shells.radii()
        );
        let fixed = Shells::fixed(&skeleton, 0.25);
        assert_eq!(fixed.radii(), &[0.25, 0.25]);
    }
}
