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

/// Keeps a sequence of poses (`frames[i][joint]`, local, parent-first) in place: removes from
/// every root joint the motion `mode` extracts, relative to the first frame
/// (`pose[r] = motion(frame 0) · motion(frame i)⁻¹ · pose[r]`), so frame 0 is unchanged and the
/// character stays where it starts. Under [`RootMotionMode::Ground`] a walk keeps its height and
/// tilt but neither travels nor turns. Each corrected rotation keeps the sign (hemisphere) of the
/// original, so rotation keys stay continuous. [`RootMotionMode::Off`] changes nothing.
pub fn keep_in_place(
    mode: RootMotionMode,
    space: &RootSpace,
    parents: &[Option<JointIndex>],
    frames: &mut [Vec<Transform>],
) {
    if mode == RootMotionMode::Off {
        return;
    }
    let Some(first) = frames.first() else {
        return;
    };
    let start: Vec<(usize, Transform)> = parents
        .iter()
        .enumerate()
        .filter(|(r, p)| p.is_none() && *r < first.len())
        .map(|(r, _)| (r, motion_of(mode, space, &first[r])))
        .collect();
    for frame in frames.iter_mut() {
        for (r, m0) in &start {
            let Some(root) = frame.get_mut(*r) else {
                continue;
            };
            let m = motion_of(mode, space, root);
            let mut t = m0.mul_transform(&delta(&m, root));
            if t.rotation.dot(root.rotation) < 0.0 {
                t.rotation = -t.rotation;
            }
            *root = t;
        }
    }
}

/// Weighted blend of several motion deltas: `sum(w_i * translation_i)` and the normalised
/// weighted sum of rotations (sign-aligned with the identity); the weights not given (up to 1)
/// count as "no motion". Build with [`MotionBlend::add`], read with [`MotionBlend::result`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct MotionBlend {
    translation: Vec3,
    rotation: glam::Vec4,
    weight: f32,
}

impl MotionBlend {
    /// Adds one weighted motion.
    pub fn add(&mut self, motion: &Transform, weight: f32) {
        let q = glam::Vec4::from(motion.rotation);
        let q = if q.w < 0.0 { -q } else { q };
        self.translation += motion.translation * weight;
        self.rotation += q * weight;
        self.weight += weight;
    }

    /// Adds everything accumulated in `other`.
    pub fn merge(&mut self, other: &MotionBlend) {
        self.translation += other.translation;
        self.rotation += other.rotation;
        self.weight += other.weight;
    }

    /// Reflects the accumulated motions across the `X = 0` plane (see
    /// [`crate::anim::mirror::reflect_x`]); reflection is linear, so the blend of reflected
    /// motions is the reflected blend.
    pub fn reflect_x(&mut self) {
        self.translation.x = -self.translation.x;
        self.rotation.y = -self.rotation.y;
        self.rotation.z = -self.rotation.z;
    }

    /// The blended motion; missing weight (below 1) is filled with the identity.
    pub fn result(&self) -> Transform {
        let missing = (1.0 - self.weight).max(0.0);
        let q = (self.rotation + glam::Vec4::W * missing).normalize_or(glam::Vec4::W);
        Transform {
            translation: self.translation,
            rotation: Quat::from_vec4(q),
            scale: Vec3::ONE,
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

    /// Reflected blend equals the blend of reflected motions: x=1 turning +0.3 about Y mirrors to
    /// x=-1 turning -0.3.
    #[test]
    fn reflected_blend() {
        let mut b = MotionBlend::default();
        b.add(
            &Transform::new(Vec3::X, Quat::from_rotation_y(0.3), Vec3::ONE),
            1.0,
        );
        let mut outer = MotionBlend::default();
        b.reflect_x();
        outer.merge(&b);
        let r = outer.result();
        assert!(r.translation.abs_diff_eq(-Vec3::X, 1e-6));
        assert!(r.rotation.abs_diff_eq(Quat::from_rotation_y(-0.3), 1e-6));
    }

    /// Blending motions of x=1 (w 0.25) and x=3 (w 0.5) with 0.25 missing gives x=1.75.
    #[test]
    fn motion_blend() {
        let mut b = MotionBlend::default();
        b.add(&Transform::from_translation(Vec3::X), 0.25);
        b.add(&Transform::from_translation(Vec3::X * 3.0), 0.5);
        assert!((b.result().translation.x - 1.75).abs() < 1e-6);
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

    /// A root walking forward while turning stays in place; its height and tilt are kept.
    #[test]
    fn in_place_removes_ground_motion_and_yaw() {
        let mut frames: Vec<Vec<Transform>> = (0..10)
            .map(|i| {
                let f = i as f32;
                vec![Transform::new(
                    Vec3::new(0.5 * f, 1.0 + 0.01 * f, 0.2 * f),
                    Quat::from_rotation_y(0.1 * f) * Quat::from_rotation_x(0.05),
                    Vec3::ONE,
                )]
            })
            .collect();
        let first = frames[0][0];
        keep_in_place(
            RootMotionMode::Ground,
            &RootSpace::IDENTITY,
            &[None],
            &mut frames,
        );
        assert_eq!(frames[0][0], first);
        let last = frames[9][0];
        assert!(
            last.translation
                .abs_diff_eq(Vec3::new(0.0, 1.09, 0.0), 1e-5),
            "{last:?}"
        );
        let expected = Quat::from_rotation_x(0.05);
        assert!(last.rotation.abs_diff_eq(expected, 1e-5), "{last:?}");
    }

    /// A Z-up armature (rotated -90° about X) still removes motion on the world ground plane.
    #[test]
    fn in_place_under_rotated_armature() {
        let space = RootSpace::new(Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2));
        // local +Y under this armature is world -Z: a walk along world -Z
        let mut frames: Vec<Vec<Transform>> = (0..5)
            .map(|i| vec![Transform::from_translation(Vec3::new(0.0, i as f32, 0.3))])
            .collect();
        keep_in_place(RootMotionMode::Ground, &space, &[None], &mut frames);
        // local Z is world Y (height): kept; local Y (world -Z) is pinned to frame 0
        let t = frames[4][0].translation;
        assert!(t.abs_diff_eq(Vec3::new(0.0, 0.0, 0.3), 1e-5), "{t:?}");
        // Off changes nothing
        let before = frames.clone();
        keep_in_place(RootMotionMode::Off, &space, &[None], &mut frames);
        assert_eq!(frames, before);
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
