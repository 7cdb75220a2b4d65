//! [`SoaClip`]: a clip compiled for one skeleton into frame-major key blocks, sampled into a
//! [`SoaPose`].
//!
//! Channels whose keys share one list of times (and one interpolation) form a *key group*:
//! glTF exporters (Blender, the Fox) write one time accessor per action, so a clip is usually
//! one group. A group stores, for each of its key times, the lanes of the blocks and parts it
//! owns (`frame k: [block, part] × [component] × 8 lanes`; CUBICSPLINE keys have three
//! frames: in-tangent, value, out-tangent), so sampling finds the key interval once per group
//! (with a cursor, as [`Clip::sample`] does per channel) and interpolates whole blocks from
//! contiguous frames: no per-channel search, no gather. LINEAR rotations read precomputed
//! slerp spans ([`super::spans`]). Lanes a group owns but does not animate hold the rest (or
//! constant) value.
//!
//! Single-key channels are constants folded into the base pose. Channels that share their
//! block and part with a larger group are *loose*: sampled one by one by the scalar code and
//! written over their lane (malformed channels yield the rest value, as in the scalar path).
//! Building is in [`super::compile`].

use std::collections::HashMap;

use super::pose::{Part, SoaBlock, SoaPose};
use super::spans::{self, SPAN};
use super::{kernels, simd, LANES};
use crate::keys::seek;
use crate::sampling::sample_track;
use crate::{hermite_basis, Clip, Interpolation, Transform};

/// One part of one block of eight joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Slot {
    pub(super) block: u32,
    pub(super) part: Part,
}

/// Channels sharing key times: their values frame by frame, block by block.
#[derive(Clone, Debug)]
pub(super) struct KeyGroup {
    pub(super) times: Vec<f32>,
    pub(super) kind: Kind,
    /// Owned slots, with the offset (in `f32`) of each inside a frame and its lanes that no
    /// channel of the group animates (not 0: held at the base value).
    pub(super) slots: Vec<(Slot, usize, [u32; LANES])>,
    /// Floats per frame.
    pub(super) stride: usize,
    /// Frames: per key, `kind.frames()` of them (in-tangent, value, out-tangent for CUBICSPLINE),
    /// `stride` floats each.
    pub(super) values: Vec<f32>,
    /// Rotation slots owned (their slerp spans are numbered in `slots` order).
    pub(super) rotations: usize,
    /// Per interval `k`, per rotation slot `r`: [`spans::SPAN`] lane arrays at
    /// `(k * rotations + r) * SPAN * LANES`.
    pub(super) spans: Vec<f32>,
    /// Per interval and rotation slot: every lane close or held (the lerp shortcut).
    pub(super) modes: Vec<spans::Mode>,
}

/// How a key group interpolates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Kind {
    Linear,
    Step,
    Cubic,
}

impl Kind {
    pub(super) fn of(i: Interpolation) -> Self {
        match i {
            Interpolation::Linear => Kind::Linear,
            Interpolation::Step => Kind::Step,
            Interpolation::CubicSpline => Kind::Cubic,
        }
    }

    /// Frames per key: 3 for CUBICSPLINE (in-tangent, value, out-tangent), else 1.
    pub(super) fn frames(self) -> usize {
        if self == Kind::Cubic {
            3
        } else {
            1
        }
    }

    /// The frame of a key that holds its value.
    pub(super) fn value_frame(self) -> usize {
        self.frames() / 2
    }
}

/// Channels (track, joint, part) by key grid: (time bits, interpolation).
pub(super) type Grids = HashMap<(Vec<u32>, Kind), Vec<(u32, u32, Part)>>;

/// A channel sampled by the scalar code.
#[derive(Clone, Copy, Debug)]
pub(super) struct Loose {
    pub(super) track: u32,
    pub(super) joint: u32,
    pub(super) part: Part,
}

/// Playback cursors for one [`SoaClip`]: one per key group and per loose channel. Any cursor
/// gives the same result (it is a search hint); sized by the first sample.
#[derive(Clone, Debug, Default)]
pub struct SoaCursor {
    groups: Vec<usize>,
    loose: Vec<usize>,
    /// The reference path's state, for irregular clips.
    scalar: crate::SamplingCache,
    scratch: Vec<Transform>,
}

impl SoaCursor {
    /// An empty cursor set; the first [`SoaClip::sample`] sizes it.
    pub fn new() -> Self {
        Self::default()
    }
}

/// A clip compiled for a skeleton (see the module documentation). Build once, sample per
/// character with a [`SoaCursor`] each; the same pose as [`Clip::sample`] within 1e-6
/// (vectors bit for bit).
#[derive(Clone, Debug)]
pub struct SoaClip {
    pub(super) joints: usize,
    /// The rest pose with single-key channels applied.
    pub(super) base: Vec<SoaBlock>,
    /// Slots no group owns: copied from `base` by every sample.
    pub(super) fixed: Vec<Slot>,
    pub(super) groups: Vec<KeyGroup>,
    pub(super) loose: Vec<Loose>,
    /// The source clip's tracks (loose channels are sampled from them).
    pub(super) clip: Clip,
    /// Tracks not in strictly increasing joint order: sampled by [`Clip::sample`].
    pub(super) irregular: bool,
    pub(super) rest: Vec<Transform>,
}

impl SoaClip {
    /// Joints sampled (the skeleton's length).
    pub fn joints(&self) -> usize {
        self.joints
    }

    /// Key groups (channels sampled a whole block at a time).
    pub fn groups(&self) -> usize {
        self.groups.len()
    }

    /// Channels sampled one by one by the scalar code (CUBICSPLINE, or sharing a block with a
    /// larger group).
    pub fn loose_channels(&self) -> usize {
        self.loose.len()
    }

    /// The clip compiled.
    pub fn clip(&self) -> &Clip {
        &self.clip
    }

    /// Samples at key time `time` into `out` (resized to the skeleton if it is not), with
    /// `cursor`'s hints: [`Clip::sample`]'s pose within 1e-6.
    pub fn sample(&self, time: f32, cursor: &mut SoaCursor, out: &mut SoaPose) {
        if out.len() != self.joints {
            *out = SoaPose::new(self.joints);
        }
        if cursor.groups.len() != self.groups.len() || cursor.loose.len() != self.loose.len() {
            cursor.groups = vec![0; self.groups.len()];
            cursor.loose = vec![0; self.loose.len()];
        }
        if self.irregular {
            // rare hand-built clips (tracks out of joint order): the reference path
            let scratch = &mut cursor.scratch;
            scratch.resize(self.joints, Transform::IDENTITY);
            self.clip
                .sample(time, &self.rest, &mut cursor.scalar, scratch);
            *out = SoaPose::from_transforms(scratch);
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if simd::avx2() {
            // SAFETY: the CPU supports AVX2 (checked at run time).
            unsafe { self.sample_lanes_avx2(time, cursor, out.blocks_mut()) };
            return self.sample_loose(time, cursor, out);
        }
        self.sample_lanes(time, cursor, out.blocks_mut());
        self.sample_loose(time, cursor, out);
    }

    /// [`Self::sample_lanes`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn sample_lanes_avx2(&self, time: f32, cursor: &mut SoaCursor, out: &mut [SoaBlock]) {
        self.sample_lanes(time, cursor, out)
    }

    /// The block work (compiled twice: AVX2 and baseline).
    #[inline(always)]
    fn sample_lanes(&self, time: f32, cursor: &mut SoaCursor, out: &mut [SoaBlock]) {
        for s in &self.fixed {
            let (src, dst) = (&self.base[s.block as usize], &mut out[s.block as usize]);
            dst.part_mut(s.part).copy_from_slice(src.part(s.part));
        }
        for (g, hint) in self.groups.iter().zip(&mut cursor.groups) {
            let times = g.times.as_slice();
            let n = times.len();
            // the scalar sampler's regions: before the first key (and NaN), from the last on,
            // between keys k and k + 1
            let (k, s) = if time.is_nan() || time <= times[0] {
                (0, None)
            } else if time >= times[n - 1] {
                (n - 1, None)
            } else {
                let k = seek(times, time, hint);
                let s = (time - times[k]) / (times[k + 1] - times[k]);
                (k, (g.kind != Kind::Step).then_some(s))
            };
            let subs = g.kind.frames();
            let at =
                |key: usize, sub: usize| &g.values[(key * subs + sub) * g.stride..][..g.stride];
            let frame = at(k, g.kind.value_frame());
            match s {
                None => {
                    for &(slot, off, _) in &g.slots {
                        let dst = out[slot.block as usize].part_mut(slot.part);
                        for (c, lanes) in dst.iter_mut().enumerate() {
                            let src = &frame[off + c * LANES..off + (c + 1) * LANES];
                            lanes.copy_from_slice(src);
                        }
                    }
                }
                Some(s) if g.kind == Kind::Cubic => {
                    // p0 = value k, m0 = out-tangent k, p1 = value k + 1, m1 = in-tangent k + 1
                    let dt = times[k + 1] - times[k];
                    let (m0, p1, m1) = (at(k, 2), at(k + 1, 1), at(k + 1, 0));
                    let h = hermite_basis(s);
                    for (slot, off, hold) in &g.slots {
                        let (slot, off) = (*slot, *off);
                        let w = slot.part.width() * LANES;
                        let keys = [frame, m0, p1, m1].map(|f| lanes_of(&f[off..off + w]));
                        let dst = out[slot.block as usize].part_mut(slot.part);
                        kernels::hermite(keys, dt, h, hold, slot.part == Part::Rotation, dst);
                    }
                }
                Some(s) => {
                    let next = at(k + 1, 0);
                    let mut r = k * g.rotations;
                    for (slot, off, hold) in &g.slots {
                        let (slot, off) = (*slot, *off);
                        let dst = out[slot.block as usize].part_mut(slot.part);
                        if slot.part == Part::Rotation {
                            let span = &g.spans[r * SPAN * LANES..(r + 1) * SPAN * LANES];
                            spans::slerp(lanes_of(span), s, g.modes[r], dst);
                            r += 1;
                        } else {
                            let w = slot.part.width() * LANES;
                            let a = lanes_of(&frame[off..off + w]);
                            let b = lanes_of(&next[off..off + w]);
                            kernels::lerp(a, b, s, hold, dst);
                        }
                    }
                }
            }
        }
    }

    /// Loose channels, one by one, over their lanes.
    fn sample_loose(&self, time: f32, cursor: &mut SoaCursor, out: &mut SoaPose) {
        let blocks = out.blocks_mut();
        for (l, hint) in self.loose.iter().zip(&mut cursor.loose) {
            let jt = &self.clip.tracks[l.track as usize];
            let (j, part) = (l.joint as usize, l.part);
            let v = match part {
                Part::Translation => jt
                    .translation
                    .as_ref()
                    .and_then(|t| sample_track(t, time, hint))
                    .map(|v| v.extend(0.0).to_array()),
                Part::Rotation => jt
                    .rotation
                    .as_ref()
                    .and_then(|t| sample_track(t, time, hint))
                    .map(|q| q.to_array()),
                Part::Scale => jt
                    .scale
                    .as_ref()
                    .and_then(|t| sample_track(t, time, hint))
                    .map(|v| v.extend(0.0).to_array()),
            };
            let (Some(v), Some(block)) = (v, blocks.get_mut(j / LANES)) else {
                continue;
            };
            for (c, lanes) in block.part_mut(part).iter_mut().enumerate() {
                lanes[j % LANES] = v[c];
            }
        }
    }

    /// Samples into an array-of-structures pose (for comparison with [`Clip::sample`]).
    pub fn sample_transforms(
        &self,
        time: f32,
        cursor: &mut SoaCursor,
        scratch: &mut SoaPose,
        out: &mut [Transform],
    ) {
        self.sample(time, cursor, scratch);
        scratch.to_transforms(out);
    }
}

/// A frame's slot as `W` lane arrays.
#[inline(always)]
pub(super) fn lanes_of(v: &[f32]) -> &[[f32; LANES]] {
    let (chunks, rest) = v.as_chunks::<LANES>();
    debug_assert!(rest.is_empty());
    chunks
}
