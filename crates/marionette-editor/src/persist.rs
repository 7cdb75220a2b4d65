//! The editor's side of the sidecar: loading it on open (a corrupt one is reported and set
//! aside), saving (Ctrl+S, autosave every few seconds when something changed, on close), the
//! unsaved-edits check and the close confirmation. A sidecar is only created by the first take
//! edit or an explicit Ctrl+S; once it exists, camera, panels and timeline view are kept too.
//!
//! A sidecar of a newer version (or one that exists but cannot be read) is never written in
//! that session: its edits stay in memory, Ctrl+S says why it does not save. Takes of the file
//! that are not valid are reported on open and written back as they were by every save; takes
//! whose parameters the script does not declare are reported too, and kept like any edit.

use super::action::Action;
use super::app::Editor;
use super::console::Level;
use super::sidecar::{self, CameraState, OverlayState, Sidecar, SidecarError, StoredTake};
use marionette_anim::time;

/// Seconds between autosaves.
const AUTOSAVE_SECS: f64 = 5.0;

impl Editor {
    /// The sidecar describing the current state.
    pub fn sidecar_state(&self) -> Sidecar {
        let takes = (0..self.session.takes.len())
            .filter(|&i| self.session.is_edited(i))
            .map(|i| {
                let take = &self.session.takes[i];
                StoredTake::new(take, self.session.base(&take.name))
            })
            .collect();
        Sidecar {
            version: sidecar::VERSION as u32,
            selected_take: self.session.take().map(|t| t.name.clone()),
            time: self.session.time(),
            camera: Some(CameraState::from(&self.viewport.camera)),
            overlays: Some(OverlayState::from(&self.viewport.overlays)),
            panels: self.layout.panels.clone(),
            takes,
            kept: self.file.kept.clone(),
            timeline: Some(self.layout.timeline.clone()),
        }
    }

    /// True when take edits are not in the sidecar yet.
    pub fn is_dirty(&self) -> bool {
        let now = self.sidecar_state().takes;
        match &self.file.saved {
            Some(s) => s.takes != now,
            None => !now.is_empty(),
        }
    }

    /// Reads the sidecar next to the script and applies it. A newer or unreadable file is
    /// reported and left alone for the session; invalid takes are reported and kept; takes
    /// are checked against the script's parameters.
    pub(crate) fn load_sidecar(&mut self) {
        let path = sidecar::path_for(self.session.path());
        self.file.path = Some(path.clone());
        let s = match sidecar::load(&path) {
            Ok(Some(s)) => s,
            Ok(None) => return,
            Err(e @ SidecarError::Corrupt { .. }) => {
                self.console.push(Level::Error, e.to_string());
                self.window.flash(
                    "the sidecar was corrupt and was set aside (see the console)",
                    10.0,
                );
                return;
            }
            Err(e) => {
                // a newer version, or a file that cannot be read: never written over
                self.console.push(
                    Level::Error,
                    format!("{e}; take edits of this session will not be saved to it"),
                );
                self.window.flash(
                    "the sidecar was not loaded and will not be saved (see the console)",
                    10.0,
                );
                self.file.refused = Some(e.to_string());
                return;
            }
        };
        for k in &s.kept {
            self.console.push(
                Level::Error,
                format!(
                    "{}: take '{}' not loaded: {}; it is kept in the file as it is",
                    path.display(),
                    k.name,
                    k.problem
                ),
            );
        }
        self.file.kept = s.kept.clone();
        self.apply_state(&s);
        for t in &s.takes {
            if let Some(e) = self.session.take_problem(&t.take) {
                self.console
                    .push(Level::Error, format!("{}: {e}", path.display()));
            }
        }
        self.console.push(
            Level::Info,
            format!(
                "loaded {} ({} edited take{})",
                path.display(),
                s.takes.len(),
                if s.takes.len() == 1 { "" } else { "s" }
            ),
        );
        self.report_conflicts();
        self.file.saved = Some(self.sidecar_state());
    }

    /// Applies a saved state: edited takes, camera, overlays, panels, timeline view, the
    /// selected take and the playhead (used on open and after a GPU device loss).
    pub fn apply_state(&mut self, s: &Sidecar) {
        for t in &s.takes {
            let take = t.take.clone();
            self.session.set_base(&take.name, t.script.clone());
            match self.session.takes.iter().position(|k| k.name == take.name) {
                Some(i) => self.session.takes[i] = take,
                None => self.session.takes.push(take),
            }
        }
        if let Some(c) = &s.camera {
            self.viewport.camera = c.camera();
            let model = self.session.model().clone();
            let rest = model.skeleton.rest_pose().to_vec();
            self.viewport.size_grid(&model, &rest);
            self.viewport.set_framed();
        }
        if let Some(o) = &s.overlays {
            self.viewport.overlays = o.into();
        }
        self.layout.panels = s.panels.clone();
        if let Some(t) = &s.timeline {
            self.layout.timeline = t.clone();
        }
        let index = s
            .selected_take
            .as_ref()
            .and_then(|n| self.session.takes.iter().position(|t| &t.name == n));
        self.select_take(index);
        // live mode simulates every step up to the playhead: a time no take could reach is not
        // restored
        let live = self.session.take_index().is_none();
        // (the sidecar is applied once the script has loaded, so there is a graph)
        let rate = self.session.graph().map_or(0.0, |g| g.graph().step_rate());
        let unreachable = live && time::steps_problem(s.time, rate).is_some();
        let t = if s.time.is_nan() || s.time < 0.0 || unreachable {
            0.0
        } else {
            s.time
        };
        self.session.seek(t);
    }

    /// Writes the sidecar now (when saving is enabled and the file is not refused).
    pub fn save_sidecar(&mut self) {
        if !self.file.save_enabled {
            return;
        }
        if let Some(why) = &self.file.refused {
            self.console.push(Level::Warn, format!("not saved: {why}"));
            self.window.flash(
                "the sidecar is not saved this session (see the console)",
                5.0,
            );
            return;
        }
        let path = self
            .file
            .path
            .clone()
            .unwrap_or_else(|| sidecar::path_for(self.session.path()));
        let state = self.sidecar_state();
        match sidecar::save(&path, &state) {
            Ok(()) => {
                self.file.saved = Some(state);
                self.file.path = Some(path);
            }
            Err(e) => self.console.push(Level::Error, e.to_string()),
        }
    }

    /// Saves when something changed and the last save is a few seconds old.
    pub(crate) fn autosave(&mut self) {
        if !self.file.save_enabled
            || self.file.refused.is_some()
            || self.window.now - self.file.last_autosave < AUTOSAVE_SECS
        {
            return;
        }
        // No sidecar yet: one is created by the first take edit (or Ctrl+S), not by merely
        // looking around, so opening a script leaves its folder untouched.
        if self.file.saved.is_none() && !self.is_dirty() {
            return;
        }
        self.file.last_autosave = self.window.now;
        let mut state = self.sidecar_state();
        if let Some(saved) = &self.file.saved {
            // The playhead alone moving is not worth a write.
            state.time = saved.time;
            if &state == saved {
                return;
            }
        }
        self.save_sidecar();
    }

    /// Called by the shell when the window is asked to close: closes at once when nothing is
    /// unsaved, else opens the confirmation.
    pub fn request_close(&mut self) {
        if self.is_dirty() && self.file.save_enabled {
            self.window.confirm_close = true;
        } else {
            if self.file.saved.is_some() {
                self.save_sidecar();
            }
            self.window.quit = true;
        }
    }
}

/// The "unsaved edits" confirmation, while `open`; `refused`: the sidecar may not be written
/// this session (no Save and close).
pub fn close_dialog(ctx: &egui::Context, open: bool, refused: bool) -> Vec<Action> {
    let mut out = Vec::new();
    if !open {
        return out;
    }
    egui::Modal::new(egui::Id::unique("confirm close")).show(ctx, |ui| {
        ui.heading("Unsaved take edits");
        if refused {
            ui.label("The sidecar is not written this session (see the console): take edits will be lost.");
        } else {
            ui.label("Take edits are not saved to the sidecar yet.");
        }
        ui.horizontal(|ui| {
            if !refused && ui.button("Save and close").clicked() {
                out.push(Action::Close { save: true });
            }
            if ui.button("Discard and close").clicked() {
                out.push(Action::Close { save: false });
            }
            if ui.button("Cancel").clicked() {
                out.push(Action::CancelClose);
            }
        });
    });
    out
}
