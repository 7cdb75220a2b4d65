//! The renderer on lavapipe (or any wgpu adapter): golden images, skinning against the CPU,
//! instances, views, test models and scripts.
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

#[path = "../common/mod.rs"]
mod common;
#[path = "../render_common/mod.rs"]
mod render_common;

mod render_golden;
mod render_instances;
mod render_models;
mod render_script;
mod render_skinning;
mod render_views;
