//! Chain IK for chains of any length (spines, tails, tentacles, fingers): FABRIK (Aristidou and
//! Lasenby 2011) and CCD, with a per-joint limit on the turn away from the animated pose, an
//! optional pole the chain bends towards, and [`spline`], which lays a chain along a curve.
//!
//! Both solvers keep bone lengths (an unreachable target straightens the chain towards it unless
//! [`ChainSettings::stretch`] is set) and turn each joint the shortest way from its animated
//! rotation, so the animation's twist is kept. They stop as soon as the tip is within
//! [`ChainSettings::tolerance`] of the target.

use glam::{Quat, Vec3};

use super::{chain_models, clamp_angle, parent_model, write_rotations};
use crate::{JointIndex, Transform};

/// The solver of [`solve`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solver {
    /// Forward And Backward Reaching IK: moves points, then turns joints to them.
    #[default]
    Fabrik,
    /// Cyclic Coordinate Descent: turns each joint, tip to root, towards the target.
    Ccd,
}

/// Settings of [`solve`].
#[derive(Clone, Debug, PartialEq)]
pub struct ChainSettings {
    /// The solver.
    pub solver: Solver,
    /// Most iterations (`None`: [`Solver::default_iterations`]).
    pub iterations: Option<u32>,
    /// Distance from the target the tip may stop at, metres.
    pub tolerance: f32,
    /// Per joint (root first, the tip's own entry unused): the largest turn away from its
    /// animated rotation, radians. Empty: no limits.
    pub limits: Vec<f32>,
    /// A model-space point the chain bends towards (the chain turns about its root-to-tip line).
    pub pole: Option<Vec3>,
    /// Scale the bones of a chain that cannot reach so its tip does.
    pub stretch: bool,
}

impl Solver {
    /// The iterations a solver runs at most by default. FABRIK reaches 0.1 mm well within them on
    /// a 10-joint chain (21 at most over the bench's 200 targets; near full extension it starts
    /// from the arc of the chain's length, where plain FABRIK would crawl). CCD crawls where the
    /// chain must fold or straighten (median 54 sweeps, but a quarter of the bench's targets are
    /// not within 0.1 mm after 200): its bound keeps a frame's cost bounded. Both stop as soon as
    /// the tip is there.
    pub fn default_iterations(self) -> u32 {
        match self {
            Solver::Fabrik => 100,
            Solver::Ccd => 200,
        }
    }
}

impl ChainSettings {
    /// The most iterations to run.
    pub fn max_iterations(&self) -> u32 {
        self.iterations
            .unwrap_or_else(|| self.solver.default_iterations())
    }
}

impl Default for ChainSettings {
    fn default() -> Self {
        ChainSettings {
            solver: Solver::Fabrik,
            iterations: None,
            tolerance: 5e-5,
            limits: Vec::new(),
            pole: None,
            stretch: false,
        }
    }
}

/// What [`solve`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Solved {
    /// Iterations run.
    pub iterations: u32,
    /// Distance left between the tip and the target, metres.
    pub error: f32,
}

/// A chain as the solvers see it: model positions and rotations of its joints, the animated
/// local rotations and the bone vectors (each joint's child offset in the joint's frame, scaled).
struct Work<'a> {
    joints: &'a [JointIndex],
    parent: Quat,
    locals: Vec<Quat>,
    bones: Vec<Vec3>,
    pos: Vec<Vec3>,
    rot: Vec<Quat>,
}

impl<'a> Work<'a> {
    fn new(parents: &[Option<JointIndex>], pose: &[Transform], joints: &'a [JointIndex]) -> Self {
        let models = chain_models(parents, pose, joints);
        let n = joints.len();
        let bones = (0..n)
            .map(|k| match joints.get(k + 1) {
                Some(&c) => {
                    let t = &pose[c as usize];
                    models[k].scale * t.translation
                }
                None => Vec3::ZERO,
            })
            .collect();
        Work {
            joints,
            parent: parent_model(parents, pose, joints[0]).rotation,
            locals: joints.iter().map(|&j| pose[j as usize].rotation).collect(),
            bones,
            pos: models.iter().map(|m| m.translation).collect(),
            rot: models.iter().map(|m| m.rotation).collect(),
        }
    }

    fn tip(&self) -> Vec3 {
        self.pos[self.pos.len() - 1]
    }

    fn limit(&self, limits: &[f32], k: usize) -> f32 {
        limits.get(k).copied().unwrap_or(std::f32::consts::PI)
    }

    /// Turns the joints, root first, so each bone points at `want[k + 1]` from where the joint
    /// is, each turn at most its limit away from its animated rotation (under its new parent).
    fn orient(&mut self, want: &[Vec3], limits: &[f32]) {
        let n = self.joints.len();
        let mut parent = self.parent;
        for k in 0..n {
            let animated = (parent * self.locals[k]).normalize();
            let mut r = animated;
            if k + 1 < n {
                let from = animated * self.bones[k];
                if let (Some(a), Some(b)) = (
                    from.try_normalize(),
                    (want[k + 1] - self.pos[k]).try_normalize(),
                ) {
                    let turn = clamp_angle(Quat::from_rotation_arc(a, b), self.limit(limits, k));
                    r = (turn * animated).normalize();
                }
                self.pos[k + 1] = self.pos[k] + r * self.bones[k];
            }
            self.rot[k] = r;
            parent = r;
        }
    }

    /// Turns joint `k` by the model rotation `q` about its position, carrying its descendants.
    fn turn(&mut self, k: usize, q: Quat) {
        let o = self.pos[k];
        for j in k..self.joints.len() {
            self.rot[j] = (q * self.rot[j]).normalize();
            if j > k {
                self.pos[j] = o + q * (self.pos[j] - o);
            }
        }
    }

    fn fabrik(&mut self, target: Vec3, s: &ChainSettings) -> u32 {
        let n = self.joints.len();
        let lens: Vec<f32> = self.bones.iter().map(|b| b.length()).collect();
        let mut want = self.pos.clone();
        // near full extension FABRIK crawls (each pass straightens the chain a little): start it
        // on the circular arc from the root to the target that has the chain's length, bent the
        // way the chain bends (or towards the pole)
        let reach: f32 = lens.iter().sum();
        let far = target.distance(self.pos[0]);
        if n > 2 && far > 0.75 * reach && far < reach {
            let side = s.pole.unwrap_or_else(|| {
                self.pos[1..n - 1].iter().copied().sum::<Vec3>() / (n - 2) as f32
            });
            arc(&mut want, &lens, target, side);
        }
        for it in 0..s.max_iterations() {
            if self.tip().distance(target) <= s.tolerance {
                return it;
            }
            // backward: the tip on the target, each joint at its bone's length from its child
            want[n - 1] = target;
            for k in (0..n - 1).rev() {
                let d = (want[k] - want[k + 1]).try_normalize().unwrap_or(Vec3::Y);
                want[k] = want[k + 1] + d * lens[k];
            }
            // a pole turns the points about the root-to-target line, before the forward pass
            // (whose limits then hold)
            want[0] = self.pos[0];
            if let Some(pole) = s.pole {
                bend_points(&mut want, target, pole);
            }
            // forward: from the fixed root, joints turned to the points (limits applied)
            self.orient(&want, &s.limits);
            want.copy_from_slice(&self.pos);
        }
        s.max_iterations()
    }

    fn ccd(&mut self, target: Vec3, s: &ChainSettings) -> u32 {
        let n = self.joints.len();
        for it in 0..s.max_iterations() {
            if self.tip().distance(target) <= s.tolerance {
                return it;
            }
            for k in (0..n - 1).rev() {
                let (Some(a), Some(b)) = (
                    (self.tip() - self.pos[k]).try_normalize(),
                    (target - self.pos[k]).try_normalize(),
                ) else {
                    continue;
                };
                let q = Quat::from_rotation_arc(a, b);
                // the joint's turn away from its animated rotation (under its current parent)
                let parent = if k == 0 { self.parent } else { self.rot[k - 1] };
                let animated = parent * self.locals[k];
                let away = (q * self.rot[k] * animated.conjugate()).normalize();
                let wanted = clamp_angle(away, self.limit(&s.limits, k)) * animated;
                let q = (wanted * self.rot[k].conjugate()).normalize();
                self.turn(k, q);
            }
        }
        s.max_iterations()
    }

    /// Curls a straight chain a little towards `side` (turning every joint but the tip by the
    /// same small angle), so a target on its line can be reached: neither solver can bend a
    /// chain whose joints and target are in a line.
    fn unstraighten(&mut self, target: Vec3, side: Option<Vec3>) {
        let n = self.joints.len();
        let Some(axis) = (self.tip() - self.pos[0]).try_normalize() else {
            return;
        };
        let off_line = |p: Vec3| (p - self.pos[0]).reject_from_normalized(axis).length();
        let scale = self.bones.iter().map(|b| b.length()).sum::<f32>() * 1e-3;
        if n < 3 || off_line(target) > scale || self.pos.iter().any(|&p| off_line(p) > scale) {
            return;
        }
        let side = side
            .map(|p| (p - self.pos[0]).reject_from_normalized(axis))
            .and_then(Vec3::try_normalize)
            .unwrap_or_else(|| axis.any_orthonormal_vector());
        let q = Quat::from_axis_angle(axis.cross(side), 10f32.to_radians() / (n - 1) as f32);
        for k in 0..n - 1 {
            self.turn(k, q);
        }
    }

    /// Brings every joint back within its limit of its animated rotation (under its new
    /// parent), root first, carrying its descendants: a pole's turn or CCD's last sweep may
    /// have left one beyond it.
    fn enforce_limits(&mut self, limits: &[f32]) {
        if limits.is_empty() {
            return;
        }
        for k in 0..self.joints.len().saturating_sub(1) {
            let parent = if k == 0 { self.parent } else { self.rot[k - 1] };
            let animated = (parent * self.locals[k]).normalize();
            let away = (self.rot[k] * animated.conjugate()).normalize();
            let kept = clamp_angle(away, self.limit(limits, k));
            if kept != away && kept != -away {
                let q = (kept * animated * self.rot[k].conjugate()).normalize();
                self.turn(k, q);
            }
        }
    }

    /// Turns the whole chain about its root-to-tip line so its middle bends towards `pole`.
    fn bend_towards(&mut self, pole: Vec3) {
        if let Some(q) = pole_turn(&self.pos, self.tip(), pole) {
            self.turn(0, q);
        }
    }
}

/// Solves the chain `joints` (root first, each the child of the one before) so its last joint
/// reaches `target` (model space), blended in by `weight`.
pub fn solve(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joints: &[JointIndex],
    target: Vec3,
    s: &ChainSettings,
    weight: f32,
) -> Solved {
    if joints.len() < 2 || !target.is_finite() {
        return Solved::default();
    }
    let mut w = Work::new(parents, pose, joints);
    let reach: f32 = w.bones.iter().map(|b| b.length()).sum();
    let far = target.distance(w.pos[0]);
    if far >= reach {
        // out of reach: straight at the target (one pass is exact), stretched if asked
        if s.stretch && reach > 0.0 {
            let k = far / reach;
            for (&j, b) in joints[1..].iter().zip(w.bones.iter_mut()) {
                pose[j as usize].translation *= k;
                *b *= k;
            }
        }
        let dir = (target - w.pos[0]).try_normalize().unwrap_or(Vec3::Y);
        let mut along = 0.0;
        let want: Vec<Vec3> = w
            .bones
            .iter()
            .map(|b| {
                let p = w.pos[0] + dir * along;
                along += b.length();
                p
            })
            .collect();
        w.orient(&want, &s.limits);
        write_rotations(pose, joints, w.parent, &w.rot, weight);
        return Solved {
            iterations: 1,
            error: w.tip().distance(target),
        };
    }
    w.unstraighten(target, s.pole);
    let iterations = match s.solver {
        Solver::Fabrik => w.fabrik(target, s),
        Solver::Ccd => {
            // (CCD turns joints about the target only: the pole's bend comes first, its limits
            // after)
            if let Some(pole) = s.pole {
                w.bend_towards(pole);
            }
            w.ccd(target, s)
        }
    };
    w.enforce_limits(&s.limits);
    let error = w.tip().distance(target);
    write_rotations(pose, joints, w.parent, &w.rot, weight);
    Solved { iterations, error }
}

/// Puts the points of `want` after the first on the circular arc from the first to `target`
/// whose length is the bones' (`lens`), each at its distance along it, bulging towards `side`.
fn arc(want: &mut [Vec3], lens: &[f32], target: Vec3, side: Vec3) {
    let o = want[0];
    let chord = target - o;
    let c = chord.length();
    let length: f32 = lens.iter().sum();
    let Some(dir) = chord.try_normalize() else {
        return;
    };
    let bulge = (side - o).reject_from_normalized(dir);
    let up = bulge
        .try_normalize()
        .unwrap_or_else(|| dir.any_orthonormal_vector());
    // half the central angle: length / chord = θ / sin θ (Newton from the small-angle guess)
    let ratio = (length / c).max(1.0 + 1e-6);
    let mut t = (6.0 * (ratio - 1.0)).sqrt().min(3.0);
    for _ in 0..20 {
        let f = t / t.sin() - ratio;
        let df = (t.sin() - t * t.cos()) / (t.sin() * t.sin());
        if df.abs() < 1e-9 {
            break;
        }
        t = (t - f / df).clamp(1e-4, 3.1);
    }
    let r = length / (2.0 * t);
    // the centre is below the chord's middle, away from the bulge
    let centre = o + dir * (c / 2.0) - up * (r * t.cos());
    let start = o - centre;
    let mut along = 0.0;
    for (k, l) in lens.iter().enumerate().take(want.len() - 1) {
        along += l;
        let a = along / r;
        // turn the start about the arc's normal, towards the target
        let q = Quat::from_axis_angle(start.cross(target - centre).normalize_or_zero(), a);
        want[k + 1] = centre + q * start;
    }
}

/// Turns the points between the first and the last of `want` about the line from the first to
/// `target` so their middle lies on `pole`'s side.
fn bend_points(want: &mut [Vec3], target: Vec3, pole: Vec3) {
    let n = want.len();
    let Some(q) = pole_turn(want, target, pole) else {
        return;
    };
    let o = want[0];
    for p in &mut want[1..n - 1] {
        *p = o + q * (*p - o);
    }
}

/// The turn about the line from `points[0]` to `end` that brings the middle of the points
/// between the first and the last onto `pole`'s side (`None`: fewer than three points, or a
/// middle or pole on the line).
fn pole_turn(points: &[Vec3], end: Vec3, pole: Vec3) -> Option<Quat> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let o = points[0];
    let axis = (end - o).try_normalize()?;
    let mid = points[1..n - 1].iter().copied().sum::<Vec3>() / (n - 2) as f32;
    let flat = |v: Vec3| (v - axis * v.dot(axis)).try_normalize();
    let (a, b) = (flat(mid - o)?, flat(pole - o)?);
    Some(Quat::from_axis_angle(
        axis,
        a.cross(b).dot(axis).atan2(a.dot(b)),
    ))
}

/// Lays the chain `joints` along the curve through its root's position and `points` (model
/// space; a centripetal Catmull-Rom spline), keeping bone lengths: each joint is turned so its
/// bone reaches the point at its distance along the curve (past the end, along the last
/// tangent). Blended in by `weight`.
pub fn spline(
    parents: &[Option<JointIndex>],
    pose: &mut [Transform],
    joints: &[JointIndex],
    points: &[Vec3],
    weight: f32,
) {
    if joints.len() < 2 || points.is_empty() || points.iter().any(|p| !p.is_finite()) {
        return;
    }
    let mut w = Work::new(parents, pose, joints);
    let mut ctrl = vec![w.pos[0]];
    for &p in points {
        if ctrl.last().is_none_or(|l: &Vec3| l.distance(p) > 1e-4) {
            ctrl.push(p);
        }
    }
    let line = polyline(&ctrl, 24);
    let mut want = Vec::with_capacity(joints.len());
    want.push(w.pos[0]);
    let mut along = 0.0;
    for b in &w.bones[..joints.len() - 1] {
        along += b.length();
        want.push(point_at(&line, along));
    }
    w.orient(&want, &[]);
    write_rotations(pose, joints, w.parent, &w.rot, weight);
}

/// A centripetal Catmull-Rom spline through `ctrl`, as `per` points per span.
fn polyline(ctrl: &[Vec3], per: usize) -> Vec<Vec3> {
    if ctrl.len() < 2 {
        return ctrl.to_vec();
    }
    let n = ctrl.len();
    let at = |i: isize| -> Vec3 {
        if i < 0 {
            2.0 * ctrl[0] - ctrl[1]
        } else if i as usize >= n {
            2.0 * ctrl[n - 1] - ctrl[n - 2]
        } else {
            ctrl[i as usize]
        }
    };
    let mut out = vec![ctrl[0]];
    for i in 0..n - 1 {
        let i = i as isize;
        let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
        let knot = |a: Vec3, b: Vec3| a.distance(b).sqrt().max(1e-4);
        let t1 = knot(p0, p1);
        let t2 = t1 + knot(p1, p2);
        let t3 = t2 + knot(p2, p3);
        for s in 1..=per {
            let t = t1 + (t2 - t1) * s as f32 / per as f32;
            let a1 = p0 * ((t1 - t) / t1) + p1 * (t / t1);
            let a2 = p1 * ((t2 - t) / (t2 - t1)) + p2 * ((t - t1) / (t2 - t1));
            let a3 = p2 * ((t3 - t) / (t3 - t2)) + p3 * ((t - t2) / (t3 - t2));
            let b1 = a1 * ((t2 - t) / t2) + a2 * (t / t2);
            let b2 = a2 * ((t3 - t) / (t3 - t1)) + a3 * ((t - t1) / (t3 - t1));
            out.push(b1 * ((t2 - t) / (t2 - t1)) + b2 * ((t - t1) / (t2 - t1)));
        }
    }
    out
}

/// The point at arc length `s` along `line` (past its end: along its last segment).
fn point_at(line: &[Vec3], s: f32) -> Vec3 {
    let mut left = s;
    for pair in line.windows(2) {
        let len = pair[0].distance(pair[1]);
        if left <= len && len > 0.0 {
            return pair[0].lerp(pair[1], left / len);
        }
        left -= len;
    }
    let n = line.len();
    if n < 2 {
        return line.first().copied().unwrap_or(Vec3::ZERO);
    }
    let d = (line[n - 1] - line[n - 2])
        .try_normalize()
        .unwrap_or(Vec3::Y);
    line[n - 1] + d * left
}
