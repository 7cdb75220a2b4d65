//! # marionette-editor
//!
//! **Owns** the live window: panels, the timeline, the viewport, hot reload, take editing,
//! undo, the sidecar file and the bake dialog.
//!
//! **Must not know** the command line: the binary opens it (`marionette edit`) with options;
//! everything it computes comes from the crates below (script evaluation, bakes, drawing), so
//! the window shows what `run` prints and `bake` writes.
//!
//! The live editor window: a Lua script watched and hot-reloaded, its character in a
//! GPU-skinned viewport, played and scrubbed through the same evaluation `marionette run`
//! prints, parameters driven by hand or keyed into takes, states explained, edits kept in a
//! sidecar next to the script.
//!
//! - [`Editor`] (`app`): the state (`state`: what the sidecar saves, what lives while the
//!   window is open) and one frame of UI (`frame`: `Editor::ui(&mut self, ui)`); it needs only a
//!   [`marionette_render::GpuContext`] and egui's wgpu renderer, so tests drive it headlessly
//!   with egui_kittest and the window shell drives the very same code.
//! - `action`: panels read `&` views of the state and return [`Action`]s; `apply`
//!   ([`Editor::apply`]) performs them, every side effect included; `reload` follows hot reload,
//!   `playback` the playhead.
//! - `viewport`: the existing renderer drawing offscreen (MSAA + depth) into a texture egui shows.
//! - `shell`: the winit window (raw winit + egui-winit + egui-wgpu, on our own device), and
//!   `--screenshot` of the whole window; `screenshot` paints a frame into an image.
//! - `timeline`: the timeline widget (ruler, transport, parameter/state/weight lanes).
//! - `drivers`: the skeleton's colours by who drives each bone, or by the selected node.
//! - `graph_view`: the script's graph drawn live (cards and wires, state diagrams; `layout`
//!   places them).
//! - panels: `title_bar` (and the error `banner`), `toolbar` (viewport overlays), `take_bar`
//!   (take selector and record above the timeline), `timeline_panel`, `params`, `outliner`,
//!   `states`, `console`, `help` (shortcuts, F1), `bake_dialog` (`bake::run` on a worker thread).
//! - `session` (script + takes + playhead), `take_edit` (recording live sessions), `take_lanes`
//!   (the state and weight lanes of a take), `undo`, `sidecar` / `persist` (the
//!   `<stem>.marionette.json` file), `conflicts`, `stats` (frame time split).
//!
//! **Its API** is what the crate root re-exports: [`Editor`] (its state read through accessors,
//! changed through [`Editor::apply`]), [`EditorOptions`], [`Action`], the window
//! ([`event_loop`], [`run_window`]), [`headless_screenshot`] and the sidecar functions the
//! command line calls ([`sidecar_path`], [`read_sidecar`]). The modules are private.

mod action;
mod app;
mod apply;
mod bake_dialog;
mod banner;
mod conflicts;
mod console;
mod drivers;
mod frame;
mod graph_view;
mod help;
mod outliner;
mod params;
mod persist;
mod playback;
mod reload;
mod retarget_panel;
mod screenshot;
mod select_named;
mod session;
mod shell;
mod sidecar;
mod state;
mod states;
mod stats;
mod take_bar;
mod take_edit;
mod take_lanes;
mod timeline;
mod timeline_panel;
mod title_bar;
mod toolbar;
mod undo;
mod viewport;

// What the command line and the tests use; everything else is the editor's own.
pub use action::{Action, TakeEdit};
pub use app::{Editor, EditorError, EditorOptions, Msaa, Panel};
pub use drivers::JointColors;
pub use help::SHORTCUTS;
pub use screenshot::headless as headless_screenshot;
pub use shell::{event_loop, run as run_window, ShellOptions, ShellOutcome, LOSE_DEVICE_ENV};
pub use sidecar::{path_for as sidecar_path, read as read_sidecar, Sidecar, SidecarError};
pub use timeline::keys::{set_ease, set_key_at, track as key_track};
