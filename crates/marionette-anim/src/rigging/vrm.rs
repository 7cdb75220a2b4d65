//! Spring bones as VRM files carry them (`VRMC_springBone` 1.0: springs of joints, each with
//! `stiffness`, `dragForce`, `gravityPower`, `gravityDir` and `hitRadius`, and sphere and capsule
//! colliders in groups), and their conversion to Marionette's [`super::spring`] settings, so an
//! avatar's own springs work unchanged (the codec reads and writes the extension; a script
//! takes them with `rig:springs()`).
//!
//! **Conversion.** VRM's spring runs once per rendered frame and moves a joint's tail each frame
//! by `stiffness · dt` along the unit direction back to its rest, keeps `1 - dragForce` of the
//! last frame's motion, and adds `gravityPower · dt` along `gravityDir`: its feel depends on the
//! frame rate. Read at the 60 fps it is tuned at, for a bone of length `L`:
//! the restoring pull is a spring of angular frequency `ω = √(stiffness · 60 / L)`
//! (`stiffness_hz = ω / 2π`); the drag a velocity decay of `-ln(1 - dragForce) · 60` per second
//! (held apart from the spring's damping ratio, so a joint with no stiffness still slows down);
//! gravity an acceleration of `gravityPower · 60` m/s² along `gravityDir`. [`to_vrm`] inverts it.

use glam::Vec3;

use super::spring::{Shape, SpringSettings};
use crate::JointIndex;

/// The frame rate VRM settings are read at.
pub const VRM_FPS: f32 = 60.0;

/// One joint of a VRM spring, with its own settings.
#[derive(Clone, Debug, PartialEq)]
pub struct VrmJoint {
    /// The joint.
    pub joint: JointIndex,
    /// `hitRadius`, metres.
    pub hit_radius: f32,
    /// `stiffness`.
    pub stiffness: f32,
    /// `gravityPower`.
    pub gravity_power: f32,
    /// `gravityDir` (unit, world).
    pub gravity_dir: Vec3,
    /// `dragForce`, 0..1.
    pub drag: f32,
}

/// A VRM spring: a chain of joints (the last one is the tail of the one before it).
#[derive(Clone, Debug, PartialEq)]
pub struct VrmSpring {
    /// Its name (may be empty).
    pub name: String,
    /// The joints, root first.
    pub joints: Vec<VrmJoint>,
    /// The collider groups it collides with (indices into [`VrmSprings::groups`]).
    pub groups: Vec<usize>,
    /// The joint whose space it simulates in (`center`), if any.
    pub center: Option<JointIndex>,
}

/// A VRM collider on a joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VrmCollider {
    /// The joint.
    pub joint: JointIndex,
    /// Its shape in the joint's frame.
    pub shape: Shape,
}

/// A named group of colliders.
#[derive(Clone, Debug, PartialEq)]
pub struct VrmColliderGroup {
    /// Its name (may be empty).
    pub name: String,
    /// Indices into [`VrmSprings::colliders`].
    pub colliders: Vec<usize>,
}

/// The spring bones of a file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VrmSprings {
    /// The colliders.
    pub colliders: Vec<VrmCollider>,
    /// The collider groups.
    pub groups: Vec<VrmColliderGroup>,
    /// The springs.
    pub springs: Vec<VrmSpring>,
}

impl VrmSprings {
    /// Whether the file had none.
    pub fn is_empty(&self) -> bool {
        self.springs.is_empty()
    }

    /// The colliders spring `k` collides with, each once.
    pub fn colliders_of(&self, k: usize) -> Vec<VrmCollider> {
        let mut out: Vec<usize> = Vec::new();
        if let Some(s) = self.springs.get(k) {
            for &g in &s.groups {
                for &c in self.groups.get(g).map_or(&[][..], |g| &g.colliders) {
                    if c < self.colliders.len() && !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out.into_iter().map(|c| self.colliders[c]).collect()
    }
}

/// Marionette's settings for a VRM joint whose bone is `length` metres long.
pub fn from_vrm(j: &VrmJoint, length: f32) -> SpringSettings {
    let fps = VRM_FPS;
    let omega = if length > 1e-6 {
        (j.stiffness.max(0.0) * fps / length).sqrt()
    } else {
        0.0
    };
    let keep = (1.0 - j.drag.clamp(0.0, 1.0)).max(1e-6);
    SpringSettings {
        stiffness: omega / std::f32::consts::TAU,
        damping: 0.0,
        drag: -keep.ln() * fps,
        gravity: j.gravity_dir.normalize_or_zero() * j.gravity_power.max(0.0) * fps,
        radius: j.hit_radius.max(0.0),
    }
}

/// VRM settings for Marionette's `s` on a bone `length` metres long: `(stiffness, dragForce,
/// gravityPower, gravityDir)`. The damping ratio becomes part of the drag at the spring's
/// frequency (VRM has one decay for both).
pub fn to_vrm(s: &SpringSettings, length: f32) -> (f32, f32, f32, Vec3) {
    let fps = VRM_FPS;
    let omega = std::f32::consts::TAU * s.stiffness.max(0.0);
    let stiffness = omega * omega * length.max(0.0) / fps;
    let decay = s.drag.max(0.0) + 2.0 * s.damping.max(0.0) * omega;
    let drag = 1.0 - (-decay / fps).exp();
    let g = s.gravity.length();
    let dir = if g > 0.0 { s.gravity / g } else { Vec3::NEG_Y };
    (stiffness, drag, g / fps, dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_go_there_and_back() {
        let j = VrmJoint {
            joint: 3,
            hit_radius: 0.02,
            stiffness: 1.0,
            gravity_power: 0.1,
            gravity_dir: Vec3::NEG_Y,
            drag: 0.4,
        };
        let s = from_vrm(&j, 0.1);
        // ω² = 1 · 60 / 0.1 = 600: about 3.9 Hz; 6 m/s² of gravity; the drag keeps 0.6 a frame
        assert!((s.stiffness - 600f32.sqrt() / std::f32::consts::TAU).abs() < 1e-4);
        assert!((s.gravity.y + 6.0).abs() < 1e-5);
        assert!(((-s.drag / 60.0).exp() - 0.6).abs() < 1e-5);
        let (k, d, g, dir) = to_vrm(&s, 0.1);
        assert!((k - 1.0).abs() < 1e-4 && (d - 0.4).abs() < 1e-5 && (g - 0.1).abs() < 1e-6);
        assert_eq!(dir, Vec3::NEG_Y);
    }

    #[test]
    fn colliders_of_a_spring_come_from_its_groups_once() {
        let c = |joint| VrmCollider {
            joint,
            shape: Shape::Sphere {
                offset: Vec3::ZERO,
                radius: 0.1,
            },
        };
        let v = VrmSprings {
            colliders: vec![c(1), c(2), c(3)],
            groups: vec![
                VrmColliderGroup {
                    name: "a".into(),
                    colliders: vec![0, 1],
                },
                VrmColliderGroup {
                    name: "b".into(),
                    colliders: vec![1, 2, 9],
                },
            ],
            springs: vec![VrmSpring {
                name: "hair".into(),
                joints: Vec::new(),
                groups: vec![0, 1],
                center: None,
            }],
        };
        let joints: Vec<JointIndex> = v.colliders_of(0).iter().map(|c| c.joint).collect();
        assert_eq!(joints, [1, 2, 3]);
    }
}
