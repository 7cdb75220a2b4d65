//! Morph weights in a bake: sampled with the joints at every frame (and between frames where
//! the source is known), reduced per morph set — one `weights` channel per set, every target
//! keyed at the same times, as glTF lays a channel out — under a weight tolerance (default
//! [`DEFAULT_MORPH_TOLERANCE`]), and measured at every frame and inner time.
//!
//! The keys are LINEAR, or STEP where the source holds its weights between frames (a STEP
//! source; checked at the inner times, as joints are). A LINEAR segment is accepted only when
//! every frame and inner time it spans is within the tolerance, so the half-frame rule holds for
//! weights as for joints: a clip's weights come back within the tolerance at frames and
//! between them. A set is written when the source animates it (a clip's `weights` channel, so a
//! re-bake keeps every channel) or when a weight leaves its default by more than the tolerance.

use super::curves::Grid;
use super::linear_fit::MAX_SPAN;
use marionette_anim::{Clip, Interpolation, MorphTrack, Morphs, SamplingCache};

/// The default weight tolerance of a bake (`--morph-tolerance`): 0.001.
pub const DEFAULT_MORPH_TOLERANCE: f32 = 1e-3;

/// The morph weights of a baked take (empty for a rig without morph targets).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BakedMorphs {
    /// `frames[i]`: every weight of the rig at frame `i` ([`Morphs`] order).
    pub frames: Vec<Vec<f32>>,
    /// The weights at the grid's inner times, as [`super::BakedTake::inner`] (empty: known at
    /// frames only).
    pub inner: Vec<Vec<f32>>,
    /// Per set: the source animates it (a clip's weights channel), so it is written even
    /// where it holds its defaults; empty: none forced.
    pub animated: Vec<bool>,
}

impl BakedMorphs {
    /// Why these weights cannot be reduced for a rig with `morphs`, `frames` frames and
    /// `inner` inner samples (`None` when they can).
    pub fn problem(&self, morphs: &Morphs, frames: usize, inner: usize) -> Option<String> {
        if morphs.is_empty() && self.frames.is_empty() {
            return None;
        }
        if self.frames.len() != frames {
            return Some(format!(
                "{} frames of morph weights for {frames} frames",
                self.frames.len()
            ));
        }
        if !self.inner.is_empty() && self.inner.len() != inner {
            return Some(format!(
                "{} inner samples of morph weights for {inner}",
                self.inner.len()
            ));
        }
        let n = morphs.len();
        for (i, w) in self.frames.iter().chain(&self.inner).enumerate() {
            if w.len() != n {
                return Some(format!(
                    "sample {i} has {} weights for {n} targets",
                    w.len()
                ));
            }
            if let Some(k) = w.iter().position(|x| !x.is_finite()) {
                let name = morphs.qualified_name(k).unwrap_or_default();
                return Some(format!("sample {i}: morph weight '{name}' is not finite"));
            }
        }
        None
    }
}

/// One set's reduced `weights` channel.
#[derive(Clone, Debug, PartialEq)]
pub struct ReducedMorph {
    /// The morph set.
    pub set: u16,
    /// LINEAR or STEP.
    pub interpolation: Interpolation,
    /// Key frame indices (times from the take's grid).
    pub frames: Vec<u32>,
    /// The set's weights at each key, key after key.
    pub values: Vec<f32>,
}

impl ReducedMorph {
    /// The keys as a runtime track (times from `grid`).
    pub fn to_track(&self, grid: &Grid) -> MorphTrack {
        let keys = self.frames.len().max(1);
        MorphTrack {
            set: self.set,
            targets: self.values.len() / keys,
            interpolation: self.interpolation,
            times: self.frames.iter().map(|&f| grid.time(f as usize)).collect(),
            values: self.values.clone(),
        }
    }
}

/// Where a weight error was measured.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphErrorAt {
    /// The difference in weight.
    pub error: f32,
    /// Time in the take, in seconds.
    pub time: f32,
    /// The target (`mesh.target`).
    pub target: String,
}

/// Figures of a take's morph weights, all measured.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MorphStats {
    /// `weights` channels written.
    pub channels: usize,
    /// Keys written, over those channels.
    pub keys: usize,
    /// Keys an unreduced bake writes (a key per frame per morph set).
    pub raw_keys: usize,
    /// The tolerance they were reduced under.
    pub tolerance: f32,
    /// Largest weight error at every frame and inner time.
    pub max_error: f32,
    /// Where it is (`None` when every error is zero).
    pub worst: Option<MorphErrorAt>,
    /// For a clip resampled at `--fps`: the largest error against the source clip itself.
    pub against_source: Option<MorphErrorAt>,
}

/// The clip's weights at each of `times` (`morphs` defaults where it has no track).
pub(crate) fn sample(morphs: &Morphs, clip: &Clip, times: &[f32]) -> Vec<Vec<f32>> {
    if morphs.is_empty() {
        return Vec::new();
    }
    let mut cache = SamplingCache::new();
    times
        .iter()
        .map(|&t| {
            let mut w = morphs.defaults().to_vec();
            clip.sample_morphs(t, morphs, &mut cache, &mut w);
            w
        })
        .collect()
}

/// Which sets the clip animates.
pub(crate) fn animated(morphs: &Morphs, clip: &Clip) -> Vec<bool> {
    let mut out = vec![false; morphs.sets().len()];
    for t in &clip.morphs {
        if let Some(a) = out.get_mut(usize::from(t.set)) {
            *a = true;
        }
    }
    out
}

/// Equal up to float noise (a weight held by the source).
fn same(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-7 * (1.0 + a.abs())
}

/// What the reduction of one set reads.
struct SetSamples<'a> {
    grid: &'a Grid,
    /// The set's weights at each frame.
    frames: Vec<&'a [f32]>,
    /// The reference at each inner time (interval by interval).
    inner: Vec<Vec<f32>>,
    /// The source holds the set's weights between frames.
    stepped: bool,
}

impl<'a> SetSamples<'a> {
    fn new(
        grid: &'a Grid,
        baked: &'a BakedMorphs,
        exact: bool,
        range: std::ops::Range<usize>,
    ) -> Self {
        let frames: Vec<&[f32]> = baked.frames.iter().map(|f| &f[range.clone()]).collect();
        let per = grid.inner.max(1);
        let stepped = !baked.inner.is_empty()
            && baked.inner.iter().enumerate().all(|(s, h)| {
                let i = s / per;
                let h = &h[range.clone()];
                let held = |f: Option<&&[f32]>| {
                    f.is_some_and(|f| h.iter().zip(f.iter()).all(|(x, y)| same(*x, *y)))
                };
                held(frames.get(i)) || held(frames.get(i + 1))
            });
        let n = frames.len();
        let mut inner = Vec::new();
        for i in 0..n.saturating_sub(1) {
            let (t0, t1) = (grid.time(i), grid.time(i + 1));
            for k in 0..grid.inner {
                let s = i * grid.inner + k;
                let reference: Vec<f32> = match baked.inner.get(s) {
                    Some(h) if exact => h[range.clone()].to_vec(),
                    _ if stepped => frames[i].to_vec(),
                    _ => {
                        let u = (grid.inner_time(i, k) - t0) / (t1 - t0);
                        lerp(frames[i], frames[i + 1], u)
                    }
                };
                inner.push(reference);
            }
        }
        Self {
            grid,
            frames,
            inner,
            stepped,
        }
    }

    /// The reference at sample `s` (frames, then inner times) and its time.
    fn reference(&self, s: usize) -> (&[f32], f32) {
        let n = self.frames.len();
        if s < n {
            (self.frames[s], self.grid.time(s))
        } else {
            (&self.inner[s - n], self.grid.sample_time(s))
        }
    }

    fn samples(&self) -> usize {
        self.frames.len() + self.inner.len()
    }
}

/// `a + (b - a) · u` as the runtime's sampler computes a LINEAR weight (`x(1 - u) + y·u`).
fn lerp(a: &[f32], b: &[f32], u: f32) -> Vec<f32> {
    a.iter()
        .zip(b)
        .map(|(x, y)| x * (1.0 - u) + y * u)
        .collect()
}

/// Largest difference between two weight lists, and where.
fn max_diff(a: &[f32], b: &[f32]) -> (f32, usize) {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(k, (x, y))| ((x - y).abs(), k))
        .fold((0.0, 0), |m, e| if e.0 > m.0 { e } else { m })
}

/// The weights the keys give at time `t` (as glTF clients and the runtime play them).
fn value_at(fit: &ReducedMorph, grid: &Grid, targets: usize, t: f32) -> Vec<f32> {
    let key = |k: usize| &fit.values[k * targets..(k + 1) * targets];
    let time = |k: usize| grid.time(fit.frames[k] as usize);
    let keys = fit.frames.len();
    if keys == 1 || t <= time(0) {
        return key(0).to_vec();
    }
    if t >= time(keys - 1) {
        return key(keys - 1).to_vec();
    }
    let k = fit.frames.partition_point(|&f| grid.time(f as usize) <= t) - 1;
    match fit.interpolation {
        Interpolation::Step => key(k).to_vec(),
        _ => {
            let (t0, t1) = (time(k), time(k + 1));
            lerp(key(k), key(k + 1), (t - t0) / (t1 - t0))
        }
    }
}

/// STEP keys: a key wherever the held weights drift beyond `tol`, and the last frame.
fn fit_step(s: &SetSamples<'_>, tol: f32) -> Vec<u32> {
    let mut keys = vec![0u32];
    let mut held = s.frames[0];
    for (i, &f) in s.frames.iter().enumerate().skip(1) {
        if max_diff(f, held).0 > tol {
            keys.push(i as u32);
            held = f;
        }
    }
    let last = s.frames.len() as u32 - 1;
    if keys.last() != Some(&last) {
        keys.push(last);
    }
    keys
}

/// True when LINEAR keys at frames `a` and `b` reproduce every frame and inner reference
/// between them within `tol`.
fn segment_ok(s: &SetSamples<'_>, a: usize, b: usize, tol: f32) -> bool {
    let (t0, t1) = (s.grid.time(a), s.grid.time(b));
    let (va, vb) = (s.frames[a], s.frames[b]);
    let within =
        |t: f32, want: &[f32]| max_diff(&lerp(va, vb, (t - t0) / (t1 - t0)), want).0 <= tol;
    (a + 1..b).all(|i| within(s.grid.time(i), s.frames[i]))
        && (a..b).all(|i| {
            (0..s.grid.inner).all(|k| {
                let at = i * s.grid.inner + k;
                s.inner
                    .get(at)
                    .is_none_or(|want| within(s.grid.inner_time(i, k), want))
            })
        })
}

/// LINEAR keys by greedy furthest reach (keys on sampled frames; the last frame a key).
fn fit_linear(s: &SetSamples<'_>, tol: f32) -> Vec<u32> {
    let n = s.frames.len();
    let mut keys = vec![0u32];
    let mut a = 0usize;
    while a + 1 < n {
        let mut b = a + 1;
        while b + 1 < n && b + 1 - a <= MAX_SPAN && segment_ok(s, a, b + 1, tol) {
            b += 1;
        }
        keys.push(b as u32);
        a = b;
    }
    keys
}

/// Reduces the take's weights, set by set, under `tol` (see the module docs). `exact`: the
/// inner weights are the source itself (a clip at its own keys).
pub fn reduce(
    morphs: &Morphs,
    grid: &Grid,
    baked: &BakedMorphs,
    exact: bool,
    tol: f32,
) -> (Vec<ReducedMorph>, MorphStats) {
    let mut stats = MorphStats {
        tolerance: tol,
        ..MorphStats::default()
    };
    if morphs.is_empty() || baked.frames.is_empty() {
        return (Vec::new(), stats);
    }
    let tol = tol.max(0.0);
    let mut out = Vec::new();
    stats.raw_keys = baked.frames.len() * morphs.sets().len();
    for (set, info) in morphs.sets().iter().enumerate() {
        let range = morphs.range(set);
        let targets = range.len();
        let s = SetSamples::new(grid, baked, exact, range.clone());
        let defaults = &info.defaults;
        let moves = (0..s.samples()).any(|i| max_diff(s.reference(i).0, defaults).0 > tol);
        let forced = baked.animated.get(set).copied().unwrap_or(false);
        if !(moves || forced) || targets == 0 {
            continue;
        }
        let (interpolation, frames) = if s.stepped {
            (Interpolation::Step, fit_step(&s, tol))
        } else {
            (Interpolation::Linear, fit_linear(&s, tol))
        };
        let values = frames
            .iter()
            .flat_map(|&f| s.frames[f as usize].iter().copied())
            .collect();
        let fit = ReducedMorph {
            // (exact: the layout came from a rig whose sets a u16 indexes)
            set: set as u16,
            interpolation,
            frames,
            values,
        };
        for i in 0..s.samples() {
            let (want, time) = s.reference(i);
            let (e, k) = max_diff(&value_at(&fit, grid, targets, time), want);
            let e = if e.is_nan() { f32::INFINITY } else { e };
            if e > stats.max_error {
                stats.max_error = e;
                stats.worst = Some(MorphErrorAt {
                    error: e,
                    time,
                    target: morphs.qualified_name(range.start + k).unwrap_or_default(),
                });
            }
        }
        stats.channels += 1;
        stats.keys += fit.frames.len();
        out.push(fit);
    }
    (out, stats)
}

/// Intervals of the grid where keys at every frame (LINEAR, or held where the set is stepped)
/// miss the source's inner weights by more than `limit` (a clip at its own keys refines them
/// as it refines joints).
pub(crate) fn coarse_intervals(
    morphs: &Morphs,
    grid: &Grid,
    baked: &BakedMorphs,
    limit: f32,
) -> Vec<usize> {
    if baked.inner.is_empty() {
        return Vec::new();
    }
    let mut coarse = vec![false; grid.len().saturating_sub(1)];
    for set in 0..morphs.sets().len() {
        let range = morphs.range(set);
        let s = SetSamples::new(grid, baked, false, range.clone());
        for (i, c) in coarse.iter_mut().enumerate() {
            if *c {
                continue;
            }
            let (t0, t1) = (grid.time(i), grid.time(i + 1));
            *c = (0..grid.inner).any(|k| {
                let Some(truth) = baked.inner.get(i * grid.inner + k) else {
                    return false;
                };
                let read = if s.stepped {
                    s.frames[i].to_vec()
                } else {
                    lerp(
                        s.frames[i],
                        s.frames[i + 1],
                        (grid.inner_time(i, k) - t0) / (t1 - t0),
                    )
                };
                max_diff(&read, &truth[range.clone()]).0 > limit
            }) && t1 - t0 > 2e-6;
        }
    }
    coarse
        .iter()
        .enumerate()
        .filter_map(|(i, &c)| c.then_some(i))
        .collect()
}

/// The largest weight difference between `written` and `source` at `times` (both played by
/// the runtime's sampler); `None` when they agree everywhere.
pub fn error_against(
    morphs: &Morphs,
    source: &Clip,
    written: &Clip,
    times: &[f32],
) -> Option<MorphErrorAt> {
    let (a, b) = (
        sample(morphs, source, times),
        sample(morphs, written, times),
    );
    let mut worst: Option<MorphErrorAt> = None;
    for ((wa, wb), &time) in a.iter().zip(&b).zip(times) {
        let (e, k) = max_diff(wa, wb);
        let e = if e.is_nan() { f32::INFINITY } else { e };
        if e > worst.as_ref().map_or(0.0, |w| w.error) {
            worst = Some(MorphErrorAt {
                error: e,
                time,
                target: morphs.qualified_name(k).unwrap_or_default(),
            });
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_anim::MorphSet;

    fn face() -> Morphs {
        Morphs::new(vec![
            MorphSet {
                name: "face".into(),
                targets: vec!["blink".into(), "smile".into()],
                ..MorphSet::default()
            },
            MorphSet {
                name: "still".into(),
                targets: vec!["x".into()],
                ..MorphSet::default()
            },
        ])
    }

    /// A blink ramp (up over 10 frames, down over 10) reduces to its three corners; a set
    /// that never leaves its defaults writes nothing; errors are within the tolerance.
    #[test]
    fn ramps_reduce_to_corners() {
        let grid = Grid::new(30.0, 21);
        let frames = (0..21)
            .map(|i| {
                let up = 1.0 - (i as f32 - 10.0).abs() / 10.0;
                vec![up, 0.25, 0.0]
            })
            .collect();
        let baked = BakedMorphs {
            frames,
            ..BakedMorphs::default()
        };
        let (fits, stats) = reduce(&face(), &grid, &baked, false, 1e-3);
        assert_eq!(fits.len(), 1);
        assert_eq!(fits[0].frames, vec![0, 10, 20]);
        assert_eq!(fits[0].interpolation, Interpolation::Linear);
        assert_eq!(fits[0].values, vec![0.0, 0.25, 1.0, 0.25, 0.0, 0.25]);
        assert!(stats.max_error <= 1e-3, "{stats:?}");
        assert_eq!((stats.channels, stats.keys, stats.raw_keys), (1, 3, 42));
    }

    /// A source that holds its weights between frames (its inner samples equal a frame) gets
    /// STEP keys; a moving source between frames is measured there.
    #[test]
    fn held_sources_step() {
        let grid = Grid::new(10.0, 3);
        let frames = vec![
            vec![0.0, 0.0, 0.0],
            vec![1.0, 0.0, 0.0],
            vec![1.0, 0.0, 0.0],
        ];
        let inner = vec![vec![0.0, 0.0, 0.0], vec![1.0, 0.0, 0.0]];
        let baked = BakedMorphs {
            frames: frames.clone(),
            inner,
            animated: vec![false, true],
        };
        let (fits, stats) = reduce(&face(), &grid, &baked, true, 1e-3);
        assert_eq!(fits[0].interpolation, Interpolation::Step);
        assert_eq!(fits[0].frames, vec![0, 1, 2]);
        // the forced set is written although it holds its default
        assert_eq!(fits.len(), 2);
        assert_eq!(stats.max_error, 0.0);
        // a bump between frames 0 and 1 that the frames do not show: kept by a key at each
        let bumped = BakedMorphs {
            frames: vec![vec![0.0; 3]; 3],
            inner: vec![vec![0.5, 0.0, 0.0], vec![0.0; 3]],
            animated: vec![],
        };
        let coarse = coarse_intervals(&face(), &grid, &bumped, 2.5e-4);
        assert_eq!(coarse, vec![0]);
    }
}
