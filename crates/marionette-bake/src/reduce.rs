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
use super::curves::{Curves, Grid};
use super::finish::{keep_duration, stats};
use super::fit::fit_samples;
use super::fitted::Fitted;
use super::leverage::Leverage;
use super::linear_fit::all_within;
use super::reduced::{ErrorAt, ReduceStats, ReducedJoint, ReducedTake};
use super::reference::{sample_poses, RawChannels};
use super::shell::{shell_error, Shells};
use super::{BakeTakeError, BakedTake};
use marionette_anim::world_matrices;
use marionette_anim::{JointIndex, Skeleton, Transform};

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
}

impl Default for ReduceOptions {
    fn default() -> Self {
        Self {
            tolerance: 1e-4,
            max_passes: 16,
            curves: Curves::Linear,
            morph_tolerance: super::DEFAULT_MORPH_TOLERANCE,
        }
    }
}

const T: usize = 0;
const R: usize = 1;
const S: usize = 2;

/// Angle between two rotations (up to sign), in radians.
fn angle(a: Quat, b: Quat) -> f32 {
    let d = a.conjugate() * b;
    2.0 * d.xyz().length().atan2(d.w.abs())
}

/// One channel's current fit and what a client reads at each frame (then half frame); for
/// rotations also what Blender reads (normalised lerp; empty when not measured).
#[derive(Clone)]
enum Channel {
    Vec(Option<Fitted<Vec3>>, Vec<Vec3>),
    Rot(Option<Fitted<Quat>>, Vec<Quat>, Vec<Quat>),
}

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
    take.check(skeleton)?;
    let n = take.frames.len();
    let joints = skeleton.len();
    let grid = take.grid.clone();
    let curves = options.curves;
    // LINEAR keys are for every client: a fifth of the budget is left to clients that evaluate
    // in f32 (Blender 3.4 adds about 0.02 mm on a 100-unit rig, its re-export a little more)
    let margin = if curves == Curves::Linear { 0.8 } else { 1.0 };
    let eps = f64::from(options.tolerance.max(0.0)) * margin;
    let all_poses = sample_poses(take);
    let raw = RawChannels::new(&all_poses, n, grid.inner, joints);
    // the poses measured in world space: frames, and inner times for LINEAR keys and for a
    // source known between frames
    let inner = curves == Curves::Linear || take.exact_between;
    let checked = if inner { all_poses.len() } else { n };
    let raw_poses = &all_poses[..checked];
    let mut raw_worlds = Vec::with_capacity(checked);
    for frame in raw_poses {
        let mut w = Vec::new();
        world_matrices(skeleton, frame, &mut w);
        raw_worlds.push(w);
    }
    let lev = Leverage::measure(skeleton, shells, &raw_worlds);
    let rest = skeleton.rest_pose();

    let mut tol = vec![[eps as f32 * 0.5; 3]; joints];
    let mut dirty = vec![[true; 3]; joints];
    let mut chans: Vec<[Channel; 3]> = (0..joints)
        .map(|_| {
            [
                Channel::Vec(None, Vec::new()),
                Channel::Rot(None, Vec::new(), Vec::new()),
                Channel::Vec(None, Vec::new()),
            ]
        })
        .collect();
    let mut errors = vec![0.0f64; checked * joints];
    let nlerp = curves == Curves::Linear;
    let mut passes = 0;
    loop {
        passes += 1;
        for j in 0..joints {
            for c in 0..3 {
                if dirty[j][c] {
                    let fit = Fit {
                        tol: tol[j][c],
                        grid: &grid,
                        curves,
                        inner,
                        keep: take.animated.get(j).is_some_and(|a| a[c]),
                        exact: take.exact_between,
                    };
                    chans[j][c] = fit_channel(j, c, &fit, &raw, &lev, rest);
                    dirty[j][c] = false;
                }
            }
        }
        // LINEAR keys are measured as slerp (glTF viewers) and as normalised lerp (Blender)
        let readings: Vec<Vec<Vec<Transform>>> = if nlerp {
            vec![
                assemble(&chans, rest, checked, false),
                assemble(&chans, rest, checked, true),
            ]
        } else {
            vec![assemble(&chans, rest, checked, false)]
        };
        let mut worlds = Vec::new();
        let mut worst: Vec<Option<(usize, f64, usize)>> = vec![None; joints];
        errors.fill(0.0);
        for (r, poses) in readings.iter().enumerate() {
            for (f, pose) in poses.iter().enumerate() {
                world_matrices(skeleton, pose, &mut worlds);
                for j in 0..joints {
                    // NaN (a pose that does not compose) is the worst error, never skipped
                    let e = shell_error(&raw_worlds[f][j], &worlds[j], shells.radius(j));
                    let e = if e.is_nan() { f64::INFINITY } else { e };
                    let slot = &mut errors[f * joints + j];
                    *slot = slot.max(e);
                    if e > eps && worst[j].is_none_or(|(_, w, _)| e > w) {
                        worst[j] = Some((f, e, r));
                    }
                }
            }
        }
        if worst.iter().all(Option::is_none) || passes > options.max_passes {
            break;
        }
        let last_chance = passes == options.max_passes;
        let loose = loose_channels_above(skeleton, &tol);
        let mut tight = Tightening {
            tol: &mut tol,
            dirty: &mut dirty,
            eps,
            last_chance,
        };
        let mut far_share = vec![f64::INFINITY; joints];
        for (j, w) in worst.iter().enumerate() {
            if let Some((f, _, r)) = *w {
                let frame = Frame {
                    shells,
                    raw_world: &raw_worlds[f],
                    raw_pose: &raw_poses[f],
                    red_pose: &readings[r][f],
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
            Channel::Vec(f, _) => f,
            Channel::Rot(..) => None,
        };
        let rot = match r {
            Channel::Rot(f, ..) => f,
            Channel::Vec(..) => None,
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

/// How one channel is fitted.
struct Fit<'a> {
    /// Tolerance in metres.
    tol: f32,
    /// Key times.
    grid: &'a Grid,
    /// Key profile.
    curves: Curves,
    /// Whether the channel is evaluated at the inner times too (after the frames).
    inner: bool,
    /// Written even when it holds the rest pose (the source animates it).
    keep: bool,
    /// The inner values are the source itself (a clip at its own keys).
    exact: bool,
}

/// Fits channel `c` of joint `j`; `None` when it holds the rest pose.
fn fit_channel(
    j: usize,
    c: usize,
    fit: &Fit<'_>,
    raw: &RawChannels,
    lev: &Leverage,
    rest: &[Transform],
) -> Channel {
    let ps = lev.parent_scale[j] as f32;
    let reach = lev.reach[j] as f32;
    let tol = fit.tol;
    let dense = |f: &Fitted<_>| f.dense_on(fit.grid, fit.inner);
    let n = fit.grid.len();
    let m = n + if fit.inner {
        n.saturating_sub(1) * fit.grid.inner
    } else {
        0
    };
    match c {
        R => {
            let err = move |a: Quat, b: Quat| angle(a, b) * reach;
            let samples = raw.samples(&raw.rotation[j], fit.exact);
            let rest_q = rest[j].rotation;
            if !fit.keep && all_within(&samples, rest_q, tol, &err) {
                return Channel::Rot(None, vec![rest_q; m], Vec::new());
            }
            let f = fit_samples(&samples, fit.grid, fit.curves, tol, &err);
            let d = f.dense_on(fit.grid, fit.inner);
            let blender = if fit.curves == Curves::Linear {
                f.dense_nlerp_on(fit.grid)
            } else {
                Vec::new()
            };
            Channel::Rot(Some(f), d, blender)
        }
        _ => {
            let (values, rest_v) = if c == T {
                (&raw.translation[j], rest[j].translation)
            } else {
                (&raw.scale[j], rest[j].scale)
            };
            let samples = raw.samples(values, fit.exact);
            let err_t = move |a: Vec3, b: Vec3| (a - b).length() * ps;
            let err_s = move |a: Vec3, b: Vec3| {
                let rel = (a - b).abs() / a.abs().max(Vec3::splat(1e-6));
                rel.max_element() * reach
            };
            let err: &dyn Fn(Vec3, Vec3) -> f32 = if c == T { &err_t } else { &err_s };
            if !fit.keep && all_within(&samples, rest_v, tol, err) {
                return Channel::Vec(None, vec![rest_v; m]);
            }
            let f = fit_samples(&samples, fit.grid, fit.curves, tol, err);
            let d = dense(&f);
            Channel::Vec(Some(f), d)
        }
    }
}

/// The pose a client reads at every frame from the current channels.
fn assemble(
    chans: &[[Channel; 3]],
    rest: &[Transform],
    n: usize,
    blender: bool,
) -> Vec<Vec<Transform>> {
    (0..n)
        .map(|f| {
            chans
                .iter()
                .zip(rest)
                .map(|(ch, r)| {
                    let mut t = *r;
                    if let Channel::Vec(_, d) = &ch[T] {
                        t.translation = d[f];
                    }
                    if let Channel::Rot(_, d, b) = &ch[R] {
                        t.rotation = if blender && !b.is_empty() { b[f] } else { d[f] };
                    }
                    if let Channel::Vec(_, d) = &ch[S] {
                        t.scale = d[f];
                    }
                    t
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
#[path = "reduce_tests.rs"]
mod tests;
