//! Local-to-model: concatenating local joint transforms down the hierarchy into model-space
//! matrices (design property 4: matrices appear only here and at palette time).
//!
//! Like ozz's `LocalToModelJob`, each function takes a `root` matrix that the root joints are
//! multiplied onto: the identity gives model space (what skin palettes take), the skeleton's
//! armature ([`Skeleton::armature`]) gives the joints' world matrices in the glTF scene, and a
//! placement times the armature puts the character somewhere in the world. There is one f32
//! version for the runtime ([`local_to_model_with_root`], with the model-space shorthand
//! [`local_to_model`]) and one f64 version ([`local_to_model_f64`]) for reports and error
//! measures that must add no noise of their own.

use glam::{DMat4, Mat4};

use super::{Skeleton, Transform};

/// Model space: [`local_to_model_with_root`] with the identity as root (the armature excluded).
pub fn local_to_model(
    skeleton: &Skeleton,
    local: &[Transform],
    range: std::ops::Range<usize>,
    out: &mut [Mat4],
) {
    local_to_model_with_root(skeleton, local, range, &Mat4::IDENTITY, out);
}

/// `out[j] = out[parent(j)] * local[j].to_matrix()`, and `root * local[j].to_matrix()` for root
/// joints. Processes joints in `range` only (parents outside the range must already be in
/// `out`), like ozz's LocalToModelJob.
///
/// The range is clipped to `local` and `out`; a joint whose parent lies at or after it (impossible
/// for a [`Skeleton`], which is parent-first) is treated as a root.
pub fn local_to_model_with_root(
    skeleton: &Skeleton,
    local: &[Transform],
    range: std::ops::Range<usize>,
    root: &Mat4,
    out: &mut [Mat4],
) {
    let parents = skeleton.parents();
    let end = range.end.min(local.len()).min(out.len()).min(parents.len());
    let start = range.start.min(end);
    let identity = *root == Mat4::IDENTITY;
    // The last matrix written stays in registers: in chains (most joints follow their parent)
    // this skips a store-to-load round trip on the loop's critical path.
    let mut prev: Option<(usize, Mat4)> = None;
    for j in start..end {
        let m = match parents[j] {
            Some(p) if (p as usize) < j => {
                let p = p as usize;
                match prev {
                    Some((q, ref pm)) if q == p => parent_times_trs(pm, &local[j]),
                    _ => parent_times_trs(&out[p], &local[j]),
                }
            }
            _ if identity => local[j].to_matrix(),
            _ => parent_times_trs(root, &local[j]),
        };
        out[j] = m;
        prev = Some((j, m));
    }
}

/// World matrices of every joint of `pose` (local, parent-first), the armature included: the
/// one way bakes, reports and `run` measure a pose in the glTF scene ([`local_to_model_f64`]
/// with the skeleton's armature as root). `out` is resized to the pose.
pub fn world_matrices(skeleton: &Skeleton, pose: &[Transform], out: &mut Vec<DMat4>) {
    out.clear();
    out.resize(pose.len(), DMat4::ZERO);
    let root = skeleton.armature().as_dmat4();
    local_to_model_f64(skeleton, pose, 0..pose.len(), &root, out);
}

/// The world position of every joint in the rest pose (the armature included): where a rig
/// stands before anything moves it.
pub fn rest_positions(skeleton: &Skeleton) -> Vec<glam::Vec3> {
    let mut world = Vec::new();
    world_matrices(skeleton, skeleton.rest_pose(), &mut world);
    world
        .iter()
        .map(|m| m.w_axis.truncate().as_vec3())
        .collect()
}

/// The f64 twin of [`local_to_model_with_root`]: every local transform is widened to f64
/// ([`Transform::to_dmat4`]) and the products are taken in f64, so world matrices of large or
/// deep rigs stay within 1e-4 of a viewer such as three.js. `out[j] = out[parent(j)] *
/// local[j]`, roots `root * local[j]`; same `range` rules.
pub fn local_to_model_f64(
    skeleton: &Skeleton,
    local: &[Transform],
    range: std::ops::Range<usize>,
    root: &DMat4,
    out: &mut [DMat4],
) {
    let parents = skeleton.parents();
    let end = range.end.min(local.len()).min(out.len()).min(parents.len());
    let start = range.start.min(end);
    for j in start..end {
        compose_f64(parents, local, j, root, out);
    }
}

/// [`world_matrices`] of the joints `needed` only (each needs its ancestors needed too; the
/// others are left as they were, `out` resized to the pose): the same products, so a needed
/// joint's matrix is the same bits.
pub fn world_matrices_of(
    skeleton: &Skeleton,
    pose: &[Transform],
    needed: &[bool],
    out: &mut Vec<DMat4>,
) {
    out.resize(pose.len(), DMat4::ZERO);
    let root = skeleton.armature().as_dmat4();
    let end = pose.len().min(needed.len()).min(skeleton.parents().len());
    for j in (0..end).filter(|&j| needed[j]) {
        compose_f64(skeleton.parents(), pose, j, &root, out);
    }
}

/// `out[j] = out[parent(j)] * local[j]` in f64 (`root * local[j]` for a root).
#[inline(always)]
fn compose_f64(
    parents: &[Option<crate::JointIndex>],
    local: &[Transform],
    j: usize,
    root: &DMat4,
    out: &mut [DMat4],
) {
    let parent = match parents[j] {
        Some(p) if (p as usize) < j => out[p as usize],
        _ => *root,
    };
    out[j] = parent_times_trs_f64(&parent, &local[j]);
}

/// `parent * trs.to_dmat4()` without building the local matrix or multiplying by its zeros:
/// the local matrix's columns are the rotation's axes scaled (w = 0) and the translation
/// (w = 1), and each column of the product is `p0 a + p1 b + p2 c + p3 d` summed in glam's
/// order. Only the terms `p3 · 0` are skipped, so every entry is the same bits as the full
/// product (a zero's sign aside).
#[inline(always)]
fn parent_times_trs_f64(parent: &DMat4, trs: &Transform) -> DMat4 {
    let q = trs.rotation.as_dquat();
    let (x, y, z, w) = (q.x, q.y, q.z, q.w);
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let s = trs.scale.as_dvec3();
    let t = trs.translation.as_dvec3();
    let (p0, p1, p2, p3) = (parent.x_axis, parent.y_axis, parent.z_axis, parent.w_axis);
    let col = |a: f64, b: f64, c: f64| p0 * a + p1 * b + p2 * c;
    DMat4::from_cols(
        col((1.0 - (yy + zz)) * s.x, (xy + wz) * s.x, (xz - wy) * s.x),
        col((xy - wz) * s.y, (1.0 - (xx + zz)) * s.y, (yz + wx) * s.y),
        col((xz + wy) * s.z, (yz - wx) * s.z, (1.0 - (xx + yy)) * s.z),
        col(t.x, t.y, t.z) + p3,
    )
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
        (p0 * t.x + p1 * t.y) + (p2 * t.z + p3),
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

    /// A root argument is multiplied onto the root joints only: every joint moves by it.
    #[test]
    fn root_is_applied_to_roots() {
        let (skeleton, local) = chain();
        let root = Mat4::from_scale_rotation_translation(
            Vec3::splat(2.0),
            Quat::from_rotation_x(-FRAC_PI_2),
            Vec3::new(0.5, 0.0, 0.0),
        );
        let mut plain = vec![Mat4::ZERO; 3];
        local_to_model(&skeleton, &local, 0..3, &mut plain);
        let mut rooted = vec![Mat4::ZERO; 3];
        local_to_model_with_root(&skeleton, &local, 0..3, &root, &mut rooted);
        let mut wide = vec![DMat4::ZERO; 3];
        local_to_model_f64(&skeleton, &local, 0..3, &root.as_dmat4(), &mut wide);
        for j in 0..3 {
            assert!(rooted[j].abs_diff_eq(root * plain[j], 1e-5), "{j}");
            assert!(wide[j].as_mat4().abs_diff_eq(root * plain[j], 1e-5), "{j}");
        }
        // the tip at model (1, 2, 0): scaled by 2, turned -90 deg about x, moved 0.5 along x
        let tip = wide[2].w_axis.truncate();
        assert!(
            tip.abs_diff_eq(glam::DVec3::new(2.5, 0.0, -4.0), 1e-6),
            "{tip}"
        );
    }

    /// The f64 version is the plain f64 product of the widened locals, bit for bit.
    #[test]
    fn f64_matches_plain_products() {
        let (skeleton, local) = chain();
        let root = DMat4::from_scale(glam::DVec3::splat(3.0));
        let mut got = vec![DMat4::ZERO; 3];
        local_to_model_f64(&skeleton, &local, 0..3, &root, &mut got);
        let l = |j: usize| {
            DMat4::from_scale_rotation_translation(
                local[j].scale.as_dvec3(),
                local[j].rotation.as_dquat(),
                local[j].translation.as_dvec3(),
            )
        };
        assert_eq!(got[0], root * l(0));
        assert_eq!(got[1], root * l(0) * l(1));
        assert_eq!(got[2], root * l(0) * l(1) * l(2));
    }

    use crate::test_lcg as lcg;

    /// Random trees (branching and chains, non-uniform scale) match the plain reference
    /// `model[parent] * local.to_matrix()` within 1e-6 of each matrix's largest entry.
    #[test]
    fn random_poses_match_reference() {
        let mut rng = 12345u32;
        for _ in 0..20 {
            let n = 40;
            let parents: Vec<Option<u16>> = (0..n)
                .map(|j| {
                    let r = lcg(&mut rng);
                    (j > 0 && r > -0.9).then(|| {
                        // mostly the previous joint (chains), sometimes any earlier joint
                        if r > 0.0 {
                            (j - 1) as u16
                        } else {
                            ((r + 1.0) * j as f32).min(j as f32 - 1.0) as u16
                        }
                    })
                })
                .collect();
            let local: Vec<Transform> = (0..n)
                .map(|_| {
                    let mut v = || Vec3::new(lcg(&mut rng), lcg(&mut rng), lcg(&mut rng));
                    let (t, e, s) = (v(), v() * 3.0, v() * 0.3 + Vec3::ONE);
                    Transform::new(t, Quat::from_euler(glam::EulerRot::XYZ, e.x, e.y, e.z), s)
                })
                .collect();
            let names = (0..n).map(|j| format!("j{j}")).collect();
            let parents_usize = parents.iter().map(|p| p.map(usize::from)).collect();
            let skeleton = Skeleton::new(names, parents_usize, local.clone(), Mat4::IDENTITY)
                .unwrap()
                .skeleton;
            assert_eq!(skeleton.parents(), &parents[..]);
            let mut want = vec![Mat4::ZERO; n];
            for j in 0..n {
                want[j] = match parents[j] {
                    Some(p) => want[p as usize] * local[j].to_matrix(),
                    None => local[j].to_matrix(),
                };
            }
            let mut got = vec![Mat4::ZERO; n];
            local_to_model(&skeleton, &local, 0..n, &mut got);
            for (g, w) in got.iter().zip(&want) {
                let scale = w.to_cols_array().iter().fold(1.0f32, |a, x| a.max(x.abs()));
                assert!(g.abs_diff_eq(*w, 1e-6 * scale), "{g} vs {w}");
            }
        }
    }

    /// The f64 world matrices are the full products' bits: `parent * local.to_dmat4()` for
    /// every joint of a deep chain with non-uniform scales and an armature.
    #[test]
    fn f64_products_are_the_full_products() {
        let n: usize = 40;
        let parents: Vec<Option<usize>> = (0..n).map(|j| j.checked_sub(1)).collect();
        let local: Vec<Transform> = (0..n)
            .map(|j| {
                let a = j as f32 * 0.37;
                Transform::new(
                    Vec3::new(a.sin(), 0.3 - a.cos(), 0.1 * a),
                    Quat::from_euler(glam::EulerRot::XYZ, a, 2.0 * a, -a).normalize(),
                    Vec3::new(1.0 + 0.1 * a.sin(), 0.9, 1.2),
                )
            })
            .collect();
        let names = (0..n).map(|j| format!("j{j}")).collect();
        let armature = Mat4::from_scale_rotation_translation(
            Vec3::splat(0.01),
            Quat::from_rotation_x(-FRAC_PI_2),
            Vec3::new(3.0, -2.0, 1000.0),
        );
        let skeleton = Skeleton::new(names, parents.clone(), local.clone(), armature)
            .unwrap()
            .skeleton;
        let mut got = Vec::new();
        world_matrices(&skeleton, &local, &mut got);
        let mut want: Vec<DMat4> = Vec::new();
        for j in 0..n {
            let parent = parents[j].map_or(armature.as_dmat4(), |p| want[p]);
            want.push(parent * local[j].to_dmat4());
        }
        assert_eq!(got, want);
    }
}
