//! Marionette: scripting-driven skeletal animation authoring.
//!
//! Layers, with dependencies pointing one way (`cli -> io -> anim`):
//! - [`anim`]: the runtime (no files, GPU, Lua or UI).
//! - [`io`]: glTF import and export.
//! - [`mannequin`]: the bundled default character, built procedurally.

pub mod anim;
pub mod io;
pub mod mannequin;
pub mod render;
pub mod report;
pub mod script;
