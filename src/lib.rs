//! Marionette: scripting-driven skeletal animation authoring.
//!
//! Layers, with dependencies pointing one way (each uses only what is below it):
//!
//! ```text
//!   cli (src/cli, main.rs), editor     parse, print, windows
//!     -> bake, preview, report         the offline layer (BakeJob -> BakeReport); script-to-
//!                                      render glue; the inspect/sample reports
//!     -> script, render                the Lua host; wgpu drawing of poses
//!     -> anim                          the runtime (glam, thiserror; rayon for crowds)
//!   io: the glTF codec, and rigs (a script's rig file), at the edge. Files are read and written
//!       by bake, rigs and the CLI; anim, script and render never touch them. Model is plain
//!       data beside anim.
//! ```
//!
//! - [`anim`]: the runtime: poses, clips, sampling, blend graph, IK (no files, GPU, Lua or UI).
//! - [`bake`]: the offline layer: frame sampling, key fitting and reduction under a world-space
//!   error budget, and [`bake::run`], the one entry point for the CLI, the editor and tests.
//! - [`script`]: the Lua host that builds graphs and takes.
//! - [`render`]: wgpu drawing of poses.
//! - [`preview`]: glue from a script's graph to [`render`] (a script as a pose source).
//! - [`rigs`]: the one rig loader scripts use (shared by `bake`, `run`, `check`, `render`, the
//!   preview and the editor).
//! - [`confine`]: the one rule for which files a command may read (inputs' URIs, a script's
//!   `require`, `io.open` and rig file), used by [`io`], [`script`] and [`rigs`].
//! - [`io`]: the glTF 2.0 codec: one document layer for import, model export and bake export.
//! - [`Model`], [`mannequin`]: the character as data, and the bundled one built in code.
//! - [`report`]: the inspect and sample reports.
//! - [`editor`]: the live editor window (winit + egui + the renderer).

pub mod anim;
pub mod bake;
pub mod confine;
pub mod editor;
pub mod io;
pub mod mannequin;
pub mod model;
pub mod preview;
pub mod render;
pub mod report;
pub mod rigs;
pub mod script;

pub use model::{Image, Model};
