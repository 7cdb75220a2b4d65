//! The red error banners under the title bar: a script that did not (re)load, and a `post` or
//! Lua predicate that threw at the playhead's frame. Each shows what it is and where (the take
//! and time of a runtime error), "+N more" when the load found several mistakes, then
//! `file:line: message` wrapped over at most [`MESSAGE_ROWS`] rows (longer ones end in "…" and
//! show whole on hover), and the traceback (collapsed). A click copies the whole error.

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, RichText, TextStyle};

use marionette_script::ScriptError;

/// Rows of the message shown at most; the rest is elided (the whole error is in the tooltip,
/// the console and the clipboard).
pub const MESSAGE_ROWS: usize = 3;

/// One banner's words.
pub struct Banner<'a> {
    /// Panel id (two banners may show at once).
    pub id: &'a str,
    /// "Script error" or "Runtime error".
    pub title: &'a str,
    /// Where it happened, e.g. "take 'walk' at 1.50 s".
    pub context: Option<String>,
    /// What the editor does meanwhile.
    pub note: &'a str,
}

/// Draws the banner for `err` as a top panel.
pub fn ui(ui: &mut egui::Ui, banner: &Banner, err: &ScriptError) {
    egui::Panel::top(banner.id)
        .frame(
            egui::Frame::new()
                .fill(Color32::from_rgb(110, 28, 28))
                .inner_margin(egui::Margin::symmetric(8, 5)),
        )
        .show(ui, |ui| {
            let mut copy = false;
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(banner.title).strong().color(Color32::WHITE));
                if let Some(c) = &banner.context {
                    ui.label(RichText::new(c).color(Color32::WHITE));
                }
                if !err.more.is_empty() {
                    ui.label(
                        RichText::new(format!("(+{} more: see the console)", err.more.len()))
                            .strong()
                            .color(Color32::from_rgb(255, 210, 120)),
                    );
                }
                copy |= ui.small_button("Copy").clicked();
                ui.label(RichText::new(banner.note).color(Color32::from_gray(200)));
            });
            let head = ui
                .add(
                    egui::Label::new(message_job(ui, &err.headline()))
                        .wrap()
                        .sense(egui::Sense::click())
                        .show_tooltip_when_elided(false),
                )
                .on_hover_ui(|ui| {
                    ui.label(RichText::new(err.headline()).monospace());
                    ui.weak("click to copy the error and its traceback");
                });
            copy |= head.clicked();
            if copy {
                ui.ctx().copy_text(err.to_string());
            }
            if !err.traceback.is_empty() {
                egui::CollapsingHeader::new(RichText::new("traceback").color(Color32::LIGHT_GRAY))
                    .id_salt((banner.id, "traceback"))
                    .show(ui, |ui| {
                        ui.label(
                            RichText::new(&*err.traceback)
                                .monospace()
                                .color(Color32::WHITE),
                        );
                    });
            }
        });
}

/// `text` in white monospace, wrapped at the banner's width over at most [`MESSAGE_ROWS`] rows,
/// ending in "…" when cut.
fn message_job(ui: &egui::Ui, text: &str) -> LayoutJob {
    let mut job = LayoutJob::single_section(
        text.to_string(),
        TextFormat::simple(TextStyle::Monospace.resolve(ui.style()), Color32::WHITE),
    );
    job.wrap.max_rows = MESSAGE_ROWS;
    job.wrap.overflow_character = Some('…');
    job
}
