//! The running graph: [`Graph`] holds the compiled data, the state (everything a snapshot holds,
//! [`super::state`]) and the scratch, and owns the fixed-step clock, the evaluation entry points,
//! root motion and snapshots (introspection is in [`super::info`] and [`super::provenance`]).

use super::clip_player::reset_subtree;
use super::compiled::Compiled;
use super::eval::eval_subtree;
use super::foot_lock::Placement;
use super::params::{ParamId, Params};
use super::post::PostOp;
use super::scratch::Scratch;
use super::share::Share;
use super::state::{GraphState, Pass, PostMemory};
use super::update::{step, update};
use super::visit::Visit;
use crate::root_motion::{apply_to_roots, remove_from_roots, Reference, RootMotionMode};
use crate::{time, Skeleton, Transform};

/// Default fixed-step rate in Hz.
pub const DEFAULT_STEP_HZ: f32 = 60.0;

/// Most fixed steps one [`Graph::advance`] runs (10 s at 60 Hz).
pub const MAX_STEPS_PER_ADVANCE: u32 = 600;

/// A compiled, running blend graph. See the [module docs](super).
pub struct Graph {
    pub(crate) c: Compiled,
    pub(crate) s: GraphState,
    pub(crate) x: Scratch,
    initial: GraphState,
    output: Vec<Transform>,
    /// The morph weights of the last evaluated pose.
    output_morphs: Vec<f32>,
    step_dt: f32,
    /// Whether a post-process operation remembers earlier frames (a foot lock): then every
    /// step is evaluated ([`Graph::step`]).
    remembers: bool,
    /// The pose before a masked post operation (reused every frame).
    masked: Vec<Transform>,
    /// The step whose evaluation `output` holds, when nothing has changed since (set by a
    /// graph that remembers as it steps): evaluating again at that step reuses it, so a frame
    /// shown at a step costs one evaluation, not two.
    observed: Option<u64>,
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Graph")
            .field("nodes", &self.c.nodes.len())
            .field("root", &self.c.root)
            .field("params", &self.s.params.defs().len())
            .field("steps", &self.s.steps)
            .finish()
    }
}

impl Graph {
    pub(crate) fn new(c: Compiled, params: Params) -> Graph {
        let s = GraphState::new(&c, params);
        let x = Scratch::new(&c);
        let output = c.skeleton.rest_pose().to_vec();
        let output_morphs = c.skeleton.morphs().defaults().to_vec();
        let mut g = Graph {
            initial: s.clone(),
            c,
            s,
            x,
            output,
            output_morphs,
            step_dt: 1.0 / DEFAULT_STEP_HZ,
            remembers: false,
            masked: Vec::new(),
            observed: None,
        };
        g.remembers = g.c.post.iter().any(PostOp::remembers);
        g.start();
        g.initial = g.s.clone();
        g
    }

    /// Puts every node at its start and computes the initial weights and root placement (which
    /// root motion is measured from).
    fn start(&mut self) {
        let root = self.c.root;
        reset_subtree(&self.c, &mut self.s, &mut self.x, root);
        self.s.weights.iter_mut().for_each(|w| *w = 0.0);
        self.s.active.iter_mut().for_each(|a| *a = false);
        self.x.motion = Default::default();
        let mut v = Visit {
            c: &self.c,
            s: &mut self.s,
            x: &mut self.x,
            pass: Pass::Init,
        };
        update(&mut v, root, 0.0, Share::FULL);
        self.s.root_world = self.x.motion.result();
        self.s.root_reference = Reference::new(self.s.root_world);
        // what the post operations remember starts here, with the first frame seen
        self.s.post.fill(PostMemory::None);
        self.observe();
    }

    /// Lets the operations with memory see the current step: the pose is evaluated at every
    /// step (not only at the frames someone looks at), so what they remember depends on the
    /// steps alone and a pose shown at one time (a seek from a snapshot, `run --time`) equals the
    /// one a bake reaches frame by frame. Evaluating again at the same step changes nothing.
    fn observe(&mut self) {
        if self.remembers {
            self.observed = None;
            self.evaluate();
            self.observed = Some(self.s.steps);
        }
    }

    /// Restarts the graph: the state right after building (parameters back to their defaults).
    pub fn reset(&mut self) {
        self.observed = None;
        self.s.clone_from(&self.initial);
        self.x.events.clear();
    }

    /// Restarts the graph like [`Graph::reset`] but keeps the current parameter values, so the
    /// initial weights follow them.
    pub fn restart_keep_params(&mut self) {
        let params = self.s.params.clone();
        self.reset();
        self.s.params = params;
        self.start();
    }

    /// The skeleton the graph animates.
    pub fn skeleton(&self) -> &Skeleton {
        &self.c.skeleton
    }

    /// Parameters (declarations and values).
    pub fn params(&self) -> &Params {
        &self.s.params
    }

    /// Parameters, to write values (they take effect at the next step).
    pub fn params_mut(&mut self) -> &mut Params {
        // (the pose may follow a parameter: evaluated afresh)
        self.observed = None;
        &mut self.s.params
    }

    /// Finds a parameter by name.
    pub fn param(&self, name: &str) -> Option<ParamId> {
        self.s.params.find(name)
    }

    /// Fixed steps per second.
    pub fn step_rate(&self) -> f32 {
        1.0 / self.step_dt
    }

    /// Sets the fixed-step rate (clamped to 1..=10000 Hz).
    pub fn set_step_rate(&mut self, hz: f32) {
        let hz = if hz.is_finite() {
            hz.clamp(1.0, 10_000.0)
        } else {
            DEFAULT_STEP_HZ
        };
        self.step_dt = 1.0 / hz;
        self.observed = None;
    }

    /// Fixed steps taken since the start.
    pub fn steps(&self) -> u64 {
        self.s.steps
    }

    /// Simulated time: the exact time of the current step ([`time::step_time`]).
    pub fn time(&self) -> f64 {
        f64::from(time::step_time(self.s.steps, self.step_rate()))
    }

    /// Forgets the last frame's events and root-motion delta (done by [`Graph::advance`]).
    pub fn begin_frame(&mut self) {
        self.x.events.clear();
        self.s.root_delta = Transform::IDENTITY;
    }

    /// Advances by `dt` seconds in whole fixed steps (the remainder carries to the next call).
    /// At most [`MAX_STEPS_PER_ADVANCE`] steps run per call; time beyond that is dropped, so a
    /// stalled frame or a wild `dt` cannot freeze the caller. Returns the number of steps run.
    pub fn advance(&mut self, dt: f32) -> u32 {
        self.begin_frame();
        if !(dt > 0.0 && dt.is_finite()) {
            return 0;
        }
        self.s.accumulator += dt as f64;
        // whole steps, forgiving rounding of dt (a frame of 1/60 s is one 60 Hz step)
        let rate = self.step_rate();
        let step_len = 1.0 / f64::from(rate);
        let mut steps = 0;
        while time::holds_step(self.s.accumulator, rate) {
            if steps == MAX_STEPS_PER_ADVANCE {
                self.s.accumulator = 0.0;
                break;
            }
            self.s.accumulator -= step_len;
            self.step();
            steps += 1;
        }
        steps
    }

    /// Runs fixed steps until [`Graph::steps`] is `n`, as one frame (the last frame's events
    /// and root-motion delta are forgotten first); nothing when it is already at or past `n`.
    /// Unlike [`Graph::advance`] there is no cap: the caller asked for that step. Returns the
    /// number of steps run.
    pub fn advance_to(&mut self, n: u64) -> u64 {
        self.begin_frame();
        let from = self.s.steps;
        while self.s.steps < n {
            self.step();
        }
        self.s.steps.saturating_sub(from)
    }

    /// Runs exactly one fixed step (events and root motion add to the current frame's).
    pub fn step(&mut self) {
        step(&self.c, &mut self.s, &mut self.x, self.step_dt);
        self.observe();
    }

    /// Evaluates the pose for the current state: the active nodes in post-order, root-motion
    /// removal, then the post-process ops. The result stays available through [`Graph::pose`]
    /// and, its morph weights, [`Graph::morphs`].
    pub fn evaluate(&mut self) -> &[Transform] {
        if self.observed.is_some_and(|n| n == self.s.steps) {
            // evaluated at this step already, nothing changed since
            return &self.output;
        }
        eval_subtree(&self.c, &self.s, &mut self.x, self.c.root);
        std::mem::swap(&mut self.output, &mut self.x.pools[0].stack[0]);
        std::mem::swap(&mut self.output_morphs, &mut self.x.pools[0].morphs[0]);
        let parents = self.c.skeleton.parents();
        if let Some((joint, mode)) = self.c.root_motion {
            let m = self.s.root_reference.motion(
                mode,
                &self.c.root_space,
                &self.output[joint as usize],
            );
            remove_from_roots(parents, &mut self.output, &m);
        }
        let placement = Placement {
            to_world: self.root_motion_world().to_matrix() * self.c.skeleton.armature(),
            time: self.time(),
        };
        // (as a transform, for the rigging operations that run in the world: made on first need)
        let mut to_world: Option<Transform> = None;
        for (k, op) in self.c.post.iter().enumerate() {
            let memory = &mut self.s.post[k];
            match op {
                PostOp::FootLock { lock, weight } => {
                    if !matches!(memory, PostMemory::Feet(_)) {
                        *memory = PostMemory::Feet(Vec::new());
                    }
                    if let PostMemory::Feet(feet) = memory {
                        lock.apply(
                            &placement,
                            parents,
                            &mut self.output,
                            &self.s.params,
                            weight.get(&self.s.params).clamp(0.0, 1.0),
                            feet,
                        )
                    }
                }
                PostOp::Rig { op, weight, mask } => {
                    let w = weight.get(&self.s.params);
                    if !w.is_finite() {
                        continue;
                    }
                    if !matches!(memory, PostMemory::Rig(_)) {
                        *memory = PostMemory::Rig(Default::default());
                    }
                    if mask.is_some() {
                        self.masked.clone_from(&self.output);
                    }
                    if let PostMemory::Rig(m) = memory {
                        op.apply(
                            parents,
                            &mut self.output,
                            &self.s.params,
                            to_world
                                .get_or_insert_with(|| Transform::from_matrix(&placement.to_world)),
                            placement.time,
                            w.clamp(0.0, 1.0),
                            m,
                        )
                    }
                    // a masked joint shows its mask's share of the change
                    if let Some(mask) = mask {
                        for ((out, before), &k) in
                            self.output.iter_mut().zip(&self.masked).zip(mask)
                        {
                            if k < 1.0 {
                                *out = before.nlerp(out, k.max(0.0));
                            }
                        }
                    }
                }
                _ => op.apply(
                    parents,
                    &mut self.output,
                    &mut self.output_morphs,
                    &self.s.params,
                ),
            }
        }
        &self.output
    }

    /// The morph weights of the last evaluated pose, one per morph target of the skeleton
    /// ([`crate::Morphs`] order; empty for a rig without morph targets).
    pub fn morphs(&self) -> &[f32] {
        &self.output_morphs
    }

    /// [`Graph::evaluate`] into `out` without copying: `out` and the graph trade buffers, so
    /// `out` holds the pose and [`Graph::pose`] no longer does (until the next evaluation).
    pub fn evaluate_into(&mut self, out: &mut Vec<Transform>) {
        self.evaluate();
        std::mem::swap(&mut self.output, out);
        // (`output` no longer holds the pose; it goes back to the pool at the next evaluation,
        // which needs a buffer of the pose's size whatever `out` was)
        self.output.resize(out.len(), Transform::IDENTITY);
        self.observed = None;
    }

    /// The last evaluated pose.
    pub fn pose(&self) -> &[Transform] {
        &self.output
    }

    /// The root-motion mode the graph extracts ([`RootMotionMode::Off`] when none).
    pub fn root_motion_mode(&self) -> RootMotionMode {
        self.c
            .root_motion
            .map_or(RootMotionMode::Off, |(_, mode)| mode)
    }

    /// Root motion over the last [`Graph::advance`], in world space: the step from where the
    /// character stood to where it stands, `root_motion_world(before) · delta ==
    /// root_motion_world(after)`.
    pub fn root_motion_delta(&self) -> Transform {
        let d = self.s.root_reference.moved(&self.s.root_delta);
        self.c.root_space.to_world(&d)
    }

    /// Accumulated root motion in world space: where the character stands relative to where
    /// it stood at the graph's first frame (the identity there, and without root motion).
    /// Placing the in-place pose (armature included) by it puts the character where
    /// [`Graph::pose_with_root_motion`] has it: `world · armature · model(pose)`.
    pub fn root_motion_world(&self) -> Transform {
        self.c.root_space.to_world(&self.root_motion())
    }

    /// The accumulated root motion in the root joints' parent space.
    fn root_motion(&self) -> Transform {
        self.s.root_reference.motion_to(&self.s.root_world)
    }

    /// Copies the last evaluated pose into `out` with the accumulated root motion put back on
    /// the root joints (the character walks through the scene); [`Graph::pose`] is the
    /// in-place variant.
    pub fn pose_with_root_motion(&self, out: &mut [Transform]) {
        let n = out.len().min(self.output.len());
        out[..n].copy_from_slice(&self.output[..n]);
        self.apply_root_motion(&mut out[..n]);
    }

    /// Puts the accumulated root motion back on the root joints of `pose`, an in-place pose of
    /// this graph (e.g. [`Graph::pose`] after further procedural edits); nothing without root
    /// motion.
    pub fn apply_root_motion(&self, pose: &mut [Transform]) {
        if self.c.root_motion.is_some() {
            apply_to_roots(self.c.skeleton.parents(), pose, &self.root_motion());
        }
    }

    /// Removes the accumulated root motion from the root joints of `pose` (the inverse of
    /// [`Graph::apply_root_motion`]): a pose as walked back to the graph's in-place pose.
    pub fn remove_root_motion(&self, pose: &mut [Transform]) {
        if self.c.root_motion.is_some() {
            remove_from_roots(self.c.skeleton.parents(), pose, &self.root_motion());
        }
    }

    /// A complete copy of the state (see [`GraphState`]).
    pub fn snapshot(&self) -> GraphState {
        self.s.clone()
    }

    /// Restores a snapshot taken from this graph.
    pub fn restore(&mut self, state: &GraphState) {
        self.observed = None;
        self.s.clone_from(state);
        self.x.events.clear();
    }
}
