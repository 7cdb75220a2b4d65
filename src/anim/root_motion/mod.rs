//! Root motion (seed 004): the part of the root joint's movement that moves the whole character
//! through the world is split off into a separate channel, removed from the pose so it is not
//! applied twice, and handed out as a per-step delta that the caller may accumulate (to walk the
//! character through the scene) or drop (to keep it **in place**).
//!
//! What is extracted is chosen by one [`RootMotionMode`], the same in Rust, in Lua
//! (`graph { root_motion = "ground" }`) and in the CLI:
//! - [`RootMotionMode::Off`] (`"off"`, the default): nothing; the root joints keep all their
//!   motion.
//! - [`RootMotionMode::Ground`] (`"ground"`): travel on the ground plane (world X and Z) and turning
//!   about the up axis (world +Y); height, pitch and roll stay in the pose (a jump still goes up).
//! - [`RootMotionMode::Whole`] (`"whole"`): the root joint's whole translation and rotation.
//!
//! Motion is measured in **world space**, armature included ([`RootSpace`]): under a Z-up armature
//! rotated into glTF's Y-up, "ground" still means the world's ground plane. It is expressed back
//! in the root joints' parent space (`A⁻¹ · M · A` for the armature `A`), so removing it from a
//! pose and putting it back are plain transform products. With the identity armature the
//! world-space and local computations are the same and no conversion is done. An armature with
//! non-uniform scale and rotation cannot hold every corrected pose as TRS (shear is dropped).
//!
//! The invariant: for a root transform `R`, `split(R) = (motion, rest)` with
//! `motion * rest == R`. Accumulating the deltas `motion(t0)⁻¹ · motion(t1)` from
//! `motion(0)` and applying the accumulated transform to the pose puts the root exactly where the
//! clip put it. [`keep_in_place`] is the offline form: it removes the motion of a whole sequence
//! of poses relative to the first one (`bake --in-place`).
//!
//! ```
//! use glam::{Quat, Vec3};
//! use marionette::anim::root_motion::{split, RootMotionMode, RootSpace};
//! use marionette::anim::Transform;
//!
//! let root = Transform::new(Vec3::new(1.0, 0.9, 2.0), Quat::from_rotation_y(0.5), Vec3::ONE);
//! let (motion, rest) = split(RootMotionMode::Ground, &RootSpace::IDENTITY, &root);
//! assert_eq!(motion.translation, Vec3::new(1.0, 0.0, 2.0));
//! assert!(rest.translation.abs_diff_eq(Vec3::new(0.0, 0.9, 0.0), 1e-6));
//! ```

#![warn(missing_docs)]

mod blend;
mod in_place;

pub use blend::MotionBlend;
pub use in_place::keep_in_place;

use glam::{Mat4, Quat, Vec3};

use super::{JointIndex, Skeleton, Transform};

/// Which part of the root joint's motion is extracted (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RootMotionMode {
    /// Nothing is extracted (Lua `"off"`, the default).
    #[default]
    Off,
    /// Ground-plane translation (world X, Z) and turning about world +Y (Lua `"ground"`).
    Ground,
    /// The whole translation and rotation (Lua `"whole"`).
    Whole,
}

impl RootMotionMode {
    /// Every mode, in the order the names are listed.
    pub const ALL: [RootMotionMode; 3] = [
        RootMotionMode::Off,
        RootMotionMode::Ground,
        RootMotionMode::Whole,
    ];

    /// The mode's name in Lua and on the command line: `"off"`, `"ground"` or `"whole"`.
    pub fn name(self) -> &'static str {
        match self {
            RootMotionMode::Off => "off",
            RootMotionMode::Ground => "ground",
            RootMotionMode::Whole => "whole",
        }
    }

    /// The mode called `name` (see [`RootMotionMode::name`]).
    pub fn from_name(name: &str) -> Option<RootMotionMode> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Where the root joints hang in the world: the armature (the root joints' parent transform in
/// the scene, [`Skeleton::armature`]) and its inverse. Root motion is measured in world space
/// and expressed in this space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootSpace {
    armature: Mat4,
    inverse: Mat4,
}

impl Default for RootSpace {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl RootSpace {
    /// Root joints directly in the world (no armature).
    pub const IDENTITY: RootSpace = RootSpace {
        armature: Mat4::IDENTITY,
        inverse: Mat4::IDENTITY,
    };

    /// The space under `armature` (an invertible affine matrix; a singular one counts as the
    /// identity, as nothing sensible can be measured through it).
    pub fn new(armature: Mat4) -> RootSpace {
        let inverse = armature.inverse();
        if armature == Mat4::IDENTITY || !inverse.is_finite() || !armature.is_finite() {
            return RootSpace::IDENTITY;
        }
        RootSpace { armature, inverse }
    }

    /// The space of `skeleton`'s root joints.
    pub fn of(skeleton: &Skeleton) -> RootSpace {
        RootSpace::new(skeleton.armature())
    }

    /// The armature matrix.
    pub fn armature(&self) -> Mat4 {
        self.armature
    }

    /// True without an armature (world and root space coincide).
    pub fn is_identity(&self) -> bool {
        self.armature == Mat4::IDENTITY
    }

    /// A motion given in world space, expressed in the root joints' space: `A⁻¹ · m · A`.
    pub fn to_local(&self, world: &Transform) -> Transform {
        if self.is_identity() {
            return *world;
        }
        rigid(&(self.inverse * world.to_matrix() * self.armature))
    }

    /// A motion given in the root joints' space, expressed in world space: `A · m · A⁻¹`.
    pub fn to_world(&self, local: &Transform) -> Transform {
        if self.is_identity() {
            return *local;
        }
        rigid(&(self.armature * local.to_matrix() * self.inverse))
    }
}

/// The rotation and translation of an affine matrix (unit scale: a motion never scales).
fn rigid(m: &Mat4) -> Transform {
    let t = Transform::from_matrix(m);
    Transform {
        scale: Vec3::ONE,
        ..t
    }
}

/// The rotation about +Y contained in `q` (the twist of a swing-twist decomposition).
pub fn yaw_of(q: Quat) -> Quat {
    let twist = Quat::from_xyzw(0.0, q.y, 0.0, q.w);
    let len = twist.length();
    if len < 1e-6 {
        // a half turn about a horizontal axis: no defined yaw
        Quat::IDENTITY
    } else {
        twist / len
    }
}

/// Splits a root transform into `(motion, remainder)` with `motion * remainder == root`, both in
/// the root joint's parent space.
pub fn split(mode: RootMotionMode, space: &RootSpace, root: &Transform) -> (Transform, Transform) {
    let motion = motion_of(mode, space, root);
    let rest = motion.inverse().mul_transform(root);
    (motion, rest)
}

/// The motion part of a root joint's local transform `root` (translation and rotation only,
/// unit scale), measured in world space and expressed in the root joint's parent space
/// ([`RootSpace::to_local`]). [`RootMotionMode::Off`] gives the identity.
pub fn motion_of(mode: RootMotionMode, space: &RootSpace, root: &Transform) -> Transform {
    if space.is_identity() {
        return world_motion(mode, root.translation, root.rotation);
    }
    let world = space.armature * root.to_matrix();
    let (_, rotation, translation) = world.to_scale_rotation_translation();
    space.to_local(&world_motion(mode, translation, rotation))
}

/// The motion of a world placement (`translation`, `rotation`) under `mode`.
fn world_motion(mode: RootMotionMode, translation: Vec3, rotation: Quat) -> Transform {
    match mode {
        RootMotionMode::Off => Transform::IDENTITY,
        RootMotionMode::Ground => Transform {
            translation: Vec3::new(translation.x, 0.0, translation.z),
            rotation: yaw_of(rotation),
            scale: Vec3::ONE,
        },
        RootMotionMode::Whole => Transform {
            translation,
            rotation,
            scale: Vec3::ONE,
        },
    }
}

/// The motion from `from` to `to`, in the character's frame at `from`: `from⁻¹ · to`.
pub fn delta(from: &Transform, to: &Transform) -> Transform {
    from.inverse().mul_transform(to)
}

/// Removes `motion` from every root joint of a pose (`pose[r] = motion⁻¹ · pose[r]` for each
/// joint without a parent), so the motion is not applied twice.
pub fn remove_from_roots(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    motion: &Transform,
) {
    let inv = motion.inverse();
    for (t, p) in pose.iter_mut().zip(parents) {
        if p.is_none() {
            *t = inv.mul_transform(t);
        }
    }
}

/// Puts accumulated `motion` back on every root joint of an in-place pose
/// (`pose[r] = motion · pose[r]`): the "accumulate" choice of a preview or bake.
pub fn apply_to_roots(parents: &[Option<JointIndex>], pose: &mut [Transform], motion: &Transform) {
    for (t, p) in pose.iter_mut().zip(parents) {
        if p.is_none() {
            *t = motion.mul_transform(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(i: usize) -> Transform {
        let t = i as f32 * 0.1;
        Transform::new(
            Vec3::new(0.3 * t, 0.9 + 0.05 * (t * 7.0).sin(), 1.2 * t),
            Quat::from_rotation_y(0.4 * t) * Quat::from_rotation_x(0.1 * (t * 5.0).sin()),
            Vec3::ONE,
        )
    }

    /// split() is exact: motion * remainder reproduces the root, and ground keeps height in the pose.
    #[test]
    fn split_recomposes() {
        for mode in RootMotionMode::ALL {
            let root = path(7);
            let (m, r) = split(mode, &RootSpace::IDENTITY, &root);
            assert!(m.mul_transform(&r).abs_diff_eq(&root, 1e-6));
            if mode == RootMotionMode::Ground {
                assert_eq!(m.translation.y, 0.0);
                assert!((r.translation.y - root.translation.y).abs() < 1e-6);
            }
        }
    }

    /// Accumulated deltas applied to the in-place poses give back the root path.
    #[test]
    fn accumulated_motion_restores_path() {
        for mode in RootMotionMode::ALL {
            let mut acc = motion_of(mode, &RootSpace::IDENTITY, &path(0));
            let mut prev = acc;
            for i in 1..50 {
                let m = motion_of(mode, &RootSpace::IDENTITY, &path(i));
                acc = acc.mul_transform(&delta(&prev, &m));
                prev = m;
                let mut pose = [path(i)];
                remove_from_roots(&[None], &mut pose, &m);
                let world = acc.mul_transform(&pose[0]);
                assert!(world.abs_diff_eq(&path(i), 1e-5), "{i}: {world:?}");
            }
        }
    }

    /// Yaw extraction of a pitched and yawed rotation keeps only the yaw.
    #[test]
    fn yaw_extraction() {
        let q = Quat::from_rotation_y(0.8) * Quat::from_rotation_x(0.3);
        assert!(yaw_of(q).abs_diff_eq(Quat::from_rotation_y(0.8), 1e-6));
    }

    /// Mode names round-trip; unknown names are rejected.
    #[test]
    fn mode_names() {
        for mode in RootMotionMode::ALL {
            assert_eq!(RootMotionMode::from_name(mode.name()), Some(mode));
        }
        assert_eq!(RootMotionMode::default(), RootMotionMode::Off);
        assert_eq!(RootMotionMode::from_name("masked"), None);
    }

    /// Under a scaled, Z-up and offset armature, ground motion is world travel on X/Z and a turn
    /// about world Y: the remainder's world position is straight above the world origin.
    #[test]
    fn ground_motion_is_measured_in_world_space() {
        let armature = Mat4::from_scale_rotation_translation(
            Vec3::splat(0.01),
            Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            Vec3::new(0.2, 0.0, 0.1),
        );
        let space = RootSpace::new(armature);
        let root = Transform::new(
            Vec3::new(30.0, -250.0, 95.0),
            Quat::from_rotation_z(0.7) * Quat::from_rotation_x(0.2),
            Vec3::ONE,
        );
        let (motion, rest) = split(RootMotionMode::Ground, &space, &root);
        assert!(motion.mul_transform(&rest).abs_diff_eq(&root, 1e-3));
        let world_motion = space.to_world(&motion);
        let world = armature * root.to_matrix();
        let p = world.w_axis.truncate();
        assert!(
            world_motion
                .translation
                .abs_diff_eq(Vec3::new(p.x, 0.0, p.z), 1e-4),
            "{world_motion:?} vs {p}"
        );
        // the turn is about world Y: local Z under this armature
        assert!((world_motion.rotation.y.abs() - (0.35f32).sin()).abs() < 1e-4);
        let rest_world = (armature * rest.to_matrix()).w_axis.truncate();
        assert!(
            rest_world.abs_diff_eq(Vec3::new(0.0, p.y, 0.0), 1e-4),
            "{rest_world}"
        );
        // and the round trip through world space is the identity
        assert!(space.to_local(&world_motion).abs_diff_eq(&motion, 1e-4));
    }
}
