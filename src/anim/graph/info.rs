//! Introspection records for the CLI and UI: events crossed, node weights and phases, active
//! states and transition progress.

use super::nodes::NodeId;

/// A clip event crossed during the last `advance`.
#[derive(Clone, Debug, PartialEq)]
pub struct EventInfo<'a> {
    /// The clip player.
    pub node: NodeId,
    /// Event name.
    pub name: &'a str,
    /// Event time in the clip (seconds).
    pub time: f32,
    /// Effective weight of the player when it crossed the event.
    pub weight: f32,
}

/// One node's status after the last step.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeInfo<'a> {
    /// The node.
    pub id: NodeId,
    /// Its name, if given.
    pub name: Option<&'a str>,
    /// Its kind (`clip`, `blend space 1D`, ...).
    pub kind: &'static str,
    /// Effective weight in the output.
    pub weight: f32,
    /// Normalised phase (clip players, and nodes that follow one).
    pub phase: Option<f32>,
}

/// A running transition, for display.
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionInfo<'a> {
    /// The state it left.
    pub from: &'a str,
    /// The state it goes to.
    pub to: &'a str,
    /// Linear progress 0..1.
    pub progress: f32,
    /// Target weight (progress through the curve).
    pub weight: f32,
    /// True when the source is a frozen pose.
    pub frozen: bool,
    /// True when it interrupted another transition.
    pub interrupted: bool,
}

/// A state machine's status, for display.
#[derive(Clone, Debug, PartialEq)]
pub struct StateMachineInfo<'a> {
    /// The state machine node.
    pub node: NodeId,
    /// Its name, if given.
    pub name: Option<&'a str>,
    /// The current (target) state.
    pub current: &'a str,
    /// Seconds in the current state.
    pub state_time: f32,
    /// The running transition, if any.
    pub transition: Option<TransitionInfo<'a>>,
}
