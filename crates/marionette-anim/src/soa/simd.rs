//! Which instruction set the lane kernels run with on this CPU.

/// Tests run the baseline builds on AVX2 machines too: set, [`avx2`] says no. (Both builds
/// meet the same tolerances, so tests running meanwhile are unaffected.)
#[cfg(test)]
pub(crate) static BASELINE: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Whether the AVX2 builds of the kernels run here: AVX2 and FMA (every AVX2 processor has
/// both; the fused palette uses FMA) — detected once, then a cached load.
#[inline(always)]
pub(crate) fn avx2() -> bool {
    #[cfg(test)]
    if BASELINE.load(std::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `"avx2"` (8 `f32` lanes per instruction, with FMA), `"sse2"` (4), or `"portable"` (whatever the
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
