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

    /// The channels `want` (`[translation, rotation, scale]`) of each joint of `joints` at
    /// every sample, read in one sweep over the frames (a frame's joints sit together, so a
    /// block of joints costs about what one channel alone would). Rotations are normalised and
    /// hemisphere-continuous: frames follow the previous frame, inner values the frame before
    /// them. Between frames a channel the source holds is held at the frame before; any other
    /// is interpolated as [`between_joint`] interpolates it.
    pub fn joints(&self, joints: &[usize], want: &[[bool; 3]]) -> Vec<JointSamples> {
        let (n, len) = (self.frames(), self.len());
        let mut out = JointSamples::with_room(want, len);
        let read =
            |out: &mut Vec<JointSamples>, a: &[Transform], b: Option<(&[Transform], f32)>| {
                for ((&j, w), o) in joints.iter().zip(want).zip(out.iter_mut()) {
                    let a = &a[j];
                    // (between frames only without the source's inner poses: `stepped` is
                    // known there)
                    let between = b.map(|(b, f)| (&b[j], f));
                    let held = |c: usize| self.stepped[j][c];
                    if w[T] {
                        o.translation.push(match between {
                            Some((b, f)) if !held(T) => {
                                Interpolate::linear(a.translation, b.translation, f)
                            }
                            _ => a.translation,
                        });
                    }
                    if w[R] {
                        o.rotation.push(match between {
                            Some((b, f)) if !held(R) => between_rotation(a, b, f, false),
                            _ => a.rotation,
                        });
                    }
                    if w[S] {
                        o.scale.push(match between {
                            Some((b, f)) if !held(S) => Interpolate::linear(a.scale, b.scale, f),
                            _ => a.scale,
                        });
                    }
                }
            };
        if self.take.exact_between {
            for frame in &self.take.frames {
                read(&mut out, frame, None);
            }
            for pose in &self.take.inner {
                read(&mut out, pose, None);
            }
        } else {
            // one sweep over the take: each frame, then the inner values after it (kept apart
            // and appended after the frames)
            let mut between = JointSamples::with_room(want, len - n);
            let per = self.take.grid.inner;
            for (i, frame) in self.take.frames.iter().enumerate() {
                read(&mut out, frame, None);
                for s in (0..per).map(|k| n + i * per + k).filter(|&s| s < len) {
                    let (i, _, f) = self.inner_at(s);
                    let (a, b) = (&self.take.frames[i], &self.take.frames[i + 1]);
                    read(&mut between, a, Some((b, f)));
                }
            }
            for (o, b) in out.iter_mut().zip(between) {
                o.translation.extend(b.translation);
                o.rotation.extend(b.rotation);
                o.scale.extend(b.scale);
            }
        }
        let inner = self.take.grid.inner.max(1);
        for o in &mut out {
            for f in 0..o.rotation.len() {
                let mut q = o.rotation[f].normalize();
                let prev = if f < n {
                    f.checked_sub(1)
                } else {
                    Some((f - n) / inner)
                };
                if let Some(p) = prev.map(|p| o.rotation[p]) {
                    if p.dot(q) < 0.0 {
                        q = -q;
                    }
                }
                o.rotation[f] = q;
            }
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

/// One joint's channels at every sample ([`Reference::joints`]); a channel not asked for is
/// empty.
pub(super) struct JointSamples {
    pub translation: Vec<Vec3>,
    pub rotation: Vec<Quat>,
    pub scale: Vec<Vec3>,
}

impl JointSamples {
    /// Empty channels for each of `want` (`[translation, rotation, scale]`), with room for
    /// `len` values in each channel asked for.
    fn with_room(want: &[[bool; 3]], len: usize) -> Vec<Self> {
        let room = |asked: bool| if asked { len } else { 0 };
        want.iter()
            .map(|w| Self {
                translation: Vec::with_capacity(room(w[T])),
                rotation: Vec::with_capacity(room(w[R])),
                scale: Vec::with_capacity(room(w[S])),
            })
            .collect()
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
