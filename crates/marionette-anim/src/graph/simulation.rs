//! Deterministic playback of a take: the pose at time `t` is a pure function of (graph, take,
//! t). Simulation always runs fixed steps from the start; every `snapshot_interval` steps the
//! full graph state is cached, so scrubbing backwards restores the nearest earlier snapshot and
//! re-simulates from there (never guesses), giving the same bits as a fresh run.
//!
//! [`Cursor`] is the playback without the graph: a host that keeps its graph whether or not a
//! take plays (the script runtime) drives a cursor over its own graph, so switching takes never
//! gives the graph away. [`Simulation`] is a graph and a cursor together.

use super::runtime::Graph;
use super::state::GraphState;
use super::take::{Resolved, Take, TakeError};
use crate::{time, Transform};

/// A take's playback over a graph held elsewhere: the resolved take, the step, the snapshots.
pub struct Cursor {
    take: Resolved,
    name: String,
    step: u64,
    interval: u64,
    snapshots: Vec<GraphState>,
}

impl Cursor {
    /// Starts `take` on `graph` (reset to its initial state, step rate = the take's fps). On an
    /// error (the take does not fit the graph's parameters) `graph` is left untouched.
    pub fn start(graph: &mut Graph, take: &Take) -> Result<Cursor, TakeError> {
        let resolved = take.resolve(graph.params())?;
        graph.set_step_rate(resolved.fps);
        graph.reset();
        resolved.apply(graph.params_mut(), 0);
        graph.params_mut().clear_triggers();
        graph.restart_keep_params();
        let first = graph.snapshot();
        Ok(Cursor {
            take: resolved,
            name: take.name.clone(),
            step: 0,
            interval: 30,
            snapshots: vec![first],
        })
    }

    /// Whether `take` fits a graph with `params` (what [`Cursor::start`] checks first).
    pub fn check(params: &super::Params, take: &Take) -> Result<(), TakeError> {
        take.resolve(params).map(|_| ())
    }

    /// The take's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of steps in the take.
    pub fn steps(&self) -> u64 {
        self.take.steps
    }

    /// The step shown at time `t`: the nearest ([`time::step_at`]), clamped to the take.
    pub fn step_at(&self, t: f32) -> u64 {
        time::step_at(f64::from(t), self.take.fps).min(self.take.steps)
    }

    /// The time of step `n` of the take ([`time::step_time`]).
    pub fn step_time(&self, n: u64) -> f32 {
        time::step_time(n, self.take.fps)
    }

    /// The step the graph is at.
    pub fn current_step(&self) -> u64 {
        self.step
    }

    /// Simulates `graph` (the one the cursor started on) to step `n`: backwards, from the
    /// nearest snapshot at or before `n`; forwards past a snapshot already taken, from the
    /// nearest one before `n` (a scrub far ahead replays at most one interval, and always the
    /// step into `n`, whose events the graph then holds); else from where it is.
    pub fn seek(&mut self, graph: &mut Graph, n: u64) {
        let n = n.min(self.take.steps);
        // (the first snapshot is taken at start, so there is always one)
        let last = self.snapshots.len().saturating_sub(1);
        let k = if n < self.step {
            (n / self.interval) as usize
        } else {
            (n.saturating_sub(1) / self.interval) as usize
        }
        .min(last);
        let at = k as u64 * self.interval;
        if n < self.step || at > self.step {
            if let Some(s) = self.snapshots.get(k) {
                graph.restore(s);
                self.step = at;
            }
        }
        graph.begin_frame();
        while self.step < n {
            self.take.apply(graph.params_mut(), self.step + 1);
            graph.step();
            self.step += 1;
            if self.step.is_multiple_of(self.interval)
                && self.snapshots.len() as u64 == self.step / self.interval
            {
                self.snapshots.push(graph.snapshot());
            }
        }
    }

    /// [`Cursor::seek`] to time `t` of the take, then the evaluated pose into `out`
    /// ([`Graph::evaluate_into`]).
    pub fn pose_at_into(&mut self, graph: &mut Graph, t: f32, out: &mut Vec<Transform>) {
        self.seek(graph, self.step_at(t));
        graph.evaluate_into(out);
    }
}

/// A graph playing a take. See the module docs.
pub struct Simulation {
    graph: Graph,
    cursor: Cursor,
}

impl Simulation {
    /// Starts `take` on `graph` (reset to its initial state, step rate = the take's fps).
    pub fn new(mut graph: Graph, take: &Take) -> Result<Self, TakeError> {
        let cursor = Cursor::start(&mut graph, take)?;
        Ok(Self { graph, cursor })
    }

    /// Sets how many steps apart snapshots are taken (at least 1; default 30).
    pub fn with_snapshot_interval(mut self, steps: u64) -> Self {
        self.cursor.interval = steps.max(1);
        self.cursor.snapshots.truncate(1);
        self
    }

    /// The take's name.
    pub fn name(&self) -> &str {
        self.cursor.name()
    }

    /// Number of steps in the take.
    pub fn steps(&self) -> u64 {
        self.cursor.steps()
    }

    /// The step shown at time `t`: the nearest ([`time::step_at`]), clamped to the take.
    pub fn step_at(&self, t: f32) -> u64 {
        self.cursor.step_at(t)
    }

    /// The time of step `n` of the take ([`time::step_time`]).
    pub fn step_time(&self, n: u64) -> f32 {
        self.cursor.step_time(n)
    }

    /// The step the graph is at.
    pub fn current_step(&self) -> u64 {
        self.cursor.current_step()
    }

    /// Simulates to step `n` (backwards: from the nearest snapshot at or before `n`).
    pub fn seek(&mut self, n: u64) {
        self.cursor.seek(&mut self.graph, n);
    }

    /// The evaluated pose at time `t` of the take.
    pub fn pose_at(&mut self, t: f32) -> &[Transform] {
        self.seek(self.step_at(t));
        self.graph.evaluate()
    }

    /// [`Simulation::pose_at`] into `out` without copying ([`Graph::evaluate_into`]).
    pub fn pose_at_into(&mut self, t: f32, out: &mut Vec<Transform>) {
        self.cursor.pose_at_into(&mut self.graph, t, out);
    }

    /// The graph (for introspection, events and root motion at the current step).
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The graph, mutably (writing parameters here is overwritten by the take's keys).
    pub fn graph_mut(&mut self) -> &mut Graph {
        &mut self.graph
    }
}
