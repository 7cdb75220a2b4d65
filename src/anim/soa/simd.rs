//! Which instruction set the lane kernels run with on this CPU.

/// Whether the AVX2 builds of the kernels run here (detected once, then a cached load).
#[inline(always)]
pub(crate) fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `"avx2"` (8 `f32` lanes per instruction), `"sse2"` (4), or `"portable"` (whatever the
/// compiler makes of the lane loops on other architectures).
pub fn level() -> &'static str {
    if avx2() {
        "avx2"
    } else if cfg!(target_arch = "x86_64") {
        "sse2"
    } else {
        "portable"
    }
}
