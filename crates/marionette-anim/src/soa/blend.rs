//! Blending [`SoaPose`]s block by block.

use super::{kernels, simd, SoaPose};

/// `a = lerp(a, b, w)` per joint, [`crate::blend::lerp_in_place`] in lanes: vectors
/// bit for bit, rotations (sign-aligned normalised lerp) within 1e-6. Joints beyond the shorter
/// pose are left untouched (whole blocks).
pub fn lerp_in_place(a: &mut SoaPose, b: &SoaPose, w: f32) {
    #[cfg(target_arch = "x86_64")]
    if simd::avx2() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { lerp_avx2(a, b, w) };
    }
    lerp_lanes(a, b, w)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn lerp_avx2(a: &mut SoaPose, b: &SoaPose, w: f32) {
    lerp_lanes(a, b, w)
}

#[inline(always)]
fn lerp_lanes(a: &mut SoaPose, b: &SoaPose, w: f32) {
    for (x, y) in a.blocks_mut().iter_mut().zip(b.blocks()) {
        kernels::nlerp_in_place(x, y, w);
    }
}
