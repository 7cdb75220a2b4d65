//! The live editor window: a Lua script watched and hot-reloaded, its character in a
//! GPU-skinned viewport, played and scrubbed through the same evaluation `marionette run`
//! prints, parameters driven by hand or keyed into takes, states explained, edits kept in a
//! sidecar next to the script.
//!
//! - [`Editor`] (`app`): the state and one frame of UI, `Editor::ui(&mut self, ui)`; it needs
//!   only a [`marionette_render::GpuContext`] and egui's wgpu renderer, so tests drive it headlessly
//!   with egui_kittest and the window shell drives the very same code.
//! - `viewport`: the existing renderer drawing offscreen (MSAA + depth) into a texture egui shows.
//! - `shell`: the winit window (raw winit + egui-winit + egui-wgpu, on our own device), and
//!   `--screenshot` of the whole window; `screenshot` paints a frame into an image.
//! - [`timeline`]: the timeline widget (ruler, transport, parameter/state/weight lanes).
//! - panels: `transport` (take selector and record above the timeline), `params`, `outliner`, `states`, `console`, `banner`
//!   (script errors), `help` (shortcuts, F1), `bake_dialog` (`bake::run` on a worker thread).
//! - `session` (script + takes + playhead), `take_edit` (recording live sessions), `sweep` (timeline lanes), `undo`,
//!   `sidecar` / `persist` (the `<stem>.marionette.json` file), `stats` (frame time split).

pub mod app;
pub mod bake_dialog;
mod banner;
mod chrome;
mod conflicts;
pub mod console;
mod help;
mod outliner;
mod params;
mod persist;
mod playback;
pub mod screenshot;
pub mod session;
pub mod shell;
pub mod sidecar;
mod states;
pub mod stats;
mod sweep;
pub mod take_edit;
pub mod timeline;
mod transport;
pub mod undo;
pub mod viewport;

pub use app::{Editor, EditorError, EditorOptions, Msaa};
pub use help::SHORTCUTS;
