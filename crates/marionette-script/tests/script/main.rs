//! The Lua host: the API and its mistakes, the sandbox, strictness, post ops, morphs, crowds,
//! several rigs, hot reload.
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

pub(crate) use marionette_testkit as common;
mod script_common;

mod hot_reload;
mod script_api;
mod script_crowd;
mod script_errors;
mod script_hostile;
mod script_morphs;
mod script_post;
mod script_post_args;
mod script_rigging;
mod script_sandbox;
mod script_sides;
mod script_strict;
