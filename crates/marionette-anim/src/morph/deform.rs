//! Morph target deltas and the CPU morph (the GPU path's reference): `position + Σ wₖ·Δpₖ`,
//! `normal + Σ wₖ·Δnₖ` over the targets whose weight is not zero, before skinning (glTF 2.0
//! "Morph Targets"; three.js morphs, then skins, and normalises the normal afterwards).

use glam::Vec3;

/// One morph target of a mesh primitive: per-vertex displacements.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MorphTarget {
    /// Position displacement per vertex.
    pub positions: Vec<Vec3>,
    /// Normal displacement per vertex (empty: the target leaves normals as they are).
    pub normals: Vec<Vec3>,
    /// Tangent displacement per vertex (xyz; empty when the file has none). Kept for export;
    /// Marionette does not draw tangents.
    pub tangents: Vec<Vec3>,
}

/// Morphs positions and normals: `out = base + Σ weights[k] · targets[k]` over the targets
/// whose weight is not zero (missing weights count as zero). Vertices
/// `0..min(positions, out_positions)` are written; normals `0..min(normals, out_normals)`.
/// A target shorter than the mesh moves only its first vertices.
pub fn morph_vertices(
    positions: &[Vec3],
    normals: &[Vec3],
    targets: &[MorphTarget],
    weights: &[f32],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    let n = positions.len().min(out_positions.len());
    let nn = normals.len().min(out_normals.len());
    out_positions[..n].copy_from_slice(&positions[..n]);
    out_normals[..nn].copy_from_slice(&normals[..nn]);
    for (target, &w) in targets.iter().zip(weights) {
        if w == 0.0 {
            continue;
        }
        for (o, d) in out_positions[..n].iter_mut().zip(&target.positions) {
            *o += *d * w;
        }
        for (o, d) in out_normals[..nn].iter_mut().zip(&target.normals) {
            *o += *d * w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two targets at weights 0.5 and 0 (skipped): half of the first delta; a target without
    /// normals leaves them.
    #[test]
    fn weighted_sum_of_deltas() {
        let targets = [
            MorphTarget {
                positions: vec![Vec3::Y * 2.0, Vec3::ZERO],
                normals: vec![],
                tangents: vec![],
            },
            MorphTarget {
                positions: vec![Vec3::X * 100.0; 2],
                normals: vec![Vec3::X; 2],
                tangents: vec![],
            },
        ];
        let (mut p, mut n) = ([Vec3::ZERO; 2], [Vec3::ZERO; 2]);
        morph_vertices(
            &[Vec3::ONE, Vec3::ZERO],
            &[Vec3::Z, Vec3::Z],
            &targets,
            &[0.5, 0.0],
            &mut p,
            &mut n,
        );
        assert_eq!(p, [Vec3::new(1.0, 2.0, 1.0), Vec3::ZERO]);
        assert_eq!(n, [Vec3::Z, Vec3::Z]);
    }
}
