//! The script being edited: the hot-reloading script, the model it animates, the editable
//! takes and the playhead. Every pose shown comes from [`ScriptedGraph::seek`] (take mode: the
//! deterministic [`crate::anim::graph::Simulation`]; live mode: the graph advanced by dt), the
//! same evaluation `marionette run --time` prints (design property 1).

use std::path::{Path, PathBuf};
use std::rc::Rc;

use glam::Mat4;

use crate::anim::graph::{ParamValue, Take, TakeError};
use crate::anim::Transform;
use crate::rigs::rig_loader;
use crate::script::runtime::take_of;
use crate::script::{HostOptions, LiveScript, Reload, ScriptError, ScriptedGraph};
use crate::Model;

/// A script opened in the editor. See the module docs.
pub struct Session {
    live: LiveScript,
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
}

impl Session {
    /// Loads `script` (its rig: the one it names, else `rig`, else the built-in mannequin) and
    /// starts watching it. Plays its first take, or live parameters when it has none.
    pub fn open(script: &Path, rig: Option<&Path>) -> Result<Session, ScriptError> {
        let (loader, used) = rig_loader(script, rig);
        let mut live = LiveScript::open(script, HostOptions::new(loader))?;
        let model = used.borrow().clone().ok_or_else(|| {
            ScriptError::msg("the script never used a rig (call marionette.rig())")
        })?;
        let script_takes: Vec<Take> = live
            .current()
            .script()
            .spec
            .takes
            .iter()
            .map(take_of)
            .collect();
        let mut session = Session {
            live,
            model,
            path: script.to_path_buf(),
            takes: script_takes.clone(),
            script_takes,
            take: None,
            time: 0.0,
            world: Mat4::IDENTITY,
            pose: Vec::new(),
        };
        let first = (!session.takes.is_empty()).then_some(0);
        session.select(first)?;
        Ok(session)
    }

    /// The script's path as opened.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The character being animated.
    pub fn model(&self) -> &Rc<Model> {
        &self.model
    }

    /// The running script graph (the last good one).
    pub fn graph(&mut self) -> &mut ScriptedGraph {
        self.live.current()
    }

    /// The error of the last reload, if it failed.
    pub fn error(&self) -> Option<&ScriptError> {
        self.live.error()
    }

    /// How many reloads succeeded (changes when a new script runs).
    pub fn generation(&self) -> u32 {
        self.live.generation()
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
        self.script_takes
            .iter()
            .find(|s| s.name == t.name)
            .is_none_or(|s| s != t)
    }

    /// Why `take` cannot play with the running script (a parameter it does not declare, a key
    /// of the wrong kind), if it cannot: the check [`Session::select`] makes before playing.
    pub fn take_problem(&mut self, take: &Take) -> Option<TakeError> {
        take.resolve(self.live.current().graph().params()).err()
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

    /// Where the character stands at the playhead (accumulated root motion).
    pub fn world(&self) -> Mat4 {
        self.world
    }

    /// Selects a take (`None`: live parameters) and moves the playhead to its start.
    pub fn select(&mut self, take: Option<usize>) -> Result<(), ScriptError> {
        let take = take.filter(|&i| i < self.takes.len());
        self.take = take;
        let result = match take {
            Some(i) => {
                let t = self.takes[i].clone();
                self.live.current().play_take(&t)
            }
            None => self.live.current().play(None),
        };
        if result.is_err() {
            self.take = None;
        }
        self.time = 0.0;
        self.seek(0.0);
        result
    }

    /// Re-plays the selected take after its keys changed, keeping the playhead.
    pub fn replay(&mut self) -> Result<(), ScriptError> {
        let t = self.time;
        let result = self.select(self.take);
        self.seek(t);
        result
    }

    /// Evaluates the pose at `t` seconds (clamped to the take).
    pub fn seek(&mut self, t: f64) {
        let t = match self.duration() {
            Some(d) => t.clamp(0.0, f64::from(d)),
            None => t.max(0.0),
        };
        self.time = t;
        let graph = self.live.current();
        let pose = graph.seek(t);
        self.pose.clear();
        self.pose.extend_from_slice(pose);
        self.world = graph.graph().root_motion_world().to_matrix();
    }

    /// The pose and placement at another time (for ghosts); the playhead's pose is kept but the
    /// graph is left at `t`: call [`Session::seek`] with the playhead afterwards.
    pub fn pose_at(&mut self, t: f64, out: &mut Vec<Transform>) -> Mat4 {
        let graph = self.live.current();
        let pose = graph.seek(t.max(0.0));
        out.clear();
        out.extend_from_slice(pose);
        graph.graph().root_motion_world().to_matrix()
    }

    /// Sets a parameter by name (live mode; in take mode the take's keys overwrite it).
    pub fn set_param(&mut self, name: &str, value: ParamValue) {
        let _ = self.live.current().set(name, value);
    }

    /// Fires a trigger by name.
    pub fn fire(&mut self, name: &str) {
        let _ = self.live.current().fire(name);
    }

    /// Checks the watcher; on a successful reload takes the script did not have are added,
    /// untouched takes follow the script, edited ones are kept, and the playhead stays.
    pub fn poll(&mut self) -> Option<Reload> {
        let reload = self.live.poll()?;
        self.after_reload(&reload);
        Some(reload)
    }

    /// Reloads now (the watcher is not consulted).
    pub fn reload(&mut self) -> Reload {
        let reload = self.live.reload();
        self.after_reload(&reload);
        reload
    }

    fn after_reload(&mut self, reload: &Reload) {
        if !matches!(reload, Reload::Loaded { .. }) {
            return;
        }
        let fresh: Vec<Take> = self
            .live
            .current()
            .script()
            .spec
            .takes
            .iter()
            .map(take_of)
            .collect();
        let name = self.take().map(|t| t.name.clone());
        let mut takes = Vec::new();
        for f in &fresh {
            let old = self.takes.iter().find(|t| t.name == f.name);
            let old_script = self.script_takes.iter().find(|t| t.name == f.name);
            match (old, old_script) {
                (Some(o), Some(s)) if o != s => takes.push(o.clone()),
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
        self.live.current().script().log()
    }
}
