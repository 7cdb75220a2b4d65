//! Hot reload: a script, its watcher, and the last good graph.
//!
//! On every completed save of the script or a file it required, the script is loaded into a
//! fresh Lua state. Success: the new graph replaces the old one, keeping the playhead, the take
//! and parameter values by name. Failure: the last good graph keeps running and the error is
//! returned (and kept in [`LiveScript::error`]). Nothing here writes to the user's files.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::ScriptError;
use super::host::{load, HostOptions};
use super::runtime::ScriptedGraph;
use super::watch::Watcher;

/// Outcome of one reload.
#[derive(Debug)]
pub enum Reload {
    /// The new script is running.
    Loaded {
        /// Time spent loading and compiling.
        took: Duration,
    },
    /// The script failed; the previous graph keeps running.
    Failed(ScriptError),
}

/// A script under hot reload. See the module docs.
pub struct LiveScript {
    path: PathBuf,
    opts: HostOptions,
    current: ScriptedGraph,
    /// The graph the last successful reload replaced (for comparing the two: the editor's A/B
    /// ghost), until [`LiveScript::forget_previous`].
    previous: Option<ScriptedGraph>,
    watcher: Watcher,
    error: Option<ScriptError>,
    generation: u32,
}

impl LiveScript {
    /// Loads `path` (it must load the first time) and starts watching it.
    pub fn open(path: &Path, opts: HostOptions) -> Result<LiveScript, ScriptError> {
        let loaded = load(path, &opts)?;
        let watcher = Watcher::new(&loaded.files, Duration::from_millis(50))?;
        let current = ScriptedGraph::new(loaded)?;
        Ok(LiveScript {
            path: path.to_path_buf(),
            opts,
            current,
            previous: None,
            watcher,
            error: None,
            generation: 0,
        })
    }

    /// The running graph (the last one that loaded).
    pub fn current(&mut self) -> &mut ScriptedGraph {
        &mut self.current
    }

    /// The running graph, to read.
    pub fn running(&self) -> &ScriptedGraph {
        &self.current
    }

    /// The graph the last successful reload replaced, still at the time it was left, if it has
    /// not been forgotten.
    pub fn previous(&mut self) -> Option<&mut ScriptedGraph> {
        self.previous.as_mut()
    }

    /// Drops the previous graph (its memory, its Lua state).
    pub fn forget_previous(&mut self) {
        self.previous = None;
    }

    /// The error of the last reload, if it failed.
    pub fn error(&self) -> Option<&ScriptError> {
        self.error.as_ref()
    }

    /// How many reloads succeeded.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Reloads now, whatever the watcher says.
    pub fn reload(&mut self) -> Reload {
        let start = Instant::now();
        let result = load(&self.path, &self.opts).and_then(|loaded| {
            let files = loaded.files.clone();
            ScriptedGraph::new(loaded).map(|g| (g, files))
        });
        match result {
            Ok((mut graph, files)) => {
                graph.restore(&self.current.play_state());
                self.previous = Some(std::mem::replace(&mut self.current, graph));
                self.error = None;
                self.generation += 1;
                // A watch failure leaves the old set watched; the next save still reloads.
                let _ = self.watcher.set_files(&files);
                Reload::Loaded {
                    took: start.elapsed(),
                }
            }
            Err(e) => {
                self.error = Some(e.clone());
                Reload::Failed(e)
            }
        }
    }

    /// Checks the watcher without blocking; reloads when a save completed.
    pub fn poll(&mut self) -> Option<Reload> {
        self.wait(Duration::ZERO)
    }

    /// Waits up to `timeout` for a save, then reloads.
    pub fn wait(&mut self, timeout: Duration) -> Option<Reload> {
        if self.watcher.wait(timeout) {
            Some(self.reload())
        } else {
            None
        }
    }
}
