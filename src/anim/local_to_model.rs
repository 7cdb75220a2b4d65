//! Local-to-model: concatenating local joint transforms down the hierarchy into model-space
//! matrices (design property 4: matrices appear only here and at palette time).

use glam::Mat4;

use super::{Skeleton, Transform};

/// `out[j] = out[parent(j)] * local[j].to_matrix()` (roots: local matrix; model space excludes
/// the armature). Processes joints in `range` only (parents outside the range must already be in
/// `out`), like ozz's LocalToModelJob.
///
/// The range is clipped to `local` and `out`; a joint whose parent lies at or after it (impossible
/// for a [`Skeleton`], which is parent-first) is treated as a root.
pub fn local_to_model(
    skeleton: &Skeleton,
    local: &[Transform],
    range: std::ops::Range<usize>,
    out: &mut [Mat4],
) {
    let parents = skeleton.parents();
    let end = range.end.min(local.len()).min(out.len()).min(parents.len());
    let start = range.start.min(end);
    for j in start..end {
        out[j] = match parents[j] {
            Some(p) if (p as usize) < j => parent_times_trs(&out[p as usize], &local[j]),
            _ => local[j].to_matrix(),
        };
    }
}

/// `parent * trs.to_matrix()` without building the local matrix: the local matrix's columns are
/// the rotation's axes scaled (w = 0) and the translation (w = 1), so the terms that multiply
/// those zeros are skipped. Exact for any `parent`.
#[inline(always)]
fn parent_times_trs(parent: &Mat4, trs: &Transform) -> Mat4 {
    let (x, y, z, w) = (
        trs.rotation.x,
        trs.rotation.y,
        trs.rotation.z,
        trs.rotation.w,
    );
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let s = trs.scale;
    let t = trs.translation;
    let (p0, p1, p2, p3) = (parent.x_axis, parent.y_axis, parent.z_axis, parent.w_axis);
    let col = |a: f32, b: f32, c: f32| p0 * a + p1 * b + p2 * c;
    Mat4::from_cols(
        col(1.0 - (yy + zz), xy + wz, xz - wy) * s.x,
        col(xy - wz, 1.0 - (xx + zz), yz + wx) * s.y,
        col(xz + wy, yz - wx, 1.0 - (xx + yy)) * s.z,
        col(t.x, t.y, t.z) + p3,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};
    use std::f32::consts::FRAC_PI_2;

    /// A three-joint chain: root translated (0,1,0), middle rotated 90 deg about z and offset
    /// (1,0,0), tip offset (1,0,0) with scale 2; model positions are hand-computed.
    fn chain() -> (Skeleton, Vec<Transform>) {
        let local = vec![
            Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            Transform::new(Vec3::X, Quat::from_rotation_z(FRAC_PI_2), Vec3::ONE),
            Transform::new(Vec3::X, Quat::IDENTITY, Vec3::splat(2.0)),
        ];
        let names = ["root", "mid", "tip"].map(String::from).to_vec();
        let skeleton = Skeleton::new(
            names,
            vec![None, Some(0), Some(1)],
            local.clone(),
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton;
        (skeleton, local)
    }

    /// Whole chain: the tip sits at (1,2,0) (mid at (1,1,0), its +x turned to +y).
    #[test]
    fn chain_model_positions() {
        let (skeleton, local) = chain();
        let mut out = vec![Mat4::ZERO; 3];
        local_to_model(&skeleton, &local, 0..3, &mut out);
        assert!(out[0]
            .w_axis
            .truncate()
            .abs_diff_eq(Vec3::new(0.0, 1.0, 0.0), 1e-6));
        assert!(out[1]
            .w_axis
            .truncate()
            .abs_diff_eq(Vec3::new(1.0, 1.0, 0.0), 1e-6));
        assert!(out[2]
            .w_axis
            .truncate()
            .abs_diff_eq(Vec3::new(1.0, 2.0, 0.0), 1e-6));
        // the tip's x axis: rotated to +y and scaled by 2
        assert!(out[2]
            .x_axis
            .truncate()
            .abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-6));
    }

    /// The fused product equals the matrix product for a general (projective) parent.
    #[test]
    fn fused_product_matches_matrices() {
        let parent = Mat4::from_cols_array(&[
            1.0, 0.5, -2.0, 0.1, 0.3, 2.0, 0.7, 0.0, -1.0, 0.2, 1.5, 0.3, 4.0, -3.0, 2.0, 1.2,
        ]);
        let trs = Transform::new(
            Vec3::new(0.5, -1.0, 2.0),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.2, 2.0),
            Vec3::new(1.0, 2.0, 0.5),
        );
        let want = parent * trs.to_matrix();
        assert!(parent_times_trs(&parent, &trs).abs_diff_eq(want, 1e-5));
    }

    /// A sub-range uses the parent already in `out` and leaves joints outside it untouched.
    #[test]
    fn sub_range_uses_existing_parent() {
        let (skeleton, local) = chain();
        let mut out = vec![Mat4::ZERO; 3];
        out[0] = Mat4::from_translation(Vec3::new(0.0, 0.0, 5.0));
        local_to_model(&skeleton, &local, 1..3, &mut out);
        assert_eq!(out[0], Mat4::from_translation(Vec3::new(0.0, 0.0, 5.0)));
        assert!(out[2]
            .w_axis
            .truncate()
            .abs_diff_eq(Vec3::new(1.0, 1.0, 5.0), 1e-6));
        // an empty or out-of-bounds range is harmless
        local_to_model(&skeleton, &local, 7..9, &mut out);
        let reversed = std::ops::Range { start: 2, end: 1 };
        local_to_model(&skeleton, &local, reversed, &mut out);
    }
}
