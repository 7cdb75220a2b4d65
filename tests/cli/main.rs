//! The command line, run as a user runs it: `marionette` itself (arguments, exit codes,
//! messages, files written), the guide's examples, the editor's window under Xvfb.
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

#[path = "../api_family/mod.rs"]
mod api_family;
#[path = "../common/mod.rs"]
mod common;
#[path = "../render_common/mod.rs"]
mod render_common;
#[path = "../../crates/marionette-script/tests/script/script_common.rs"]
mod script_common;

mod bake_bytes;
mod bake_manifest;
mod bench_cli;
mod cli_args;
mod confinement;
mod default_run;
mod editor_window;
mod guide_examples;
mod mocap_cli;
mod motion_cli;
mod passes_cli;
mod production_rig;
mod render_cli;
mod root_motion_robot;
mod script_api_args;
mod script_cli;
mod script_retarget;
mod sidecar_cli;
