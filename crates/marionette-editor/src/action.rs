//! What the panels ask of the editor: values of one [`Action`] enum (as egui_demo_app's
//! `Command` and rerun's `SystemCommand`). A panel reads `&` views of the state, draws, and
//! returns the actions its widgets produced; [`crate::Editor::apply`] performs each one, with
//! every side effect it has (file I/O, replaying a take, starting the bake thread, console
//! lines). The timeline widget works the same way: it returns a
//! [`crate::timeline::TimelineResponse`], which its panel turns into actions.

use marionette_anim::graph::{ParamValue, Take};

use super::sidecar::Panels;
use super::timeline::Transport;
use super::viewport::Overlays;

/// One thing the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Move the playhead to `t` seconds (pauses).
    Seek(f64),
    /// Move the playhead to the end of the take (pauses; live: stays).
    SeekEnd,
    /// Step one frame of the take's rate (`-1` back, `1` forward; pauses).
    StepFrame(i32),
    /// Play or pause.
    TogglePlay,
    /// Playing, looping and speed as the transport bar left them.
    SetTransport(Transport),
    /// Select a take (`None`: live parameters).
    SelectTake(Option<usize>),
    /// Edit the takes (one undo step).
    EditTakes(TakeEdit),
    /// Replace take `i` by the script's definition of it (undoable).
    RevertTake(usize),
    /// A parameter widget moved: live, set it; take mode with Record on, key it at the playhead.
    SetParam(String, ParamValue),
    /// A trigger button: live, fire it (and record it); take mode with Record on, add a trigger
    /// at the playhead.
    Fire(String),
    /// Show the keys of this parameter in the key list.
    ShowKeys(String),
    /// Record on / off ([`crate::Editor::toggle_record`]).
    ToggleRecord,
    /// Play takes after their bake passes (`true`) or the raw graph.
    SetPasses(bool),
    /// Undo the last take edit.
    Undo,
    /// Redo the last undone take edit.
    Redo,
    /// Write the sidecar now.
    SaveSidecar,
    /// Open the bake dialog on the editor's takes.
    OpenBake,
    /// Start baking with the dialog's settings (on a worker thread).
    StartBake,
    /// Ask the running bake to stop.
    CancelBake,
    /// Show or hide the help overlay.
    ShowHelp(bool),
    /// Toggle the help overlay.
    ToggleHelp,
    /// Which panels show.
    SetPanels(Panels),
    /// The viewport's overlays.
    SetOverlays(Overlays),
    /// Frame the character in the viewport.
    FrameCharacter,
    /// Select a joint (`None`: none).
    SelectJoint(Option<u16>),
    /// Select a node of the graph (`None`: none): the graph view shows its `file:line`, the
    /// viewport the joints it drives.
    SelectNode(Option<marionette_anim::graph::NodeId>),
    /// Select a mesh with morph targets, by its morph set (`None`: none).
    SelectMorphSet(Option<usize>),
    /// Close the window from the confirmation: `save` first or discard.
    Close {
        /// Write the sidecar before closing.
        save: bool,
    },
    /// Keep the window open (the confirmation's Cancel).
    CancelClose,
}

/// An edit of the takes, undoable as one step.
#[derive(Clone, Debug, PartialEq)]
pub enum TakeEdit {
    /// Write a key of `param` at `time` in the current take (a failure goes to the console).
    SetKey {
        /// Parameter name.
        param: String,
        /// Seconds.
        time: f32,
        /// The value.
        value: ParamValue,
    },
    /// Add a trigger of `param` at `time` in the current take (a failure goes to the console).
    AddTrigger {
        /// Parameter name.
        param: String,
        /// Seconds.
        time: f32,
    },
    /// The key list's "Add key at playhead".
    AddKey {
        /// Parameter name.
        param: String,
        /// Seconds.
        time: f32,
        /// The value.
        value: ParamValue,
    },
    /// Move key `index` of `param` to `time` with `value`.
    MoveKey {
        /// Parameter name.
        param: String,
        /// Index in the track's sorted keys.
        index: usize,
        /// New time, seconds.
        time: f32,
        /// New value.
        value: ParamValue,
    },
    /// Delete key `index` of `param`.
    DeleteKey {
        /// Parameter name.
        param: String,
        /// Index in the track's sorted keys.
        index: usize,
    },
    /// A timeline gesture on the current take: `before` when it began (pushed for undo), the
    /// take as it is now when it changed this frame (replayed).
    Gesture {
        /// The take before the gesture, on its first frame.
        before: Option<Take>,
        /// The changed take.
        after: Option<Take>,
    },
}
