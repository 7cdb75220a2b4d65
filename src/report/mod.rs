//! Reports about a [`Model`](crate::Model), as serde-serialisable structs: what a file
//! holds ([`mod@inspect`]), the pose at a time ([`mod@sample`]) and a script's graph at a frame
//! ([`mod@run`]) and the bake passes a take ran ([`mod@passes`]). The CLI prints them (as
//! tables or JSON) and integration tests compare them with reference values.

pub mod inspect;
pub mod motion;
pub mod passes;
pub mod run;
pub mod sample;

pub use inspect::{
    inspect, inspect_with, BakedInfo, ClipInfo, FastTurnInfo, ImageInfo, InspectReport, JointInfo,
    MeshInfo, MorphSetInfo, SkinInfo,
};
pub use run::{
    run_report, EventReport, MarkerReport, NodeReport, RootMotionReport, RunReport, StateReport,
    TransitionReport,
};
pub use sample::{
    morph_samples, sample_model, sample_skin, JointSample, MorphSample, SampleError, SampleReport,
};
