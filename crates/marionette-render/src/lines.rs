//! Debug line geometry built on the CPU each frame: ground grid, skeleton (bones, joint crosses,
//! selected joint highlighted), joint local axes (RGB = XYZ) and the procedural-rigging gizmos
//! (targets, chains, colliders).

use glam::{Mat4, Vec3};

use marionette_anim::graph::Gizmo;

use super::raw::LineVertexRaw;

/// Bone colour.
pub const BONE_COLOR: [f32; 4] = [1.0, 0.85, 0.2, 1.0];
/// Joint cross colour.
pub const JOINT_COLOR: [f32; 4] = [0.1, 0.9, 1.0, 1.0];
/// Selected joint colour.
pub const SELECTED_COLOR: [f32; 4] = [1.0, 0.1, 0.9, 1.0];

fn push_line(out: &mut Vec<LineVertexRaw>, a: Vec3, b: Vec3, color: [f32; 4]) {
    out.push(LineVertexRaw {
        position: a.to_array(),
        color,
    });
    out.push(LineVertexRaw {
        position: b.to_array(),
        color,
    });
}

/// A ground grid on y = `height`: `2 * cells` cells of `step` metres per side around `center`
/// (snapped to the step), with the X axis line red and the Z axis line blue.
pub fn grid(center: Vec3, height: f32, step: f32, cells: i32, out: &mut Vec<LineVertexRaw>) {
    let step = if step.is_finite() && step > 0.0 {
        step
    } else {
        1.0
    };
    let cx = (center.x / step).round() * step;
    let cz = (center.z / step).round() * step;
    let ext = step * cells as f32;
    let minor = [0.42, 0.42, 0.45, 1.0];
    for i in -cells..=cells {
        let o = step * i as f32;
        let x = cx + o;
        let z = cz + o;
        // Line of constant x runs along Z; the one through x = 0 is the Z axis.
        let along_z = if x.abs() < step * 0.5 {
            [0.2, 0.3, 0.9, 1.0]
        } else {
            minor
        };
        let along_x = if z.abs() < step * 0.5 {
            [0.8, 0.2, 0.2, 1.0]
        } else {
            minor
        };
        push_line(
            out,
            Vec3::new(x, height, cz - ext),
            Vec3::new(x, height, cz + ext),
            along_z,
        );
        push_line(
            out,
            Vec3::new(cx - ext, height, z),
            Vec3::new(cx + ext, height, z),
            along_x,
        );
    }
}

/// Bones (joint to parent) and a small cross at each joint; `selected` is drawn larger in
/// [`SELECTED_COLOR`]. `joint_world` holds each joint's world matrix; `size` is the cross size.
pub fn skeleton(
    joint_world: &[Mat4],
    parents: &[Option<u16>],
    selected: Option<u16>,
    size: f32,
    out: &mut Vec<LineVertexRaw>,
) {
    bones_and_crosses(
        joint_world,
        parents,
        |_| BONE_COLOR,
        out,
        |j| {
            if selected == Some(j as u16) {
                (size * 2.5, SELECTED_COLOR)
            } else {
                (size, JOINT_COLOR)
            }
        },
    );
}

/// Bones (joint to parent) and crosses with a colour per joint (`colors[j]` for joint `j`, its
/// bone from the parent and its cross, larger than [`skeleton`]'s), for the editor's views
/// that colour joints (who drives each bone, the joints a node drives); `selected` as in
/// [`skeleton`]. Joints past `colors` get [`JOINT_COLOR`].
pub fn skeleton_colored(
    joint_world: &[Mat4],
    parents: &[Option<u16>],
    colors: &[[f32; 4]],
    selected: Option<u16>,
    size: f32,
    out: &mut Vec<LineVertexRaw>,
) {
    let color = |j: usize| colors.get(j).copied().unwrap_or(JOINT_COLOR);
    bones_and_crosses(joint_world, parents, color, out, |j| {
        if selected == Some(j as u16) {
            (size * 2.5, SELECTED_COLOR)
        } else {
            (size * 1.6, color(j))
        }
    });
}

/// Bones (joint to parent) and small crosses at the joints, all in `color`: another rig's
/// skeleton drawn beside the character (a retarget's source).
pub fn skeleton_tinted(
    joint_world: &[Mat4],
    parents: &[Option<u16>],
    color: [f32; 4],
    size: f32,
    out: &mut Vec<LineVertexRaw>,
) {
    bones_and_crosses(joint_world, parents, |_| color, out, |_| (size, color));
}

/// Each bone (joint `j` to its parent) in the colour `bone(j)` gives, and a cross at each joint
/// `j` of the half-size and colour `cross(j)` gives.
fn bones_and_crosses(
    joint_world: &[Mat4],
    parents: &[Option<u16>],
    bone: impl Fn(usize) -> [f32; 4],
    out: &mut Vec<LineVertexRaw>,
    cross: impl Fn(usize) -> (f32, [f32; 4]),
) {
    for (j, m) in joint_world.iter().enumerate() {
        let p = m.w_axis.truncate();
        if let Some(parent) = parents.get(j).copied().flatten() {
            if let Some(pm) = joint_world.get(parent as usize) {
                push_line(out, pm.w_axis.truncate(), p, bone(j));
            }
        }
        let (s, color) = cross(j);
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            push_line(out, p - axis * s, p + axis * s, color);
        }
    }
}

/// Target and pole colour (procedural rigging).
pub const TARGET_COLOR: [f32; 4] = [1.0, 0.45, 0.1, 1.0];
/// Colour of the bones a chain or spring moves.
pub const RIG_BONE_COLOR: [f32; 4] = [0.3, 1.0, 0.6, 1.0];
/// Colour of a collider.
pub const COLLIDER_COLOR: [f32; 4] = [0.45, 0.7, 1.0, 0.9];

/// The post-process operations' gizmos ([`Gizmo`], model space), placed by `world`: a target is
/// a diamond of half-size `size`, a link a thin line to it, a chain's bones bright, a sphere three
/// circles and a capsule a circle at each end and four lines between.
pub fn gizmos(world: Mat4, items: &[Gizmo], size: f32, out: &mut Vec<LineVertexRaw>) {
    let p = |v: Vec3| world.transform_point3(v);
    let scale = world.transform_vector3(Vec3::X).length();
    for g in items {
        match *g {
            Gizmo::Target(t) => {
                let c = p(t);
                let d = [Vec3::X * size, Vec3::Y * size, Vec3::Z * size];
                for (i, a) in d.iter().enumerate() {
                    for b in &d[i + 1..] {
                        for (sa, sb) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                            push_line(out, c + *a * sa, c + *b * sb, TARGET_COLOR);
                        }
                    }
                }
            }
            Gizmo::Link(a, b) => {
                let mut c = TARGET_COLOR;
                c[3] = 0.5;
                push_line(out, p(a), p(b), c);
            }
            Gizmo::Bone(a, b) => push_line(out, p(a), p(b), RIG_BONE_COLOR),
            Gizmo::Sphere(c, r) => {
                let (c, r) = (p(c), r * scale);
                for (u, v) in [(Vec3::X, Vec3::Y), (Vec3::Y, Vec3::Z), (Vec3::Z, Vec3::X)] {
                    circle(out, c, u * r, v * r);
                }
            }
            Gizmo::Capsule(a, b, r) => {
                let (a, b, r) = (p(a), p(b), r * scale);
                let axis = (b - a).try_normalize().unwrap_or(Vec3::Y);
                let u = axis.any_orthonormal_vector();
                let v = axis.cross(u);
                for end in [a, b] {
                    circle(out, end, u * r, v * r);
                }
                for k in [u, -u, v, -v] {
                    push_line(out, a + k * r, b + k * r, COLLIDER_COLOR);
                }
                // the round ends, as half circles through the axis
                for k in [u, v] {
                    half_circle(out, b, k * r, axis * r);
                    half_circle(out, a, k * r, -axis * r);
                }
            }
        }
    }
}

/// A circle of 24 segments around `c` spanned by `u` and `v`.
fn circle(out: &mut Vec<LineVertexRaw>, c: Vec3, u: Vec3, v: Vec3) {
    arc(out, c, u, v, 24, std::f32::consts::TAU);
}

/// Half a circle around `c` from `u` through `v` to `-u`.
fn half_circle(out: &mut Vec<LineVertexRaw>, c: Vec3, u: Vec3, v: Vec3) {
    arc(out, c, u, v, 12, std::f32::consts::PI);
}

/// `n` segments around `c` from `u` towards `v` over `sweep` radians, in the collider colour.
fn arc(out: &mut Vec<LineVertexRaw>, c: Vec3, u: Vec3, v: Vec3, n: u32, sweep: f32) {
    let at = |k: u32| {
        let a = k as f32 / n as f32 * sweep;
        c + u * a.cos() + v * a.sin()
    };
    for k in 0..n {
        push_line(out, at(k), at(k + 1), COLLIDER_COLOR);
    }
}

/// Each joint's local X, Y and Z axes as red, green and blue lines of length `length`.
pub fn axes(joint_world: &[Mat4], length: f32, out: &mut Vec<LineVertexRaw>) {
    for m in joint_world {
        let p = m.w_axis.truncate();
        let cols = [
            (m.x_axis.truncate(), [1.0, 0.15, 0.15, 1.0]),
            (m.y_axis.truncate(), [0.15, 1.0, 0.15, 1.0]),
            (m.z_axis.truncate(), [0.2, 0.35, 1.0, 1.0]),
        ];
        for (axis, color) in cols {
            let dir = axis.normalize_or_zero();
            push_line(out, p, p + dir * length, color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-joint chain gives one bone from parent to child plus three cross lines per joint.
    #[test]
    fn skeleton_lines() {
        let mats = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, 1.0, 0.0)),
        ];
        let mut out = Vec::new();
        skeleton(&mats, &[None, Some(0)], Some(1), 0.1, &mut out);
        assert_eq!(out.len(), 2 * (1 + 3 + 3));
        // Joint 0: its cross (6 vertices); joint 1: the bone from its parent, then its cross.
        assert_eq!(out[6].position, [0.0, 0.0, 0.0]);
        assert_eq!(out[7].position, [0.0, 1.0, 0.0]);
        assert_eq!(out[7].color, BONE_COLOR);
        // The selected joint's cross is 2.5x larger and highlighted.
        let last = out.last().unwrap();
        assert_eq!(last.color, SELECTED_COLOR);
        assert!((last.position[2] - 0.25).abs() < 1e-6);
    }

    /// Axes follow the joint's rotation: a 90 degree turn about Z maps local X to world Y.
    #[test]
    fn axes_follow_rotation() {
        let m = Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let mut out = Vec::new();
        axes(&[m], 2.0, &mut out);
        assert_eq!(out.len(), 6);
        let x_end = Vec3::from(out[1].position);
        assert!(x_end.abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-5));
        assert_eq!(out[1].color[0], 1.0);
    }

    /// The grid has 2 * (2 * cells + 1) lines and lies on the requested height.
    #[test]
    fn grid_lines() {
        let mut out = Vec::new();
        grid(Vec3::ZERO, 0.5, 1.0, 2, &mut out);
        assert_eq!(out.len(), 2 * 2 * 5);
        assert!(out.iter().all(|v| v.position[1] == 0.5));
    }
}
