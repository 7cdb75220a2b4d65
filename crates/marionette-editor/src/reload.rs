//! Hot reload as the editor sees it: polling the script each frame, a new model for the
//! viewport, the opening steps left for a script that did not load at first, console lines and
//! the "reloaded" flash, and runtime errors reported once each.

use std::rc::Rc;

/// Seconds the previous script's pose shows as a ghost after a reload (the toolbar's A/B pins
/// it).
pub(crate) const COMPARE_SECONDS: f64 = 4.0;

use super::app::{Editor, OnLoad};
use super::console::Level;
use super::viewport::Viewport;
use marionette_script::Reload;

impl Editor {
    /// Polls hot reload: console lines, the "reloaded" flash, the error banner.
    pub(crate) fn poll_script(&mut self) {
        let model = self.session.model().clone();
        let Some(reload) = self.session.poll() else {
            return;
        };
        if !Rc::ptr_eq(&model, self.session.model()) {
            self.new_model();
        }
        let loaded = matches!(reload, Reload::Loaded { .. });
        self.after_reload(reload);
        if self.session.is_loaded() {
            if let Some(todo) = self.on_load.take() {
                self.first_load(todo);
            } else if loaded {
                self.report_conflicts();
            }
        }
    }

    /// The script loaded for the first time with another model than the one shown at rest
    /// (the rig it names): the viewport draws the new one.
    fn new_model(&mut self) {
        let model = self.session.model().clone();
        let msaa = self.viewport.multisampled();
        match Viewport::new(&self.gpu, &model, msaa) {
            Ok(mut v) => {
                v.overlays = self.viewport.overlays.clone();
                self.viewport = v;
                self.window.selected_joint = None;
                self.window.ghosts.clear();
            }
            Err(e) => self.console.push(Level::Error, format!("viewport: {e}")),
        }
    }

    /// What opening left for the script's first load: the sidecar, saving, `--take`.
    fn first_load(&mut self, todo: OnLoad) {
        self.file.save_enabled = todo.save;
        if todo.sidecar {
            let t = self.session.time();
            self.load_sidecar();
            if self.file.saved.is_none() {
                self.session.seek(t);
            }
        }
        if let Some(name) = &todo.take {
            match self.session.takes.iter().position(|t| &t.name == name) {
                Some(i) => {
                    let t = self.session.time();
                    self.select_take(Some(i));
                    self.session.seek(t);
                }
                None => self.console.push(
                    Level::Error,
                    format!("{}: unknown take '{name}'", self.session.path().display()),
                ),
            }
        }
    }

    /// Writes the playhead's runtime error (`post` or a Lua predicate that threw) to the
    /// console, once per distinct error and take; the banner shows it while it lasts.
    pub(crate) fn report_runtime_error(&mut self) {
        let Some(e) = self.session.runtime_error() else {
            return;
        };
        let take = self
            .session
            .take()
            .map_or_else(|| "live".to_string(), |t| t.name.clone());
        let at = e
            .location
            .as_ref()
            .map_or_else(|| e.message.clone(), |l| format!("{}:{}", l.file, l.line));
        if !self.window.runtime_reported.insert((take, at)) {
            return;
        }
        let instead = self
            .session
            .running()
            .map_or("the pose is shown without post", |g| g.shown_instead());
        let line = format!(
            "runtime error in {} ({instead}): {}",
            self.session.runtime_context(),
            e.headline()
        );
        self.console.push(Level::Error, line);
    }

    /// Reports a reload's outcome.
    pub(crate) fn after_reload(&mut self, reload: Reload) {
        match reload {
            Reload::Loaded { took } => {
                self.window.runtime_reported.clear();
                let ms = took.as_secs_f64() * 1000.0;
                let text = format!("reloaded in {ms:.0} ms");
                self.console.push(
                    Level::Ok,
                    format!("{}: {text}", self.session.path().display()),
                );
                for line in self.session.log() {
                    self.console.push(Level::Print, line);
                }
                self.window.flash(text, 2.5);
                // the previous script's pose shows as a ghost for a while (A/B)
                self.window.compare_until = self.window.now + COMPARE_SECONDS;
            }
            Reload::Failed(e) => {
                // what the script printed before it failed, then every mistake found
                for line in &e.printed {
                    self.console.push(Level::Print, line.clone());
                }
                self.console.push(Level::Error, e.to_string());
            }
        }
    }
}
