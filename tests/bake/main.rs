//! Baking: fidelity and round trips through Marionette's own codec, bake jobs (in process and
//! through `marionette bake`), time bases, malformed input, world-space runs, the fuzz corpus.
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

#[path = "../bake_support/mod.rs"]
mod bake_support;
#[path = "../common/mod.rs"]
mod common;
#[path = "../fuzz_harness/mod.rs"]
mod fuzz_harness;
#[path = "../../crates/marionette-script/tests/script/script_common.rs"]
mod script_common;

mod bake_cancel;
mod bake_fidelity;
mod bake_job;
mod bake_morphs;
mod bake_passes;
mod bake_roundtrip;
mod bake_script;
mod bake_time_base;
mod bake_vertices;
mod deep_hierarchy;
mod far_rigs;
mod files_as_they_come;
mod fuzz_corpus;
mod malformed;
mod motion_quality;
mod reference_poses;
mod rigging;
mod run_world;
mod script_events;
