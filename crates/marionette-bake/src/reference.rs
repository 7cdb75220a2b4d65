//! The reference a reduction is measured against: the take's poses at every frame and at the
//! grid's inner times between frames, and its channels split per joint (rotations normalised
//! and hemisphere-continuous).

use glam::{Quat, Vec3, Vec4};

use super::curves::Samples;
use super::BakedTake;
use marionette_anim::{Interpolate, Transform};

const T: usize = 0;
const R: usize = 1;
const S: usize = 2;

/// The reference of a reduction, read a sample at a time (nothing beyond the take is held):
/// sample `s` is frame `s` for `s < n`, then the grid's inner times interval by interval
/// ([`Grid::sample_time`](super::Grid::sample_time)).
///
/// A take whose inner poses are the truth ([`BakedTake::exact_between`]: a clip baked at its
/// own key times) is measured against them. Otherwise the reference between frames is what
/// keys on the frame grid can play: a channel the source holds between frames (stepped in the
/// source) is held at the frame before (what STEP keys play); any other is the interpolation
/// of the two frames (what LINEAR keys on the frames play, at the fraction a client computes
/// from the f32 times).
pub(super) struct Reference<'a> {
    take: &'a BakedTake,
    stepped: Vec<[bool; 3]>,
}

impl<'a> Reference<'a> {
    pub fn new(take: &'a BakedTake) -> Self {
        let stepped = if take.exact_between {
            Vec::new()
        } else {
            stepped_channels(take)
        };
        Self { take, stepped }
    }

    /// Frames.
    pub fn frames(&self) -> usize {
        self.take.frames.len()
    }

    /// Samples: the frames, then `inner` per interval.
    pub fn len(&self) -> usize {
        let n = self.frames();
        n + n.saturating_sub(1) * self.take.grid.inner
    }

    /// Interval, and the fraction of it a client's LINEAR reading computes at its inner time
    /// `k` (at the time's f32 value, not `(k + 1) / (inner + 1)`: far from time 0 they differ
    /// by float steps, which across a jump, a clip's loop wrapping a root channel, is no longer
    /// nothing, and no key could make up for it).
    fn inner_at(&self, s: usize) -> (usize, usize, f32) {
        let grid = &self.take.grid;
        let (i, k) = (
            (s - self.frames()) / grid.inner,
            (s - self.frames()) % grid.inner,
        );
        let (t0, t1) = (grid.time(i), grid.time(i + 1));
        (i, k, (grid.inner_time(i, k) - t0) / (t1 - t0))
    }

    /// The pose at sample `s`, the joints `needed` at least (`scratch` holds it when it is
    /// computed; the other joints then hold the frame before).
    pub fn pose<'s>(
        &'s self,
        s: usize,
        needed: &[bool],
        scratch: &'s mut Vec<Transform>,
    ) -> &'s [Transform] {
        let n = self.frames();
        if s < n {
            return &self.take.frames[s];
        }
        if self.take.exact_between {
            return &self.take.inner[s - n];
        }
        let (i, _, f) = self.inner_at(s);
        let (a, b) = (&self.take.frames[i], &self.take.frames[i + 1]);
        scratch.clear();
        scratch.extend_from_slice(a);
        for (j, t) in scratch.iter_mut().enumerate() {
            if needed[j] {
                *t = between_joint(&a[j], &b[j], f, &self.stepped[j], false);
            }
        }
        scratch
    }

    /// One channel of joint `j` at every sample: `frame` reads it from a frame's (or a source
    /// inner pose's) transform, `between(a, b, f)` interpolates it between two frames where the
    /// source does not hold it (channel `c` of [`between_joint`], computed alone).
    fn channel<V>(
        &self,
        j: usize,
        c: usize,
        frame: impl Fn(&Transform) -> V,
        between: impl Fn(&Transform, &Transform, f32) -> V,
    ) -> Vec<V> {
        let n = self.frames();
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.take.frames.iter().map(|p| frame(&p[j])));
        if self.take.exact_between {
            out.extend(self.take.inner.iter().map(|p| frame(&p[j])));
            return out;
        }
        let held = self.stepped[j][c];
        out.extend((n..self.len()).map(|s| {
            let (i, _, f) = self.inner_at(s);
            let a = &self.take.frames[i][j];
            if held {
                frame(a)
            } else {
                between(a, &self.take.frames[i + 1][j], f)
            }
        }));
        out
    }

    /// Joint `j`'s translations at every sample.
    pub fn translation(&self, j: usize) -> Vec<Vec3> {
        self.channel(
            j,
            T,
            |t| t.translation,
            |a, b, f| Interpolate::linear(a.translation, b.translation, f),
        )
    }

    /// Joint `j`'s scales at every sample.
    pub fn scale(&self, j: usize) -> Vec<Vec3> {
        self.channel(
            j,
            S,
            |t| t.scale,
            |a, b, f| Interpolate::linear(a.scale, b.scale, f),
        )
    }

    /// Joint `j`'s rotations at every sample, normalised and hemisphere-continuous: frames
    /// follow the previous frame, inner values the frame before them.
    pub fn rotation(&self, j: usize) -> Vec<Quat> {
        let (n, inner) = (self.frames(), self.take.grid.inner.max(1));
        let raw = self.channel(
            j,
            R,
            |t| t.rotation,
            |a, b, f| between_rotation(a, b, f, false),
        );
        let mut out: Vec<Quat> = Vec::with_capacity(self.len());
        for (f, r) in raw.into_iter().enumerate() {
            let mut q = r.normalize();
            let prev = if f < n {
                f.checked_sub(1)
            } else {
                Some((f - n) / inner)
            };
            if let Some(p) = prev.map(|p| out[p]) {
                if p.dot(q) < 0.0 {
                    q = -q;
                }
            }
            out.push(q);
        }
        out
    }

    /// One channel's samples (`v` as [`Reference::translation`] and the others give them).
    pub fn samples<'v, T>(&self, v: &'v [T]) -> Samples<'v, T> {
        let n = self.frames();
        Samples {
            frames: &v[..n],
            inner: (v.len() > n).then(|| &v[n..]),
            inner_exact: self.take.exact_between,
            keys: None,
        }
    }
}

/// `stepped[j] = [translation, rotation, scale]`: the channels the source holds between every
/// two frames (every inner pose equals a neighbouring frame); none without inner poses.
pub(super) fn stepped_channels(take: &BakedTake) -> Vec<[bool; 3]> {
    let joints = take.frames.first().map_or(0, Vec::len);
    let mut stepped = vec![[!take.inner.is_empty(); 3]; joints];
    let per = take.grid.inner.max(1);
    for (s, inner) in take.inner.iter().enumerate() {
        let i = s / per;
        let (Some(a), Some(b)) = (take.frames.get(i), take.frames.get(i + 1)) else {
            continue;
        };
        for (j, st) in stepped.iter_mut().enumerate() {
            let (h, a, b) = (inner[j], a[j], b[j]);
            let held = |x: Vec4, y: Vec4, z: Vec4| same(x, y) || same(x, z);
            st[T] &= held(
                h.translation.extend(0.0),
                a.translation.extend(0.0),
                b.translation.extend(0.0),
            );
            let q = Vec4::from(h.rotation);
            st[R] &= held(q, a.rotation.into(), b.rotation.into())
                || held(-q, a.rotation.into(), b.rotation.into());
            st[S] &= held(
                h.scale.extend(0.0),
                a.scale.extend(0.0),
                b.scale.extend(0.0),
            );
        }
    }
    stepped
}

/// The pose keys on the grid play between frames `a` and `b` at fraction `s`: each channel
/// interpolated (slerp, or with `nlerp` Blender's normalised lerp), or held at `a` where the
/// source is `stepped`.
pub(super) fn between(
    a: &[Transform],
    b: &[Transform],
    s: f32,
    stepped: &[[bool; 3]],
    nlerp: bool,
) -> Vec<Transform> {
    a.iter()
        .zip(b)
        .zip(stepped)
        .map(|((a, b), st)| between_joint(a, b, s, st, nlerp))
        .collect()
}

/// One joint of [`between`].
fn between_joint(a: &Transform, b: &Transform, s: f32, st: &[bool; 3], nlerp: bool) -> Transform {
    let mut t = Transform::new(
        Interpolate::linear(a.translation, b.translation, s),
        between_rotation(a, b, s, nlerp),
        Interpolate::linear(a.scale, b.scale, s),
    );
    if st[T] {
        t.translation = a.translation;
    }
    if st[R] {
        t.rotation = a.rotation;
    }
    if st[S] {
        t.scale = a.scale;
    }
    t
}

/// The rotation of [`between_joint`]: the two normalised, slerped (or with `nlerp` Blender's
/// normalised lerp, on the near hemisphere).
fn between_rotation(a: &Transform, b: &Transform, s: f32, nlerp: bool) -> Quat {
    let (qa, qb) = (a.rotation.normalize(), b.rotation.normalize());
    if nlerp {
        <Quat as super::FitValue>::nlerp(qa, if qa.dot(qb) < 0.0 { -qb } else { qb }, s)
    } else {
        Interpolate::linear(qa, qb, s)
    }
}

/// Equal up to float noise (a value held by the source).
fn same(a: Vec4, b: Vec4) -> bool {
    (a - b).abs().max_element() <= 1e-7 * (1.0 + a.abs().max_element())
}
