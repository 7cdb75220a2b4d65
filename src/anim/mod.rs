//! The animation runtime: transforms, skeletons, clips, sampling, local-to-model, skin palettes
//! and CPU skinning. It knows nothing of files, GPUs, Lua or UI (design property 5).

mod clip;
mod mesh;
mod skeleton;
mod transform;

pub use clip::{Channel, Clip, ClipError, Interpolation, JointTracks, KeyValue, Track, WrapMode};
pub use mesh::{Skin, SkinnedMesh};
pub use skeleton::{BuiltSkeleton, JointIndex, Skeleton, SkeletonError};
pub use transform::{nlerp_quat, slerp_quat, Transform};

pub mod blend;
pub mod mirror;
pub mod root_motion;
pub mod ik;
pub mod graph;
