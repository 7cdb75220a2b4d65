//! Keyboard shortcuts and the help overlay (F1) that lists every one of them.

use egui::{Key, KeyboardShortcut, Modifiers};

use super::app::Editor;

/// Every shortcut: keys and what they do (the overlay and README list these).
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("← / →", "step one frame back / forward"),
    ("Home / End", "jump to the start / end of the take"),
    ("F", "frame the character"),
    ("LMB drag", "orbit the camera"),
    ("MMB drag, Shift+LMB drag", "pan the camera"),
    ("Wheel", "zoom"),
    ("Click a joint or bone", "select it"),
    ("R", "record on / off"),
    ("Ctrl+Z", "undo a take edit"),
    ("Ctrl+Shift+Z, Ctrl+Y", "redo"),
    ("Ctrl+S", "save the sidecar now (it also autosaves)"),
    ("Ctrl+B", "bake dialog"),
    ("F1", "this help"),
];

const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
const BAKE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::B);

impl Editor {
    /// Handles the editor's keyboard shortcuts (not while a text field has focus).
    pub(crate) fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F1)) {
            self.help_open = !self.help_open;
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        // Redo first: Ctrl+Shift+Z also matches Ctrl+Z's logical key.
        let (redo, undo, save) = ctx.input_mut(|i| {
            let redo = i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y);
            (redo, i.consume_shortcut(&UNDO), i.consume_shortcut(&SAVE))
        });
        if redo {
            self.redo();
        } else if undo {
            self.undo();
        }
        if save {
            self.save_sidecar();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&BAKE)) {
            self.open_bake();
        }
        let key = |k: Key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, k));
        if key(Key::Space) {
            self.playing = !self.playing;
        }
        if key(Key::ArrowLeft) {
            self.step_frame(-1);
        }
        if key(Key::ArrowRight) {
            self.step_frame(1);
        }
        if key(Key::Home) {
            self.seek(0.0);
        }
        if key(Key::End) {
            let end = self
                .session
                .duration()
                .map_or(self.session.time(), f64::from);
            self.seek(end);
        }
        if key(Key::F) {
            self.viewport.frame_request = true;
        }
        if key(Key::R) {
            self.toggle_record();
        }
    }
}

/// Draws the help overlay when open.
pub fn ui(ed: &mut Editor, ctx: &egui::Context) {
    let mut open = ed.help_open;
    egui::Window::new("Keyboard shortcuts")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    for (keys, what) in SHORTCUTS {
                        ui.monospace(*keys);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
            ui.separator();
            ui.label(
                "Saving the script reloads it; a broken save keeps the last good graph running. \
                 Take edits live in the sidecar next to the script.",
            );
        });
    ed.help_open = open;
}
