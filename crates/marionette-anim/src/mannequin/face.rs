//! The mannequin's face: two eyes and a mouth (small flattened ellipsoids on the front of the
//! head, skinned to `head`) with three morph targets made here: `blink` closes both eyes,
//! `smile` lifts the mouth's corners, `jaw_open` opens the mouth. Deterministic like the rest
//! of the mannequin.

use std::f32::consts::{PI, TAU};

use glam::{Vec2, Vec3};

use super::rig::j;
use crate::{JointIndex, MorphSet, MorphTarget, SkinnedMesh};

/// The face's morph targets, in order.
pub const TARGETS: [&str; 3] = ["blink", "smile", "jaw_open"];

/// Segments around each ellipsoid, and rings from pole to pole.
const SIDES: usize = 16;
const RINGS: usize = 8;

/// Eye centres (left eye at +X), radii, and the mouth's.
const EYE: Vec3 = Vec3::new(0.034, 1.722, 0.1105);
const EYE_RADII: Vec3 = Vec3::new(0.013, 0.011, 0.006);
const MOUTH: Vec3 = Vec3::new(0.0, 1.662, 0.1125);
const MOUTH_RADII: Vec3 = Vec3::new(0.026, 0.0055, 0.006);

/// What an ellipsoid is for (which targets move it, and how).
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Eye,
    Mouth,
}

/// Appends an ellipsoid's vertices (with their part) and triangles.
fn ellipsoid(mesh: &mut SkinnedMesh, parts: &mut Vec<(Part, Vec3)>, part: Part, c: Vec3, r: Vec3) {
    let base = mesh.positions.len() as u32;
    for i in 0..=RINGS {
        let phi = PI * i as f32 / RINGS as f32 - PI / 2.0;
        for k in 0..=SIDES {
            let th = TAU * k as f32 / SIDES as f32;
            // unit sphere point: y up, the ring around y; the pole rings are kept as tiny
            // rings (as the body's caps are) so that every triangle has area
            let cp = phi.cos().max(1e-3);
            let u = Vec3::new(cp * th.cos(), phi.sin(), cp * th.sin());

            mesh.positions.push(c + u * r);
            mesh.normals.push((u / r).normalize_or_zero());
            mesh.uvs
                .push(Vec2::new(k as f32 / SIDES as f32, i as f32 / RINGS as f32));
            mesh.joints.push([j::HEAD as u16, 0, 0, 0]);
            mesh.weights.push([1.0, 0.0, 0.0, 0.0]);
            parts.push((part, c));
        }
    }
    let row = (SIDES + 1) as u32;
    for i in 0..RINGS as u32 {
        for k in 0..SIDES as u32 {
            let (a, b) = (base + i * row + k, base + (i + 1) * row + k);
            mesh.indices
                .extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
        }
    }
}

/// The face mesh (skinned to skin 0, all on `head`) with its three morph targets, and its
/// morph set (set 0 of the mannequin, following `head`).
pub fn build() -> (SkinnedMesh, MorphSet) {
    let mut mesh = SkinnedMesh {
        name: "face".into(),
        skin: Some(0),
        base_color: [0.16, 0.17, 0.21, 1.0],
        morph_set: Some(0),
        ..Default::default()
    };
    let mut parts = Vec::new();
    for sx in [1.0, -1.0] {
        let c = Vec3::new(EYE.x * sx, EYE.y, EYE.z);
        ellipsoid(&mut mesh, &mut parts, Part::Eye, c, EYE_RADII);
    }
    ellipsoid(&mut mesh, &mut parts, Part::Mouth, MOUTH, MOUTH_RADII);
    let delta = |f: &dyn Fn(Part, Vec3, Vec3) -> Vec3| -> MorphTarget {
        MorphTarget {
            positions: mesh
                .positions
                .iter()
                .zip(&parts)
                .map(|(&p, &(part, c))| f(part, p, c))
                .collect(),
            ..MorphTarget::default()
        }
    };
    // blink: each eye flattened to a slit, 90% of its height
    let blink = delta(&|part, p, c| match part {
        Part::Eye => Vec3::new(0.0, -(p.y - c.y) * 0.9, 0.0),
        Part::Mouth => Vec3::ZERO,
    });
    // smile: corners up by up to 9 mm (quadratic across the mouth), 3 mm wider each side
    let smile = delta(&|part, p, c| match part {
        Part::Mouth => {
            let x = (p.x - c.x) / MOUTH_RADII.x;
            Vec3::new(0.003 * x, 0.009 * x * x, 0.0)
        }
        Part::Eye => Vec3::ZERO,
    });
    // jaw_open: the mouth three times as tall, its centre 8 mm lower
    let jaw_open = delta(&|part, p, c| match part {
        Part::Mouth => Vec3::new(0.0, (p.y - c.y) * 2.0 - 0.008, 0.0),
        Part::Eye => Vec3::ZERO,
    });
    mesh.targets = vec![blink, smile, jaw_open];
    let set = MorphSet {
        name: "face".into(),
        targets: TARGETS.iter().map(|t| t.to_string()).collect(),
        defaults: vec![0.0; TARGETS.len()],
        joint: Some(j::HEAD as JointIndex),
        node: None,
    };
    (mesh, set)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every target has a delta per vertex; blink moves only the eyes, the mouth targets only
    /// the mouth; all on the head joint.
    #[test]
    fn targets_move_their_part() {
        let (mesh, set) = build();
        assert_eq!(set.targets, TARGETS.map(String::from).to_vec());
        assert_eq!(mesh.targets.len(), 3);
        let n = mesh.positions.len();
        assert!(mesh.targets.iter().all(|t| t.positions.len() == n));
        let per = (RINGS + 1) * (SIDES + 1);
        let moved = |t: &MorphTarget, range: std::ops::Range<usize>| {
            t.positions[range].iter().any(|d| d.length() > 1e-4)
        };
        assert!(moved(&mesh.targets[0], 0..2 * per));
        assert!(!moved(&mesh.targets[0], 2 * per..n));
        assert!(!moved(&mesh.targets[1], 0..2 * per));
        assert!(moved(&mesh.targets[2], 2 * per..n));
        assert!(mesh.joints.iter().all(|j| j[0] == j::HEAD as u16));
    }
}
