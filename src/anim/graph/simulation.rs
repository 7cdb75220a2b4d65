//! Deterministic playback of a take: the pose at time `t` is a pure function of (graph, take,
//! t). Simulation always runs fixed steps from the start; every `snapshot_interval` steps the
//! full graph state is cached, so scrubbing backwards restores the nearest earlier snapshot and
//! re-simulates from there (never guesses), giving the same bits as a fresh run.

use super::runtime::{Graph, GraphState};
use super::take::{Resolved, Take, TakeError};
use crate::anim::{time, Transform};

/// A graph playing a take. See the module docs.
pub struct Simulation {
    graph: Graph,
    take: Resolved,
    name: String,
    step: u64,
    interval: u64,
    snapshots: Vec<GraphState>,
}

impl Simulation {
    /// Starts `take` on `graph` (reset to its initial state, step rate = the take's fps).
    pub fn new(mut graph: Graph, take: &Take) -> Result<Self, TakeError> {
        let resolved = take.resolve(graph.params())?;
        graph.set_step_rate(resolved.fps);
        graph.reset();
        resolved.apply(graph.params_mut(), 0);
        graph.params_mut().clear_triggers();
        graph.restart_keep_params();
        let first = graph.snapshot();
        Ok(Self {
            graph,
            take: resolved,
            name: take.name.clone(),
            step: 0,
            interval: 30,
            snapshots: vec![first],
        })
    }

    /// Sets how many steps apart snapshots are taken (at least 1; default 30).
    pub fn with_snapshot_interval(mut self, steps: u64) -> Self {
        self.interval = steps.max(1);
        self.snapshots.truncate(1);
        self
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

    /// Simulates to step `n` (backwards: from the nearest snapshot at or before `n`).
    pub fn seek(&mut self, n: u64) {
        let n = n.min(self.take.steps);
        if n < self.step {
            let k = ((n / self.interval) as usize).min(self.snapshots.len() - 1);
            self.graph.restore(&self.snapshots[k]);
            self.step = k as u64 * self.interval;
        }
        self.graph.begin_frame();
        while self.step < n {
            self.take.apply(self.graph.params_mut(), self.step + 1);
            self.graph.step();
            self.step += 1;
            if self.step.is_multiple_of(self.interval)
                && self.snapshots.len() as u64 == self.step / self.interval
            {
                self.snapshots.push(self.graph.snapshot());
            }
        }
    }

    /// The evaluated pose at time `t` of the take.
    pub fn pose_at(&mut self, t: f32) -> &[Transform] {
        self.seek(self.step_at(t));
        self.graph.evaluate()
    }

    /// [`Simulation::pose_at`] into `out` without copying ([`Graph::evaluate_into`]).
    pub fn pose_at_into(&mut self, t: f32, out: &mut Vec<Transform>) {
        self.seek(self.step_at(t));
        self.graph.evaluate_into(out);
    }

    /// The graph (for introspection, events and root motion at the current step).
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The graph, mutably (writing parameters here is overwritten by the take's keys).
    pub fn graph_mut(&mut self) -> &mut Graph {
        &mut self.graph
    }

    /// Gives the graph back.
    pub fn into_graph(self) -> Graph {
        self.graph
    }
}
