//! [`Share`]: how much of a node reaches the output, what every update visit passes down.

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
