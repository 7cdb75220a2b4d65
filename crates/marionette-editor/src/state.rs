//! The editor's state, split by how long it lives. What the sidecar saves is the session's
//! takes, selected take and playhead ([`crate::session::Session`]), the viewport's camera and
//! overlays ([`crate::viewport::Viewport`]) and the [`Layout`] (panels and the timeline's view);
//! [`WindowState`] lives only while the window is open (playback, recording, selection, dialogs,
//! flashes); [`SidecarFile`] is what the editor knows of the file itself (what was last written,
//! where, and whether it may be written).
//!
//! Panels read these through `&` references and return [`crate::action::Action`]s; only
//! [`crate::Editor::apply`] (and the frame's own steps: playback, hot reload, autosave) changes
//! them.

use std::collections::HashSet;
use std::path::PathBuf;

use super::sidecar::{KeptTake, Panels, Sidecar};
use super::take_edit::Recording;
use super::timeline::{TimelineState, Transport};
use super::viewport::Ghost;

/// The view the sidecar saves besides takes, camera and overlays: which panels show, and the
/// timeline's zoom, lanes and selected key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// Which panels show.
    pub panels: Panels,
    /// Timeline view (zoom, pan, lanes, selected key).
    pub timeline: TimelineState,
}

/// A flash message under the title bar (e.g. "reloaded in 12 ms").
#[derive(Clone, Debug, PartialEq)]
pub struct Flash {
    /// The message.
    pub text: String,
    /// Shown until this time (egui's clock, seconds).
    pub until: f64,
}

/// What lives only while the window is open.
#[derive(Default)]
pub struct WindowState {
    /// Playing (the playhead advances by the frame's dt), looping, speed.
    pub transport: Transport,
    /// Keys are written when parameters move (take mode); live mode records a new take.
    pub recording: bool,
    /// The live session being recorded (live mode, Record on).
    pub record: Option<Recording>,
    /// The selected joint.
    pub selected_joint: Option<u16>,
    /// The selected node of the graph (graph view).
    pub selected_node: Option<marionette_anim::graph::NodeId>,
    /// The graph view's drawing, pan and zoom.
    pub graph_view: crate::graph_view::GraphView,
    /// The selected mesh with morph targets (its morph set), whose weights the outliner shows.
    pub selected_morphs: Option<usize>,
    /// The parameter whose keys the key list shows.
    pub key_param: Option<String>,
    /// The help overlay is open.
    pub help_open: bool,
    /// The outliner's search text.
    pub outliner_search: String,
    /// The close-confirmation dialog is open.
    pub confirm_close: bool,
    /// The editor asks its shell to close (after confirmation).
    pub quit: bool,
    /// The message under the title bar.
    pub flash: Option<Flash>,
    /// This frame's time (egui's clock, seconds).
    pub now: f64,
    /// Ghost poses around the playhead.
    pub ghosts: Vec<Ghost>,
    /// The previous script's pose at the playhead (A/B after a reload), while it shows.
    pub compare: Option<Ghost>,
    /// Until when (egui's clock, seconds) the previous script's ghost shows unpinned.
    pub compare_until: f64,
    /// Runtime errors already written to the console since the last reload, as (take or
    /// "live", `file:line`, or the message where the line is unknown): one line per distinct
    /// error, not one per frame (nor per value a message may quote).
    pub runtime_reported: HashSet<(String, String)>,
    /// When the last frame started, and the time between the last two (what a long take's
    /// lanes may spend per frame, [`crate::take_lanes::slice_for`]).
    pub frame_start: Option<std::time::Instant>,
    pub frame_interval: std::time::Duration,
}

impl WindowState {
    /// Shows `text` under the title bar for `secs` seconds from now.
    pub fn flash(&mut self, text: impl Into<String>, secs: f64) {
        self.flash = Some(Flash {
            text: text.into(),
            until: self.now + secs,
        });
    }
}

/// What the editor knows of its sidecar file besides the state it saves.
#[derive(Default)]
pub struct SidecarFile {
    /// The state last written (or read): take edits differing from it are unsaved.
    pub saved: Option<Sidecar>,
    /// Where the file is (known once read or written).
    pub path: Option<PathBuf>,
    /// Saving is on (off for screenshots, and until the script first loads).
    pub save_enabled: bool,
    /// Takes of the file that were not loaded (invalid), written back as they were.
    pub kept: Vec<KeptTake>,
    /// Why the file must not be written this session (a newer version, or a file that exists
    /// but could not be read); `None`: it may be.
    pub refused: Option<String>,
    /// When the last autosave ran (egui's clock, seconds).
    pub last_autosave: f64,
}
