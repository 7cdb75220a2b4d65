//! Inertial transitions (Bollo, "Inertialization: High-Performance Animation Transitions in
//! Gears of War", GDC 2018): at the switch the target plays at full weight and the difference
//! between the outgoing pose and the target's first pose (an *offset* per joint: rotation
//! vector, translation and scale, and per morph weight) is added on top of the target and
//! decays to zero over the blend time along a quintic that starts with the offset's value and
//! velocity and ends with zero value, velocity and acceleration. The output is therefore
//! continuous in position and velocity at the switch, and the source is never evaluated again.
//!
//! Each of the nine scalars of a joint decays on its own quintic (not Bollo's one axis per
//! joint), so the velocity matches in every direction, not only along the offset. A component
//! heading for zero fast enough to overshoot reaches it sooner (Bollo's `t1 = -5 x0 / v0`), and
//! the initial acceleration is clamped so the curve does not start by moving away.
//!
//! A rotation's offset is the vector part of the offset quaternion (the shorter way round,
//! `w >= 0`), its `w` rebuilt as `sqrt(1 - |v|^2)`: smooth near no offset, so position and
//! velocity stay continuous, and four joints' rotations are evaluated together (each scalar of
//! a group of four in one SIMD lane), with one square root for the four and no trigonometry.

use glam::{Quat, Vec3, Vec4};

use crate::Transform;

/// One scalar's decay: `x(t) = x0 + v0 t + a t² + c3 t³ + c4 t⁴ + c5 t⁵` for `t < end`, zero
/// from `end` on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Quintic {
    c: [f32; 6],
    end: f32,
}

impl Quintic {
    /// The decay from value `x0` and velocity `v0` to rest in at most `blend` seconds.
    pub fn new(x0: f32, v0: f32, blend: f32) -> Self {
        if !(blend > 0.0 && x0.is_finite() && v0.is_finite()) || (x0 == 0.0 && v0 == 0.0) {
            return Self::default();
        }
        // work with a positive offset (a zero one takes its velocity's opposite sign)
        let sign = if x0 > 0.0 || (x0 == 0.0 && v0 < 0.0) {
            1.0
        } else {
            -1.0
        };
        let (x0, v0) = (x0 * sign, v0 * sign);
        let mut t = blend;
        if v0 < 0.0 && x0 > 0.0 {
            t = t.min(-5.0 * x0 / v0);
        }
        let a0 = ((-8.0 * v0 * t - 20.0 * x0) / (t * t)).max(0.0);
        let (t2, t3) = (t * t, t * t * t);
        let c3 = -(20.0 * x0 + 12.0 * v0 * t + 3.0 * a0 * t2) / (2.0 * t3);
        let c4 = (30.0 * x0 + 16.0 * v0 * t + 3.0 * a0 * t2) / (2.0 * t3 * t);
        let c5 = -(12.0 * x0 + 6.0 * v0 * t + a0 * t2) / (2.0 * t3 * t2);
        let c = [x0, v0, 0.5 * a0, c3, c4, c5].map(|k| k * sign);
        if c.iter().all(|k| k.is_finite()) {
            Self { c, end: t }
        } else {
            Self::default()
        }
    }

    /// The value `t` seconds after the switch.
    #[inline]
    pub fn at(&self, t: f32) -> f32 {
        if t >= self.end {
            return 0.0;
        }
        let c = &self.c;
        c[0] + t * (c[1] + t * (c[2] + t * (c[3] + t * (c[4] + t * c[5]))))
    }

    fn is_zero(&self) -> bool {
        self.end == 0.0
    }
}

/// Three decays (a vector offset's components) evaluated together: coefficient `k` of the
/// three in one SIMD vector, so a frame's Horner steps serve all three at once.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Decay3 {
    c: [Vec4; 6],
    end: Vec4,
}

impl Decay3 {
    fn new(q: [Quintic; 3]) -> Self {
        Decay3 {
            c: std::array::from_fn(|k| Vec4::new(q[0].c[k], q[1].c[k], q[2].c[k], 0.0)),
            end: Vec4::new(q[0].end, q[1].end, q[2].end, 0.0),
        }
    }

    /// The three values `t` seconds after the switch (each zero from its own end on).
    #[inline]
    fn at(&self, t: f32) -> Vec3 {
        let c = &self.c;
        let tv = Vec4::splat(t);
        // (plain multiply-adds: `mul_add` is a libm call per lane without the `fma` target
        // feature, which made this three times slower)
        let v = ((((c[5] * tv + c[4]) * tv + c[3]) * tv + c[2]) * tv + c[1]) * tv + c[0];
        Vec4::select(tv.cmplt(self.end), v, Vec4::ZERO).truncate()
    }
}

/// The offsets of a running inertial transition (part of the graph state). Only the channels
/// with an offset are kept, each with its joint, so a frame does no work for the many that
/// have none (scale, and the translation of most joints).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Inertia {
    /// Joints whose rotation has an offset, four at a time.
    rotations: Vec<Rotations4>,
    /// Joints whose translation has an offset.
    translations: Vec<(u32, Decay3)>,
    /// Joints whose scale has an offset.
    scales: Vec<(u32, Decay3)>,
    /// Morph weights with an offset, and their decays.
    morphs: Vec<(u32, Quintic)>,
}

/// Two poses (and their morph weights) one step apart.
pub(crate) struct Poses<'a> {
    pub now: (&'a [Transform], &'a [f32]),
    pub next: (&'a [Transform], &'a [f32]),
}

/// The rotation taking `to` onto `from` (the shorter way round), as its quaternion's vector
/// part.
fn rotation_offset(from: Quat, to: Quat) -> Vec3 {
    let d = from * to.inverse();
    let d = if d.w < 0.0 { -d } else { d };
    Vec3::new(d.x, d.y, d.z)
}

/// Four joints' rotation offsets: for each of the three vector components, coefficient `k` of
/// the four joints' quintics in one SIMD vector (a joint slot of a group not full is idle: no
/// joint, zero coefficients).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Rotations4 {
    joints: [u32; 4],
    c: [[Vec4; 6]; 3],
    end: [Vec4; 3],
}

impl Rotations4 {
    const IDLE: u32 = u32::MAX;

    fn empty() -> Self {
        Rotations4 {
            joints: [Self::IDLE; 4],
            ..Default::default()
        }
    }

    /// Puts joint `joint`'s three decays in slot `slot`.
    fn set(&mut self, slot: usize, joint: u32, q: [Quintic; 3]) {
        self.joints[slot] = joint;
        for (axis, q) in q.iter().enumerate() {
            for k in 0..6 {
                self.c[axis][k][slot] = q.c[k];
            }
            self.end[axis][slot] = q.end;
        }
    }

    /// Turns the four joints' rotations in `pose` by their offsets `t` seconds after the
    /// switch, the four at once: the offsets' lanes (`x`, `y`, `z`, `w` of each slot), the
    /// joints' rotations transposed into lanes, one quaternion product and renormalisation
    /// for the four, and back. A slot whose offset has decayed keeps its rotation bit for bit.
    #[inline]
    fn apply(&self, t: f32, pose: &mut [Transform]) {
        let tv = Vec4::splat(t);
        let horner = |c: &[Vec4; 6], end: Vec4| {
            // (plain multiply-adds: `mul_add` is a libm call per lane without the `fma` target
            // feature)
            let v = ((((c[5] * tv + c[4]) * tv + c[3]) * tv + c[2]) * tv + c[1]) * tv + c[0];
            Vec4::select(tv.cmplt(end), v, Vec4::ZERO)
        };
        let ox = horner(&self.c[0], self.end[0]);
        let oy = horner(&self.c[1], self.end[1]);
        let oz = horner(&self.c[2], self.end[2]);
        let n = ox * ox + oy * oy + oz * oz;
        // a decay's overshoot past a half turn (|v| > 1) is held at it
        let scale = Vec4::select(n.cmpgt(Vec4::ONE), Vec4::ONE / n.sqrt(), Vec4::ONE);
        let (ox, oy, oz) = (ox * scale, oy * scale, oz * scale);
        let ow = (Vec4::ONE - n).max(Vec4::ZERO).sqrt();
        let idle = n.cmpeq(Vec4::ZERO);
        let rotation = |slot: usize| {
            let j = self.joints[slot] as usize;
            pose.get(j).map_or(Vec4::W, |p| Vec4::from(p.rotation))
        };
        let p =
            glam::Mat4::from_cols(rotation(0), rotation(1), rotation(2), rotation(3)).transpose();
        let (px, py, pz, pw) = (p.x_axis, p.y_axis, p.z_axis, p.w_axis);
        let x = ow * px + ox * pw + oy * pz - oz * py;
        let y = ow * py - ox * pz + oy * pw + oz * px;
        let z = ow * pz + ox * py - oy * px + oz * pw;
        let w = ow * pw - ox * px - oy * py - oz * pz;
        // renormalised by one Newton step (see [`renormalize`])
        let k = Vec4::splat(1.5) - Vec4::splat(0.5) * (x * x + y * y + z * z + w * w);
        let keep = |new: Vec4, old: Vec4| Vec4::select(idle, old, new * k);
        let out =
            glam::Mat4::from_cols(keep(x, px), keep(y, py), keep(z, pz), keep(w, pw)).transpose();
        for (&j, q) in self
            .joints
            .iter()
            .zip([out.x_axis, out.y_axis, out.z_axis, out.w_axis])
        {
            if let Some(p) = pose.get_mut(j as usize) {
                p.rotation = Quat::from_vec4(q);
            }
        }
    }
}

/// The three decays of a vector offset, kept for `joint` when any is not zero.
fn keep(list: &mut Vec<(u32, Decay3)>, joint: usize, now: Vec3, next: Vec3, dt: f32, blend: f32) {
    let v = (next - now) / dt;
    let q = [0, 1, 2].map(|k| Quintic::new(now[k], v[k], blend));
    if !q.iter().all(Quintic::is_zero) {
        list.push((joint as u32, Decay3::new(q)));
    }
}

/// A quaternion within 1e-4 of unit length brought back to it by one Newton step of
/// `1 / sqrt(n)` (`q * (3 - n) / 2`, error about 1e-8): the product of two unit quaternions
/// needs no square root and no division, which were a third of an inertial frame's offsets.
#[cfg(test)]
fn renormalize(q: Quat) -> Quat {
    let n = q.length_squared();
    q * (1.5 - 0.5 * n)
}

impl Inertia {
    /// Forgets the offsets (the transition ended, or a crossfade replaced it).
    pub fn clear(&mut self) {
        self.rotations.clear();
        self.translations.clear();
        self.scales.clear();
        self.morphs.clear();
    }

    /// The offsets from the target (`target`, one step `dt` apart) to the outgoing pose
    /// (`source`, the same two times), decaying over `blend` seconds.
    pub fn capture(&mut self, source: &Poses, target: &Poses, dt: f32, blend: f32) {
        self.clear();
        let joints = source.now.0.len().min(target.now.0.len());
        let mut group = Rotations4::empty();
        let mut filled = 0;
        for j in 0..joints {
            let (a0, a1) = (&source.now.0[j], &source.next.0[j]);
            let (b0, b1) = (&target.now.0[j], &target.next.0[j]);
            let (r0, r1) = (
                rotation_offset(a0.rotation, b0.rotation),
                rotation_offset(a1.rotation, b1.rotation),
            );
            let v = (r1 - r0) / dt;
            let q = [0, 1, 2].map(|k| Quintic::new(r0[k], v[k], blend));
            if !q.iter().all(Quintic::is_zero) {
                group.set(filled, j as u32, q);
                filled += 1;
                if filled == 4 {
                    self.rotations
                        .push(std::mem::replace(&mut group, Rotations4::empty()));
                    filled = 0;
                }
            }
            keep(
                &mut self.translations,
                j,
                a0.translation - b0.translation,
                a1.translation - b1.translation,
                dt,
                blend,
            );
            let (s0, s1) = (a0.scale - b0.scale, a1.scale - b1.scale);
            keep(&mut self.scales, j, s0, s1, dt, blend);
        }
        if filled > 0 {
            self.rotations.push(group);
        }
        let morphs = source.now.1.len().min(target.now.1.len());
        for k in 0..morphs {
            let x0 = source.now.1[k] - target.now.1[k];
            let x1 = source.next.1[k] - target.next.1[k];
            let q = Quintic::new(x0, (x1 - x0) / dt, blend);
            if !q.is_zero() {
                self.morphs.push((k as u32, q));
            }
        }
    }

    /// Adds the offsets, `t` seconds after the switch, to the target's pose and weights.
    pub fn apply(&self, t: f32, pose: &mut [Transform], morphs: &mut [f32]) {
        for group in &self.rotations {
            group.apply(t, pose);
        }
        for (j, q) in &self.translations {
            if let Some(p) = pose.get_mut(*j as usize) {
                p.translation += q.at(t);
            }
        }
        for (j, q) in &self.scales {
            if let Some(p) = pose.get_mut(*j as usize) {
                p.scale += q.at(t);
            }
        }
        for (k, q) in &self.morphs {
            if let Some(w) = morphs.get_mut(*k as usize) {
                *w = crate::morph::clamp_weight(*w + q.at(t));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slope(q: &Quintic, t: f32) -> f32 {
        let h = 1e-3;
        (q.at(t + h) - q.at(t - h)) / (2.0 * h)
    }

    #[test]
    fn a_decay_starts_with_the_offset_and_its_velocity_and_ends_at_rest() {
        for (x0, v0) in [
            (1.0, 0.0),
            (0.5, 3.0),
            (-0.4, 2.0),
            (0.0, -1.5),
            (0.3, -0.5),
        ] {
            let q = Quintic::new(x0, v0, 0.3);
            assert!((q.at(0.0) - x0).abs() < 1e-6, "{x0} {v0}");
            let d0 = (q.at(1e-4) - q.at(0.0)) / 1e-4;
            assert!((d0 - v0).abs() < 0.02 * (1.0 + v0.abs()), "{x0} {v0}: {d0}");
            assert!(q.at(q.end - 1e-4).abs() < 1e-5, "{x0} {v0}");
            assert!(slope(&q, q.end - 2e-3).abs() < 0.02, "{x0} {v0}");
            assert_eq!(q.at(0.3), 0.0);
        }
    }

    #[test]
    fn renormalizing_a_product_gives_a_unit_quaternion() {
        let a = Quat::from_scaled_axis(Vec3::new(0.4, -0.9, 0.3));
        for k in 0..100 {
            let b = Quat::from_euler(glam::EulerRot::YXZ, k as f32 * 0.37, k as f32 * -0.21, 0.5);
            let q = renormalize(a * b);
            assert!((q.length() - 1.0).abs() < 1e-6, "{k}: {}", q.length());
            assert!(q.abs_diff_eq((a * b).normalize(), 1e-6), "{k}");
        }
    }

    /// Six joints (two groups, the second half idle) get each its own offset back.
    #[test]
    fn groups_of_four_keep_each_joints_offset() {
        let n = 6;
        let a: Vec<Transform> = (0..n)
            .map(|j| Transform {
                rotation: Quat::from_rotation_x(0.1 + 0.2 * j as f32),
                ..Transform::IDENTITY
            })
            .collect();
        let b = vec![Transform::IDENTITY; n];
        let (wa, wb) = (vec![], vec![]);
        let src = Poses {
            now: (&a, &wa),
            next: (&a, &wa),
        };
        let dst = Poses {
            now: (&b, &wb),
            next: (&b, &wb),
        };
        let mut inertia = Inertia::default();
        inertia.capture(&src, &dst, 1.0 / 60.0, 0.3);
        assert_eq!(inertia.rotations.len(), 2);
        let mut pose = b.clone();
        inertia.apply(0.0, &mut pose, &mut []);
        for j in 0..n {
            assert!(
                pose[j].rotation.abs_diff_eq(a[j].rotation, 1e-6),
                "{j}: {:?} vs {:?}",
                pose[j].rotation,
                a[j].rotation
            );
        }
    }

    #[test]
    fn a_fast_approach_reaches_zero_sooner_instead_of_overshooting() {
        let q = Quintic::new(0.1, -5.0, 0.5);
        assert!((q.end - 0.1).abs() < 1e-6, "{}", q.end);
        let lowest = (0..100).map(|k| q.at(k as f32 * 0.001)).fold(1.0, f32::min);
        assert!(lowest > -1e-3, "overshoots to {lowest}");
    }

    #[test]
    fn the_target_plus_the_offset_is_the_source_at_the_switch() {
        let a = Transform {
            translation: Vec3::new(0.1, 0.9, 0.0),
            rotation: Quat::from_rotation_x(0.8),
            scale: Vec3::ONE,
        };
        let b = Transform {
            rotation: Quat::from_rotation_y(-0.5),
            ..Transform::IDENTITY
        };
        let mut a1 = a;
        a1.rotation = Quat::from_rotation_x(0.82);
        let src = Poses {
            now: (std::slice::from_ref(&a), &[0.7]),
            next: (std::slice::from_ref(&a1), &[0.7]),
        };
        let dst = Poses {
            now: (std::slice::from_ref(&b), &[0.2]),
            next: (std::slice::from_ref(&b), &[0.2]),
        };
        let mut inertia = Inertia::default();
        inertia.capture(&src, &dst, 1.0 / 60.0, 0.2);
        let (mut pose, mut w) = ([b], [0.2]);
        inertia.apply(0.0, &mut pose, &mut w);
        assert!(pose[0].rotation.angle_between(a.rotation) < 1e-4);
        assert!((pose[0].translation - a.translation).length() < 1e-6);
        assert!((w[0] - 0.7).abs() < 1e-6);
        let (mut pose, mut w) = ([b], [0.2]);
        inertia.apply(0.2, &mut pose, &mut w);
        assert_eq!((pose[0], w[0]), (b, 0.2));
    }
}
