//! Marionette: scripting-driven skeletal animation authoring.
//!
//! This package holds the command line (`src/main.rs`, `src/cli`) and the reports it prints
//! ([`report`]), and re-exports the workspace's crates under the names users of the library know.
//! The crates, with dependencies pointing one way (each uses only those below it; Cargo refuses
//! anything else):
//!
//! ```text
//!   marionette (cli, report)          parse, print
//!     -> marionette-editor            the live window (winit + egui)
//!       -> marionette-bake            the offline layer (BakeJob -> BakeReport)
//!       -> marionette-render          wgpu drawing of poses from any PoseSource
//!         -> marionette-script        the Lua host, rig loader, a script as a pose source
//!           -> marionette-io          the glTF codec; which files a command may read, atomic writes
//!             -> marionette-anim      the runtime, the character as data, the mannequin
//! ```
//!
//! (render does not depend on script: both sit on io and anim; bake uses script, not render.)

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
