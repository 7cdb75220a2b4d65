//! Foot locking, a post-process operation with memory: while a foot is planted (its animated
//! world position low and slow, [`crate::motion::ContactRule`]) it is held over the ground
//! where the contact began, in world space with root motion included, by two-bone IK on the
//! leg above it (its height follows the animation, so a heel lifts without a pop); when the
//! contact ends the IK's weight fades out over `release` seconds (smootherstep), so the leg ends
//! exactly on the animation, and a new contact during that fade starts where the foot is shown.
//!
//! The IK reach is clamped just short of a straight leg (no knee pop), the knee keeps the
//! plane the animation bends it in unless a pole is given, and the foot keeps its animated
//! orientation. Its memory ([`FootState`]) is part of the graph state, so snapshots replay it.

use glam::{Mat4, Quat, Vec3};

use super::params::{Params, Vec3Value};
use crate::ik::{model_transform, two_bone};
use crate::{JointIndex, Transform};

/// One locked foot.
#[derive(Clone, Debug, PartialEq)]
pub struct LockedFoot {
    /// The foot joint (its parent and grandparent bend).
    pub tip: JointIndex,
    /// Highest world height of a planted foot, metres.
    pub height: f32,
    /// Highest speed of a planted foot, metres per second.
    pub speed: f32,
    /// Model-space point the knee bends towards (`None`: the plane the animation bends it in).
    pub pole: Option<Vec3Value>,
}

/// The operation: the feet and the release time.
#[derive(Clone, Debug, PartialEq)]
pub struct FootLock {
    /// The feet.
    pub feet: Vec<LockedFoot>,
    /// Seconds the hold takes to fade back to the animation after a contact.
    pub release: f32,
}

/// What a foot lock remembers between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FootState {
    /// The animated world position at the last evaluation, and its time.
    last: Option<(f64, Vec3)>,
    /// The animated foot's speed at the last evaluation that moved time (`None` before a
    /// second frame).
    speed: Option<f32>,
    /// Where the foot is held while planted.
    lock: Option<Vec3>,
    /// A release back to the animation: the point held, and when it began.
    release: Option<(Vec3, f64)>,
    /// Where the foot was shown at the last evaluation (world), while held or released.
    shown: Option<Vec3>,
}

/// Where the character stands this frame.
pub struct Placement {
    /// Model space to world: root motion times the armature.
    pub to_world: Mat4,
    /// The graph's time, seconds.
    pub time: f64,
}

/// Perlin's smootherstep: starts and ends with zero velocity and acceleration, so a release
/// leaves the held point gently (a planted foot's first frames of release barely move).
pub(crate) fn smootherstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * x * (x * (6.0 * x - 15.0) + 10.0)
}

impl FootLock {
    /// Holds the planted feet of `pose` (in place, model space) with `weight`, updating `states`
    /// (one per foot).
    pub fn apply(
        &self,
        at: &Placement,
        parents: &[Option<JointIndex>],
        pose: &mut [Transform],
        params: &Params,
        weight: f32,
        states: &mut Vec<FootState>,
    ) {
        states.resize(self.feet.len(), FootState::default());
        let to_model = at.to_world.inverse();
        for (foot, st) in self.feet.iter().zip(states.iter_mut()) {
            let tip = foot.tip as usize;
            if tip >= pose.len() || parents.get(tip).copied().flatten().is_none() {
                continue;
            }
            let animated = model_transform(parents, pose, foot.tip);
            let world = at.to_world.transform_point3(animated.translation);
            if !world.is_finite() {
                continue;
            }
            // (the first frame has no speed: nothing is planted before a second frame, as the
            // contacts measured on a take, crate::motion::contacts; evaluating again at the same
            // time changes nothing)
            match st.last {
                Some((t, p)) if at.time > t => {
                    st.speed = Some(p.distance(world) / (at.time - t) as f32)
                }
                Some((t, _)) if at.time < t => *st = FootState::default(),
                _ => {}
            }
            st.last = Some((at.time, world));
            // a held foot lets go only when it is clearly moving (twice the speed), so a foot
            // the animation slides is held rather than let go along the ground
            let speed = if st.lock.is_some() {
                2.0 * foot.speed
            } else {
                foot.speed
            };
            let planted = world.y <= foot.height && st.speed.is_some_and(|s| s <= speed);
            // the point held and how much of the hold shows
            let (target, hold) = match (planted, st.lock) {
                (true, Some(lock)) => (lock, 1.0),
                (true, None) => {
                    // start where the foot is shown: mid-release, not the animated position
                    let start = match st.release {
                        Some(_) => st.shown.unwrap_or(world),
                        None => world,
                    };
                    st.release = None;
                    st.lock = Some(start);
                    (start, 1.0)
                }
                (false, Some(lock)) => {
                    st.lock = None;
                    st.release = Some((lock, at.time));
                    (lock, 1.0)
                }
                (false, None) => match fade(st, at.time, self.release) {
                    Some(held) => held,
                    None => {
                        st.release = None;
                        st.shown = None;
                        continue;
                    }
                },
            };
            let weight = weight * hold;
            // held over the ground; the height follows the animation (heel lifts, no pop)
            let target = Vec3::new(target.x, world.y, target.z);
            let target = to_model.transform_point3(target);
            let pole = match &foot.pole {
                Some(p) => p.get(params),
                None => match knee_pole(parents, pose, foot.tip) {
                    Some(p) => p,
                    None => continue,
                },
            };
            let rotation = animated.rotation;
            two_bone(
                parents,
                pose,
                foot.tip,
                reach(parents, pose, foot.tip, target),
                pole,
                weight,
            );
            keep_orientation(parents, pose, foot.tip, rotation, weight);
            let shown = model_transform(parents, pose, foot.tip).translation;
            st.shown = Some(at.to_world.transform_point3(shown));
        }
    }
}

/// A released foot: the point it was held at and how much of the hold still shows (the IK's
/// weight fades from 1 to 0 over `release` seconds, so the leg ends exactly on the animation);
/// `None` when no release runs or it has ended.
fn fade(st: &FootState, time: f64, release: f32) -> Option<(Vec3, f32)> {
    let (from, began) = st.release?;
    let x = if release > 0.0 {
        ((time - began) as f32 / release).clamp(0.0, 1.0)
    } else {
        1.0
    };
    (x < 1.0).then(|| (from, 1.0 - smootherstep(x)))
}

/// The point the knee bends towards: the animated knee pushed away from the hip-to-foot line,
/// so it keeps the plane the animation bends it in. A leg the animation holds straight has no
/// such plane: the knee then bends the way the foot points (towards its first child, a toe),
/// else towards the model's forward (+Z).
pub(crate) fn knee_pole(
    parents: &[Option<JointIndex>],
    pose: &[Transform],
    tip: JointIndex,
) -> Option<Vec3> {
    let mid = parents[tip as usize]?;
    let root = parents[mid as usize]?;
    let (a, b) = (
        model_transform(parents, pose, root).translation,
        model_transform(parents, pose, mid).translation,
    );
    let c = model_transform(parents, pose, tip).translation;
    let line = (c - a).normalize_or_zero();
    let off = (b - a) - line * (b - a).dot(line);
    let length = a.distance(b) + b.distance(c);
    if off.length() > 0.01 * length {
        return Some(b + off.normalize() * length);
    }
    let toe = (0..parents.len()).find(|&j| parents[j] == Some(tip));
    let forward = toe
        .map(|t| model_transform(parents, pose, t as JointIndex).translation - c)
        .map(|d| d - line * d.dot(line))
        .and_then(|d| d.try_normalize())
        .unwrap_or(Vec3::Z);
    Some(b + forward * length)
}

/// `target` pulled in to 99.9 % of the leg's length from its root (no snap to straight).
pub(crate) fn reach(
    parents: &[Option<JointIndex>],
    pose: &[Transform],
    tip: JointIndex,
    target: Vec3,
) -> Vec3 {
    let Some(mid) = parents[tip as usize] else {
        return target;
    };
    let Some(root) = parents[mid as usize] else {
        return target;
    };
    let a = model_transform(parents, pose, root).translation;
    let length = pose[mid as usize].translation.length() + pose[tip as usize].translation.length();
    let d = target - a;
    if d.length() > 0.999 * length {
        a + d.normalize_or_zero() * 0.999 * length
    } else {
        target
    }
}

/// Turns `tip` back to its model-space `rotation` (blended by `weight`) after its parents moved.
pub(crate) fn keep_orientation(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    tip: JointIndex,
    rotation: Quat,
    weight: f32,
) {
    let Some(parent) = parents[tip as usize] else {
        return;
    };
    let p = model_transform(parents, pose, parent).rotation;
    let local = (p.inverse() * rotation).normalize();
    let r = &mut pose[tip as usize].rotation;
    *r = r.slerp(local, weight.clamp(0.0, 1.0)).normalize();
}
