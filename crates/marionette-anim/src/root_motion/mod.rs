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
//! **Motion is relative to a [`Reference`].** [`motion_of`] gives a root transform's
//! *placement*: the part `mode` extracts, measured from the world origin. A character rarely
//! stands at the origin (the RobotExpressive's root rests 0.195 m off it), so the placement is
//! not its motion: the motion of a root `R` is its placement relative to the placement `P₀` of a
//! reference root (a graph's first frame, a clip's first frame):
//! `motion(R) = placement(R) · P₀⁻¹`. It is the identity at the reference, so an in-place clip
//! has no motion, and removing it (`motion⁻¹ · R = P₀ · placement(R)⁻¹ · R`) leaves the
//! character where the reference stands rather than moving it to the origin.
//!
//! The invariant: for a root transform `R`, [`Reference::split`]`(R) = (motion, rest)` with
//! `motion * rest == R`. Accumulating the placement deltas `placement(t0)⁻¹ · placement(t1)` and
//! putting the accumulated motion ([`Reference::motion_to`]) on the in-place pose puts the root
//! exactly where the clip put it. [`keep_in_place`] is the offline form: it removes the motion
//! of a whole sequence of poses relative to the first one (`bake --in-place`).
//!
//! ```
//! use glam::{Quat, Vec3};
//! use marionette_anim::root_motion::{Reference, RootMotionMode, RootSpace};
//! use marionette_anim::Transform;
//!
//! let (mode, space) = (RootMotionMode::Ground, RootSpace::IDENTITY);
//! // the character starts 2 m off the origin, walks 1 m along X and turns 0.5 rad
//! let start = Transform::from_translation(Vec3::new(0.0, 0.9, 2.0));
//! let reference = Reference::of(mode, &space, &start);
//! let root = Transform::new(Vec3::new(1.0, 0.9, 2.0), Quat::from_rotation_y(0.5), Vec3::ONE);
//! let (motion, rest) = reference.split(mode, &space, &root);
//! // the motion takes the start's ground point to the root's, turning about it
//! let moved = motion.transform_point(Vec3::new(0.0, 0.0, 2.0));
//! assert!(moved.abs_diff_eq(Vec3::new(1.0, 0.0, 2.0), 1e-6));
//! assert!(motion.rotation.abs_diff_eq(Quat::from_rotation_y(0.5), 1e-6));
//! assert!(motion.mul_transform(&rest).abs_diff_eq(&root, 1e-6));
//! // the in-place root stands where the reference does, turned back to its heading
//! assert!(rest.abs_diff_eq(&start, 1e-6));
//! assert_eq!(reference.motion(mode, &space, &start), Transform::IDENTITY);
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
        if self.is_identity() || *world == Transform::IDENTITY {
            return *world;
        }
        rigid(&(self.inverse * world.to_matrix() * self.armature))
    }

    /// A world displacement in the root joints' space (the armature's linear part undone).
    pub fn vector_from_world(&self, v: Vec3) -> Vec3 {
        self.inverse.transform_vector3(v)
    }

    /// A motion given in the root joints' space, expressed in world space: `A · m · A⁻¹`.
    pub fn to_world(&self, local: &Transform) -> Transform {
        if self.is_identity() || *local == Transform::IDENTITY {
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

/// The placement of a root joint's local transform `root`: the part `mode` extracts
/// (translation and rotation only, unit scale), measured in world space **from the world
/// origin** and expressed in the root joint's parent space ([`RootSpace::to_local`]).
/// [`RootMotionMode::Off`] gives the identity. The root's *motion* is its placement relative to
/// a [`Reference`]; the difference of two placements ([`delta`]) needs none.
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

/// Where root motion is measured from: the placement ([`motion_of`]) of a reference root
/// transform, such as a graph's or a clip's first frame. The motion of a root is its placement
/// relative to this one (see the [module docs](self)), the identity at the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    placement: Transform,
    inverse: Transform,
}

impl Default for Reference {
    fn default() -> Self {
        Self::ORIGIN
    }
}

impl Reference {
    /// The world origin: motion is the placement itself.
    pub const ORIGIN: Reference = Reference {
        placement: Transform::IDENTITY,
        inverse: Transform::IDENTITY,
    };

    /// Motion measured from `placement` (a placement as [`motion_of`] gives it).
    pub fn new(placement: Transform) -> Reference {
        if placement == Transform::IDENTITY {
            return Reference::ORIGIN;
        }
        Reference {
            placement,
            inverse: placement.inverse(),
        }
    }

    /// Motion measured from where the root transform `root` stands under `mode`.
    pub fn of(mode: RootMotionMode, space: &RootSpace, root: &Transform) -> Reference {
        Reference::new(motion_of(mode, space, root))
    }

    /// The reference placement, in the root joints' parent space.
    pub fn placement(&self) -> Transform {
        self.placement
    }

    /// The motion that takes the character from the reference to `placement`:
    /// `placement · reference⁻¹`, in the root joints' parent space. Exactly the identity at the
    /// reference.
    pub fn motion_to(&self, placement: &Transform) -> Transform {
        if *placement == self.placement {
            return Transform::IDENTITY;
        }
        if *self == Reference::ORIGIN {
            return *placement;
        }
        placement.mul_transform(&self.inverse)
    }

    /// The motion of root transform `root` under `mode`: its placement relative to the
    /// reference ([`Reference::motion_to`]).
    pub fn motion(&self, mode: RootMotionMode, space: &RootSpace, root: &Transform) -> Transform {
        self.motion_to(&motion_of(mode, space, root))
    }

    /// Splits a root transform into `(motion, remainder)` with `motion * remainder == root`,
    /// both in the root joint's parent space: the remainder is the root as it would stand at
    /// the reference (`reference · placement(root)⁻¹ · root`).
    pub fn split(
        &self,
        mode: RootMotionMode,
        space: &RootSpace,
        root: &Transform,
    ) -> (Transform, Transform) {
        let motion = self.motion(mode, space, root);
        let rest = motion.inverse().mul_transform(root);
        (motion, rest)
    }

    /// A placement delta ([`delta`]: in the character's own frame) as a motion of the character
    /// placed by [`Reference::motion_to`]: `reference · d · reference⁻¹`, so that
    /// `motion_to(p) · moved(d) == motion_to(p · d)`.
    pub fn moved(&self, d: &Transform) -> Transform {
        if *self == Reference::ORIGIN {
            return *d;
        }
        self.placement.mul_transform(d).mul_transform(&self.inverse)
    }
}

/// The motion from `from` to `to`, in the character's frame at `from`: `from⁻¹ · to`.
pub fn delta(from: &Transform, to: &Transform) -> Transform {
    from.inverse().mul_transform(to)
}

/// Removes `motion` from every root joint of a pose (`pose[r] = motion⁻¹ · pose[r]` for each
/// joint without a parent), so the motion is not applied twice. The identity leaves the pose
/// untouched, bit for bit.
pub fn remove_from_roots(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    motion: &Transform,
) {
    if *motion == Transform::IDENTITY {
        return;
    }
    let inv = motion.inverse();
    for (t, p) in pose.iter_mut().zip(parents) {
        if p.is_none() {
            *t = inv.mul_transform(t);
        }
    }
}

/// Puts accumulated `motion` back on every root joint of an in-place pose
/// (`pose[r] = motion · pose[r]`): the "accumulate" choice of a preview or bake. The identity
/// leaves the pose untouched, bit for bit.
pub fn apply_to_roots(parents: &[Option<JointIndex>], pose: &mut [Transform], motion: &Transform) {
    if *motion == Transform::IDENTITY {
        return;
    }
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
            let (m, r) = Reference::ORIGIN.split(mode, &RootSpace::IDENTITY, &root);
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
        let (motion, rest) = Reference::ORIGIN.split(RootMotionMode::Ground, &space, &root);
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

    /// A root resting off the origin, turned and tilted (the RobotExpressive's root rests
    /// 0.195 m off it).
    fn off_origin_rest() -> Transform {
        Transform::new(
            Vec3::new(0.3, 0.9, -0.195),
            Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.1),
            Vec3::ONE,
        )
    }

    /// A walk from the off-origin rest: `i` steps of 5 cm forward along the root's heading,
    /// turning 0.02 rad a step and bobbing.
    fn walk_from(rest: &Transform, i: usize) -> Transform {
        let f = i as f32;
        let heading = Quat::from_rotation_y(0.02 * f);
        let forward = yaw_of(rest.rotation) * heading * Vec3::Z;
        Transform::new(
            rest.translation + forward * 0.05 * f + Vec3::Y * 0.02 * (f * 0.7).sin(),
            yaw_of(rest.rotation) * heading * yaw_of(rest.rotation).inverse() * rest.rotation,
            Vec3::ONE,
        )
    }

    /// An in-place clip on an off-origin rest root has no motion, exactly: its remainder is the
    /// root itself, in every mode, with or without a Z-up armature.
    #[test]
    fn in_place_clip_off_origin_has_no_motion() {
        let z_up = RootSpace::new(Mat4::from_scale_rotation_translation(
            Vec3::splat(0.01),
            Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            Vec3::new(0.2, 0.0, 0.1),
        ));
        for space in [RootSpace::IDENTITY, z_up] {
            for mode in RootMotionMode::ALL {
                let rest = off_origin_rest();
                let reference = Reference::of(mode, &space, &rest);
                assert_eq!(reference.motion(mode, &space, &rest), Transform::IDENTITY);
                let (motion, remainder) = reference.split(mode, &space, &rest);
                assert_eq!(motion, Transform::IDENTITY);
                assert!(
                    remainder.abs_diff_eq(&rest, 1e-6),
                    "{mode:?}: {remainder:?}"
                );
                // measured from the origin instead, the rest itself would be motion
                if mode != RootMotionMode::Off {
                    let from_origin = Reference::ORIGIN.motion(mode, &space, &rest);
                    assert!(!from_origin.abs_diff_eq(&Transform::IDENTITY, 1e-3));
                }
            }
        }
    }

    /// A walk starting at an off-origin, turned rest: its motion is measured from its start
    /// (the distance and turn walked, not the distance from the origin), the in-place root
    /// stays where the walk started (same ground position and heading), motion * remainder
    /// is the root, and the placement deltas moved to the reference accumulate to the motion.
    #[test]
    fn walk_off_origin_is_measured_from_its_start() {
        let mode = RootMotionMode::Ground;
        let space = RootSpace::IDENTITY;
        let rest = off_origin_rest();
        let reference = Reference::of(mode, &space, &walk_from(&rest, 0));
        let mut placed = Transform::IDENTITY;
        let mut previous = motion_of(mode, &space, &walk_from(&rest, 0));
        for i in 0..40 {
            let root = walk_from(&rest, i);
            let (motion, remainder) = reference.split(mode, &space, &root);
            assert!(
                motion.mul_transform(&remainder).abs_diff_eq(&root, 1e-5),
                "{i}"
            );
            // the remainder stands on the start's ground position, with the start's heading
            let r = remainder.translation;
            assert!(
                (r.x - rest.translation.x).abs() < 1e-5 && (r.z - rest.translation.z).abs() < 1e-5,
                "{i}: {r}"
            );
            assert!((r.y - root.translation.y).abs() < 1e-5, "height kept: {i}");
            assert!(
                yaw_of(remainder.rotation).abs_diff_eq(yaw_of(rest.rotation), 1e-5),
                "{i}: {remainder:?}"
            );
            // the motion is the walk: it moves the start's ground point to the root's and
            // turns by the walk's turn
            let start = Vec3::new(rest.translation.x, 0.0, rest.translation.z);
            let now = Vec3::new(root.translation.x, 0.0, root.translation.z);
            assert!(motion.transform_point(start).abs_diff_eq(now, 1e-5), "{i}");
            let turn = Quat::from_rotation_y(0.02 * i as f32);
            assert!(
                motion.rotation.abs_diff_eq(turn, 1e-5) || motion.rotation.abs_diff_eq(-turn, 1e-5),
                "{i}: {motion:?}"
            );
            // the per-step deltas, moved to the reference, accumulate to the same motion
            let m = motion_of(mode, &space, &root);
            placed = placed.mul_transform(&reference.moved(&delta(&previous, &m)));
            previous = m;
            assert!(
                placed.abs_diff_eq(&motion, 1e-5),
                "{i}: {placed:?} vs {motion:?}"
            );
        }
    }

    /// The same walk under a Z-up, scaled and offset armature: motion is measured from the
    /// start in world space, and the round trip holds.
    #[test]
    fn walk_off_origin_under_z_up_armature() {
        let armature = Mat4::from_scale_rotation_translation(
            Vec3::splat(0.01),
            Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            Vec3::new(0.2, 0.0, 0.1),
        );
        let space = RootSpace::new(armature);
        // in the armature's space: 30 cm off along local X and Y (world X and -Z)
        let rest = Transform::new(
            Vec3::new(30.0, 19.5, 90.0),
            Quat::from_rotation_z(0.6),
            Vec3::ONE,
        );
        let mode = RootMotionMode::Ground;
        let reference = Reference::of(mode, &space, &rest);
        assert_eq!(reference.motion(mode, &space, &rest), Transform::IDENTITY);
        // 50 local units along local +Y is 0.5 m along world -Z
        let root = Transform::new(rest.translation + Vec3::Y * 50.0, rest.rotation, Vec3::ONE);
        let (motion, remainder) = reference.split(mode, &space, &root);
        assert!(motion.mul_transform(&remainder).abs_diff_eq(&root, 1e-3));
        assert!(remainder.abs_diff_eq(&rest, 1e-3), "{remainder:?}");
        let world = space.to_world(&motion);
        assert!(
            world
                .translation
                .abs_diff_eq(Vec3::new(0.0, 0.0, -0.5), 1e-5),
            "{world:?}"
        );
        assert!(
            world.rotation.abs_diff_eq(Quat::IDENTITY, 1e-5),
            "{world:?}"
        );
    }
}
