//! One refinement pass's world-space measurement of a reduction: the reference and the keys as
//! clients read them, rebuilt a sample at a time (nothing per sample is held but its error),
//! in parallel over runs of samples, with the same result in any order.

use rayon::prelude::*;

use super::curves::Grid;
use super::fitted::Fitted;
use super::reference::Reference;
use super::shell::{shell_error, Shells};
use glam::{DMat4, Quat, Vec3};
use marionette_anim::{world_matrices_of, Skeleton, Transform};

/// Samples measured by one task.
const RUN: usize = 128;

/// One channel's current fit (`None`: it holds the rest pose).
#[derive(Clone)]
pub(super) enum Channel {
    Vec(Option<Fitted<Vec3>>),
    Rot(Option<Fitted<Quat>>),
}

/// The keys of every channel, read as a client reads them.
pub(super) struct Keys<'a> {
    /// `[translation, rotation, scale]` per joint.
    pub chans: &'a [[Channel; 3]],
    /// The rest pose (channels that hold it).
    pub rest: &'a [Transform],
    /// The key times.
    pub grid: &'a Grid,
}

impl Keys<'_> {
    /// The pose a client reads at sample `s` (frames, then inner times); `blender`: LINEAR
    /// rotations read as Blender's normalised lerp. Only the joints `needed` are read (the
    /// others hold their rest); `hints` (one per channel, any start) find keys fast when
    /// samples are read in time order.
    pub fn pose(
        &self,
        s: usize,
        blender: bool,
        needed: &[bool],
        hints: &mut Vec<[usize; 3]>,
        out: &mut Vec<Transform>,
    ) {
        if blender {
            self.poses(s, needed, hints, &mut Vec::new(), Some(out));
        } else {
            self.poses(s, needed, hints, out, None);
        }
    }

    /// [`Keys::pose`] as glTF viewers read it (`slerp`) and, given `nlerp`, as Blender does, at
    /// once (each key found once; only LINEAR rotations differ).
    pub fn poses(
        &self,
        s: usize,
        needed: &[bool],
        hints: &mut Vec<[usize; 3]>,
        slerp: &mut Vec<Transform>,
        mut nlerp: Option<&mut Vec<Transform>>,
    ) {
        let (grid, time) = (self.grid, self.grid.sample_time(s));
        hints.resize(self.chans.len(), [usize::MAX; 3]);
        for out in std::iter::once(&mut *slerp).chain(nlerp.as_deref_mut()) {
            out.clear();
            out.extend_from_slice(self.rest);
        }
        for (j, ch) in self.chans.iter().enumerate() {
            if !needed[j] {
                continue;
            }
            let (t, h) = (&mut slerp[j], &mut hints[j]);
            if let Channel::Vec(Some(f)) = &ch[0] {
                t.translation = f.read(grid, time, false, &mut h[0]);
            }
            if let Channel::Vec(Some(f)) = &ch[2] {
                t.scale = f.read(grid, time, false, &mut h[2]);
            }
            let blender = match &ch[1] {
                Channel::Rot(Some(f)) if nlerp.is_some() => {
                    let (a, b) = f.read_both(grid, time, &mut h[1]);
                    t.rotation = a;
                    b
                }
                Channel::Rot(Some(f)) => {
                    t.rotation = f.read(grid, time, false, &mut h[1]);
                    t.rotation
                }
                _ => t.rotation,
            };
            if let Some(n) = nlerp.as_deref_mut() {
                n[j] = *t;
                n[j].rotation = blender;
            }
        }
    }
}

/// The joints whose error can change when the channels `refit` (joint, channel) are refitted:
/// those joints and their descendants; and what must be composed to measure them: those and
/// their ancestors.
pub(super) fn affected_by(skeleton: &Skeleton, refit: &[(usize, usize)]) -> (Vec<bool>, Vec<bool>) {
    let joints = skeleton.len();
    let parents = skeleton.parents();
    let mut affected = vec![false; joints];
    for &(j, _) in refit {
        affected[j] = true;
    }
    for j in 0..joints {
        if let Some(p) = parents[j] {
            if (p as usize) < j && affected[p as usize] {
                affected[j] = true;
            }
        }
    }
    let mut needed = affected.clone();
    for j in (0..joints).rev() {
        if needed[j] {
            if let Some(p) = parents[j] {
                if (p as usize) < j {
                    needed[p as usize] = true;
                }
            }
        }
    }
    (affected, needed)
}

/// Where a joint misses the budget by the most: sample, error, reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Worst {
    pub sample: usize,
    pub error: f64,
    pub reading: usize,
}

impl Worst {
    /// True when `self` is the one to keep over `other`: the larger error, then the earlier
    /// reading, then the earlier sample (the first found in reading-then-sample order).
    fn beats(&self, other: &Option<Worst>) -> bool {
        other.is_none_or(|w| {
            self.error > w.error
                || (self.error == w.error && (self.reading, self.sample) < (w.reading, w.sample))
        })
    }
}

/// What one pass measures.
pub(super) struct Measure<'a> {
    pub skeleton: &'a Skeleton,
    pub shells: &'a Shells,
    pub reference: &'a Reference<'a>,
    pub keys: Keys<'a>,
    /// Readings of the keys: 1 (slerp), or 2 (slerp, then Blender's normalised lerp).
    pub readings: usize,
    /// The budget: errors above it are where joints miss.
    pub eps: f64,
    /// The joints measured (the others keep their errors).
    pub affected: &'a [bool],
    /// The joints composed to measure them (with their ancestors).
    pub needed: &'a [bool],
    /// Set: the runs not started yet are skipped (the pass's result is then not used).
    pub cancel: &'a super::Cancel,
}

impl Measure<'_> {
    /// Measures the affected joints at samples `0..errors.len() / joints`:
    /// `errors[s * joints + j]` the largest error over the readings (a pose that does not
    /// compose is infinitely wrong); per joint, where it misses the budget by the most (`None`
    /// for a joint not measured).
    pub fn run(&self, errors: &mut [f64]) -> Vec<Option<Worst>> {
        let joints = self.skeleton.len();
        let samples = errors.len() / joints.max(1);
        let n = self.reference.frames().min(samples);
        let per = if samples > n && n > 1 {
            (samples - n) / (n - 1)
        } else {
            0
        };
        // a task measures RUN frames and the inner samples after each, in time order: the keys
        // and frames read for a frame are read again between it and the next while in cache
        let (frames, inner) = errors.split_at_mut(n * joints);
        let mut inner = inner.chunks_mut(joints.max(1));
        let mut tasks: Vec<Vec<(usize, &mut [f64])>> = Vec::new();
        for (i, slot) in frames.chunks_mut(joints.max(1)).enumerate() {
            if i % RUN == 0 {
                tasks.push(Vec::with_capacity(RUN * (1 + per)));
            }
            let Some(task) = tasks.last_mut() else {
                continue;
            };
            task.push((i, slot));
            if i + 1 < n {
                for (m, s) in (0..per).zip(inner.by_ref()) {
                    task.push((n + i * per + m, s));
                }
            }
        }
        let parts: Vec<Vec<Option<Worst>>> = tasks
            .into_par_iter()
            .map(|task| self.run_of(task))
            .collect();
        let mut worst = vec![None; joints];
        for part in parts {
            for (w, p) in worst.iter_mut().zip(part) {
                if let Some(p) = p {
                    if p.beats(w) {
                        *w = Some(p);
                    }
                }
            }
        }
        worst
    }

    fn run_of(&self, samples: Vec<(usize, &mut [f64])>) -> Vec<Option<Worst>> {
        let joints = self.skeleton.len();
        let mut worst: Vec<Option<Worst>> = vec![None; joints];
        if self.cancel.is_cancelled() {
            return worst;
        }
        let (mut scratch, mut raw_world) = (Vec::new(), Vec::new());
        let (mut red, mut world) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
        let mut hints = Vec::new();
        // per joint, whether the second reading's world matrix is the first's (the same local
        // transforms all the way up): its error is then the same, and is not measured again;
        // `redo`: the needed joints that are not, composed again for the second reading
        let (mut same, mut redo) = (vec![false; joints], vec![false; joints]);
        let parents = self.skeleton.parents();
        for (sample, slot) in samples {
            let raw = self.reference.pose(sample, self.needed, &mut scratch);
            world_matrices_of(self.skeleton, raw, self.needed, &mut raw_world);
            for (e, _) in slot.iter_mut().zip(self.affected).filter(|(_, a)| **a) {
                *e = 0.0;
            }
            let [red0, red1] = &mut red;
            if self.readings == 2 {
                self.keys
                    .poses(sample, self.needed, &mut hints, red0, Some(red1));
                for j in 0..joints {
                    let up = parents[j].is_none_or(|p| (p as usize) >= j || same[p as usize]);
                    same[j] = up && red0[j] == red1[j];
                    redo[j] = self.needed[j] && !same[j];
                }
            } else {
                self.keys.poses(sample, self.needed, &mut hints, red0, None);
            }
            for reading in 0..self.readings {
                if reading == 0 {
                    world_matrices_of(self.skeleton, &red[0], self.needed, &mut world[0]);
                } else {
                    // composed again where the joint differs (only those are measured), a
                    // child of a joint that is the same on the first reading's matrix of it
                    let [w0, w1] = &mut world;
                    w1.resize(w0.len(), DMat4::ZERO);
                    for j in (0..joints).filter(|&j| redo[j]) {
                        if let Some(p) = parents[j].map(usize::from).filter(|&p| p < j) {
                            if !redo[p] {
                                w1[p] = w0[p];
                            }
                        }
                    }
                    world_matrices_of(self.skeleton, &red[1], &redo, w1);
                }
                let w = &world[reading];
                for j in (0..joints).filter(|&j| self.affected[j]) {
                    if reading == 1 && same[j] {
                        continue;
                    }
                    let e = shell_error(&raw_world[j], &w[j], self.shells.radius(j));
                    let error = if e.is_nan() { f64::INFINITY } else { e };
                    slot[j] = slot[j].max(error);
                    let here = Worst {
                        sample,
                        error,
                        reading,
                    };
                    if error > self.eps && here.beats(&worst[j]) {
                        worst[j] = Some(here);
                    }
                }
            }
        }
        worst
    }
}
