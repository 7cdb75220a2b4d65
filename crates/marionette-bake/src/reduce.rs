//! Key reduction of a baked take under a world-space error budget.
//!
//! 1. Each channel (translation, rotation, scale of each joint) is fitted on its own by
//!    [`super::fit`], with a tolerance in metres converted to the channel's units through the
//!    joint's [`Leverage`] (a rotation error moves the farthest measured point of the subtree by
//!    angle × reach). Every channel starts at half the budget.
//! 2. The whole reduced pose is rebuilt at every frame (and inner time) and measured in world
//!    space, each joint at its shell ([`super::shell_error`]: a bound on every vertex it skins). Errors add up along chains, so where a joint exceeds the budget
//!    the offending frame is attributed channel by channel along its chain (each channel
//!    replaced alone by its reduced value), and every channel carrying more than its share
//!    (budget / contributing channels) shrinks its tolerance by 30% and is refitted.
//! 3. Repeat until every joint at every frame is within budget. After a bounded number of passes
//!    the channels still at fault are written exactly (a key per frame), so the loop always ends
//!    within budget. The report gives the measured (never estimated) maximum and 99th percentile.

use glam::{Quat, Vec3};

use super::blame::{blame, blame_far, loose_channels_above, Frame, Tightening};
use super::curves::{Curves, Grid, Samples};
use super::finish::{keep_duration, stats};
use super::fit::fit_samples;
use super::fitted::FitValue;
use super::fitted::Fitted;
use super::leverage::Leverage;
use super::linear_fit::{all_within, every_frame};
use super::measure::{affected_by, Channel, Keys, Measure};
use super::misfit::{Misfit, RotationMisfit};
use super::reduced::{ErrorAt, ReduceStats, ReducedJoint, ReducedTake};
use super::reference::{JointSamples, Reference};
use super::shell::Shells;
use super::{BakeTakeError, BakedTake, Cancel};
use marionette_anim::{decoded_error, quantize_rotation, world_matrices};
use marionette_anim::{Interpolation, JointIndex, Skeleton, Transform};
use rayon::prelude::*;

/// Settings of [`reduce`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReduceOptions {
    /// World-space error budget in metres (default 0.1 mm).
    pub tolerance: f32,
    /// Refinement passes before offending channels are written exactly.
    pub max_passes: usize,
    /// The key profile (default [`Curves::Linear`]).
    pub curves: Curves,
    /// Morph weight tolerance (default [`super::DEFAULT_MORPH_TOLERANCE`]).
    pub morph_tolerance: f32,
    /// Rotations written as normalized 16-bit integers where the budget allows (default on;
    /// off: every key a float, as bakes before 16-bit keys).
    pub quantize: bool,
}

impl Default for ReduceOptions {
    fn default() -> Self {
        Self {
            tolerance: 1e-4,
            max_passes: 16,
            curves: Curves::Linear,
            morph_tolerance: super::DEFAULT_MORPH_TOLERANCE,
            quantize: true,
        }
    }
}

const T: usize = 0;
const R: usize = 1;

/// Reduces a baked take, each joint measured at 10 cm ([`Shells::floor`]). The skeleton must be
/// the one the take was baked on.
pub fn reduce(
    skeleton: &Skeleton,
    take: &BakedTake,
    options: &ReduceOptions,
) -> Result<ReducedTake, BakeTakeError> {
    reduce_with(skeleton, &Shells::floor(skeleton), take, options)
}

/// Reduces a baked take, each joint measured at its shell (so the budget bounds every vertex).
/// The skeleton must be the one the take was baked on.
pub fn reduce_with(
    skeleton: &Skeleton,
    shells: &Shells,
    take: &BakedTake,
    options: &ReduceOptions,
) -> Result<ReducedTake, BakeTakeError> {
    reduce_until(skeleton, shells, take, options, &Cancel::new())
}

/// [`reduce_with`], stopped (an error) once `cancel` is set: checked before every channel's fit
/// and every run of measured samples, so Ctrl-C ends a long reduction within moments.
pub fn reduce_until(
    skeleton: &Skeleton,
    shells: &Shells,
    take: &BakedTake,
    options: &ReduceOptions,
    cancel: &Cancel,
) -> Result<ReducedTake, BakeTakeError> {
    take.check(skeleton)?;
    let n = take.frames.len();
    let joints = skeleton.len();
    let grid = take.grid.clone();
    let curves = options.curves;
    // LINEAR keys are for every client: a fifth of the budget is left to clients that evaluate
    // in f32 (Blender 3.4 adds about 0.02 mm on a 100-unit rig, its re-export a little more)
    let margin = if curves == Curves::Linear { 0.8 } else { 1.0 };
    let eps = f64::from(options.tolerance.max(0.0)) * margin;
    let reference = Reference::new(take);
    // the poses measured in world space: frames, and inner times for LINEAR keys and for a
    // source known between frames
    let inner = curves == Curves::Linear || take.exact_between;
    let checked = if inner { reference.len() } else { n };
    let lev = leverage(skeleton, shells, &reference, checked);
    let rest = skeleton.rest_pose();

    let mut tol = vec![[eps as f32 * 0.5; 3]; joints];
    let mut dirty = vec![[true; 3]; joints];
    let mut chans: Vec<[Channel; 3]> = (0..joints)
        .map(|_| [Channel::Vec(None), Channel::Rot(None), Channel::Vec(None)])
        .collect();
    let mut errors = vec![0.0f64; checked * joints];
    let nlerp = curves == Curves::Linear;
    // per joint, where it misses the budget by the most; a pass measures again only the
    // joints its refitted channels move (the others' errors stand)
    let mut worst = vec![None; joints];
    let all = vec![true; joints];
    let mut passes = 0;
    loop {
        passes += 1;
        let refit: Vec<(usize, usize)> = (0..joints)
            .flat_map(|j| (0..3).map(move |c| (j, c)))
            .filter(|&(j, c)| dirty[j][c])
            .collect();
        let (affected, needed) = affected_by(skeleton, &refit);
        let fitted: Vec<Channel> = refit
            .chunk_by(|a, b| a.0 / JOINT_BLOCK == b.0 / JOINT_BLOCK)
            .collect::<Vec<_>>()
            .par_iter()
            .flat_map_iter(|block| {
                let fit = |c: usize, values: Values<'_>| {
                    let j = values.joint;
                    if cancel.is_cancelled() {
                        return Channel::Vec(None);
                    }
                    let fit = Fit {
                        tol: tol[j][c],
                        grid: &grid,
                        curves,
                        keep: take.animated.get(j).is_some_and(|a| a[c]),
                        quantize: options.quantize,
                    };
                    fit_channel(values, c, &fit, &reference, &lev, rest)
                };
                fit_block(block, &reference, fit)
            })
            .collect();
        for ((j, c), ch) in refit.into_iter().zip(fitted) {
            chans[j][c] = ch;
            dirty[j][c] = false;
        }
        // LINEAR keys are measured as slerp (glTF viewers) and as normalised lerp (Blender)
        let measure = Measure {
            skeleton,
            shells,
            reference: &reference,
            keys: Keys {
                chans: &chans,
                rest,
                grid: &grid,
            },
            readings: if nlerp { 2 } else { 1 },
            eps,
            affected: &affected,
            needed: &needed,
            cancel,
        };
        if cancel.is_cancelled() {
            return Err(BakeTakeError::Cancelled {
                take: take.name.clone(),
            });
        }
        for (w, new) in worst
            .iter_mut()
            .zip(measure.run(&mut errors))
            .zip(&affected)
            .filter_map(|(wn, a)| a.then_some(wn))
        {
            *w = new;
        }
        if worst.iter().all(Option::is_none) || passes > options.max_passes {
            break;
        }
        let last_chance = passes == options.max_passes;
        let loose = loose_channels_above(skeleton, &tol);
        let mut far_share = vec![f64::INFINITY; joints];
        let (mut scratch, mut raw_world, mut red_pose) = (Vec::new(), Vec::new(), Vec::new());
        let mut tight = Tightening {
            tol: &mut tol,
            dirty: &mut dirty,
            eps,
            last_chance,
        };
        for (j, w) in worst.iter().enumerate() {
            if let Some(w) = *w {
                let raw_pose = reference.pose(w.sample, &all, &mut scratch);
                world_matrices(skeleton, raw_pose, &mut raw_world);
                let mut hints = Vec::new();
                let blender = w.reading == 1;
                measure
                    .keys
                    .pose(w.sample, blender, &all, &mut hints, &mut red_pose);
                let frame = Frame {
                    shells,
                    raw_world: &raw_world,
                    raw_pose,
                    red_pose: &red_pose,
                };
                let far = blame(skeleton, j, &frame, &loose, &mut tight);
                if let Some((a, share)) = far {
                    far_share[a] = far_share[a].min(share);
                }
            }
        }
        blame_far(skeleton, far_share, &mut tight);
    }
    let mut joints_out = Vec::new();
    let mut keys = 0;
    let mut channels = 0;
    for (j, ch) in chans.into_iter().enumerate() {
        let [t, r, s] = ch;
        let take_vec = |c: Channel| match c {
            Channel::Vec(f) => f,
            Channel::Rot(_) => None,
        };
        let rot = match r {
            Channel::Rot(f) => f,
            Channel::Vec(_) => None,
        };
        let rj = ReducedJoint {
            joint: j as JointIndex,
            translation: take_vec(t),
            rotation: rot,
            scale: take_vec(s),
        };
        if rj.translation.is_some() || rj.rotation.is_some() || rj.scale.is_some() {
            joints_out.push(rj);
        }
    }
    keep_duration(&mut joints_out, n, rest);
    for rj in &joints_out {
        for k in rj.key_counts() {
            keys += k;
            channels += 1;
        }
    }
    let worst = errors
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .filter(|(_, &e)| e > 0.0)
        .map(|(i, &e)| ErrorAt {
            error: e,
            time: grid.sample_time(i / joints),
            joint: skeleton.names()[i % joints].clone(),
        });
    let (max_error, p99_error) = stats(&mut errors);
    let (morphs, morph_stats) = super::morph::reduce(
        skeleton.morphs(),
        &grid,
        &take.morphs,
        take.exact_between,
        options.morph_tolerance,
    );
    Ok(ReducedTake {
        name: take.name.clone(),
        grid,
        source_times: take.exact_between,
        tolerance: options.tolerance,
        curves,
        quantized: options.quantize,
        joints: joints_out,
        morphs,
        meta: take.meta.clone(),
        report: ReduceStats {
            take: take.name.clone(),
            frames: n,
            raw_keys: n * joints * 3,
            keys,
            channels,
            max_error,
            p99_error,
            worst,
            shells: shells.rule,
            against_source: None,
            passes,
            morphs: morph_stats,
        },
    })
}

/// The leverage of each joint over the reference's first `checked` samples, measured in
/// parallel over runs of samples (the figures are maxima: any order gives the same).
fn leverage(
    skeleton: &Skeleton,
    shells: &Shells,
    reference: &Reference<'_>,
    checked: usize,
) -> Leverage {
    const RUN: usize = 256;
    let runs = checked.div_ceil(RUN);
    let parts: Vec<Leverage> = (0..runs)
        .into_par_iter()
        .map(|r| {
            let mut lev = Leverage::none(skeleton.len());
            let all = &vec![true; skeleton.len()][..];
            let (mut scratch, mut world, mut reach) = (Vec::new(), Vec::new(), Vec::new());
            for s in r * RUN..((r + 1) * RUN).min(checked) {
                world_matrices(skeleton, reference.pose(s, all, &mut scratch), &mut world);
                lev.add_frame(skeleton, shells, &world, &mut reach);
            }
            lev
        })
        .collect();
    let mut out = Leverage::none(skeleton.len());
    for part in &parts {
        out.merge(part);
    }
    out
}

/// How one channel is fitted.
struct Fit<'a> {
    /// Tolerance in metres.
    tol: f32,
    /// Key times.
    grid: &'a Grid,
    /// Key profile.
    curves: Curves,
    /// Written even when it holds the rest pose (the source animates it).
    keep: bool,
    /// Rotations keyed as 16-bit integers where the tolerance allows.
    quantize: bool,
}

/// The keys without the room their vectors grew (a long take's keys are most of what a bake
/// holds once it is reduced).
fn compact<T>(mut f: Fitted<T>) -> Fitted<T> {
    f.frames.shrink_to_fit();
    f.values.shrink_to_fit();
    f
}

/// With compact output (`--quantize on`), keys at every frame instead of `f` where they cost
/// fewer bytes ([`every_frame`]: no times of their own); `value_bytes`: what one value of
/// theirs costs (a float cubic key's values cost their size).
fn cheapest<T: FitValue>(
    f: Fitted<T>,
    s: &Samples<'_, T>,
    fit: &Fit<'_>,
    tol: f32,
    err: &dyn Misfit<T>,
    value_bytes: usize,
) -> Fitted<T> {
    if !fit.quantize {
        return f;
    }
    let own = if f.interpolation == Interpolation::CubicSpline {
        std::mem::size_of::<T>()
    } else {
        value_bytes
    };
    let keyed = f.bytes(own);
    if s.frames.len() * value_bytes >= keyed {
        return f;
    }
    every_frame(s, fit.grid, fit.curves == Curves::Linear, tol, err).unwrap_or(f)
}

/// The 16-bit keys of a rotation channel's `frames`, when every one is within 90% of `tol`
/// (metres at `reach`) of its frame, direction and length ([`decoded_error`]); `None`: the
/// channel is keyed in floats (a long reach, where a step of 1/32767 is too far). The last
/// tenth is room between keys; a channel with no more keeps a key at nearly every frame, which
/// compact output writes without times of its own ([`cheapest`]). Measured: 90% rather than half
/// writes 17% fewer bytes on a 256-joint take, 6% on a dense capture, and bakes faster.
fn quantized_keys(frames: &[Quat], tol: f32, reach: f32) -> Option<Vec<Quat>> {
    let keys: Vec<Quat> = frames.iter().map(|&q| quantize_rotation(q)).collect();
    let within = frames
        .iter()
        .zip(&keys)
        .all(|(&q, &d)| decoded_error(q, d) * reach <= tol * 0.9);
    within.then_some(keys)
}

/// Joints whose channels are read from the reference together (a task of a pass's fits): 8
/// joints' channels at every sample of a 10-minute take are about 28 MB.
const JOINT_BLOCK: usize = 8;

/// One joint's channels at every sample, as [`fit_channel`] reads them.
#[derive(Clone, Copy)]
struct Values<'a> {
    joint: usize,
    samples: &'a JointSamples,
}

/// Fits the channels `block` (joint, channel; of consecutive joints, in order) with `fit`,
/// their values read from the reference in one sweep.
fn fit_block(
    block: &[(usize, usize)],
    reference: &Reference<'_>,
    fit: impl Fn(usize, Values<'_>) -> Channel,
) -> Vec<Channel> {
    let mut joints: Vec<usize> = block.iter().map(|&(j, _)| j).collect();
    joints.dedup();
    let want: Vec<[bool; 3]> = joints
        .iter()
        .map(|&j| std::array::from_fn(|c| block.contains(&(j, c))))
        .collect();
    let read = reference.joints(&joints, &want);
    block
        .iter()
        .map(|&(j, c)| {
            let k = joints.partition_point(|&x| x < j);
            fit(
                c,
                Values {
                    joint: j,
                    samples: &read[k],
                },
            )
        })
        .collect()
}

/// Fits channel `c` of one joint; `None` when it holds the rest pose.
fn fit_channel(
    values: Values<'_>,
    c: usize,
    fit: &Fit<'_>,
    reference: &Reference<'_>,
    lev: &Leverage,
    rest: &[Transform],
) -> Channel {
    let j = values.joint;
    let ps = lev.parent_scale[j] as f32;
    let reach = lev.reach[j] as f32;
    let tol = fit.tol;
    match c {
        R => {
            let err = RotationMisfit {
                reach,
                length: false,
            };
            let samples = reference.samples(&values.samples.rotation);
            if !fit.keep && all_within(&samples, rest[j].rotation, tol, &err) {
                return Channel::Rot(None);
            }
            if fit.quantize {
                if let Some(keys) = quantized_keys(samples.frames, tol, reach) {
                    // the length a decoded key is off unit is a scale a client may draw
                    let err_q = RotationMisfit {
                        reach,
                        length: true,
                    };
                    let s = Samples {
                        keys: Some(&keys),
                        ..samples
                    };
                    let f = fit_samples(&s, fit.grid, fit.curves, tol, &err_q);
                    return Channel::Rot(Some(compact(cheapest(f, &s, fit, tol, &err_q, 8))));
                }
            }
            let f = fit_samples(&samples, fit.grid, fit.curves, tol, &err);
            Channel::Rot(Some(cheapest(f, &samples, fit, tol, &err, 16)))
        }
        _ => {
            let (values, rest_v) = if c == T {
                (&values.samples.translation, rest[j].translation)
            } else {
                (&values.samples.scale, rest[j].scale)
            };
            let samples = reference.samples(values);
            let err_t = move |a: Vec3, b: Vec3| (a - b).length() * ps;
            let err_s = move |a: Vec3, b: Vec3| {
                let rel = (a - b).abs() / a.abs().max(Vec3::splat(1e-6));
                rel.max_element() * reach
            };
            let err: &dyn Misfit<Vec3> = if c == T { &err_t } else { &err_s };
            if !fit.keep && all_within(&samples, rest_v, tol, err) {
                return Channel::Vec(None);
            }
            let f = fit_samples(&samples, fit.grid, fit.curves, tol, err);
            Channel::Vec(Some(compact(cheapest(f, &samples, fit, tol, err, 12))))
        }
    }
}

#[cfg(test)]
#[path = "reduce_tests.rs"]
mod tests;
