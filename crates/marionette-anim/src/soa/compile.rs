//! Compiling a [`Clip`] for a skeleton into a [`SoaClip`]: channels grouped by key times,
//! block slots handed to the group animating most of their lanes, frames laid out per key,
//! slerp spans per interval (see [`super::clip`]).

use std::collections::HashMap;

use super::clip::{lanes_of, Grids, KeyGroup, Kind, Loose, Slot, SoaClip};
use super::pose::{Part, SoaPose};
use super::spans;
use super::LANES;
use crate::{Clip, Interpolation, KeyValue, Skeleton, Track};

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

    /// Keys to interpolate: some, with a value (three for CUBICSPLINE) for each.
    fn well_formed(&self) -> bool {
        fn ok<T: KeyValue>(t: &Track<T>) -> bool {
            !t.is_empty() && t.values.len() >= t.len() * t.stride()
        }
        match self {
            AnyTrack::Vec3(t) => ok(t),
            AnyTrack::Quat(t) => ok(t),
        }
    }

    /// Entry `i` of the values (for CUBICSPLINE, key `k`'s in-tangent, value and out-tangent
    /// are entries `3k`, `3k + 1`, `3k + 2`).
    fn entry(&self, i: usize) -> [f32; 4] {
        match self {
            AnyTrack::Vec3(t) => {
                let v = t.values[i];
                [v.x, v.y, v.z, 0.0]
            }
            AnyTrack::Quat(t) => t.values[i].to_array(),
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
                let v = tr.entry(Kind::of(tr.interpolation()).value_frame());
                let slot = &mut base[joint as usize / LANES];
                for (c, lanes) in slot.part_mut(part).iter_mut().enumerate() {
                    lanes[joint as usize % LANES] = v[c];
                }
                continue;
            }
            let key = (
                times.iter().map(|t| t.to_bits()).collect(),
                Kind::of(tr.interpolation()),
            );
            by_grid.entry(key).or_default().push((track, joint, part));
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
        for (g, ((bits, kind), chans)) in grids.into_iter().enumerate() {
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
            // unanimated lanes: the base value, tangents 0
            let subs = kind.frames();
            let mut values = Vec::with_capacity(times.len() * subs * stride);
            for _ in 0..times.len() {
                for u in 0..subs {
                    for s in &slots {
                        for lanes in base[s.block as usize].part(s.part) {
                            if u == kind.value_frame() {
                                values.extend_from_slice(lanes);
                            } else {
                                values.extend_from_slice(&[0.0; LANES]);
                            }
                        }
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
                for f in 0..times.len() * subs {
                    let v = tr.entry(f);
                    for c in 0..part.width() {
                        values[f * stride + off + c * LANES + lane] = v[c];
                    }
                }
            }
            // slerp spans for LINEAR rotation slots, interval by interval
            let rot: Vec<usize> = offsets
                .iter()
                .filter(|o| o.0.part == Part::Rotation && kind == Kind::Linear)
                .map(|o| o.1)
                .collect();
            let (mut spans, mut modes) = (Vec::new(), Vec::new());
            for k in 0..times.len().saturating_sub(1) {
                for &off in &rot {
                    let frame = |k: usize| lanes_of(&values[k * stride + off..][..4 * LANES]);
                    let (span, mode) = spans::span(frame(k), frame(k + 1));
                    spans.extend(span.iter().flatten());
                    modes.push(mode);
                }
            }
            if !offsets.is_empty() {
                groups.push(KeyGroup {
                    rotations: rot.len(),
                    spans,
                    modes,
                    times,
                    kind,
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
}
