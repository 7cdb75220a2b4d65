//! Keyboard shortcuts (read as [`Action`]s) and the help overlay (F1) that lists every one of
//! them.

use egui::{Key, KeyboardShortcut, Modifiers};

use super::action::Action;

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

/// The editor's keyboard shortcuts pressed this frame, as actions (none but F1 while a text
/// field has focus).
pub fn shortcuts(ctx: &egui::Context) -> Vec<Action> {
    let mut out = Vec::new();
    if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F1)) {
        out.push(Action::ToggleHelp);
    }
    if ctx.egui_wants_keyboard_input() {
        return out;
    }
    // Redo first: Ctrl+Shift+Z also matches Ctrl+Z's logical key.
    let (redo, undo, save) = ctx.input_mut(|i| {
        let redo = i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y);
        (redo, i.consume_shortcut(&UNDO), i.consume_shortcut(&SAVE))
    });
    if redo {
        out.push(Action::Redo);
    } else if undo {
        out.push(Action::Undo);
    }
    if save {
        out.push(Action::SaveSidecar);
    }
    if ctx.input_mut(|i| i.consume_shortcut(&BAKE)) {
        out.push(Action::OpenBake);
    }
    let key = |k: Key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, k));
    let keys = [
        (Key::Space, Action::TogglePlay),
        (Key::ArrowLeft, Action::StepFrame(-1)),
        (Key::ArrowRight, Action::StepFrame(1)),
        (Key::Home, Action::Seek(0.0)),
        (Key::End, Action::SeekEnd),
        (Key::F, Action::FrameCharacter),
        (Key::R, Action::ToggleRecord),
    ];
    for (k, action) in keys {
        if key(k) {
            out.push(action);
        }
    }
    out
}

/// Draws the help overlay when `open`; closing it is an action.
pub fn window(ctx: &egui::Context, open: bool) -> Vec<Action> {
    let mut still_open = open;
    egui::Window::new("Keyboard shortcuts")
        .open(&mut still_open)
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
    if still_open == open {
        Vec::new()
    } else {
        vec![Action::ShowHelp(still_open)]
    }
}
