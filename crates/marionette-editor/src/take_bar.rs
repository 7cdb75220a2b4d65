//! The take bar above the timeline: the take selector, Record (live sessions become takes; in
//! take mode moving a parameter keys it), and the take's notice (edited, or changed by the
//! script since, with Revert). The transport itself is the timeline's.

use egui::{ComboBox, RichText};

use super::action::Action;
use super::session::Session;

/// Draws the row above the timeline: the take selector, record, and a hint in live mode;
/// `reading`: how far the lanes have read a long take (0 to 1) while they fill in.
pub fn ui(
    ui: &mut egui::Ui,
    session: &Session,
    recording: bool,
    reading: Option<f32>,
) -> Vec<Action> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        out.extend(take_selector(ui, session));
        let rec = if recording {
            RichText::new("Recording").color(egui::Color32::from_rgb(240, 80, 80))
        } else {
            RichText::new("Record")
        };
        if ui
            .selectable_label(recording, rec)
            .on_hover_text("R: take mode writes keys at the playhead; live mode records a new take")
            .clicked()
        {
            out.push(Action::ToggleRecord);
        }
        if session.has_passes() {
            let on = session.passes_on();
            if ui
                .selectable_label(on, "Passes")
                .on_hover_text(
                    "the take's bake passes (passes = { ... }) run over its frames, as check and \
                     bake see them; off: the raw graph (--no-passes)",
                )
                .clicked()
            {
                out.push(Action::SetPasses(!on));
            }
        }
        let conflict = session
            .take_index()
            .filter(|i| session.conflicts().contains(i));
        if let Some(i) = conflict {
            let name = session.takes[i].name.clone();
            let text = match session.script_take(&name) {
                Some(_) => format!("the script changed take '{name}' since it was edited here"),
                None => format!("the script no longer defines take '{name}'"),
            };
            ui.colored_label(ui.visuals().warn_fg_color, text);
            if session.script_take(&name).is_some()
                && ui
                    .button("Revert take to script")
                    .on_hover_text("replace the edited take by the script's (Ctrl+Z undoes it)")
                    .clicked()
            {
                out.push(Action::RevertTake(i));
            }
        } else if session.take_index().is_none() {
            ui.weak("live: drive the parameters by hand; Record turns the session into a take");
        } else if session.take_index().is_some_and(|i| session.is_edited(i)) {
            ui.weak("edited in the editor (saved in the sidecar)");
        }
        if let Some(f) = reading {
            ui.weak(format!(
                "reading the take for the lanes: {:.0}% (contacts at the end)",
                f * 100.0
            ))
            .on_hover_text("a long take is read a slice per frame; the timeline stays usable");
        }
    });
    out
}

/// The take combo box ("live" plus every take; edited takes marked with *).
fn take_selector(ui: &mut egui::Ui, session: &Session) -> Option<Action> {
    let current = session.take_index();
    let name = |i: usize| {
        let star = if session.is_edited(i) { " *" } else { "" };
        format!("{}{star}", session.takes[i].name)
    };
    let shown = current.map_or_else(|| "live".to_string(), &name);
    let mut chosen = None;
    ComboBox::new("take", "Take")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            if ui.selectable_label(current.is_none(), "live").clicked() {
                chosen = Some(None);
            }
            for i in 0..session.takes.len() {
                if ui.selectable_label(current == Some(i), name(i)).clicked() {
                    chosen = Some(Some(i));
                }
            }
        });
    chosen.filter(|&c| c != current).map(Action::SelectTake)
}
