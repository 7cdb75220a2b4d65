//! Reports about a [`Model`](crate::Model), as serde-serialisable structs: what a file
//! holds ([`mod@inspect`]) and the pose at a time ([`mod@sample`]). The CLI prints them (as
//! tables or JSON) and integration tests compare them with reference values.

pub mod inspect;
pub mod sample;

pub use inspect::{
    inspect, BakedInfo, ClipInfo, ImageInfo, InspectReport, JointInfo, MeshInfo, SkinInfo,
};
pub use sample::{sample_model, sample_skin, JointSample, SampleError, SampleReport};
