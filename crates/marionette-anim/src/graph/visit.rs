//! The context of an update visit: [`Visit`] carries what every node's update reads and writes
//! (the compiled graph, its state, its scratch and the [`Pass`]), so the update functions take
//! the node and what differs per node (its time step and [`Share`]) and nothing else.

use super::compiled::Compiled;
use super::scratch::Scratch;
use super::state::{GraphState, Pass};

/// What one update visit of the graph works on, passed down by `&mut`.
pub(crate) struct Visit<'a> {
    /// The graph's unchanging data.
    pub c: &'a Compiled,
    /// The state being advanced.
    pub s: &'a mut GraphState,
    /// Buffers, the frame's events and the step's root-motion blend.
    pub x: &'a mut Scratch,
    /// What the visit does besides marking weights.
    pub pass: Pass,
}
