//! Crowds: many characters of one rig, each sampling two clips, blending them, computing model
//! matrices and a skin palette every frame — ozz-animation's crowd workload, timed per stage
//! (`marionette bench crowd`).
//!
//! A [`Crowd`] runs either [`Path::Scalar`] (the reference: [`Clip::sample`] with a
//! [`SamplingCache`], [`blend::lerp_in_place`], [`local_to_model`] over `Transform`s) or
//! [`Path::Soa`] (the [`soa`](super::soa) runtime: [`SoaClip`]s, SoA blending and
//! local-to-model, the same matrices within 1e-6). Stages run stage by stage over all
//! characters, each stage split over `threads` workers (rayon) when more than one is asked for.

use std::sync::Arc;
use std::time::Instant;

use glam::Mat4;
use rayon::prelude::*;

use super::soa::{self, PalettePlan, SoaClip, SoaCursor, SoaPose};
use super::{blend, local_to_model, Clip, SamplingCache, Skeleton, Skin, Transform, WrapMode};

/// Which sampling implementation a crowd uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// [`Clip::sample`]: the scalar reference.
    Scalar,
    /// The [`soa`](super::soa) runtime: compiled clips, eight joints per lane block.
    Soa,
}

/// Wall time of each stage of one frame, in seconds, over the whole crowd.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    /// Sampling every clip of every character.
    pub sample: f64,
    /// Blending each character's clips.
    pub blend: f64,
    /// Local-to-model matrices (with the palettes when `palette` is `None`).
    pub local_to_model: f64,
    /// Skin palettes, when computed as a stage of their own.
    pub palette: Option<f64>,
}

impl StageTimes {
    /// The frame's total.
    pub fn total(&self) -> f64 {
        self.sample + self.blend + self.local_to_model + self.palette.unwrap_or(0.0)
    }
}

/// What every character's stages need for one frame.
struct Stages<'c> {
    clips: &'c [&'c Clip],
    compiled: &'c [SoaClip],
    skeleton: &'c Skeleton,
    skin: Option<&'c Skin>,
    plan: Option<&'c PalettePlan>,
    dt: f32,
}

impl Stages<'_> {
    /// Whether local-to-model also writes the palette (the SoA path with a skin).
    fn fused(&self) -> bool {
        self.plan.is_some()
    }

    /// Advances the playheads and samples every clip.
    fn sample(&self, ch: &mut Character) {
        let rest = self.skeleton.rest_pose();
        for (k, clip) in self.clips.iter().enumerate() {
            let t = clip.wrap_time(ch.times[k] + self.dt, WrapMode::Loop);
            ch.times[k] = t;
            match &mut ch.poses {
                Poses::Scalar(p) => {
                    let (cache, pose) = &mut p[k];
                    clip.sample(t, rest, cache, pose)
                }
                Poses::Soa(p) => {
                    let (cursor, pose) = &mut p[k];
                    self.compiled[k].sample(t, cursor, pose)
                }
            }
        }
    }

    /// Blends the clips with equal weights into the first pose: input k joins the running
    /// blend with weight 1 / (k + 1).
    fn blend(&self, ch: &mut Character) {
        match &mut ch.poses {
            Poses::Scalar(p) => {
                if let Some(((_, first), rest)) = p.split_first_mut() {
                    for (k, (_, pose)) in rest.iter().enumerate() {
                        blend::lerp_in_place(first, pose, 1.0 / (k + 2) as f32);
                    }
                }
            }
            Poses::Soa(p) => {
                if let Some(((_, first), rest)) = p.split_first_mut() {
                    for (k, (_, pose)) in rest.iter().enumerate() {
                        soa::lerp_in_place(first, pose, 1.0 / (k + 2) as f32);
                    }
                }
            }
        }
    }

    /// Model matrices (and the palette, on the SoA path with a skin).
    fn local_to_model(&self, ch: &mut Character) {
        let n = self.skeleton.len();
        match &ch.poses {
            Poses::Scalar(p) => {
                if let Some((_, pose)) = p.first() {
                    local_to_model(self.skeleton, pose, 0..n, &mut ch.model)
                }
            }
            Poses::Soa(p) => match (p.first(), self.plan) {
                (Some((_, pose)), Some(plan)) => soa::local_to_model_palette(
                    self.skeleton,
                    pose,
                    plan,
                    &mut ch.model,
                    &mut ch.palette,
                ),
                (Some((_, pose)), None) => soa::local_to_model(self.skeleton, pose, &mut ch.model),
                (None, _) => {}
            },
        }
    }

    /// The skin palette from the model matrices.
    fn palette(&self, ch: &mut Character) {
        if let Some(skin) = self.skin {
            skin.palette(&ch.model, self.skeleton.armature(), &mut ch.palette)
        }
    }
}

/// One character's per-clip sampling state and poses.
#[derive(Clone, Debug)]
enum Poses {
    Scalar(Vec<(SamplingCache, Vec<Transform>)>),
    Soa(Vec<(SoaCursor, SoaPose)>),
}

/// One character: playheads, sampling state and buffers.
#[derive(Clone, Debug)]
struct Character {
    times: Vec<f32>,
    poses: Poses,
    model: Vec<Mat4>,
    palette: Vec<Mat4>,
}

/// A crowd of one rig playing the same clips at different phases.
pub struct Crowd<'a> {
    skeleton: &'a Skeleton,
    clips: Vec<&'a Clip>,
    /// The clips compiled, on the SoA path.
    compiled: Vec<SoaClip>,
    /// The skin's palette plan, on the SoA path.
    plan: Option<PalettePlan>,
    skin: Option<&'a Skin>,
    characters: Vec<Character>,
    pool: Option<Arc<rayon::ThreadPool>>,
}

/// Runs `f` over every character, on the pool when there is one.
fn each<F>(pool: &Option<Arc<rayon::ThreadPool>>, chars: &mut [Character], f: F)
where
    F: Fn(&mut Character) + Sync + Send,
{
    match pool {
        Some(pool) => pool.install(|| chars.par_iter_mut().with_min_len(8).for_each(f)),
        None => chars.iter_mut().for_each(f),
    }
}

/// A pool of `threads` workers for [`Crowd::with_pool`]; `None` for one thread (the caller's).
pub fn worker_pool(
    threads: usize,
) -> Result<Option<Arc<rayon::ThreadPool>>, rayon::ThreadPoolBuildError> {
    if threads <= 1 {
        return Ok(None);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(Some(Arc::new(pool)))
}

/// Seconds taken by `f` (wall time; the crowd benchmarks' one clock).
pub fn timed(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

impl<'a> Crowd<'a> {
    /// `count` characters playing `clips` (blended with equal weights), character `i` starting
    /// `i * 0.37` s into each clip; `threads` > 1 runs every stage on a pool of that many
    /// workers (see [`Crowd::with_pool`] to share one).
    pub fn new(
        skeleton: &'a Skeleton,
        clips: Vec<&'a Clip>,
        skin: Option<&'a Skin>,
        count: usize,
        path: Path,
        threads: usize,
    ) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = worker_pool(threads)?;
        Ok(Self::with_pool(skeleton, clips, skin, count, path, pool))
    }

    /// [`Crowd::new`] on a given pool (`None`: the calling thread), so several crowds can
    /// share one set of workers as an application would.
    pub fn with_pool(
        skeleton: &'a Skeleton,
        clips: Vec<&'a Clip>,
        skin: Option<&'a Skin>,
        count: usize,
        path: Path,
        pool: Option<Arc<rayon::ThreadPool>>,
    ) -> Self {
        let n = skeleton.len();
        let compiled: Vec<SoaClip> = match path {
            Path::Scalar => Vec::new(),
            Path::Soa => clips.iter().map(|c| SoaClip::new(c, skeleton)).collect(),
        };
        let poses = || match path {
            Path::Scalar => Poses::Scalar(
                clips
                    .iter()
                    .map(|_| (SamplingCache::new(), skeleton.rest_pose().to_vec()))
                    .collect(),
            ),
            Path::Soa => Poses::Soa(
                clips
                    .iter()
                    .map(|_| (SoaCursor::new(), SoaPose::new(n)))
                    .collect(),
            ),
        };
        let characters = (0..count)
            .map(|i| Character {
                times: clips
                    .iter()
                    .map(|c| c.wrap_time(c.start + i as f32 * 0.37, WrapMode::Loop))
                    .collect(),
                poses: poses(),
                model: vec![Mat4::IDENTITY; n],
                palette: vec![Mat4::IDENTITY; skin.map_or(0, |s| s.joints.len())],
            })
            .collect();
        Self {
            skeleton,
            clips,
            plan: match path {
                Path::Soa => skin.map(|s| PalettePlan::new(s, skeleton)),
                Path::Scalar => None,
            },
            compiled,
            skin,
            characters,
            pool,
        }
    }

    /// Joints per character.
    pub fn joints(&self) -> usize {
        self.skeleton.len()
    }

    /// Number of characters.
    pub fn len(&self) -> usize {
        self.characters.len()
    }

    /// True for a crowd of nobody.
    pub fn is_empty(&self) -> bool {
        self.characters.is_empty()
    }

    /// The per-character stages for this frame, and the characters.
    fn split(
        &mut self,
        dt: f32,
    ) -> (
        Stages<'_>,
        &Option<Arc<rayon::ThreadPool>>,
        &mut [Character],
    ) {
        let st = Stages {
            clips: &self.clips,
            compiled: &self.compiled,
            skeleton: self.skeleton,
            skin: self.skin,
            plan: self.plan.as_ref(),
            dt,
        };
        (st, &self.pool, &mut self.characters)
    }

    /// Advances every playhead by `dt` (looping) and evaluates one frame, stage by stage over
    /// the whole crowd (each stage timed). On the SoA path the palette is computed inside
    /// local-to-model ([`soa::local_to_model_palette`]): `palette` is then `None`.
    pub fn frame(&mut self, dt: f32) -> StageTimes {
        let (st, pool, chars) = self.split(dt);
        let sample = timed(|| each(pool, chars, |ch| st.sample(ch)));
        let blend = timed(|| each(pool, chars, |ch| st.blend(ch)));
        let local_to_model = timed(|| each(pool, chars, |ch| st.local_to_model(ch)));
        let palette = (!st.fused()).then(|| timed(|| each(pool, chars, |ch| st.palette(ch))));
        StageTimes {
            sample,
            blend,
            local_to_model,
            palette,
        }
    }

    /// Advances every playhead by `dt` and evaluates one frame character by character (every
    /// stage of a character while its data is in cache, one parallel loop with threads), as a
    /// game would; returns the frame's wall time in seconds. Same results as [`Self::frame`].
    pub fn frame_one_pass(&mut self, dt: f32) -> f64 {
        let (st, pool, chars) = self.split(dt);
        timed(|| {
            each(pool, chars, |ch| {
                st.sample(ch);
                st.blend(ch);
                st.local_to_model(ch);
                if !st.fused() {
                    st.palette(ch);
                }
            })
        })
    }

    /// Model matrices of character `i` after the last frame.
    pub fn model(&self, i: usize) -> Option<&[Mat4]> {
        self.characters.get(i).map(|c| c.model.as_slice())
    }

    /// Skin palette of character `i` after the last frame (empty without a skin).
    pub fn palette(&self, i: usize) -> Option<&[Mat4]> {
        self.characters.get(i).map(|c| c.palette.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Matrices within 1e-6 of each other, entry by entry.
    fn assert_close(a: Option<&[Mat4]>, b: Option<&[Mat4]>) {
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!(x.abs_diff_eq(*y, 1e-6), "{x} vs {y}");
        }
    }

    /// The SoA crowd's matrices are within 1e-6 of the scalar crowd's, frame after frame, on one
    /// thread and on two.
    #[test]
    fn soa_crowd_matches_scalar_crowd() {
        let model = crate::mannequin::build();
        let clips: Vec<&Clip> = model.clips.iter().take(2).collect();
        let skin = model.skins.first();
        for threads in [1, 2] {
            let mk = |path| Crowd::new(&model.skeleton, clips.clone(), skin, 5, path, threads);
            let (mut a, mut b) = (mk(Path::Scalar).unwrap(), mk(Path::Soa).unwrap());
            assert_eq!((a.len(), a.joints()), (5, model.skeleton.len()));
            for f in 0..40 {
                let times = a.frame(1.0 / 60.0);
                assert!(times.total() >= times.sample && times.palette.is_some());
                // the SoA crowd alternates stage-major and one-pass frames
                if f % 2 == 0 {
                    assert_eq!(b.frame(1.0 / 60.0).palette, None, "fused");
                } else {
                    assert!(b.frame_one_pass(1.0 / 60.0) > 0.0);
                }
            }
            for i in 0..5 {
                assert_close(a.model(i), b.model(i));
                assert_close(a.palette(i), b.palette(i));
            }
            // the characters are at different phases
            assert_ne!(a.model(0), a.model(1));
        }
    }
}
