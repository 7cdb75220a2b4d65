//! [`Editor::apply`]: the one place a panel's [`Action`] changes the editor, with its side
//! effects (replaying the take, undo history, sidecar writes, the bake thread, console lines).

use super::action::{Action, TakeEdit};
use super::app::Editor;
use super::console::Level;
use super::take_edit::Recording;
use super::timeline::keys;
use marionette_anim::graph::{ParamValue, Take};

impl Editor {
    /// Performs `action`. See the module docs.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Seek(t) => self.seek(t),
            Action::SeekEnd => {
                let end = self
                    .session
                    .duration()
                    .map_or(self.session.time(), f64::from);
                self.seek(end);
            }
            Action::StepFrame(dir) => self.step_frame(dir),
            Action::TogglePlay => self.window.transport.playing = !self.window.transport.playing,
            Action::SetTransport(t) => self.window.transport = t,
            Action::SelectTake(take) => self.select_take(take),
            Action::EditTakes(edit) => self.edit_take(edit),
            Action::RevertTake(i) => self.revert_take(i),
            Action::SetParam(name, value) => self.set_param(name, value),
            Action::Fire(name) => self.fire(name),
            Action::ShowKeys(name) => self.window.key_param = Some(name),
            Action::ToggleRecord => self.toggle_record(),
            Action::SetPasses(on) => self.set_passes(on),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::SaveSidecar => self.save_sidecar(),
            Action::OpenBake => self.open_bake(),
            Action::StartBake => self.bake.start(),
            Action::CancelBake => self.bake.cancel(),
            Action::ShowHelp(open) => self.window.help_open = open,
            Action::ToggleHelp => self.window.help_open = !self.window.help_open,
            Action::SetPanels(p) => self.layout.panels = p,
            Action::SetOverlays(o) => self.viewport.overlays = o,
            Action::FrameCharacter => self.viewport.frame_request = true,
            Action::SelectJoint(j) => {
                self.window.selected_joint = j;
                if j.is_some() {
                    self.window.selected_morphs = None;
                }
            }
            Action::SelectNode(n) => self.window.selected_node = n,
            Action::SelectMorphSet(s) => {
                self.window.selected_morphs = s;
                if s.is_some() {
                    self.window.selected_joint = None;
                }
            }
            Action::Close { save } => {
                if save {
                    self.save_sidecar();
                }
                self.window.confirm_close = false;
                self.window.quit = true;
            }
            Action::CancelClose => self.window.confirm_close = false,
        }
    }

    /// Performs each action in turn.
    pub fn apply_all(&mut self, actions: impl IntoIterator<Item = Action>) {
        for a in actions {
            self.apply(a);
        }
    }

    /// A parameter widget moved: live, to the graph; take mode with Record on, as a key at
    /// the playhead (without Record, nothing).
    fn set_param(&mut self, param: String, value: ParamValue) {
        if self.session.take_index().is_none() {
            self.session.set_param(&param, value);
        } else if self.window.recording {
            let time = self.session.time() as f32;
            self.edit_take(TakeEdit::SetKey { param, time, value });
        }
    }

    /// A trigger button: live, fired (and recorded); take mode with Record on, a trigger at
    /// the playhead.
    fn fire(&mut self, param: String) {
        if self.session.take_index().is_none() {
            self.session.fire(&param);
            if let Some(r) = self.window.record.as_mut() {
                r.fire(&param);
            }
        } else if self.window.recording {
            let time = self.session.time() as f32;
            self.edit_take(TakeEdit::AddTrigger { param, time });
        }
    }

    /// Applies an edit to the current take (one undo step); a failed key or trigger write is
    /// reported in the console.
    fn edit_take(&mut self, edit: TakeEdit) {
        if let TakeEdit::Gesture { before, after } = edit {
            self.gesture(before, after);
            return;
        }
        let mut error = None;
        self.edit_takes(|takes, cur| {
            let Some(take) = cur.and_then(|i| takes.get_mut(i)) else {
                return;
            };
            // (key list edits cannot fail but for a kind mismatch, which the list cannot make:
            // their errors are not reported, as before)
            match edit {
                TakeEdit::SetKey { param, time, value } => {
                    error = keys::set_key_at(take, &param, time, value).err();
                }
                TakeEdit::AddTrigger { param, time } => {
                    error = keys::add_trigger(take, &param, time).err();
                }
                TakeEdit::AddKey { param, time, value } => {
                    let _ = keys::add_key(take, &param, time, value);
                }
                TakeEdit::MoveKey {
                    param,
                    index,
                    time,
                    value,
                } => {
                    let _ = keys::move_key(take, &param, index, time, value);
                }
                TakeEdit::DeleteKey { param, index } => {
                    let _ = keys::delete_key(take, &param, index);
                }
                TakeEdit::Gesture { .. } => {}
            }
        });
        if let Some(e) = error {
            self.console.push(Level::Error, e.to_string());
        }
    }

    /// A timeline gesture: its first frame pushes the take as it was for undo; each frame
    /// that changed the take replays it.
    fn gesture(&mut self, before: Option<Take>, after: Option<Take>) {
        let Some(i) = self.session.take_index() else {
            return;
        };
        if let Some(before) = before {
            let mut snapshot = self.session.takes.clone();
            if let Some(slot) = snapshot.get_mut(i) {
                *slot = before;
            }
            self.history.push(snapshot);
        }
        if let Some(take) = after {
            if let Some(slot) = self.session.takes.get_mut(i) {
                *slot = take;
            }
            self.replay();
        }
    }

    /// Record on/off. Take mode: parameter widgets write keys at the playhead while on. Live
    /// mode: the session is recorded and becomes a new take when recording stops.
    pub fn toggle_record(&mut self) {
        if self.session.take_index().is_some() {
            self.window.recording = !self.window.recording;
            return;
        }
        match self.window.record.take() {
            None => {
                self.window.recording = true;
                self.window.record = Some(Recording::default());
                self.window.transport.playing = true;
            }
            Some(rec) => {
                self.window.recording = false;
                self.window.transport.playing = false;
                let n = (1..)
                    .map(|i| format!("recorded_{i}"))
                    .find(|n| !self.session.takes.iter().any(|t| &t.name == n))
                    .unwrap_or_else(|| "recorded".into());
                let take = rec.into_take(&n, 30.0);
                let secs = take.duration;
                self.edit_takes(|takes, _| takes.push(take));
                let index = self.session.takes.len() - 1;
                self.select_take(Some(index));
                self.console
                    .push(Level::Ok, format!("recorded take '{n}' ({secs:.2} s)"));
            }
        }
    }
}
