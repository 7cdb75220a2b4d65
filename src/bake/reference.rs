//! The reference a reduction is measured against: the take's poses at every frame and halfway
//! between frames, and its channels split per joint (rotations normalised and
//! hemisphere-continuous).

use glam::{Quat, Vec3, Vec4};

use super::curves::Samples;
use super::BakedTake;
use crate::anim::{Interpolate, Transform};

const T: usize = 0;
const R: usize = 1;
const S: usize = 2;

/// Raw channels of a take, per joint: the value at every frame, then (`halves`) halfway
/// between frames; rotations normalised and hemisphere-continuous.
pub(super) struct RawChannels {
    pub translation: Vec<Vec<Vec3>>,
    pub rotation: Vec<Vec<Quat>>,
    pub scale: Vec<Vec<Vec3>>,
    /// Frames per channel (the rest are half frames).
    n: usize,
}

impl RawChannels {
    pub fn new(poses: &[Vec<Transform>], n: usize, joints: usize) -> Self {
        let mut translation = vec![Vec::with_capacity(poses.len()); joints];
        let mut rotation: Vec<Vec<Quat>> = vec![Vec::with_capacity(poses.len()); joints];
        let mut scale = vec![Vec::with_capacity(poses.len()); joints];
        for (f, pose) in poses.iter().enumerate() {
            for (j, t) in pose.iter().enumerate() {
                translation[j].push(t.translation);
                let mut q = t.rotation.normalize();
                // frames follow the previous frame, half frames the frame before them
                let prev = if f < n { f.checked_sub(1) } else { Some(f - n) };
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

    pub fn samples<'a, T>(&self, v: &'a [T]) -> Samples<'a, T> {
        Samples {
            frames: &v[..self.n],
            halves: (v.len() > self.n).then(|| &v[self.n..]),
        }
    }
}

/// The take's poses at every frame, then the reference halfway between frames. A channel the
/// source holds between frames (stepped in the source: every half frame equals a neighbouring
/// frame) is held at the frame before (what STEP keys on the frame grid play); any other is
/// the interpolation of the two frames (what LINEAR keys on the frames play, at the fraction a
/// client computes from the f32 times), so the reference is always reproducible by keys on the
/// frame grid.
pub(super) fn sample_poses(take: &BakedTake) -> Vec<Vec<Transform>> {
    let mut poses = take.frames.clone();
    let joints = take.frames.first().map_or(0, Vec::len);
    // stepped[j] = [translation, rotation, scale] held between frames by the source
    let mut stepped = vec![[!take.halves.is_empty(); 3]; joints];
    for (i, half) in take.halves.iter().enumerate() {
        let (a, b) = (&take.frames[i], &take.frames[i + 1]);
        for (j, st) in stepped.iter_mut().enumerate() {
            let (h, a, b) = (half[j], a[j], b[j]);
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
    let grid = take.grid();
    for (i, w) in take.frames.windows(2).enumerate() {
        // the fraction a client's LINEAR reading computes at the half frame's f32 time, not
        // 0.5: far from time 0 they differ by float steps, which across a jump (a clip's loop
        // wrapping a root channel) is no longer nothing, and no key could make up for it
        let (t0, t1) = (grid.time(i), grid.time(i + 1));
        let s = (grid.half(i) - t0) / (t1 - t0);
        poses.push(
            w[0].iter()
                .zip(&w[1])
                .zip(&stepped)
                .map(|((a, b), st)| {
                    let mut t = Transform::new(
                        Interpolate::linear(a.translation, b.translation, s),
                        Interpolate::linear(a.rotation.normalize(), b.rotation.normalize(), s),
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
                .collect(),
        );
    }
    poses
}

/// Equal up to float noise (a value held by the source).
fn same(a: Vec4, b: Vec4) -> bool {
    (a - b).abs().max_element() <= 1e-7 * (1.0 + a.abs().max_element())
}
