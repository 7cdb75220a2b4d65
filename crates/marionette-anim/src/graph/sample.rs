//! The graph's single entry point to clip sampling ([`Clip::sample`], glTF semantics).

use crate::{Clip, SamplingCache, Transform};

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
