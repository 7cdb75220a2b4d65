//! What lowering a script's description looks up in the graph being built ([`Lookup`]): the
//! one view the post operations ([`crate::post_kind`]) and the rigging operations
//! ([`crate::rig_kind`]) lower through.

use marionette_anim::graph::ParamId;
use marionette_anim::JointIndex;

/// What lowering an operation looks up in the graph being built; errors are the caller's.
pub(crate) trait Lookup {
    /// What a failed lookup reports.
    type Error;
    /// A declared parameter's id.
    fn param(&self, name: &str) -> Result<ParamId, Self::Error>;
    /// A joint of the rig.
    fn joint(&self, name: &str) -> Result<JointIndex, Self::Error>;
    /// The morph targets a name selects (a target, or a morph set's targets); none is an error.
    fn morphs(&self, name: &str) -> Result<Vec<u32>, Self::Error>;
    /// The world height of a joint in the rest pose, metres.
    fn rest_height(&self, joint: JointIndex) -> f32;
    /// The rig's skeleton (rest pose, parents).
    fn skeleton(&self) -> &marionette_anim::Skeleton;
}
