//! The graph's single entry point to clip sampling ([`Clip::sample`] and
//! [`Clip::sample_morphs`], glTF semantics).

use crate::{Clip, SamplingCache, Skeleton, Transform};

/// Per-player key cursors.
pub(crate) type ClipCache = SamplingCache;

/// Samples `clip` at key time `time`; joints without tracks take `rest`.
#[inline]
pub(crate) fn sample_clip(
    clip: &Clip,
    time: f32,
    rest: &[Transform],
    cache: &mut ClipCache,
    out: &mut [Transform],
) {
    clip.sample(time, rest, cache, out);
}

/// Samples `clip`'s morph weights at key time `time` into `out` (the rig's weights); sets
/// without a track take their defaults. Nothing for a rig without morph targets.
#[inline]
pub(crate) fn sample_morphs(
    clip: &Clip,
    time: f32,
    skeleton: &Skeleton,
    cache: &mut ClipCache,
    out: &mut [f32],
) {
    clip.sample_morphs(time, skeleton.morphs(), cache, out);
}
