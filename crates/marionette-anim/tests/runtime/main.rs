//! The runtime on the built-in mannequin: the blend graph end to end, and no allocation per frame.
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

mod graph_alloc;
mod graph_mannequin;
