//! The red script-error banner: `file:line: message`, the traceback (collapsed), and a click
//! that copies the whole error. The last good graph keeps playing underneath.

use egui::{Color32, RichText};

use crate::script::ScriptError;

/// Draws the banner for `err` as a top panel.
pub fn ui(ui: &mut egui::Ui, err: &ScriptError) {
    egui::Panel::top("script error")
        .frame(
            egui::Frame::new()
                .fill(Color32::from_rgb(110, 28, 28))
                .inner_margin(egui::Margin::symmetric(8, 5)),
        )
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("Script error").strong().color(Color32::WHITE));
                let head = ui
                    .add(
                        egui::Label::new(
                            RichText::new(err.headline())
                                .monospace()
                                .color(Color32::WHITE),
                        )
                        .sense(egui::Sense::click()),
                    )
                    .on_hover_text("click to copy the error and its traceback");
                if head.clicked() || ui.small_button("Copy").clicked() {
                    ui.ctx().copy_text(err.to_string());
                }
                if !err.more.is_empty() {
                    ui.label(
                        RichText::new(format!("(+{} more: see the console)", err.more.len()))
                            .color(Color32::WHITE),
                    );
                }
                ui.weak("(the last good script keeps running)");
            });
            if !err.traceback.is_empty() {
                egui::CollapsingHeader::new(RichText::new("traceback").color(Color32::LIGHT_GRAY))
                    .id_salt("script error traceback")
                    .show(ui, |ui| {
                        ui.label(
                            RichText::new(&err.traceback)
                                .monospace()
                                .color(Color32::WHITE),
                        );
                    });
            }
        });
}
