//! Debounced watching of a script and every file it `require`s.
//!
//! Parent folders are watched (not the files), because editors often save by writing a temp
//! file and renaming it over the original, which would drop a watch on the old inode. A
//! close-after-write or a rename onto a watched file reports at once (the write is complete);
//! other modifications report after `debounce` of quiet. Nothing here ever writes a file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};

use super::error::ScriptError;

/// Watches a set of files for changes.
pub struct Watcher {
    inner: RecommendedWatcher,
    rx: Receiver<notify::Result<notify::Event>>,
    files: BTreeSet<PathBuf>,
    dirs: BTreeSet<PathBuf>,
    debounce: Duration,
    pending: Option<Instant>,
}

/// Best-effort canonical path (a file being replaced may briefly not exist).
fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

impl Watcher {
    /// Starts watching `files` (the script and its required modules).
    pub fn new(files: &[PathBuf], debounce: Duration) -> Result<Watcher, ScriptError> {
        let (tx, rx) = channel();
        let inner = notify::recommended_watcher(move |ev| {
            let _ = tx.send(ev);
        })
        .map_err(|e| ScriptError::msg(format!("cannot start the file watcher: {e}")))?;
        let mut w = Watcher {
            inner,
            rx,
            files: BTreeSet::new(),
            dirs: BTreeSet::new(),
            debounce,
            pending: None,
        };
        w.set_files(files)?;
        Ok(w)
    }

    /// Replaces the watched set (after a reload, the required files may have changed).
    pub fn set_files(&mut self, files: &[PathBuf]) -> Result<(), ScriptError> {
        self.files = files.iter().map(|f| canonical(f)).collect();
        let dirs: BTreeSet<PathBuf> = self
            .files
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .collect();
        for d in self.dirs.difference(&dirs) {
            let _ = self.inner.unwatch(d);
        }
        for d in dirs.difference(&self.dirs) {
            self.inner
                .watch(d, RecursiveMode::NonRecursive)
                .map_err(|e| ScriptError::msg(format!("cannot watch {}: {e}", d.display())))?;
        }
        self.dirs = dirs;
        Ok(())
    }

    /// The watched files.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(PathBuf::as_path)
    }

    /// Handles one event; returns true when it completes a save (reload now).
    fn handle(&mut self, ev: notify::Event) -> bool {
        let ours = ev
            .paths
            .iter()
            .any(|p| self.files.contains(p) || self.files.contains(&canonical(p)));
        if !ours {
            return false;
        }
        match ev.kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Modify(ModifyKind::Name(_)) | EventKind::Create(_) => true,
            EventKind::Modify(_) | EventKind::Remove(_) | EventKind::Any | EventKind::Other => {
                self.pending = Some(Instant::now());
                false
            }
            EventKind::Access(_) => false,
        }
    }

    /// Drains events without blocking; true when a change is ready to reload.
    pub fn poll(&mut self) -> bool {
        self.wait(Duration::ZERO)
    }

    /// Waits up to `timeout` for a completed change; true when one is ready to reload.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            let now = Instant::now();
            if let Some(t) = self.pending {
                if now >= t + self.debounce {
                    self.pending = None;
                    self.drain_quietly();
                    return true;
                }
            }
            let received = if now >= deadline {
                // Out of time (or a zero-timeout poll): still take what is already queued.
                match self.rx.try_recv() {
                    Ok(ev) => Ok(ev),
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => return false,
                }
            } else {
                let until = match self.pending {
                    Some(t) => deadline.min(t + self.debounce),
                    None => deadline,
                };
                self.rx.recv_timeout(until.saturating_duration_since(now))
            };
            match received {
                Ok(Ok(ev)) => {
                    if self.handle(ev) {
                        self.pending = None;
                        self.drain_quietly();
                        return true;
                    }
                }
                Ok(Err(_)) => self.pending = Some(Instant::now()),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return false,
            }
        }
    }

    /// Swallows the tail of a save burst that is already queued (e.g. the close after a rename).
    fn drain_quietly(&mut self) {
        while self.rx.try_recv().is_ok() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zero-timeout poll sees a save that is already queued (the editor polls every frame).
    #[test]
    fn poll_sees_a_completed_save() {
        let dir = std::env::temp_dir().join(format!("marionette-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.lua");
        std::fs::write(&file, "return 1").unwrap();
        let mut w = Watcher::new(&[canonical(&file)], Duration::from_millis(50)).unwrap();
        assert!(!w.poll());
        std::fs::write(&file, "return 2").unwrap();
        let start = Instant::now();
        let mut seen = false;
        while !seen && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
            seen = w.poll();
        }
        assert!(seen, "poll() never reported the save");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
