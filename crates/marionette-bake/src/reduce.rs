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

use glam::{DMat4, Quat, Vec3};

use super::curves::{all_within, Curves, Grid};
use super::finish::{keep_duration, stats};
use super::fit::{fit_samples, Fitted};
use super::reference::{sample_poses, RawChannels};
use super::shell::{shell_error, ShellRule, Shells};
use super::world::{world_matrices, Leverage, EXACT_LEVELS};
use super::{BakedTake, TakeError};
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
}

impl Default for ReduceOptions {
    fn default() -> Self {
        Self {
            tolerance: 1e-4,
            max_passes: 16,
            curves: Curves::Linear,
        }
    }
}

/// The reduced channels of one joint; `None` means the channel holds the rest pose.
#[derive(Clone, Debug, PartialEq)]
pub struct ReducedJoint {
    /// The joint.
    pub joint: JointIndex,
    /// Translation keys.
    pub translation: Option<Fitted<Vec3>>,
    /// Rotation keys (normalised, hemisphere-continuous).
    pub rotation: Option<Fitted<Quat>>,
    /// Scale keys.
    pub scale: Option<Fitted<Vec3>>,
}

impl ReducedJoint {
    /// The key count of each channel written (translation, rotation, scale).
    pub fn key_counts(&self) -> impl Iterator<Item = usize> {
        [
            self.translation.as_ref().map(Fitted::len),
            self.rotation.as_ref().map(Fitted::len),
            self.scale.as_ref().map(Fitted::len),
        ]
        .into_iter()
        .flatten()
    }
}

/// Where an error was measured: the time and the joint whose shell moved most.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorAt {
    /// The error, in metres: a bound on how far any vertex the joint skins moves.
    pub error: f64,
    /// Time in the take, in seconds.
    pub time: f32,
    /// The joint.
    pub joint: String,
}

/// Figures of one reduction, all measured.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceStats {
    /// Take name.
    pub take: String,
    /// Frames baked.
    pub frames: usize,
    /// Keys an unreduced bake writes (every channel of every joint at every frame).
    pub raw_keys: usize,
    /// Keys written.
    pub keys: usize,
    /// Channels written (the rest hold the rest pose).
    pub channels: usize,
    /// Largest world-space error over every joint's shell at every frame and inner time, in
    /// metres: no vertex moves farther from the reference.
    pub max_error: f64,
    /// 99th percentile of the per-joint, per-sample world-space error, in metres.
    pub p99_error: f64,
    /// Where the largest error is (`None` when every error is zero).
    pub worst: Option<ErrorAt>,
    /// How the shells were chosen.
    pub shells: ShellRule,
    /// For a clip resampled at `--fps`: the largest error of the written keys against the
    /// source clip itself (at its keys and between them), which the resampling costs.
    pub against_source: Option<ErrorAt>,
    /// Fit-and-measure passes used.
    pub passes: usize,
}

/// A take after key reduction: what gets exported.
#[derive(Clone, Debug, PartialEq)]
pub struct ReducedTake {
    /// Take name (the glTF animation name).
    pub name: String,
    /// The frame times (a key at frame `i` is at `grid.time(i)`).
    pub grid: Grid,
    /// The frames are the source clip's own key times (its time base kept).
    pub source_times: bool,
    /// The budget the keys were reduced under, in metres.
    pub tolerance: f32,
    /// The key profile the keys were fitted with.
    pub curves: Curves,
    /// Channels per joint, sorted by joint, joints without channels left out.
    pub joints: Vec<ReducedJoint>,
    /// Markers and events of the take.
    pub meta: super::TakeMeta,
    /// Measured figures.
    pub report: ReduceStats,
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
) -> Result<ReducedTake, TakeError> {
    reduce_with(skeleton, &Shells::floor(skeleton), take, options)
}

/// Reduces a baked take, each joint measured at its shell (so the budget bounds every vertex).
/// The skeleton must be the one the take was baked on.
pub fn reduce_with(
    skeleton: &Skeleton,
    shells: &Shells,
    take: &BakedTake,
    options: &ReduceOptions,
) -> Result<ReducedTake, TakeError> {
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
        let mut far_share = vec![f64::INFINITY; joints];
        for (j, w) in worst.iter().enumerate() {
            if let Some((f, _, r)) = *w {
                let frame = Frame {
                    shells,
                    raw_world: &raw_worlds[f],
                    raw_pose: &raw_poses[f],
                    red_pose: &readings[r][f],
                };
                let far = blame(
                    skeleton,
                    j,
                    eps,
                    last_chance,
                    &frame,
                    &loose,
                    &mut tol,
                    &mut dirty,
                );
                if let Some((a, share)) = far {
                    far_share[a] = far_share[a].min(share);
                }
            }
        }
        blame_far(skeleton, far_share, eps, last_chance, &mut tol, &mut dirty);
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
    Ok(ReducedTake {
        name: take.name.clone(),
        grid,
        source_times: take.exact_between,
        tolerance: options.tolerance,
        curves,
        joints: joints_out,
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

/// One reference frame and what a client reads there.
struct Frame<'a> {
    /// The shells the joints are measured at.
    shells: &'a Shells,
    /// World matrices of the raw pose.
    raw_world: &'a [DMat4],
    /// The raw pose (local).
    raw_pose: &'a [Transform],
    /// The reduced pose as read (local).
    red_pose: &'a [Transform],
}

/// Per joint, how many channels of it and its ancestors are not written exactly (tolerance
/// above zero): one pass down.
fn loose_channels_above(skeleton: &Skeleton, tol: &[[f32; 3]]) -> Vec<usize> {
    let mut loose = vec![0usize; tol.len()];
    for j in 0..tol.len() {
        let own = tol[j].iter().filter(|&&t| t > 0.0).count();
        loose[j] = own + skeleton.parents()[j].map_or(0, |p| loose[p as usize]);
    }
    loose
}

/// Shrinks channel `c` of joint `a`'s tolerance by 30% (to exact on the `last_chance`, or once it
/// is a thousandth of the budget) and marks it for refitting.
fn tighten(
    tol: &mut [[f32; 3]],
    dirty: &mut [[bool; 3]],
    a: usize,
    c: usize,
    eps: f64,
    last: bool,
) {
    let t = &mut tol[a][c];
    *t = if last || *t * 0.7 < eps as f32 * 1e-3 {
        0.0
    } else {
        *t * 0.7
    };
    dirty[a][c] = true;
}

/// Attributes the error of joint `j` at one frame to the channels of its chain and tightens the
/// channels carrying more than their share (all of them, exactly, on the `last_chance`).
///
/// The chain is traced exactly for [`EXACT_LEVELS`] joints (`j` and its nearest ancestors);
/// when it goes on, the ancestor above them and the share each of its (and its ancestors')
/// channels may carry are returned, for [`blame_far`]. So the work per joint is bounded at any
/// depth, and a rig no deeper than [`EXACT_LEVELS`] is blamed exactly.
#[allow(clippy::too_many_arguments)]
fn blame(
    skeleton: &Skeleton,
    j: usize,
    eps: f64,
    last_chance: bool,
    frame: &Frame<'_>,
    loose: &[usize],
    tol: &mut [[f32; 3]],
    dirty: &mut [[bool; 3]],
) -> Option<(usize, f64)> {
    let armature = skeleton.armature().as_dmat4();
    let mut contributions = Vec::new();
    let mut rel = DMat4::IDENTITY; // from joint a down to j, raw
    let mut a = Some(j as JointIndex);
    let mut level = 0;
    while let Some(ai) = a {
        if level == EXACT_LEVELS {
            break;
        }
        let ai = ai as usize;
        let parent = skeleton.parents()[ai];
        let wp = parent.map_or(armature, |p| frame.raw_world[p as usize]);
        for (c, &t) in tol[ai].iter().enumerate() {
            if t == 0.0 {
                continue;
            }
            let mut local = frame.raw_pose[ai];
            match c {
                T => local.translation = frame.red_pose[ai].translation,
                R => local.rotation = frame.red_pose[ai].rotation,
                _ => local.scale = frame.red_pose[ai].scale,
            }
            let w = wp * local.to_dmat4() * rel;
            let e = shell_error(&frame.raw_world[j], &w, frame.shells.radius(j));
            contributions.push((ai, c, e));
        }
        rel = frame.raw_pose[ai].to_dmat4() * rel;
        a = parent;
        level += 1;
    }
    // the chain above the exact part: each of its loose channels may contribute
    let far = a.map(|f| f as usize);
    let far_count = far.map_or(0, |f| loose[f]);
    let contributing = contributions.iter().filter(|x| x.2 > 1e-12).count() + far_count;
    let share = eps / contributing.max(1) as f64;
    let top = contributions.iter().map(|x| x.2).fold(0.0, f64::max);
    for (ai, c, e) in contributions {
        if e <= 1e-12 || (e <= share && e < top) {
            continue;
        }
        tighten(tol, dirty, ai, c, eps, last_chance);
    }
    far.map(|f| (f, share))
}

/// Tightens the channels of the chains above [`blame`]'s exact part. `far_share[a]` is the
/// smallest share asked of joint `a`'s chain by an offending joint [`EXACT_LEVELS`] below it;
/// it holds for `a`'s ancestors too (one pass up). A channel's tolerance bounds its world error
/// at any point of its subtree, so a channel whose tolerance exceeds the share is tightened.
fn blame_far(
    skeleton: &Skeleton,
    mut far_share: Vec<f64>,
    eps: f64,
    last_chance: bool,
    tol: &mut [[f32; 3]],
    dirty: &mut [[bool; 3]],
) {
    for a in (0..far_share.len()).rev() {
        if let Some(p) = skeleton.parents()[a] {
            let p = p as usize;
            far_share[p] = far_share[p].min(far_share[a]);
        }
    }
    for (a, share) in far_share.into_iter().enumerate() {
        if !share.is_finite() {
            continue;
        }
        for c in 0..3 {
            if tol[a][c] > 0.0 && f64::from(tol[a][c]) > share {
                tighten(tol, dirty, a, c, eps, last_chance);
            }
        }
    }
}

#[cfg(test)]
#[path = "reduce_tests.rs"]
mod tests;
