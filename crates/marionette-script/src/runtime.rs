//! A loaded script running: the compiled graph, live parameters or a take, and `post`.
//!
//! Per frame the only Lua that runs is `post(pose, ctx)` (if the script defines one) and any
//! Lua transition predicates; sampling, blending and the pose ops run in Rust.

use super::compile::{self, PredicateError};
use super::driver::PostDriver;
use super::error::ScriptError;
use super::host::LoadedScript;
use super::passes::{self, Processed};
use marionette_anim::graph::{Cursor, Graph, GraphError, ParamKind, ParamValue, Take};
use marionette_anim::passes::Frames;
use marionette_anim::{time, Transform};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether new graphs run their takes' bake passes (see [`set_passes_by_default`]).
static PASSES_BY_DEFAULT: AtomicBool = AtomicBool::new(true);

/// Whether every [`ScriptedGraph`] made from here on runs its takes' bake passes (`true`
/// unless the command line said `--no-passes`; the editor's toggle changes its own graph with
/// [`ScriptedGraph::set_passes`]).
pub fn set_passes_by_default(on: bool) {
    PASSES_BY_DEFAULT.store(on, Ordering::Relaxed);
}

/// Whether new graphs run their takes' bake passes ([`set_passes_by_default`]).
pub fn passes_by_default() -> bool {
    PASSES_BY_DEFAULT.load(Ordering::Relaxed)
}

/// What survives a reload: the playhead, the take and parameter values by name.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayState {
    /// Seconds since the start (of the take, or of live playback).
    pub time: f64,
    /// The take playing, if any.
    pub take: Option<String>,
    /// Parameter values (triggers excluded).
    pub params: Vec<(String, ParamValue)>,
}

/// A running script. See the module docs.
pub struct ScriptedGraph {
    script: LoadedScript,
    /// The compiled graph, kept whether live or playing a take (a take that does not fit is
    /// refused before the graph is touched).
    graph: Box<Graph>,
    /// The spec node each graph node was made for, by graph node.
    origin: Vec<crate::spec::NodeId>,
    /// The take playing over `graph`, if any (else live parameters).
    cursor: Option<Cursor>,
    /// Takes edited outside the script (the editor's sidecar): each plays instead of the
    /// script's take of its name; those the script lacks are added after the script's.
    edited: Vec<Take>,
    pose: Vec<Transform>,
    /// The pose's morph weights (`post` applied).
    morphs: Vec<f32>,
    time: f64,
    predicate_error: PredicateError,
    post_error: Option<ScriptError>,
    /// Runs `post(pose, ctx)`, when the script has one.
    driver: Option<PostDriver>,
    cancel: Option<crate::Cancel>,
    /// Whether a take's bake passes run (`--no-passes` and the editor's toggle turn them off).
    passes_on: bool,
    /// The playing take's frames after its passes (`None`: no passes, or they are off).
    processed: Option<Processed>,
    /// The frame of `processed` the pose shows.
    shown: Option<usize>,
    /// The error a Lua pass raised for the playing take.
    pass_error: Option<ScriptError>,
    /// The take playing, as it plays (its rate a bake's `--fps` when one is given): what
    /// [`ScriptedGraph::set_passes`] plays again.
    played: Option<Take>,
}

impl ScriptedGraph {
    /// Compiles a loaded script and prepares `post`.
    pub fn new(script: LoadedScript) -> Result<ScriptedGraph, ScriptError> {
        let (graph, predicate_error, origin) =
            compile::build(&script).map_err(|e| ScriptError {
                printed: script.log().into(),
                ..e
            })?;
        let lua_err = |e: mlua::Error| ScriptError::from_lua(&e);
        let driver = match &script.post {
            Some(post) => {
                let (lua, skeleton) = (&script.lua, &script.rig.skeleton);
                Some(PostDriver::new(lua, post, graph.params(), skeleton).map_err(lua_err)?)
            }
            None => None,
        };
        let n = script.rig.skeleton.len();
        let morphs = script.rig.skeleton.morphs().defaults().to_vec();
        Ok(ScriptedGraph {
            script,
            graph: Box::new(graph),
            origin,
            cursor: None,
            edited: Vec::new(),
            pose: vec![Transform::IDENTITY; n],
            morphs,
            time: 0.0,
            predicate_error,
            post_error: None,
            driver,
            cancel: None,
            passes_on: PASSES_BY_DEFAULT.load(Ordering::Relaxed),
            processed: None,
            shown: None,
            pass_error: None,
            played: None,
        })
    }

    /// The script line that made graph node `node` (`None`: unknown, e.g. a node the script
    /// did not make itself).
    pub fn node_location(&self, node: marionette_anim::graph::NodeId) -> Option<&crate::Location> {
        let from = self.origin.get(node.index())?;
        self.script.spec.sources.node(*from)
    }

    /// The script's description of graph node `node` (the spec node it was made for).
    pub fn node_spec(
        &self,
        node: marionette_anim::graph::NodeId,
    ) -> Option<&crate::spec::NodeSpec> {
        let from = self.origin.get(node.index())?;
        self.script.spec.nodes.get(from.index())
    }

    /// Lets `cancel` stop a bake of this graph between frames (`marionette_bake::bake_take`
    /// checks [`ScriptedGraph::is_cancelled`] before each frame).
    pub fn set_cancel(&mut self, cancel: Option<crate::Cancel>) {
        self.cancel = cancel;
    }

    /// True when the flag given to [`ScriptedGraph::set_cancel`] is set.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.is_cancelled())
    }

    /// The loaded script (description, rig, files).
    pub fn script(&self) -> &LoadedScript {
        &self.script
    }

    /// The graph (for introspection: states, transitions, node weights).
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    fn graph_mut(&mut self) -> &mut Graph {
        &mut self.graph
    }

    /// The pose after the last frame (local TRS, parent-first, `post` applied).
    pub fn pose(&self) -> &[Transform] {
        &self.pose
    }

    /// The morph weights of the pose after the last frame (one per morph target of the rig,
    /// `post` applied; empty for a rig without morph targets).
    pub fn morphs(&self) -> &[f32] {
        &self.morphs
    }

    /// Seconds since the start of the take or of live playback, as last asked for.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// The frame (fixed step) the pose shows: the one nearest [`ScriptedGraph::time`].
    pub fn frame(&self) -> u64 {
        self.graph().steps()
    }

    /// The exact time of [`ScriptedGraph::frame`], in seconds ([`time::step_time`] at the
    /// take's rate, or the graph's step rate when live).
    pub fn frame_time(&self) -> f32 {
        match &self.cursor {
            Some(c) => c.step_time(c.current_step()),
            None => time::step_time(self.frame(), self.graph().step_rate()),
        }
    }

    /// The take playing, if any.
    pub fn take(&self) -> Option<&str> {
        self.cursor.as_ref().map(Cursor::name)
    }

    /// The first error raised by `post` or a Lua predicate since the take (or live playback)
    /// started, if any (the frame still evaluates: without `post`, or with the predicate
    /// reading false).
    pub fn runtime_error(&self) -> Option<ScriptError> {
        self.pass_error
            .clone()
            .or_else(|| self.post_error.clone())
            .or_else(|| self.predicate_error.borrow().clone())
    }

    /// Sets a float, bool or vec3 parameter by name.
    pub fn set(&mut self, name: &str, value: ParamValue) -> Result<(), GraphError> {
        let params = self.graph_mut().params_mut();
        let id = params.lookup(name)?;
        params.set(id, value)
    }

    /// Fires a trigger parameter.
    pub fn fire(&mut self, name: &str) -> Result<(), GraphError> {
        let params = self.graph_mut().params_mut();
        let id = params.lookup(name)?;
        params.fire(id)
    }

    /// Plays a take from its start (`None` returns to live parameters at time 0).
    pub fn play(&mut self, take: Option<&str>) -> Result<(), ScriptError> {
        self.play_at(take, None)
    }

    /// Like [`ScriptedGraph::play`], with the take's step rate replaced by `fps` when given
    /// (how `bake --fps` runs a take: one simulation step per baked frame).
    pub fn play_at(&mut self, take: Option<&str>, fps: Option<f32>) -> Result<(), ScriptError> {
        let Some(name) = take else {
            self.go_live();
            return Ok(());
        };
        let Some(mut take) = self.take_data(name) else {
            let message = self.unknown_take(name);
            self.go_live();
            return Err(ScriptError::msg(message));
        };
        if let Some(fps) = fps {
            take.fps = fps;
        }
        self.play_take(&take)
    }

    /// Plays `edited` instead of the script's takes of the same names, and adds those the
    /// script lacks (the takes a sidecar holds: edited or recorded in the editor). Every
    /// command that plays a take by name goes through [`ScriptedGraph::take_data`], so `run`,
    /// `check`, `render` and `bake` play what the editor shows.
    pub fn set_edited_takes(&mut self, edited: Vec<Take>) {
        self.edited = edited;
    }

    /// Why `take` (data from outside the script: a sidecar's) cannot play on this script, if
    /// it cannot, with the checks a script's own takes get: the rules every take follows
    /// (durations, fps, frame and key limits, finite and ordered keys), parameters the script
    /// declares keyed with their kind, float keys inside the parameter's range.
    pub fn take_problem(&self, take: &Take) -> Option<String> {
        if let Err(e) = take.check() {
            return Some(e.to_string());
        }
        let params = self.graph.params();
        if let Err(e) = Cursor::check(params, take) {
            return Some(e.to_string());
        }
        for track in &take.tracks {
            let Some(def) = params.defs().iter().find(|d| d.name == track.param) else {
                continue;
            };
            for (time, v) in &track.keys {
                if let ParamValue::Float(x) = v {
                    if *x < def.min || *x > def.max {
                        return Some(format!(
                            "take '{}', {}: value {x} at {time} s is outside the range [{}, {}]",
                            take.name, track.param, def.min, def.max
                        ));
                    }
                }
            }
        }
        None
    }

    /// The takes given to [`ScriptedGraph::set_edited_takes`].
    pub fn edited_takes(&self) -> &[Take] {
        &self.edited
    }

    /// The names of the takes that can be played: the script's, in its order, then the edited
    /// takes the script lacks.
    pub fn take_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .script
            .spec
            .takes
            .iter()
            .map(|t| t.name.clone())
            .collect();
        for t in &self.edited {
            if !names.contains(&t.name) {
                names.push(t.name.clone());
            }
        }
        names
    }

    /// Every take that can be played, as it plays, in [`ScriptedGraph::take_names`]' order.
    pub fn takes(&self) -> Vec<Take> {
        self.take_names()
            .iter()
            .filter_map(|name| self.take_data(name))
            .collect()
    }

    /// The message for a take that cannot be played: the takes there are, and the closest.
    pub fn unknown_take(&self, name: &str) -> String {
        super::spec::unknown_take(name, self.take_names().iter().map(String::as_str))
    }

    /// The take `name` as it plays: its edited version if there is one, else the script's.
    pub fn take_data(&self, name: &str) -> Option<Take> {
        if let Some(t) = self.edited.iter().find(|t| t.name == name) {
            return Some(t.clone());
        }
        self.script.spec.take(name).cloned()
    }

    /// Back to live parameters at time 0 (the graph reset).
    fn go_live(&mut self) {
        self.cursor = None;
        self.played = None;
        self.processed = None;
        self.shown = None;
        self.pass_error = None;
        self.clear_runtime_error();
        self.time = 0.0;
        self.count_take(false);
        self.graph.reset();
    }

    /// Starts counting a take's total instructions ([`Limits::take_instructions`]), or stops
    /// counting for live playback.
    ///
    /// [`Limits::take_instructions`]: super::Limits::take_instructions
    fn count_take(&self, take: bool) {
        let limit = take.then_some(self.script.limits.take_instructions);
        self.script.env.budget.set_total(limit);
    }

    /// Plays a take given as data (an edited copy of a script take, or one recorded by the
    /// editor) from its start, through the same [`Cursor`] as [`ScriptedGraph::play`].
    pub fn play_take(&mut self, take: &Take) -> Result<(), ScriptError> {
        self.processed = None;
        self.shown = None;
        self.pass_error = None;
        match self.start_take(take) {
            Ok(()) => {
                self.played = Some(take.clone());
                if self.passes_on && !self.script.spec.passes_for(&take.name).is_empty() {
                    self.run_passes(take);
                }
                Ok(())
            }
            Err(e) => {
                // (the graph is untouched by a take that does not fit: back to live)
                self.go_live();
                // (the message names the take)
                Err(ScriptError::msg(e.to_string()))
            }
        }
    }

    /// Starts `take` on the graph from its first frame.
    fn start_take(&mut self, take: &Take) -> Result<(), marionette_anim::graph::TakeError> {
        let cursor = Cursor::start(&mut self.graph, take)?;
        self.cursor = Some(cursor);
        self.clear_runtime_error();
        self.time = 0.0;
        self.count_take(true);
        Ok(())
    }

    /// Simulates the whole of `take` (just started), keeps its frames as walked, runs its
    /// passes over them and starts the take again: from here on the poses shown are the
    /// processed frames, while the graph still steps (states, events, morphs, root motion).
    /// A Lua pass's error is kept ([`ScriptedGraph::runtime_error`]) and the raw graph shown.
    fn run_passes(&mut self, take: &Take) {
        let n = self.pose.len();
        let steps = take.steps();
        let mut frames = Frames::new(n, take.fps);
        let mut walked = vec![Transform::IDENTITY; n];
        for i in 0..=steps {
            self.seek(f64::from(time::step_time(i, take.fps)));
            self.pose_with_root_motion(&mut walked);
            frames.push(&walked);
        }
        // (the take started once already: it starts again the same way)
        if self.start_take(take).is_err() {
            return;
        }
        match passes::run(&self.script, &take.name, &mut frames) {
            Ok(notes) => self.processed = Some(Processed { frames, notes }),
            Err(e) => self.pass_error = Some(e),
        }
        self.seek(0.0);
    }

    /// Turns the takes' bake passes on (the default) or off (`--no-passes`, the editor's
    /// toggle: the raw graph). A playing take shows the change at once, at the same time: off,
    /// its processed frames are dropped (the graph already steps through the raw take); on, it
    /// plays again (the passes need the whole take).
    pub fn set_passes(&mut self, on: bool) {
        if self.passes_on == on {
            return;
        }
        self.passes_on = on;
        let t = self.time;
        if !on {
            if self.processed.take().is_some() || self.pass_error.take().is_some() {
                self.seek(t);
            }
            return;
        }
        let Some(take) = self.played.clone() else {
            return;
        };
        if self.play_take(&take).is_ok() {
            self.seek(t);
        }
    }

    /// Whether bake passes run ([`ScriptedGraph::set_passes`]).
    pub fn passes_on(&self) -> bool {
        self.passes_on
    }

    /// True when take `take` has bake passes (its own or the graph's).
    pub fn has_passes(&self, take: &str) -> bool {
        !self.script.spec.passes_for(take).is_empty()
    }

    /// What the playing take's passes said (a line each: `take 'walk': despike: ...`); empty
    /// without passes.
    pub fn pass_notes(&self) -> &[String] {
        self.processed.as_ref().map_or(&[], |p| &p.notes)
    }

    /// The error a Lua bake pass raised for the playing take, if any (also in
    /// [`ScriptedGraph::runtime_error`]; the take then plays its raw frames).
    pub fn pass_error(&self) -> Option<&ScriptError> {
        self.pass_error.as_ref()
    }

    /// What is shown instead while [`ScriptedGraph::runtime_error`] holds an error: `"the take
    /// is shown without its passes"` for a failed Lua bake pass, else `"the pose is shown
    /// without post"` (a `post` or predicate error).
    pub fn shown_instead(&self) -> &'static str {
        if self.pass_error.is_some() {
            "the take is shown without its passes"
        } else {
            "the pose is shown without post"
        }
    }

    /// True when the pose shown is a take's frame after its passes.
    pub fn shows_passes(&self) -> bool {
        self.processed.is_some()
    }

    /// Advances by `dt` seconds (live: with the current parameters; take: along the take) and
    /// evaluates the pose.
    pub fn advance(&mut self, dt: f32) -> &[Transform] {
        let t = self.time + f64::from(dt);
        self.seek(t)
    }

    /// Evaluates the pose at `t` seconds: the frame (fixed step) nearest `t`
    /// ([`time::step_at`]; see [`ScriptedGraph::frame`]). With a take this is exact and may go
    /// backwards (re-simulated from snapshots); live, going backwards restarts and re-simulates
    /// with the current parameters.
    pub fn seek(&mut self, t: f64) -> &[Transform] {
        let t = t.max(0.0);
        let g = &mut self.graph;
        match &mut self.cursor {
            Some(cursor) => {
                // (a take's times are f32; a time past f32's range is +inf, its last step)
                if cursor.step_at(t as f32) < cursor.current_step() {
                    // Played again from an earlier frame: the take's total starts over.
                    let limit = self.script.limits.take_instructions;
                    self.script.env.budget.set_total(Some(limit));
                }
                cursor.pose_at_into(g, t as f32, &mut self.pose);
            }
            None => {
                let n = time::step_at(t, g.step_rate());
                if n < g.steps() {
                    g.restart_keep_params();
                }
                g.advance_to(n);
                g.evaluate_into(&mut self.pose);
            }
        }
        self.morphs.clear();
        self.morphs.extend_from_slice(g.morphs());
        self.time = t;
        self.run_post(t);
        self.show_processed();
        &self.pose
    }

    /// With passes: the pose becomes the processed frame of the current step (its root motion
    /// taken off the roots, as the graph's in-place pose is).
    fn show_processed(&mut self) {
        let (Some(p), Some(cursor)) = (&self.processed, &self.cursor) else {
            self.shown = None;
            return;
        };
        let count = p.frames.count();
        if count == 0 {
            return;
        }
        let i = (cursor.current_step() as usize).min(count - 1);
        let n = self.pose.len().min(p.frames.joints());
        self.pose[..n].copy_from_slice(&p.frames.frame(i)[..n]);
        self.graph.remove_root_motion(&mut self.pose);
        self.shown = Some(i);
    }

    /// Runs `post(pose, ctx)` on `self.pose`; on error keeps the un-posted pose and the error.
    fn run_post(&mut self, t: f64) {
        let Some(driver) = &self.driver else {
            return;
        };
        if self.post_error.is_some() {
            return;
        }
        let graph = &self.graph;
        if let Ok(mut frame) = driver.frame().0.try_borrow_mut() {
            std::mem::swap(&mut frame.pose, &mut self.pose);
            std::mem::swap(&mut frame.morphs, &mut self.morphs);
        }
        let env = &self.script.env;
        let result = env.enter(self.script.limits.call_instructions, || {
            driver.call(t, graph.params().values())
        });
        if let Ok(mut frame) = driver.frame().0.try_borrow_mut() {
            std::mem::swap(&mut frame.pose, &mut self.pose);
            std::mem::swap(&mut frame.morphs, &mut self.morphs);
        }
        if let Err(e) = result {
            let mut e = ScriptError::from_lua(&e);
            if env.budget.total_spent() {
                let take = self.take().unwrap_or("?");
                e.message = format!("{} (take '{take}', frame {})", e.message, graph.steps());
            }
            self.post_error = Some(e);
        }
    }

    /// The last pose with the graph's accumulated root motion put back on the root joints (the
    /// character travels, as a preview walking through the scene shows it). Without root motion
    /// in the script this is [`ScriptedGraph::pose`] unchanged.
    /// Writes the first `out.len()` joints (at most the pose's).
    pub fn pose_with_root_motion(&self, out: &mut [Transform]) {
        if let (Some(p), Some(i)) = (&self.processed, self.shown) {
            let frame = p.frames.frame(i);
            let n = out.len().min(frame.len());
            out[..n].copy_from_slice(&frame[..n]);
            return;
        }
        let n = out.len().min(self.pose.len());
        out[..n].copy_from_slice(&self.pose[..n]);
        self.graph().apply_root_motion(&mut out[..n]);
    }

    /// The state a reload keeps.
    pub fn play_state(&self) -> PlayState {
        let params = self.graph().params();
        let values = params
            .defs()
            .iter()
            .zip(params.values())
            .filter(|(_, v)| v.kind() != ParamKind::Trigger)
            .map(|(d, v)| (d.name.clone(), *v))
            .collect();
        PlayState {
            time: self.time,
            take: self.take().map(str::to_string),
            params: values,
        }
    }

    /// Restores a kept state: the same take if it still exists, parameter values whose name and
    /// kind still match (clamped to the new range by the graph), then the playhead.
    pub fn restore(&mut self, state: &PlayState) {
        let take = state
            .take
            .as_deref()
            .filter(|t| self.take_data(t).is_some());
        // Falling back to live playback cannot fail.
        let _ = self.play(take);
        if take.is_none() {
            for (name, v) in &state.params {
                let _ = self.set(name, *v);
            }
        }
        self.seek(state.time);
    }

    /// Forgets the error `post` raised, so the next frame calls `post` again (once `post`
    /// fails it is otherwise skipped for good). `run` calls `post` once, for its frame; the
    /// editor calls this before each frame it shows, so its error is that frame's. A Lua
    /// predicate's error is kept: see [`ScriptedGraph::clear_runtime_error`].
    pub fn retry_post(&mut self) {
        self.post_error = None;
    }

    /// Forgets every runtime error, `post`'s and the Lua predicates', so both run again. A
    /// predicate reads false from its first error on, so the frames after it are those `run`
    /// shows only while that error is kept: clear it when the take plays again from its start
    /// or live parameters change.
    pub fn clear_runtime_error(&mut self) {
        self.post_error = None;
        *self.predicate_error.borrow_mut() = None;
    }
}
