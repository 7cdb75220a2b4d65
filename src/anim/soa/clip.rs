//! [`SoaClip`]: a clip compiled for one skeleton into frame-major key blocks, sampled into a
//! [`SoaPose`].
//!
//! Channels whose keys share one list of times (and one interpolation) form a *key group*:
//! glTF exporters (Blender, the Fox) write one time accessor per action, so a clip is usually
//! one group. A group stores, for each of its key times, the lanes of the blocks and parts it
//! owns (`frame k: [block, part] × [component] × 8 lanes`), so sampling finds the key interval
//! once per group (with a cursor, as [`Clip::sample`] does per channel) and interpolates whole
//! blocks from two contiguous frames: no per-channel search, no gather. Lanes a group owns but
//! does not animate carry the rest (or constant) value in every frame.
//!
//! Single-key channels are constants folded into the base pose. Channels that share their
//! block and part with a larger group, CUBICSPLINE channels and malformed ones are *loose*:
//! sampled one by one by the scalar code and written over their lane.

use std::collections::HashMap;

use super::pose::{Part, SoaBlock, SoaPose};
use super::spans::{self, SPAN};
use super::{kernels, simd, LANES};
use crate::anim::sampling::{sample_track, seek};
use crate::anim::{Clip, Interpolation, Skeleton, Track, Transform};

/// One part of one block of eight joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Slot {
    block: u32,
    part: Part,
}

/// Channels sharing key times: their values frame by frame, block by block.
#[derive(Clone, Debug)]
struct KeyGroup {
    times: Vec<f32>,
    step: bool,
    /// Owned slots, with the offset (in `f32`) of each inside a frame and its lanes that no
    /// channel of the group animates (not 0: held at the base value).
    slots: Vec<(Slot, usize, [u32; LANES])>,
    /// Floats per frame.
    stride: usize,
    /// `times.len() * stride` floats.
    values: Vec<f32>,
    /// Rotation slots owned (their slerp spans are numbered in `slots` order).
    rotations: usize,
    /// Per interval `k`, per rotation slot `r`: [`spans::SPAN`] lane arrays at
    /// `(k * rotations + r) * SPAN * LANES`.
    spans: Vec<f32>,
    /// Per interval and rotation slot: every lane close or held (the lerp shortcut).
    fast: Vec<bool>,
}

/// Channels (track, joint, part) by key grid: (time bits, STEP).
type Grids = HashMap<(Vec<u32>, bool), Vec<(u32, u32, Part)>>;

/// A channel sampled by the scalar code.
#[derive(Clone, Copy, Debug)]
struct Loose {
    track: u32,
    joint: u32,
    part: Part,
}

/// Playback cursors for one [`SoaClip`]: one per key group and per loose channel. Any cursor
/// gives the same result (it is a search hint); sized by the first sample.
#[derive(Clone, Debug, Default)]
pub struct SoaCursor {
    groups: Vec<usize>,
    loose: Vec<usize>,
    /// The reference path's state, for irregular clips.
    scalar: crate::anim::SamplingCache,
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
    joints: usize,
    /// The rest pose with single-key channels applied.
    base: Vec<SoaBlock>,
    /// Slots no group owns: copied from `base` by every sample.
    fixed: Vec<Slot>,
    groups: Vec<KeyGroup>,
    loose: Vec<Loose>,
    /// The source clip's tracks (loose channels are sampled from them).
    clip: Clip,
    /// Tracks not in strictly increasing joint order: sampled by [`Clip::sample`].
    irregular: bool,
    rest: Vec<Transform>,
}

/// A channel's track as the sampler sees it.
enum AnyTrack<'a> {
    Vec3(&'a Track<glam::Vec3>),
    Quat(&'a Track<glam::Quat>),
}

impl AnyTrack<'_> {
    fn times(&self) -> &[f32] {
        match self {
            AnyTrack::Vec3(t) => &t.times,
            AnyTrack::Quat(t) => &t.times,
        }
    }

    fn interpolation(&self) -> Interpolation {
        match self {
            AnyTrack::Vec3(t) => t.interpolation,
            AnyTrack::Quat(t) => t.interpolation,
        }
    }

    fn well_formed(&self) -> bool {
        let stride = |i| {
            if i == Interpolation::CubicSpline {
                3
            } else {
                1
            }
        };
        match self {
            AnyTrack::Vec3(t) => {
                !t.times.is_empty() && t.values.len() >= t.times.len() * stride(t.interpolation)
            }
            AnyTrack::Quat(t) => {
                !t.times.is_empty() && t.values.len() >= t.times.len() * stride(t.interpolation)
            }
        }
    }

    /// Key `k`'s value as lanes (the middle entry of a cubic key).
    fn value(&self, k: usize) -> [f32; 4] {
        match self {
            AnyTrack::Vec3(t) => {
                let off = if t.interpolation == Interpolation::CubicSpline {
                    3 * k + 1
                } else {
                    k
                };
                let v = t.values[off];
                [v.x, v.y, v.z, 0.0]
            }
            AnyTrack::Quat(t) => {
                let off = if t.interpolation == Interpolation::CubicSpline {
                    3 * k + 1
                } else {
                    k
                };
                t.values[off].to_array()
            }
        }
    }
}

/// Every channel of `clip` with its joint and part, in track order.
fn channels(clip: &Clip) -> impl Iterator<Item = (u32, u32, Part, AnyTrack<'_>)> {
    clip.tracks.iter().enumerate().flat_map(|(ti, jt)| {
        let t = jt
            .translation
            .as_ref()
            .map(|x| (Part::Translation, AnyTrack::Vec3(x)));
        let r = jt
            .rotation
            .as_ref()
            .map(|x| (Part::Rotation, AnyTrack::Quat(x)));
        let s = jt.scale.as_ref().map(|x| (Part::Scale, AnyTrack::Vec3(x)));
        [t, r, s]
            .into_iter()
            .flatten()
            .map(move |(part, tr)| (ti as u32, jt.joint as u32, part, tr))
    })
}

impl SoaClip {
    /// Compiles `clip` for `skeleton` (tracks for joints beyond the skeleton are ignored, as
    /// [`Clip::sample`] ignores them).
    pub fn new(clip: &Clip, skeleton: &Skeleton) -> Self {
        let rest = skeleton.rest_pose();
        let joints = rest.len();
        let mut base = SoaPose::from_transforms(rest).blocks().to_vec();
        // a later track for the same joint wins, as in `Clip::sample`
        let mut by_grid: Grids = HashMap::new();
        let mut loose = Vec::new();
        for (track, joint, part, tr) in channels(clip) {
            if joint as usize >= joints {
                continue;
            }
            let times = tr.times();
            if !tr.well_formed() {
                continue; // the scalar path yields the rest value
            }
            if times.len() == 1 {
                let v = tr.value(0);
                let slot = &mut base[joint as usize / LANES];
                for (c, lanes) in slot.part_mut(part).iter_mut().enumerate() {
                    lanes[joint as usize % LANES] = v[c];
                }
                continue;
            }
            match tr.interpolation() {
                Interpolation::CubicSpline => loose.push(Loose { track, joint, part }),
                i => {
                    let key = (
                        times.iter().map(|t| t.to_bits()).collect(),
                        i == Interpolation::Step,
                    );
                    by_grid.entry(key).or_default().push((track, joint, part));
                }
            }
        }
        // each slot goes to the group animating most of its lanes; the others' channels there
        // are loose
        let mut count: HashMap<Slot, Vec<(usize, usize)>> = HashMap::new();
        let mut grids: Vec<_> = by_grid.into_iter().collect();
        grids.sort_by(|a, b| a.0.cmp(&b.0)); // deterministic layout
        for (g, (_, chans)) in grids.iter().enumerate() {
            for &(_, joint, part) in chans {
                let slot = Slot {
                    block: joint / LANES as u32,
                    part,
                };
                let e = count.entry(slot).or_default();
                match e.iter_mut().find(|(gi, _)| *gi == g) {
                    Some((_, n)) => *n += 1,
                    None => e.push((g, 1)),
                }
            }
        }
        let owner: HashMap<Slot, usize> = count
            .into_iter()
            .map(|(slot, v)| {
                let best = v
                    .iter()
                    .max_by_key(|(g, n)| (*n, usize::MAX - g))
                    .map(|x| x.0);
                (slot, best.unwrap_or(0))
            })
            .collect();
        let mut groups = Vec::new();
        for (g, ((bits, step), chans)) in grids.into_iter().enumerate() {
            let times: Vec<f32> = bits.iter().map(|b| f32::from_bits(*b)).collect();
            let mut slots: Vec<Slot> = owner
                .iter()
                .filter(|(_, o)| **o == g)
                .map(|(s, _)| *s)
                .collect();
            slots.sort();
            let mut offsets = Vec::with_capacity(slots.len());
            let mut stride = 0;
            for s in &slots {
                offsets.push((*s, stride, [u32::MAX; LANES]));
                stride += s.part.width() * LANES;
            }
            let mut values = Vec::with_capacity(times.len() * stride);
            for _ in 0..times.len() {
                for s in &slots {
                    for lanes in base[s.block as usize].part(s.part) {
                        values.extend_from_slice(lanes);
                    }
                }
            }
            for (track, joint, part) in chans {
                let slot = Slot {
                    block: joint / LANES as u32,
                    part,
                };
                let Some((_, off, hold)) = offsets.iter_mut().find(|(s, ..)| *s == slot) else {
                    loose.push(Loose { track, joint, part });
                    continue;
                };
                let off = *off;
                hold[joint as usize % LANES] = 0;
                let jt = &clip.tracks[track as usize];
                let tr = match part {
                    Part::Translation => jt.translation.as_ref().map(AnyTrack::Vec3),
                    Part::Rotation => jt.rotation.as_ref().map(AnyTrack::Quat),
                    Part::Scale => jt.scale.as_ref().map(AnyTrack::Vec3),
                };
                let Some(tr) = tr else { continue };
                let lane = joint as usize % LANES;
                for k in 0..times.len() {
                    let v = tr.value(k);
                    for c in 0..part.width() {
                        values[k * stride + off + c * LANES + lane] = v[c];
                    }
                }
            }
            // slerp spans for rotation slots, interval by interval
            let rot: Vec<usize> = offsets
                .iter()
                .filter(|o| o.0.part == Part::Rotation)
                .map(|o| o.1)
                .collect();
            let (mut spans, mut fast) = (Vec::new(), Vec::new());
            for k in 0..times.len().saturating_sub(1) {
                for &off in &rot {
                    let frame = |k: usize| lanes_of(&values[k * stride + off..][..4 * LANES]);
                    let (span, all_near) = spans::span(frame(k), frame(k + 1));
                    spans.extend(span.iter().flatten());
                    fast.push(all_near);
                }
            }
            if !offsets.is_empty() {
                groups.push(KeyGroup {
                    rotations: rot.len(),
                    spans,
                    fast,
                    times,
                    step,
                    slots: offsets,
                    stride,
                    values,
                });
            }
        }
        let owned: std::collections::HashSet<Slot> = groups
            .iter()
            .flat_map(|g| g.slots.iter().map(|s| s.0))
            .collect();
        let fixed = (0..base.len() as u32)
            .flat_map(|block| Part::ALL.map(|part| Slot { block, part }))
            .filter(|s| !owned.contains(s))
            .collect();
        // loose channels in track order, so a later track for a joint wins
        loose.sort_by_key(|l| l.track);
        Self {
            joints,
            base,
            fixed,
            groups,
            loose,
            clip: clip.clone(),
            irregular: clip.tracks.windows(2).any(|w| w[0].joint >= w[1].joint),
            rest: rest.to_vec(),
        }
    }

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
                (k, (!g.step).then_some(s))
            };
            let frame = &g.values[k * g.stride..(k + 1) * g.stride];
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
                Some(s) => {
                    let next = &g.values[(k + 1) * g.stride..(k + 2) * g.stride];
                    let mut r = k * g.rotations;
                    for (slot, off, hold) in &g.slots {
                        let (slot, off) = (*slot, *off);
                        let dst = out[slot.block as usize].part_mut(slot.part);
                        if slot.part == Part::Rotation {
                            let span = &g.spans[r * SPAN * LANES..(r + 1) * SPAN * LANES];
                            spans::slerp(lanes_of(span), s, g.fast[r], dst);
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
        for (l, hint) in self.loose.iter().zip(&mut cursor.loose) {
            let jt = &self.clip.tracks[l.track as usize];
            let j = l.joint as usize;
            let Some(mut x) = out.get(j) else { continue };
            match l.part {
                Part::Translation => {
                    if let Some(v) = jt
                        .translation
                        .as_ref()
                        .and_then(|t| sample_track(t, time, hint))
                    {
                        x.translation = v;
                    }
                }
                Part::Rotation => {
                    if let Some(v) = jt
                        .rotation
                        .as_ref()
                        .and_then(|t| sample_track(t, time, hint))
                    {
                        x.rotation = v;
                    }
                }
                Part::Scale => {
                    if let Some(v) = jt.scale.as_ref().and_then(|t| sample_track(t, time, hint)) {
                        x.scale = v;
                    }
                }
            }
            out.set(j, &x);
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
fn lanes_of(v: &[f32]) -> &[[f32; LANES]] {
    let (chunks, rest) = v.as_chunks::<LANES>();
    debug_assert!(rest.is_empty());
    chunks
}
