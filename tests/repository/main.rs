//! Checks of the repository itself: no import circle inside a crate, the runtime crate's
//! dependencies, the Lua stubs against the example scripts.
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

mod import_graph;
mod layout;
mod luals_stubs;
mod rust_source;
mod test_binaries;
