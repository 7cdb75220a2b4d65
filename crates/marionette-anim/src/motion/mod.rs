//! Motion quality: what a take's frames do, measured the way an animator judges them. Each
//! measure reads a [`Motion`] (the frames' world positions and local rotations):
//! - [`contacts`]: when a foot is planted (its height and speed under thresholds);
//! - [`slide`]: how far a planted foot travels (foot slide, mm);
//! - [`joints`]: how fast joints turn, how far from rest, how the angular velocity jumps
//!   between frames, whether a number is not finite, how deep feet go under the ground.
//!
//! The script's `assert_motion { }` and `check --report` are built on these.

pub mod asserts;
pub mod contacts;
pub mod joints;
mod recorded;
pub mod slide;

pub use asserts::{AngleLimit, Failure, Figures, MotionAsserts, Resolved, UnknownJoint, Worst};
pub use contacts::{Contact, ContactRule};
pub use recorded::Motion;
