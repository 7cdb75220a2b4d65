//! Above the timeline: the take selector and record (live sessions become takes; in take mode
//! moving a parameter keys it). The transport itself is the timeline's.

use egui::{ComboBox, RichText};

use super::app::Editor;
use super::console::Level;
use super::take_edit::Recording;

impl Editor {
    /// Record on/off. Take mode: parameter widgets write keys at the playhead while on. Live
    /// mode: the session is recorded and becomes a new take when recording stops.
    pub fn toggle_record(&mut self) {
        if self.session.take_index().is_some() {
            self.recording = !self.recording;
            return;
        }
        match self.record.take() {
            None => {
                self.recording = true;
                self.record = Some(Recording::default());
                self.playing = true;
            }
            Some(rec) => {
                self.recording = false;
                self.playing = false;
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

/// Draws the row above the timeline: the take selector, record, and a hint in live mode.
pub fn ui(ed: &mut Editor, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        take_selector(ed, ui);
        let rec = if ed.recording {
            RichText::new("Recording").color(egui::Color32::from_rgb(240, 80, 80))
        } else {
            RichText::new("Record")
        };
        if ui
            .selectable_label(ed.recording, rec)
            .on_hover_text("R: take mode writes keys at the playhead; live mode records a new take")
            .clicked()
        {
            ed.toggle_record();
        }
        let conflict = ed
            .session
            .take_index()
            .filter(|i| ed.session.conflicts().contains(i));
        if let Some(i) = conflict {
            let name = ed.session.takes[i].name.clone();
            let text = match ed.session.script_take(&name) {
                Some(_) => format!("the script changed take '{name}' since it was edited here"),
                None => format!("the script no longer defines take '{name}'"),
            };
            ui.colored_label(ui.visuals().warn_fg_color, text);
            if ed.session.script_take(&name).is_some()
                && ui
                    .button("Revert take to script")
                    .on_hover_text("replace the edited take by the script's (Ctrl+Z undoes it)")
                    .clicked()
            {
                ed.revert_take(i);
            }
        } else if ed.session.take_index().is_none() {
            ui.weak("live: drive the parameters by hand; Record turns the session into a take");
        } else if ed
            .session
            .take_index()
            .is_some_and(|i| ed.session.is_edited(i))
        {
            ui.weak("edited in the editor (saved in the sidecar)");
        }
    });
}

/// The take combo box ("live" plus every take; edited takes marked with *).
fn take_selector(ed: &mut Editor, ui: &mut egui::Ui) {
    let current = ed.session.take_index();
    let name = |ed: &Editor, i: usize| {
        let star = if ed.session.is_edited(i) { " *" } else { "" };
        format!("{}{star}", ed.session.takes[i].name)
    };
    let shown = current.map_or_else(|| "live".to_string(), |i| name(ed, i));
    let mut chosen = None;
    ComboBox::new("take", "Take")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            if ui.selectable_label(current.is_none(), "live").clicked() {
                chosen = Some(None);
            }
            for i in 0..ed.session.takes.len() {
                if ui
                    .selectable_label(current == Some(i), name(ed, i))
                    .clicked()
                {
                    chosen = Some(Some(i));
                }
            }
        });
    if let Some(c) = chosen {
        if c != current {
            ed.select_take(c);
        }
    }
}
