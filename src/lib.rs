//! Marionette: scripting-driven skeletal animation authoring.
//!
//! # marionette
//!
//! **Owns** the command line (`src/main.rs`, `src/cli`: parse, call a crate, print) and the
//! reports it prints ([`report`]: inspect, sample and run, as serde structs whose JSON is a
//! documented contract). Reports live here because they are what commands print, and the run
//! report names the editor's sidecar. It re-exports the workspace's crates under the names
//! users of the library know (`marionette::anim`, `marionette::bake`, ...).
//!
//! **Must not own** logic a crate below could hold: a command that computes something new puts
//! it in the crate it belongs to and calls it from here.
//!
//! The crates, with dependencies pointing one way (Cargo refuses anything else):
//!
//! ```text
//!   marionette (cli, report)   parse, print
//!     -> marionette-editor     the live window (winit + egui)
//!   marionette-editor -> marionette-bake     the offline layer (BakeJob -> BakeReport)
//!   marionette-editor -> marionette-render   wgpu drawing of poses from any PoseSource
//!   marionette-bake   -> marionette-script   the Lua host, rig loader, a script as a pose source
//!   marionette-script -> marionette-io       the glTF codec; which files may be read, atomic writes
//!   marionette-render -> marionette-io
//!   marionette-io     -> marionette-anim     the runtime, the character as data, the mannequin
//! ```
//!
//! Render and script never meet: both sit on io and anim (`anim::PoseSource` is the seam).

pub use marionette_anim as anim;
pub use marionette_anim::{mannequin, model, Image, Model};
pub use marionette_bake as bake;
pub use marionette_editor as editor;
pub use marionette_io as io;
pub use marionette_io::files::confine;
pub use marionette_render as render;
pub use marionette_script as script;
pub use marionette_script::{preview, rigs};

pub mod report;
