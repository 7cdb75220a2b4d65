//! Local-to-model from a [`SoaPose`]: local matrices eight joints at a time, then each joint's
//! parent product.

use glam::{Mat4, Vec4};

use super::{kernels, simd, SoaPose, LANES};
use crate::anim::Skeleton;

/// `out[j] = out[parent(j)] * local(j)`, roots `local(j)` (model space, the armature
/// excluded): [`crate::anim::local_to_model`] from a [`SoaPose`], within 1e-6. Writes the first
/// `min(skeleton, pose, out)` joints.
pub fn local_to_model(skeleton: &Skeleton, pose: &SoaPose, out: &mut [Mat4]) {
    #[cfg(target_arch = "x86_64")]
    if simd::avx2() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { l2m_avx2(skeleton, pose, out) };
    }
    l2m_lanes(skeleton, pose, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn l2m_avx2(skeleton: &Skeleton, pose: &SoaPose, out: &mut [Mat4]) {
    l2m_lanes(skeleton, pose, out)
}

#[inline(always)]
#[allow(clippy::needless_range_loop)] // `l` indexes several lane arrays
fn l2m_lanes(skeleton: &Skeleton, pose: &SoaPose, out: &mut [Mat4]) {
    let parents = skeleton.parents();
    let n = parents.len().min(pose.len()).min(out.len());
    let mut m = [[0.0f32; LANES]; 9];
    // the last matrix written stays in registers (chains follow their parent)
    let mut prev = (usize::MAX, Mat4::IDENTITY);
    for (b, block) in pose.blocks().iter().enumerate() {
        let first = b * LANES;
        if first >= n {
            break;
        }
        kernels::rotation_matrices(block, &mut m);
        for l in 0..LANES.min(n - first) {
            let j = first + l;
            let c = |k: usize| m[k][l];
            let (s, t) = (|k: usize| block.s[k][l], |k: usize| block.t[k][l]);
            let model = match parents[j] {
                Some(p) if (p as usize) < j => {
                    let p = p as usize;
                    let pm = if prev.0 == p { &prev.1 } else { &out[p] };
                    let (p0, p1, p2, p3) = (pm.x_axis, pm.y_axis, pm.z_axis, pm.w_axis);
                    // the scalar path's operations, in its order
                    let col = |k: usize| p0 * c(k) + p1 * c(k + 1) + p2 * c(k + 2);
                    Mat4::from_cols(
                        col(0) * s(0),
                        col(3) * s(1),
                        col(6) * s(2),
                        (p0 * t(0) + p1 * t(1)) + (p2 * t(2) + p3),
                    )
                }
                _ => Mat4::from_cols(
                    Vec4::new(c(0) * s(0), c(1) * s(0), c(2) * s(0), 0.0),
                    Vec4::new(c(3) * s(1), c(4) * s(1), c(5) * s(1), 0.0),
                    Vec4::new(c(6) * s(2), c(7) * s(2), c(8) * s(2), 0.0),
                    Vec4::new(t(0), t(1), t(2), 1.0),
                ),
            };
            out[j] = model;
            prev = (j, model);
        }
    }
}
