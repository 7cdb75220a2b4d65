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

/// Raw channels of a take, per joint: the value at every frame, then at every inner time
/// (`inner` per interval); rotations normalised and hemisphere-continuous.
pub(super) struct RawChannels {
    pub translation: Vec<Vec<Vec3>>,
    pub rotation: Vec<Vec<Quat>>,
    pub scale: Vec<Vec<Vec3>>,
    /// Frames per channel (the rest are inner values).
    n: usize,
}

impl RawChannels {
    pub fn new(poses: &[Vec<Transform>], n: usize, inner: usize, joints: usize) -> Self {
        let mut translation = vec![Vec::with_capacity(poses.len()); joints];
        let mut rotation: Vec<Vec<Quat>> = vec![Vec::with_capacity(poses.len()); joints];
        let mut scale = vec![Vec::with_capacity(poses.len()); joints];
        for (f, pose) in poses.iter().enumerate() {
            for (j, t) in pose.iter().enumerate() {
                translation[j].push(t.translation);
                let mut q = t.rotation.normalize();
                // frames follow the previous frame, inner values the frame before them
                let prev = if f < n {
                    f.checked_sub(1)
                } else {
                    Some((f - n) / inner.max(1))
                };
                if let Some(p) = prev.map(|p| rotation[j][p]) {
                    if p.dot(q) < 0.0 {
                        q = -q;
                    }
                }
                rotation[j].push(q);
                scale[j].push(t.scale);
            }
        }
        Self {
            translation,
            rotation,
            scale,
            n,
        }
    }

    /// One channel's samples; `exact`: its inner values are the source itself.
    pub fn samples<'a, T>(&self, v: &'a [T], exact: bool) -> Samples<'a, T> {
        Samples {
            frames: &v[..self.n],
            inner: (v.len() > self.n).then(|| &v[self.n..]),
            inner_exact: exact,
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
        .map(|((a, b), st)| {
            let (qa, qb) = (a.rotation.normalize(), b.rotation.normalize());
            let q = if nlerp {
                <Quat as super::FitValue>::nlerp(qa, if qa.dot(qb) < 0.0 { -qb } else { qb }, s)
            } else {
                Interpolate::linear(qa, qb, s)
            };
            let mut t = Transform::new(
                Interpolate::linear(a.translation, b.translation, s),
                q,
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
        })
        .collect()
}

/// The take's poses at every frame, then at every inner time of its grid.
///
/// A take whose inner poses are the truth ([`BakedTake::exact_between`]: a clip baked at its
/// own key times) is measured against them. Otherwise the reference between frames is what
/// keys on the frame grid can play: a channel the source holds between frames (stepped in the
/// source) is held at the frame before (what STEP keys play); any other is the interpolation
/// of the two frames (what LINEAR keys on the frames play, at the fraction a client computes
/// from the f32 times).
pub(super) fn sample_poses(take: &BakedTake) -> Vec<Vec<Transform>> {
    let mut poses = take.frames.clone();
    if take.exact_between {
        poses.extend(take.inner.iter().cloned());
        return poses;
    }
    let stepped = stepped_channels(take);
    let grid = &take.grid;
    for (i, w) in take.frames.windows(2).enumerate() {
        // the fraction a client's LINEAR reading computes at the inner time's f32 value, not
        // k / (inner + 1): far from time 0 they differ by float steps, which across a jump (a
        // clip's loop wrapping a root channel) is no longer nothing, and no key could make up
        // for it
        let (t0, t1) = (grid.time(i), grid.time(i + 1));
        for k in 0..grid.inner {
            let s = (grid.inner_time(i, k) - t0) / (t1 - t0);
            poses.push(between(&w[0], &w[1], s, &stepped, false));
        }
    }
    poses
}

/// Equal up to float noise (a value held by the source).
fn same(a: Vec4, b: Vec4) -> bool {
    (a - b).abs().max_element() <= 1e-7 * (1.0 + a.abs().max_element())
}
