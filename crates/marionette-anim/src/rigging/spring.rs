//! Spring bones (secondary motion: hair, tails, ears, cloth strips, jiggle). Each joint of a
//! chain carries a particle at its tail, pulled towards where the animation puts it by a damped
//! spring of natural frequency [`SpringSettings::stiffness`] (Hz) and damping ratio
//! [`SpringSettings::damping`] (1 = critical), under [`SpringSettings::gravity`], kept at its
//! bone's length and pushed out of sphere and capsule [`Collider`]s. The joint turns (never
//! stretches) to point at its particle.
//!
//! **Time**: the simulation runs in world space (the character's root motion swings the chain)
//! at its own fixed rate, [`SUBSTEP_HZ`], whatever rate it is evaluated at; between two
//! evaluations the drive (the animated pose and the colliders) is interpolated. So a time shows
//! the same result at 30 and 60 fps up to that interpolation, and the same bits at the same
//! evaluation times (a bake equals `run`). Time going backwards, or a jump of more than a
//! second, starts it again from the animated pose. The state is plain data ([`SpringState`]),
//! kept in the graph's snapshots.
//!
//! **Colliders** are tested along each particle's path over a substep (at steps of half the
//! smallest collider's radius), so a chain swept fast through a collider stops at its surface
//! instead of passing through it.

use glam::{Quat, Vec3};

use super::parent_model;
use crate::ik::model_transform;
use crate::{nlerp_quat, JointIndex, Transform};

/// The simulation's own rate, steps per second.
pub const SUBSTEP_HZ: f64 = 240.0;

/// Most substeps one evaluation runs (one second); a longer gap restarts the chain.
const MAX_GAP_S: f64 = 1.0;

/// A collider's shape, in its joint's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A sphere.
    Sphere {
        /// Centre.
        offset: Vec3,
        /// Radius, metres.
        radius: f32,
    },
    /// A capsule: the points within `radius` of the segment `offset`-`tail`.
    Capsule {
        /// One end of the segment.
        offset: Vec3,
        /// The other end.
        tail: Vec3,
        /// Radius, metres.
        radius: f32,
    },
}

/// A collider attached to a joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collider {
    /// The joint it moves with.
    pub joint: JointIndex,
    /// Its shape.
    pub shape: Shape,
}

/// The numbers of a spring (each may come from a parameter: the caller reads them per frame, so
/// a change takes effect without a restart).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringSettings {
    /// Natural frequency, Hz (0: no pull back to the animation).
    pub stiffness: f32,
    /// Damping ratio (1 = critically damped).
    pub damping: f32,
    /// A velocity decay apart from the spring, per second (VRM's `dragForce`, which slows a
    /// joint even without stiffness; 0 for springs a script declares).
    pub drag: f32,
    /// World acceleration, m/s^2.
    pub gravity: Vec3,
    /// Each particle's radius against the colliders, metres.
    pub radius: f32,
}

/// A spring chain: the joints (root first, each the child of the one before) and where each
/// one's tail is in its own frame.
#[derive(Clone, Debug, PartialEq)]
pub struct SpringChain {
    /// The joints that turn.
    pub joints: Vec<JointIndex>,
    /// Each joint's tail in its frame: its child in the chain, or for the last joint its first
    /// child, else its own bone continued.
    pub tails: Vec<Vec3>,
    /// The colliders.
    pub colliders: Vec<Collider>,
    /// Each joint's own settings (a VRM spring's), used instead of the operation's; empty for
    /// a chain a script declares.
    pub per_joint: Vec<SpringSettings>,
}

/// What drives a chain at one time: the chain's parent in the world, the chain joints' animated
/// local transforms and each collider's world transform.
#[derive(Clone, Debug, Default, PartialEq)]
struct Drive {
    anchor: Transform,
    locals: Vec<Transform>,
    colliders: Vec<Transform>,
}

impl Drive {
    fn lerp(&self, b: &Drive, s: f32) -> Drive {
        Drive {
            anchor: self.anchor.slerp(&b.anchor, s),
            locals: self
                .locals
                .iter()
                .zip(&b.locals)
                .map(|(x, y)| x.nlerp(y, s))
                .collect(),
            colliders: self
                .colliders
                .iter()
                .zip(&b.colliders)
                .map(|(x, y)| x.lerp(y, s))
                .collect(),
        }
    }
}

/// What a spring remembers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringState {
    /// The time the simulation started at and the substeps run since.
    start: f64,
    steps: u64,
    /// The drive at the last evaluation, and its time.
    drive: Option<(f64, Drive)>,
    /// Each joint's particle (world) and velocity.
    p: Vec<Vec3>,
    v: Vec<Vec3>,
}

impl SpringState {
    /// Where each joint's tail particle is (world), after the last evaluation.
    pub fn particles(&self) -> &[Vec3] {
        &self.p
    }
}

/// A collider placed in the world for one substep.
#[derive(Clone, Copy)]
enum Placed {
    Sphere(Vec3, f32),
    Capsule(Vec3, Vec3, f32),
}

impl Placed {
    fn new(at: &Transform, shape: &Shape) -> Placed {
        let s = at.scale.x.abs();
        match *shape {
            Shape::Sphere { offset, radius } => {
                Placed::Sphere(at.transform_point(offset), radius * s)
            }
            Shape::Capsule {
                offset,
                tail,
                radius,
            } => Placed::Capsule(
                at.transform_point(offset),
                at.transform_point(tail),
                radius * s,
            ),
        }
    }

    fn radius(&self) -> f32 {
        match *self {
            Placed::Sphere(_, r) | Placed::Capsule(_, _, r) => r,
        }
    }

    /// The point of the shape's core nearest `p`.
    fn core(&self, p: Vec3) -> Vec3 {
        match *self {
            Placed::Sphere(c, _) => c,
            Placed::Capsule(a, b, _) => {
                let ab = b - a;
                let t = if ab.length_squared() > 0.0 {
                    ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                a + ab * t
            }
        }
    }

    /// Whether a particle of radius `grow` at `p` overlaps it.
    fn contains(&self, p: Vec3, grow: f32) -> bool {
        let r = self.radius() + grow;
        p.distance_squared(self.core(p)) < r * r
    }

    /// A particle of radius `grow` at `p` moved out to touch the surface, along the line from
    /// the core (`away` when `p` is on it).
    fn push_out(&self, p: Vec3, grow: f32, away: Vec3) -> Vec3 {
        let c = self.core(p);
        let n = (p - c)
            .try_normalize()
            .or(away.try_normalize())
            .unwrap_or(Vec3::Y);
        c + n * (self.radius() + grow)
    }
}

impl SpringChain {
    fn drive(
        &self,
        parents: &[Option<JointIndex>],
        pose: &[Transform],
        to_world: &Transform,
    ) -> Drive {
        Drive {
            anchor: to_world.mul_transform(&parent_model(parents, pose, self.joints[0])),
            locals: self.joints.iter().map(|&j| pose[j as usize]).collect(),
            colliders: self
                .colliders
                .iter()
                .map(|c| to_world.mul_transform(&model_transform(parents, pose, c.joint)))
                .collect(),
        }
    }

    /// Runs the chain to time `time` (seconds) and turns its joints in `pose` (model space placed
    /// in the world by `to_world`), blended in by `weight`.
    #[allow(clippy::too_many_arguments)]
    pub fn apply(
        &self,
        parents: &[Option<JointIndex>],
        pose: &mut [Transform],
        to_world: &Transform,
        time: f64,
        s: &SpringSettings,
        weight: f32,
        state: &mut SpringState,
    ) {
        if self.joints.is_empty() {
            return;
        }
        let now = self.drive(parents, pose, to_world);
        match state.drive.take() {
            Some((t, before)) if time > t && time - t <= MAX_GAP_S => {
                let h = 1.0 / SUBSTEP_HZ;
                loop {
                    let next = state.start + (state.steps + 1) as f64 * h;
                    if next > time + 1e-9 {
                        break;
                    }
                    let d = before.lerp(&now, ((next - t) / (time - t)) as f32);
                    self.substep(&d, state, h as f32, s);
                    state.steps += 1;
                }
            }
            Some((t, _)) if time == t => {}
            _ => {
                state.start = time;
                state.steps = 0;
                state.p = self.animated_tails(&now);
                state.v = vec![Vec3::ZERO; self.joints.len()];
            }
        }
        self.pose_from(&now, state, pose, weight);
        state.drive = Some((time, now));
    }

    /// The tails where the animation puts them.
    fn animated_tails(&self, d: &Drive) -> Vec<Vec3> {
        let mut parent = d.anchor;
        let mut out = Vec::with_capacity(self.joints.len());
        for (local, tail) in d.locals.iter().zip(&self.tails) {
            let m = parent.mul_transform(local);
            out.push(m.transform_point(*tail));
            parent = m;
        }
        out
    }

    /// One fixed step of every particle, root first (a particle's head is its parent's particle).
    fn substep(&self, d: &Drive, st: &mut SpringState, h: f32, all: &SpringSettings) {
        let placed: Vec<Placed> = self
            .colliders
            .iter()
            .zip(&d.colliders)
            .map(|(c, at)| Placed::new(at, &c.shape))
            .collect();
        let mut parent = d.anchor;
        for i in 0..self.joints.len() {
            let s = self.per_joint.get(i).unwrap_or(all);
            let omega = std::f32::consts::TAU * s.stiffness.max(0.0);
            let zeta = s.damping.max(0.0);
            let den = 1.0 + (2.0 * zeta * omega + s.drag.max(0.0)) * h + omega * omega * h * h;
            let m = parent.mul_transform(&d.locals[i]);
            let head = m.translation;
            let rest = m.transform_point(self.tails[i]) - head;
            let len = rest.length();
            let (p, v) = (st.p[i], st.v[i]);
            // implicit in the spring and the damping: stable at any stiffness
            let v1 = (v + h * (omega * omega * (head + rest - p) + s.gravity)) / den;
            let mut x = p + v1 * h;
            x = head + (x - head).try_normalize().unwrap_or(rest / len.max(1e-9)) * len;
            x = collide(&placed, p, x, s.radius.max(0.0), rest);
            st.v[i] = (x - p) / h;
            st.p[i] = x;
            parent = turned(&m, rest, x - head);
        }
    }

    /// Writes the joints' rotations pointing at the particles into `pose`.
    fn pose_from(&self, d: &Drive, st: &SpringState, pose: &mut [Transform], weight: f32) {
        let w = weight.clamp(0.0, 1.0);
        let mut parent = d.anchor;
        for (i, &j) in self.joints.iter().enumerate() {
            let m = parent.mul_transform(&d.locals[i]);
            let rest = m.transform_point(self.tails[i]) - m.translation;
            let shown = turned(&m, rest, st.p[i] - m.translation);
            let local = (parent.rotation.conjugate() * shown.rotation).normalize();
            let t = &mut pose[j as usize];
            t.rotation = nlerp_quat(t.rotation, local, w);
            parent = shown;
        }
    }
}

/// `m` turned the shortest way so its bone `rest` points along `to`.
fn turned(m: &Transform, rest: Vec3, to: Vec3) -> Transform {
    let r = match (rest.try_normalize(), to.try_normalize()) {
        (Some(a), Some(b)) => (Quat::from_rotation_arc(a, b) * m.rotation).normalize(),
        _ => m.rotation,
    };
    Transform { rotation: r, ..*m }
}

/// The particle of radius `grow` moving from `from` to `to`, stopped at the first collider its
/// path enters and pushed out of every collider it ends in.
fn collide(placed: &[Placed], from: Vec3, to: Vec3, grow: f32, away: Vec3) -> Vec3 {
    if placed.is_empty() {
        return to;
    }
    let smallest = placed
        .iter()
        .map(|c| c.radius() + grow)
        .fold(f32::INFINITY, f32::min);
    let n = if smallest > 0.0 {
        ((from.distance(to) / (0.5 * smallest)).ceil() as usize).clamp(1, 64)
    } else {
        1
    };
    let mut x = to;
    'path: for k in 1..=n {
        let y = from.lerp(to, k as f32 / n as f32);
        for c in placed {
            if c.contains(y, grow) {
                x = c.push_out(y, grow, away);
                break 'path;
            }
        }
    }
    for c in placed {
        if c.contains(x, grow) {
            x = c.push_out(x, grow, away);
        }
    }
    x
}

/// The tail of `joint` in its own frame for a spring chain: its child in the chain (`next`), else
/// its first child in the rest pose, else its own bone (its offset from its parent) continued.
pub fn tail_of(
    parents: &[Option<JointIndex>],
    rest: &[Transform],
    joint: JointIndex,
    next: Option<JointIndex>,
) -> Vec3 {
    if let Some(n) = next {
        return rest[n as usize].translation;
    }
    if let Some(c) = parents.iter().position(|&p| p == Some(joint)) {
        let t = rest[c].translation;
        if t.length_squared() > 1e-12 {
            return t;
        }
    }
    let own = rest[joint as usize].translation;
    // in the joint's frame: its parent-relative offset turned into its own frame
    let dir = rest[joint as usize].rotation.conjugate() * own;
    dir.try_normalize()
        .map_or(Vec3::Y * 0.05, |d| d * own.length().max(0.02))
}
