//! The title bar: the script's path, the reload flash, the unsaved-edits mark, panel toggles,
//! Bake, Save and Help; below it the error banners (script error, runtime error).

use super::action::Action;
use super::app::Editor;
use super::banner::Banner;

/// The title bar: script path, reload flash, panel toggles, bake, help.
pub fn ui(ui: &mut egui::Ui, ed: &Editor) -> Vec<Action> {
    let mut out = Vec::new();
    let mut panels = ed.layout.panels.clone();
    egui::Panel::top("title").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.strong("Marionette");
            ui.separator();
            ui.label(ed.session.path().display().to_string());
            if let Some(f) = &ed.window.flash {
                if ed.window.now < f.until {
                    ui.colored_label(egui::Color32::from_rgb(120, 210, 120), &f.text);
                }
            }
            if ed.is_dirty() {
                ui.weak("* unsaved take edits");
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Help").on_hover_text("F1").clicked() {
                    out.push(Action::ToggleHelp);
                }
                if ui.button("Bake...").on_hover_text("Ctrl+B").clicked() {
                    out.push(Action::OpenBake);
                }
                if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
                    out.push(Action::SaveSidecar);
                }
                ui.toggle_value(&mut panels.graph, "Graph")
                    .on_hover_text("The graph view: the script's nodes and state machines, live");
                ui.toggle_value(&mut panels.console, "Console");
                ui.toggle_value(&mut panels.inspector, "Inspector");
                ui.toggle_value(&mut panels.outliner, "Outliner");
            });
        });
    });
    if panels != ed.layout.panels {
        out.push(Action::SetPanels(panels));
    }
    if let Some(err) = ed.session.error().cloned() {
        let note = if ed.session.is_loaded() {
            "the last good script keeps running"
        } else {
            "the rig is shown at rest; saving a fix loads the script"
        };
        let banner = Banner {
            id: "script error",
            title: "Script error",
            context: None,
            note,
        };
        super::banner::ui(ui, &banner, &err);
    }
    if let Some(err) = ed.session.runtime_error().cloned() {
        let banner = Banner {
            id: "runtime error",
            title: "Runtime error",
            context: Some(format!("in {}", ed.session.runtime_context())),
            note: ed
                .session
                .running()
                .map_or("the pose is shown without post", |g| g.shown_instead()),
        };
        super::banner::ui(ui, &banner, &err);
    }
    out
}
