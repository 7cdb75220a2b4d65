//! The script being edited: the hot-reloading script, the model it animates, the editable
//! takes and the playhead. Every pose shown comes from [`ScriptedGraph::seek`] (take mode: the
//! deterministic [`marionette_anim::graph::Simulation`]; live mode: the graph advanced by dt), the
//! same evaluation `marionette run --time` prints (design property 1).
//!
//! A script that does not load when opened still opens: the rig stands at rest (the rig the
//! script named before it failed, else the default one), [`Session::error`] says why, and the
//! script (with any file its errors point into) is watched so the first save that loads starts
//! it. A `post` or Lua predicate that throws is [`Session::runtime_error`], for the frame the
//! playhead shows.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use glam::Mat4;

use super::sidecar::{fingerprint, ScriptBase};
use marionette_anim::graph::{ParamValue, Take};
use marionette_anim::Model;
use marionette_anim::Transform;
use marionette_script::rigs::{rig_loader, RigChoice};
use marionette_script::watch::Watcher;
use marionette_script::{HostOptions, LiveScript, Reload, ScriptError, ScriptedGraph};

/// A script that has not loaded yet: why, and the watch that tries again on each save.
struct Pending {
    error: ScriptError,
    watcher: Watcher,
    /// The rig choice, for the next try.
    rig: RigChoice,
}

impl Pending {
    /// Watches `script` and every existing file `error` points into (a required module with
    /// the mistake is saved, not the script).
    fn new(script: &Path, error: ScriptError, rig: &RigChoice) -> Result<Pending, ScriptError> {
        let mut files = vec![script.to_path_buf()];
        for e in std::iter::once(&error).chain(error.more.iter()) {
            if let Some(loc) = &e.location {
                let f = PathBuf::from(&loc.file);
                if f.is_file() && !files.contains(&f) {
                    files.push(f);
                }
            }
        }
        let watcher = Watcher::new(&files, Duration::from_millis(50))?;
        Ok(Pending {
            error,
            watcher,
            rig: rig.clone(),
        })
    }
}

/// A script's takes as the editor holds them: without their markers. The editor neither edits nor
/// stores markers (the sidecar has none; a bake takes them from the script's take of the same
/// name), so a take here is edited exactly when its timing, keys or triggers differ from the
/// script's.
fn held_takes(live: &LiveScript) -> Vec<Take> {
    let spec = &live.running().script().spec;
    spec.takes
        .iter()
        .map(|take| Take {
            markers: Vec::new(),
            ..take.clone()
        })
        .collect()
}

/// A script opened in the editor. See the module docs.
pub struct Session {
    /// The running script; `None` until it first loads.
    live: Option<LiveScript>,
    pending: Option<Pending>,
    model: Rc<Model>,
    path: PathBuf,
    /// The takes as the script defines them (to tell edited takes from untouched ones).
    script_takes: Vec<Take>,
    /// The takes the editor plays and edits (script takes, sidecar edits, recorded takes).
    pub takes: Vec<Take>,
    take: Option<usize>,
    time: f64,
    world: Mat4,
    pose: Vec<Transform>,
    /// The morph weights of `pose`.
    morphs: Vec<f32>,
    /// What `post` or a Lua predicate raised at the playhead's frame.
    runtime_error: Option<ScriptError>,
    /// For edited takes: the script's take each was edited from (absent: the script's take
    /// as it is now). A reload records it for the edits made before it.
    bases: HashMap<String, ScriptBase>,
    /// Whether takes play after their bake passes (the take bar's "Passes"; `edit
    /// --no-passes` starts with it off). Kept across reloads.
    passes: bool,
}

impl Session {
    /// Loads `script` (its rig: the one it names, else `rig`, else the built-in mannequin) and
    /// starts watching it. Plays its first take, or live parameters when it has none. A script
    /// that fails to load opens too, with the rig at rest and [`Session::error`] set; only a
    /// failure to find any rig (or to watch the script) is an error.
    pub fn open(script: &Path, rig: &RigChoice) -> Result<Session, ScriptError> {
        let (loader, used) = rig_loader(script, rig);
        let (live, pending) = match LiveScript::open(script, HostOptions::new(loader.clone())) {
            Ok(live) => (Some(live), None),
            Err(error) => {
                if used.borrow().is_none() {
                    // the script failed before naming its rig: show the default one at rest
                    if let Err(e) = loader.character() {
                        return Err(ScriptError::msg(format!(
                            "{error}\n(no rig to show while the script is broken: {e})"
                        )));
                    }
                }
                let pending = Pending::new(script, error.clone(), rig)
                    .map_err(|w| ScriptError::msg(format!("{error}\n({w})")))?;
                (None, Some(pending))
            }
        };
        let model = used.borrow().clone().ok_or_else(|| {
            ScriptError::msg("the script never used a rig (call marionette.rig())")
        })?;
        let pose = model.skeleton.rest_pose().to_vec();
        let morphs = model.skeleton.morphs().defaults().to_vec();
        let mut session = Session {
            live,
            pending,
            model,
            path: script.to_path_buf(),
            takes: Vec::new(),
            script_takes: Vec::new(),
            take: None,
            time: 0.0,
            world: Mat4::IDENTITY,
            morphs,
            pose,
            runtime_error: None,
            bases: HashMap::new(),
            passes: marionette_script::runtime::passes_by_default(),
        };
        if session.live.is_some() {
            session.start()?;
        }
        Ok(session)
    }

    /// The script just loaded: its takes, and the first it defines playing (in the script's
    /// order; live parameters when it has none). The sidecar's take, when there is one, is
    /// selected after.
    fn start(&mut self) -> Result<(), ScriptError> {
        let Some(live) = self.live.as_mut() else {
            return Ok(());
        };
        self.script_takes = held_takes(live);
        self.takes = self.script_takes.clone();
        let spec = &live.running().script().spec;
        let first = spec
            .takes_in_script_order()
            .first()
            .and_then(|name| self.takes.iter().position(|t| t.name == *name));
        self.select(first)
    }

    /// The script failed to load when opened: tries again (on a save).
    fn retry_open(&mut self) -> Reload {
        let Some(pending) = self.pending.as_mut() else {
            return Reload::Failed(ScriptError::msg("internal: nothing to load"));
        };
        let began = Instant::now();
        let (loader, used) = rig_loader(&self.path, &pending.rig);
        let opened = LiveScript::open(&self.path, HostOptions::new(loader));
        let model = used.borrow().clone();
        match (opened, model) {
            (Ok(live), Some(model)) => {
                self.live = Some(live);
                self.pending = None;
                self.model = model;
                let t = self.time;
                if let Err(e) = self.start() {
                    return Reload::Failed(e);
                }
                self.seek(t);
                Reload::Loaded {
                    took: began.elapsed(),
                }
            }
            (Ok(_), None) => {
                let e = ScriptError::msg("the script never used a rig (call marionette.rig())");
                pending.error = e.clone();
                Reload::Failed(e)
            }
            (Err(e), _) => {
                // follow the mistake into the module it is now in (a failed watch keeps the
                // old set: the script itself is always in it)
                if let Ok(p) = Pending::new(&self.path, e.clone(), &pending.rig) {
                    *pending = p;
                } else {
                    pending.error = e.clone();
                }
                Reload::Failed(e)
            }
        }
    }

    /// Where the playhead is, for runtime errors: "take 'walk' at 1.50 s" or "live
    /// parameters at 3.20 s".
    pub fn runtime_context(&self) -> String {
        let t = self.time();
        match self.take() {
            Some(take) => format!("take '{}' at {t:.2} s", take.name),
            None => format!("live parameters at {t:.2} s"),
        }
    }

    /// The running script graph, to read (the last good one); `None` while the script has
    /// never loaded.
    pub fn running(&self) -> Option<&ScriptedGraph> {
        self.live.as_ref().map(LiveScript::running)
    }

    /// True once the script has loaded (it runs; until then the rig stands at rest).
    pub fn is_loaded(&self) -> bool {
        self.live.is_some()
    }

    /// The script's path as opened.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The character being animated.
    pub fn model(&self) -> &Rc<Model> {
        &self.model
    }

    /// The running script graph (the last good one); `None` while the script has never
    /// loaded.
    pub fn graph(&mut self) -> Option<&mut ScriptedGraph> {
        self.live.as_mut().map(LiveScript::current)
    }

    /// The error of the last load or reload, if it failed.
    pub fn error(&self) -> Option<&ScriptError> {
        match (&self.live, &self.pending) {
            (_, Some(p)) => Some(&p.error),
            (Some(live), None) => live.error(),
            (None, None) => None,
        }
    }

    /// The error `post` or a Lua predicate raised at the playhead's frame (the pose is shown
    /// without `post`; a failed predicate reads false), as `run` reports it for that take and
    /// time.
    pub fn runtime_error(&self) -> Option<&ScriptError> {
        self.runtime_error.as_ref()
    }

    /// How many reloads succeeded (changes when a new script runs).
    pub fn generation(&self) -> u32 {
        self.live.as_ref().map_or(0, LiveScript::generation)
    }

    /// The selected take (`None`: live parameters).
    pub fn take_index(&self) -> Option<usize> {
        self.take
    }

    /// The selected take's data.
    pub fn take(&self) -> Option<&Take> {
        self.take.and_then(|i| self.takes.get(i))
    }

    /// True when take `i` differs from the script's version of it (or the script has none).
    pub fn is_edited(&self, i: usize) -> bool {
        let Some(t) = self.takes.get(i) else {
            return false;
        };
        self.script_take(&t.name).is_none_or(|s| s != t)
    }

    /// The script's own definition of the take named `name`, if it has one.
    pub fn script_take(&self, name: &str) -> Option<&Take> {
        self.script_takes.iter().find(|t| t.name == name)
    }

    /// The script's take that the edit of `name` started from ([`ScriptBase`]): recorded by a
    /// reload or the sidecar, else the script's take as it is now.
    pub fn base(&self, name: &str) -> ScriptBase {
        // (never unknown: `set_base` and reloads store what they resolved)
        self.bases
            .get(name)
            .cloned()
            .unwrap_or_else(|| fingerprint(self.script_take(name)))
    }

    /// Records what the edit of `name` started from (a sidecar's take; `Unknown`, from a
    /// version 1 file, counts as the script's take as it is now).
    pub fn set_base(&mut self, name: &str, base: ScriptBase) {
        let base = match base {
            ScriptBase::Unknown => fingerprint(self.script_take(name)),
            b => b,
        };
        self.bases.insert(name.to_string(), base);
    }

    /// The edited takes whose script definition changed since they were edited (or that the
    /// script now defines, having had none): the edit still plays, and the editor says so and
    /// offers to revert it.
    pub fn conflicts(&self) -> Vec<usize> {
        (0..self.takes.len())
            .filter(|&i| {
                let name = &self.takes[i].name;
                self.is_edited(i) && self.base(name).changed(self.script_take(name))
            })
            .collect()
    }

    /// Why `take` cannot play with the running script (a parameter it does not declare, a key
    /// of the wrong kind), if it cannot: the check [`Session::select`] makes before playing.
    /// `None` also while no script has loaded (nothing to check against yet). The checks the
    /// command line makes of a sidecar's take ([`ScriptedGraph::take_problem`]): a float key
    /// outside its parameter's range too.
    pub fn take_problem(&mut self, take: &Take) -> Option<String> {
        let live = self.live.as_mut()?;
        live.current().take_problem(take)
    }

    /// The playhead in seconds.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Length of the selected take in seconds (`None` in live mode).
    pub fn duration(&self) -> Option<f32> {
        self.take().map(|t| t.duration)
    }

    /// Frames per second of the selected take (30 in live mode, for stepping).
    pub fn fps(&self) -> f32 {
        self.take().map_or(30.0, |t| t.fps).max(1.0)
    }

    /// The evaluated pose at the playhead (local TRS, parent-first, `post` applied).
    pub fn pose(&self) -> &[Transform] {
        &self.pose
    }

    /// The morph weights at the playhead (one per morph target of the rig, `post` applied).
    pub fn morphs(&self) -> &[f32] {
        &self.morphs
    }

    /// Where the character stands at the playhead (accumulated root motion).
    pub fn world(&self) -> Mat4 {
        self.world
    }

    /// Selects a take (`None`: live parameters) and moves the playhead to its start. The take
    /// plays from its start with no runtime error kept.
    pub fn select(&mut self, take: Option<usize>) -> Result<(), ScriptError> {
        let take = take.filter(|&i| i < self.takes.len() && self.live.is_some());
        self.take = take;
        let result = match (self.live.as_mut(), take) {
            (None, _) => Ok(()),
            (Some(live), Some(i)) => {
                let g = live.current();
                g.clear_runtime_error();
                if g.passes_on() != self.passes {
                    g.set_passes(self.passes);
                }
                g.play_take(&self.takes[i])
            }
            (Some(live), None) => {
                let g = live.current();
                g.clear_runtime_error();
                if g.passes_on() != self.passes {
                    g.set_passes(self.passes);
                }
                g.play(None)
            }
        };
        if result.is_err() {
            self.take = None;
        }
        self.time = 0.0;
        self.seek(0.0);
        result
    }

    /// Whether takes play after their bake passes (see [`Session::set_passes`]).
    pub fn passes_on(&self) -> bool {
        self.passes
    }

    /// Plays takes after their bake passes (`true`, as `run`, `check` and `bake` do) or the
    /// raw graph; the take plays again, the playhead kept.
    pub fn set_passes(&mut self, on: bool) -> Result<(), ScriptError> {
        self.passes = on;
        self.replay()
    }

    /// True when the selected take has bake passes (its own or the graph's).
    pub fn has_passes(&self) -> bool {
        match (self.running(), self.take()) {
            (Some(g), Some(t)) => g.has_passes(&t.name),
            _ => false,
        }
    }

    /// What the selected take's passes said when it last started (empty without them).
    pub fn pass_notes(&self) -> Vec<String> {
        self.running()
            .map_or_else(Vec::new, |g| g.pass_notes().to_vec())
    }

    /// Re-plays the selected take after its keys changed, keeping the playhead.
    pub fn replay(&mut self) -> Result<(), ScriptError> {
        let t = self.time;
        let result = self.select(self.take);
        self.seek(t);
        result
    }

    /// Evaluates the pose at `t` seconds (clamped to the take), and the runtime error of that
    /// frame.
    pub fn seek(&mut self, t: f64) {
        let t = match self.duration() {
            Some(d) => t.clamp(0.0, f64::from(d)),
            None => t.max(0.0),
        };
        self.time = t;
        let take = self.take.and_then(|i| self.takes.get(i));
        let Some(live) = self.live.as_mut() else {
            // not loaded yet: the rig at rest
            self.pose.clear();
            self.pose.extend_from_slice(self.model.skeleton.rest_pose());
            self.morphs.clear();
            self.morphs
                .extend_from_slice(self.model.skeleton.morphs().defaults());
            self.world = Mat4::IDENTITY;
            return;
        };
        let graph = live.current();
        let pose = goto(graph, take, t);
        self.pose.clear();
        self.pose.extend_from_slice(pose);
        self.morphs.clear();
        self.morphs.extend_from_slice(graph.morphs());
        self.world = graph.graph().root_motion_world().to_matrix();
        self.runtime_error = graph.runtime_error();
    }

    /// The pose, its morph weights and the placement at another time (for ghosts); the
    /// playhead's pose is kept but the graph is left at `t`: call [`Session::seek`] with the
    /// playhead afterwards.
    pub fn pose_at(&mut self, t: f64, out: &mut Vec<Transform>, morphs: &mut Vec<f32>) -> Mat4 {
        let take = self.take.and_then(|i| self.takes.get(i));
        morphs.clear();
        let Some(live) = self.live.as_mut() else {
            out.clear();
            out.extend_from_slice(self.model.skeleton.rest_pose());
            morphs.extend_from_slice(self.model.skeleton.morphs().defaults());
            return Mat4::IDENTITY;
        };
        let graph = live.current();
        let pose = goto(graph, take, t.max(0.0));
        out.clear();
        out.extend_from_slice(pose);
        morphs.extend_from_slice(graph.morphs());
        graph.graph().root_motion_world().to_matrix()
    }

    /// The previous script's pose (the graph the last reload replaced) at `t` — a take plays on
    /// in it as it did (its take as it was); live, its pose when it was replaced — with its
    /// morph weights and placement; `None` when there is none (no reload yet, or forgotten).
    pub fn previous_pose_at(
        &mut self,
        t: f64,
        out: &mut Vec<Transform>,
        morphs: &mut Vec<f32>,
    ) -> Option<Mat4> {
        let live_mode = self.take.is_none();
        let graph = self.live.as_mut()?.previous()?;
        let pose = if live_mode {
            graph.pose()
        } else {
            goto(graph, None, t.max(0.0))
        };
        out.clear();
        out.extend_from_slice(pose);
        morphs.clear();
        morphs.extend_from_slice(graph.morphs());
        Some(graph.graph().root_motion_world().to_matrix())
    }

    /// Drops the previous script's graph (see [`Session::previous_pose_at`]).
    pub fn forget_previous(&mut self) {
        if let Some(live) = self.live.as_mut() {
            live.forget_previous();
        }
    }

    /// Sets a parameter by name (live mode; in take mode the take's keys overwrite it). Live,
    /// Lua predicates and `post` are tried again with the new value: a paused frame that
    /// failed is evaluated again at once.
    pub fn set_param(&mut self, name: &str, value: ParamValue) {
        let live_mode = self.take.is_none();
        if let Some(g) = self.graph() {
            if live_mode {
                g.clear_runtime_error();
            }
            let _ = g.set(name, value);
        }
        self.retry_failed_frame();
    }

    /// Fires a trigger by name (tried again as [`Session::set_param`] does).
    pub fn fire(&mut self, name: &str) {
        let live_mode = self.take.is_none();
        if let Some(g) = self.graph() {
            if live_mode {
                g.clear_runtime_error();
            }
            let _ = g.fire(name);
        }
        self.retry_failed_frame();
    }

    /// Live mode: evaluates the playhead's frame again when it failed (a take's frames come
    /// from its keys, which a parameter change does not touch).
    fn retry_failed_frame(&mut self) {
        if self.take.is_none() && self.runtime_error.is_some() {
            self.seek(self.time);
        }
    }

    /// Checks the watcher; on a successful reload takes the script did not have are added,
    /// untouched takes follow the script, edited ones are kept, and the playhead stays.
    /// A script that has not loaded yet is tried again on each save.
    pub fn poll(&mut self) -> Option<Reload> {
        if let Some(p) = self.pending.as_mut() {
            return p.watcher.poll().then(|| self.retry_open());
        }
        let reload = self.live.as_mut()?.poll()?;
        self.after_reload(&reload);
        Some(reload)
    }

    /// Reloads now (the watcher is not consulted).
    pub fn reload(&mut self) -> Reload {
        let Some(live) = self.live.as_mut() else {
            return self.retry_open();
        };
        let reload = live.reload();
        self.after_reload(&reload);
        reload
    }

    fn after_reload(&mut self, reload: &Reload) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        if !matches!(reload, Reload::Loaded { .. }) {
            return;
        }
        let fresh = held_takes(live);
        let name = self.take().map(|t| t.name.clone());
        // what each edit was made from, before the script's takes change under it; takes no
        // longer edited forget theirs
        let edited: Vec<(String, bool)> = (0..self.takes.len())
            .map(|i| (self.takes[i].name.clone(), self.is_edited(i)))
            .collect();
        for (name, is_edited) in edited {
            if is_edited {
                let base = fingerprint(self.script_take(&name));
                self.bases.entry(name).or_insert(base);
            } else {
                self.bases.remove(&name);
            }
        }
        let mut takes = Vec::new();
        for f in &fresh {
            let old = self.takes.iter().find(|t| t.name == f.name);
            let old_script = self.script_takes.iter().find(|t| t.name == f.name);
            match (old, old_script) {
                // an edit, kept (if the script's take changed, [`Session::conflicts`] says so)
                (Some(o), Some(s)) if o != s => takes.push(o.clone()),
                // a take made here that the script now defines too: the edit is kept
                (Some(o), None) => takes.push(o.clone()),
                _ => takes.push(f.clone()),
            }
        }
        // Takes made in the editor (not in the script) are kept.
        for t in &self.takes {
            let in_script = self.script_takes.iter().any(|s| s.name == t.name);
            if !in_script && !takes.iter().any(|k| k.name == t.name) {
                takes.push(t.clone());
            }
        }
        self.script_takes = fresh;
        self.takes = takes;
        let index = name.and_then(|n| self.takes.iter().position(|t| t.name == n));
        let t = self.time;
        // Live mode: the reload already restored parameter values by name.
        if index.is_some() || self.take.is_some() {
            let _ = self.select(index);
        }
        self.seek(t);
    }

    /// Lines the running script printed while loading.
    pub fn log(&mut self) -> Vec<String> {
        self.graph().map_or_else(Vec::new, |g| g.script().log())
    }
}

/// Moves `graph` (playing `take`, if any) to `t` and evaluates the frame, `post` tried again.
/// A Lua predicate that failed reads false from then on, so going back to an earlier frame
/// plays the take again from its start: the frames are then those `run` shows for the take
/// and time (live, the graph restarts by itself when going back).
fn goto<'g>(graph: &'g mut ScriptedGraph, take: Option<&Take>, t: f64) -> &'g [Transform] {
    graph.retry_post();
    // (a failed Lua bake pass fails the same way every time: no replay for it)
    if graph.pass_error().is_none() && graph.runtime_error().is_some() && t < graph.time() {
        graph.clear_runtime_error();
        if let Some(take) = take {
            // it played before with these keys: it plays again
            let _ = graph.play_take(take);
        }
    }
    graph.seek(t)
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
