//! # marionette-anim
//!
//! **Owns** the runtime: transforms, skeletons, clips, sampling, local-to-model and world
//! matrices, skin palettes and CPU skinning, blend graphs ([`graph`]), IK, mirroring, root
//! motion, the SoA fast path ([`soa`]), time and frame rules ([`time`]); the character as data
//! ([`Model`]); the bundled [`mannequin`] built in code; [`PoseSource`], the one trait for
//! "poses over time" that the renderer draws and a script implements; and, behind the `crowd`
//! feature (rayon), the crowd runtime ([`crowd`]).
//!
//! **Must not know** files, glTF, GPUs, Lua or UI: its dependencies are glam and thiserror (and
//! rayon for `crowd`), and every other crate depends on it. The model and the mannequin live
//! here because they are plain data of the runtime's own types: the codec (io) fills a
//! [`Model`] from a file, the mannequin fills one in code, and the runtime's own tests need a
//! real character without touching a file.
//!
//! Design property 5: the runtime knows nothing of where its data comes from or goes.

mod clip;
mod keys;
mod mesh;
mod skeleton;
mod transform;

pub use clip::{Channel, Clip, JointTracks, KeyValue, Track, WrapMode};
pub use keys::{continuous_rotations, hermite_basis, ClipError, Interpolation};
pub use mesh::{Skin, SkinnedMesh};
pub use model::{ClipLookupError, Image, Model};
pub use morph::{morph_vertices, MorphSet, MorphTarget, MorphTrack, Morphs};
pub use pose_source::PoseSource;
pub use skeleton::{BuiltSkeleton, Skeleton, SkeletonError};

/// Index of a joint inside a [`Skeleton`].
pub type JointIndex = u16;
pub use transform::{nlerp_quat, slerp_quat, Transform};
mod sampling;
mod snorm16;
pub use sampling::{sample_quat, sample_vec3, Interpolate, SamplingCache};
pub use snorm16::{
    decoded_error, quantize_rotation, rotation_codes, snorm16_code, snorm16_decode, SNORM16_MAX,
};
mod local_to_model;
mod skinning;
pub use local_to_model::{
    local_to_model, local_to_model_f64, local_to_model_with_root, rest_positions, world_matrices,
    world_matrices_of,
};
pub use skinning::{reduce_influences, skin_vertices, InfluenceFixes};

pub mod blend;
#[cfg(feature = "crowd")]
pub mod crowd;
pub mod fast_turns;
pub mod graph;
pub mod ik;
pub mod mannequin;
pub mod mirror;
pub mod model;
pub mod morph;
pub mod motion;
pub mod passes;
mod pose_source;
pub mod retarget;
pub mod rigging;
pub mod root_motion;
pub mod soa;
pub mod time;

/// Deterministic pseudo-random numbers in [-1, 1] for the unit tests (a linear congruential
/// generator: the same sequence on every machine).
#[cfg(test)]
pub(crate) fn test_lcg(state: &mut u32) -> f32 {
    *state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    (*state >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}
