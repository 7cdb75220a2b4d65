//! Baking a clip of a rig: sampling it (through the runtime's sampler, the same path the
//! preview plays it through) at every frame of a [`Grid`] and at the grid's inner times, so it
//! can be reduced and written back.
//!
//! - [`bake_clip_keys`] (the default): the clip keeps its time base. The frames are the
//!   clip's own key times, the union of its channels' inputs ([`clip_grid`]: on its native rate
//!   when they all sit on one of the usual rates, so keys land on whole frames in a DCC), and
//!   the inner poses are the source itself at three times between frames. Every corner of a
//!   LINEAR or STEP source sits on a frame, and between frames a source is a polynomial of
//!   degree at most three per component (LINEAR, slerp, Hermite), whose distance from a chord
//!   the quarter points catch (exactly for a parabola, within 5% for any cubic). Where keys at
//!   every frame would still miss the source between frames by more than a quarter of the
//!   budget (a CUBICSPLINE source between sparse keys, a wide slerp read by Blender's
//!   normalised lerp), the interval is halved, up to [`MAX_REFINE`] times; so the reduction
//!   can always meet its budget against the source.
//! - [`bake_clip`] (`--fps`): resampled on a regular grid, the last frame at the clip's exact
//!   end, with the source at half frames to tell which channels it holds between frames.
//!
//! Morph weights are sampled with the joints at the same times, their keys are frames too, and
//! an interval where keys at every frame would miss the source's weights by more than a
//! quarter of the weight tolerance is halved as well ([`super::morph`]).

use super::morph::{self, BakedMorphs};
use super::reference::{between, stepped_channels};
use super::shell::{shell_error, Shells};
use super::{frame_count, BakedTake, Grid, TakeMeta};
use marionette_anim::time::step_time;
use marionette_anim::world_matrices;
use marionette_anim::{Clip, Morphs, SamplingCache, Skeleton, Transform};

/// The usual frame rates a clip's key times are tried against, lowest first.
pub const NATIVE_RATES: [f32; 9] = [24.0, 25.0, 30.0, 48.0, 50.0, 60.0, 100.0, 120.0, 240.0];

/// Inner times checked between frames of a clip baked at its own keys (quarter points).
pub const CLIP_INNER: usize = 3;

/// The most times an interval of a clip's grid is halved to follow its source.
pub const MAX_REFINE: usize = 8;

/// A key time within this many frames of a rate's frame is on that rate.
const ON_RATE: f64 = 1e-3;

/// Bakes `clip` at `fps` from time 0 to its end (glTF time: a clip whose keys start late holds
/// its first key until then), with the source at half frames. `progress(done, total)` is
/// called after every frame.
pub fn bake_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    fps: f32,
    progress: &mut dyn FnMut(usize, usize),
) -> BakedTake {
    let frames = frame_count(clip.end, fps);
    let mut grid = Grid::new(fps, frames);
    // the last frame is the clip's end unless that is (within float noise) its frame time
    if frames > 1 && (grid.end() - clip.end).abs() > 1e-6 {
        grid = grid.ending_at(clip.end.max(step_time(frames as u64 - 2, fps) + 1e-6));
    }
    let mut sampler = Sampler::new(skeleton, clip);
    let out = sampler.frames(&grid, progress);
    let inner = sampler.inner(&grid);
    let morphs = sampler.morphs(&grid);
    BakedTake {
        name: clip.name.clone(),
        grid,
        frames: out,
        inner,
        exact_between: false,
        animated: animated(skeleton, clip),
        meta: TakeMeta::default(),
        morphs,
    }
}

/// Bakes `clip` at its own time base ([`clip_grid`], halved where keys at every frame could
/// not follow the source within a quarter of `tolerance` metres at the `shells`, or its
/// weights within a quarter of `morph_tolerance`), with the source itself at [`CLIP_INNER`]
/// times between frames: the reference a reduction then meets.
pub fn bake_clip_keys(
    skeleton: &Skeleton,
    shells: &Shells,
    clip: &Clip,
    (tolerance, morph_tolerance): (f32, f32),
    progress: &mut dyn FnMut(usize, usize),
) -> BakedTake {
    let mut grid = clip_grid(clip);
    let mut sampler = Sampler::new(skeleton, clip);
    let limit = f64::from(tolerance.max(0.0)) * 0.25;
    let mut pass = 0;
    loop {
        let frames = sampler.frames(&grid, progress);
        let inner = sampler.inner(&grid);
        let morphs = sampler.morphs(&grid);
        let take = BakedTake {
            name: clip.name.clone(),
            grid,
            frames,
            inner,
            exact_between: true,
            animated: animated(skeleton, clip),
            meta: TakeMeta::default(),
            morphs,
        };
        let mut coarse = if pass == MAX_REFINE {
            Vec::new()
        } else {
            let mut c = coarse_intervals(skeleton, shells, &take, limit);
            let weight_limit = morph_tolerance.max(0.0) * 0.25;
            let grid = &take.grid;
            c.extend(morph::coarse_intervals(
                skeleton.morphs(),
                grid,
                &take.morphs,
                weight_limit,
            ));
            c.sort_unstable();
            c.dedup();
            c
        };
        // a refinement that would outgrow what a bake may hold stops (the reduction then says
        // how far off the source it is)
        if take.grid.len() + coarse.len() > max_frames(skeleton.len()) {
            coarse.clear();
        }
        if coarse.is_empty() {
            return take;
        }
        pass += 1;
        grid = halve(&take.grid, &coarse);
    }
}

/// The most frames a refined clip may have: the bake's sample limit over the frames and inner
/// poses it holds.
fn max_frames(joints: usize) -> usize {
    let per_frame = joints.max(1) * (1 + CLIP_INNER);
    (super::MAX_SAMPLES / per_frame).min(marionette_anim::time::MAX_FRAMES as usize)
}

/// The clip's own frame times from 0 to its end: the union of its channels' key times, on the
/// lowest of [`NATIVE_RATES`] they all sit on (its
/// frames between the keys added, each key keeping its exact time), else as they are.
pub fn clip_grid(clip: &Clip) -> Grid {
    let times = key_times(clip);
    for rate in NATIVE_RATES {
        if let Some(grid) = on_rate(&times, rate) {
            return grid;
        }
    }
    Grid::from_times(times, None, CLIP_INNER)
}

/// The union of the clip's key times, with 0 and its end, sorted. Near-equal times are not
/// merged: a STEP key moved by a microsecond would jump at the other time.
fn key_times(clip: &Clip) -> Vec<f32> {
    let end = clip.end.max(0.0);
    let mut all = vec![0.0f32, end];
    let joint_times = clip.tracks.iter().flat_map(|t| t.key_times());
    let morph_times = clip.morphs.iter().map(|m| &m.times[..]);
    for track_times in joint_times.chain(morph_times) {
        all.extend(
            track_times
                .iter()
                .filter(|t| t.is_finite() && **t >= 0.0 && **t <= end),
        );
    }
    all.sort_by(f32::total_cmp);
    all.dedup();
    all
}

/// Frames `0..=round(end × rate)` at `rate` when every time is on one of them, one time per
/// frame (a key keeps its exact time); `None` otherwise.
fn on_rate(times: &[f32], rate: f32) -> Option<Grid> {
    let r = f64::from(rate);
    let mut frame_of = Vec::with_capacity(times.len());
    for &t in times {
        let x = f64::from(t) * r;
        let k = x.round();
        if (x - k).abs() > ON_RATE {
            return None;
        }
        frame_of.push(k as u64);
    }
    let last = *frame_of.last()?;
    let count = usize::try_from(last).ok()?.checked_add(1)?;
    // a rate whose frames would far outnumber the keys is no time base (two keys 10 minutes
    // apart); frame_count's limits apply later
    if count > times.len().saturating_mul(64).max(4096) {
        return None;
    }
    if frame_of.windows(2).any(|w| w[1] == w[0]) {
        return None;
    }
    let mut out: Vec<f32> = (0..last + 1).map(|k| step_time(k, rate)).collect();
    for (&t, &k) in times.iter().zip(&frame_of) {
        out[k as usize] = t;
    }
    if out.windows(2).any(|w| w[1] <= w[0]) {
        return None;
    }
    Some(Grid::from_times(out, Some(rate), CLIP_INNER))
}

/// Intervals of the take's grid where keys at every frame (LINEAR, read as slerp and as
/// Blender's normalised lerp; STEP where the source holds) miss the source's inner poses by
/// more than `limit` metres on some joint's shell.
fn coarse_intervals(
    skeleton: &Skeleton,
    shells: &Shells,
    take: &BakedTake,
    limit: f64,
) -> Vec<usize> {
    let grid = &take.grid;
    let stepped = stepped_channels(take);
    let (mut truth, mut read) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for i in 0..take.frames.len().saturating_sub(1) {
        let (a, b) = (&take.frames[i], &take.frames[i + 1]);
        let (t0, t1) = (grid.time(i), grid.time(i + 1));
        let coarse = (0..grid.inner).any(|k| {
            let Some(source) = take.inner.get(i * grid.inner + k) else {
                return false;
            };
            world_matrices(skeleton, source, &mut truth);
            let s = (grid.inner_time(i, k) - t0) / (t1 - t0);
            [false, true].into_iter().any(|nlerp| {
                world_matrices(skeleton, &between(a, b, s, &stepped, nlerp), &mut read);
                (0..truth.len()).any(|j| shell_error(&truth[j], &read[j], shells.radius(j)) > limit)
            })
        });
        // an interval already a microsecond short is left as it is (the reduction measures it)
        if coarse && t1 - t0 > 2e-6 {
            out.push(i);
        }
    }
    out
}

/// `grid` with a frame added halfway through each interval in `coarse` (sorted): no longer on
/// a rate.
fn halve(grid: &Grid, coarse: &[usize]) -> Grid {
    let mut times = Vec::with_capacity(grid.len() + coarse.len());
    let mut next = coarse.iter().peekable();
    for (i, &t) in grid.times().iter().enumerate() {
        times.push(t);
        if next.peek() == Some(&&i) {
            next.next();
            let mid = 0.5 * (t + grid.time(i + 1));
            if mid > t && mid < grid.time(i + 1) {
                times.push(mid);
            }
        }
    }
    Grid::from_times(times, None, grid.inner)
}

/// Which channels of each joint the clip animates.
fn animated(skeleton: &Skeleton, clip: &Clip) -> Vec<[bool; 3]> {
    let mut animated = vec![[false; 3]; skeleton.len()];
    for t in &clip.tracks {
        if let Some(a) = animated.get_mut(t.joint as usize) {
            *a = [
                t.translation.is_some(),
                t.rotation.is_some(),
                t.scale.is_some(),
            ];
        }
    }
    animated
}

/// The clip's pose at any time, through the runtime's sampler.
struct Sampler<'a> {
    clip: &'a Clip,
    rest: &'a [Transform],
    morphs: &'a Morphs,
    cache: SamplingCache,
}

impl<'a> Sampler<'a> {
    fn new(skeleton: &'a Skeleton, clip: &'a Clip) -> Self {
        Self {
            clip,
            rest: skeleton.rest_pose(),
            morphs: skeleton.morphs(),
            cache: SamplingCache::new(),
        }
    }

    /// The clip's weights at every frame and inner time of `grid`.
    fn morphs(&self, grid: &Grid) -> BakedMorphs {
        BakedMorphs {
            frames: morph::sample(self.morphs, self.clip, grid.times()),
            inner: morph::sample(self.morphs, self.clip, &grid.inner_times()),
            animated: morph::animated(self.morphs, self.clip),
        }
    }

    fn at(&mut self, time: f32) -> Vec<Transform> {
        let mut pose = self.rest.to_vec();
        self.clip
            .sample(time, self.rest, &mut self.cache, &mut pose);
        pose
    }

    fn frames(
        &mut self,
        grid: &Grid,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<Vec<Transform>> {
        let n = grid.len();
        (0..n)
            .map(|i| {
                let p = self.at(grid.time(i));
                progress(i + 1, n);
                p
            })
            .collect()
    }

    fn inner(&mut self, grid: &Grid) -> Vec<Vec<Transform>> {
        grid.inner_times().into_iter().map(|t| self.at(t)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Quat, Vec3};
    use marionette_anim::{Interpolation, JointTracks, Track};

    fn root() -> Skeleton {
        Skeleton::new(
            vec!["root".into()],
            vec![None],
            vec![Transform::IDENTITY],
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton
    }

    fn slide(times: Vec<f32>, interpolation: Interpolation) -> Clip {
        let mut jt = JointTracks::new(0);
        let values = times
            .iter()
            .enumerate()
            .map(|(i, _)| Vec3::new(if i % 2 == 0 { 0.0 } else { 1.0 }, 0.0, 0.0))
            .collect();
        jt.translation = Some(Track {
            interpolation,
            times,
            values,
        });
        Clip::new("slide", vec![jt])
    }

    /// A two-key translation clip bakes to the interpolated value at each frame, held past the end.
    #[test]
    fn bakes_linear_clip() {
        let s = root();
        let mut jt = JointTracks::new(0);
        jt.translation = Some(Track {
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0)],
        });
        let clip = Clip::new("slide", vec![jt]);
        let take = bake_clip(&s, &clip, 4.0, &mut |_, _| {});
        assert_eq!(take.frames.len(), 5);
        assert_eq!(take.frames[2][0].translation, Vec3::new(1.5, 0.0, 0.0));
        assert_eq!(take.frames[4][0].translation, Vec3::new(3.0, 0.0, 0.0));
        assert_eq!(take.name, "slide");
    }

    /// Keys on a 24 fps grid give that rate (frames between sparse keys filled, each key's
    /// exact time kept); irregular keys give themselves; 0 and the end are always frames.
    #[test]
    fn a_clip_keeps_its_time_base() {
        let g = clip_grid(&slide(vec![0.0, 5.0 / 24.0, 1.0], Interpolation::Linear));
        assert_eq!(g.rate, Some(24.0));
        assert_eq!(g.len(), 25);
        assert_eq!(g.time(5), 5.0 / 24.0);
        let g = clip_grid(&slide(vec![0.1, 0.5], Interpolation::Linear));
        assert_eq!(g.rate, Some(30.0), "{:?}", g.times());
        let g = clip_grid(&slide(vec![0.013, 0.31, 0.777], Interpolation::Step));
        assert_eq!(g.rate, None);
        assert_eq!(g.times(), &[0.0, 0.013, 0.31, 0.777]);
        assert_eq!(g.inner, CLIP_INNER);
    }

    /// A LINEAR source at its own irregular keys needs no extra frame; its inner poses are the
    /// source between keys.
    #[test]
    fn linear_source_is_not_refined() {
        let s = root();
        let clip = slide(vec![0.0, 0.013, 0.31, 0.777], Interpolation::Linear);
        let shells = Shells::floor(&s);
        let take = bake_clip_keys(&s, &shells, &clip, (1e-4, 1e-3), &mut |_, _| {});
        assert_eq!(take.grid.times(), &[0.0, 0.013, 0.31, 0.777]);
        assert!(take.exact_between);
        assert_eq!(take.inner.len(), 3 * CLIP_INNER);
        let mid = take.grid.inner_time(1, 1);
        let want = (mid - 0.013) / (0.31 - 0.013);
        assert!((take.inner[CLIP_INNER + 1][0].translation.x - (1.0 - want)).abs() < 1e-6);
    }

    /// A CUBICSPLINE source between two keys a second apart is halved until keys at every frame
    /// follow it within a quarter of the budget; a wide slerp is halved for Blender's reading.
    #[test]
    fn curved_sources_are_refined() {
        let s = root();
        let mut jt = JointTracks::new(0);
        jt.translation = Some(Track {
            interpolation: Interpolation::CubicSpline,
            times: vec![0.0, 1.0],
            // in, value, out per key: a bulge
            values: vec![
                Vec3::ZERO,
                Vec3::ZERO,
                Vec3::Y * 2.0,
                Vec3::Y * -2.0,
                Vec3::ZERO,
                Vec3::ZERO,
            ],
        });
        let clip = Clip::new("bulge", vec![jt]);
        let shells = Shells::floor(&s);
        let take = bake_clip_keys(&s, &shells, &clip, (1e-4, 1e-3), &mut |_, _| {});
        assert!(take.grid.len() > 30, "{}", take.grid.len());
        assert!(take.grid.len() <= (1 << MAX_REFINE) + 1);
        let mut jt = JointTracks::new(0);
        jt.rotation = Some(Track {
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![Quat::IDENTITY, Quat::from_rotation_y(2.5)],
        });
        let turn = Clip::new("turn", vec![jt]);
        let take = bake_clip_keys(&s, &shells, &turn, (1e-4, 1e-3), &mut |_, _| {});
        assert!(take.grid.len() > 2, "{:?}", take.grid.times());
    }
}
