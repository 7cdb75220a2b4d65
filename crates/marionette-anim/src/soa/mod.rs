//! Structure-of-arrays runtime in `f32`, eight joints per block: clips compiled for a skeleton
//! ([`SoaClip`]) and sampled into [`SoaPose`]s, blended ([`blend`]), and turned into model
//! matrices and skin palettes ([`local_to_model`], [`local_to_model_palette`]) — the crowd path
//! (`marionette bench crowd`). Kernels are plain lane loops compiled twice, for AVX2 (chosen at
//! run time) and for the baseline (SSE2 on x86_64).
//!
//! Results are within 1e-6 of the scalar `f64`-assisted reference ([`crate::Clip::sample`],
//! [`crate::local_to_model`], ...; tests: every frame of every clip of the mannequin and
//! the Fox at 60 fps); the graph and the bake keep the scalar path, so no golden moves.

mod blend;
mod clip;
mod compile;
mod kernels;
mod model;
mod pose;
pub(crate) mod simd;
mod spans;
mod verify;

pub use blend::lerp_in_place;
pub use clip::{SoaClip, SoaCursor};
pub use model::{local_to_model, local_to_model_palette, PalettePlan};
pub use pose::{SoaBlock, SoaPose};
pub use simd::level as simd_level;
pub use verify::playback_difference;

/// Joints per block: one AVX2 register of `f32`.
pub const LANES: usize = 8;

#[cfg(test)]
mod tests;
