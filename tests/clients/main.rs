//! Baked files in real clients: the Khronos validator, three.js and Blender play what `run`
//! shows (they skip locally, and fail under CI, when a client is missing).
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

#[path = "../bake_support/mod.rs"]
mod bake_support;
#[path = "../common/mod.rs"]
mod common;

mod bake_three;
mod blender;
mod compact_clients;
mod mocap_blender;
mod morph_clients;
mod retarget_clients;
mod vrm_springs;
