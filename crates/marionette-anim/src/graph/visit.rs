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

/// How much of a node reaches the output: its effective weight in the pose (`pose`, the
/// product of the blend weights above it) and in root motion (`motion`: layers and additive
/// inputs contribute none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Share {
    /// Effective weight in the output pose.
    pub pose: f32,
    /// Weight of the node's root motion.
    pub motion: f32,
}

impl Share {
    /// The whole output: the root's share.
    pub const FULL: Share = Share {
        pose: 1.0,
        motion: 1.0,
    };

    /// Both weights times `k` (an input's share of its user's).
    pub fn scaled(self, k: f32) -> Share {
        Share {
            pose: self.pose * k,
            motion: self.motion * k,
        }
    }
}
