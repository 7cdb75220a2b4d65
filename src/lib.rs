//! Marionette: scripting-driven skeletal animation authoring.
//!
//! Layers, with dependencies pointing one way (`cli -> io -> anim`):
//! - [`anim`]: the runtime (no files, GPU, Lua or UI).
//! - [`io`]: glTF import and export.
//! - [`mannequin`]: the bundled default character, built procedurally.
//! - [`preview`]: a script's graph as a pose source for [`render`].

pub mod anim;
pub mod editor;
pub mod io;
pub mod mannequin;
pub mod preview;
pub mod render;
pub mod report;
pub mod script;
