//! The console panel: import warnings, script `print` output, reload results, runtime errors,
//! bake progress and results, one entry each, newest at the bottom; a long entry wraps at the
//! panel's width.

use egui::{Color32, RichText};

/// How a console line is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Plain information.
    Info,
    /// Something worked (a reload, a bake).
    Ok,
    /// A warning (import fixes).
    Warn,
    /// An error.
    Error,
    /// Printed by the script.
    Print,
}

/// Lines kept at most (older ones are dropped).
const MAX_LINES: usize = 1000;

/// The console's lines.
#[derive(Default)]
pub struct Console {
    lines: Vec<(Level, String)>,
}

impl Console {
    /// Appends a line (multi-line text stays one entry).
    pub fn push(&mut self, level: Level, text: impl Into<String>) {
        self.lines.push((level, text.into()));
        if self.lines.len() > MAX_LINES {
            let extra = self.lines.len() - MAX_LINES;
            self.lines.drain(..extra);
        }
    }

    /// The lines, oldest first.
    pub fn lines(&self) -> &[(Level, String)] {
        &self.lines
    }

    /// True when some line contains `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.lines.iter().any(|(_, l)| l.contains(needle))
    }

    /// Draws the console (scrolls to the newest line).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.strong("Console");
            if ui.small_button("Clear").clicked() {
                self.lines.clear();
            }
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, true])
            .max_height(ui.available_height())
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for (level, line) in &self.lines {
                    let (tag, color) = match level {
                        Level::Info => ("info ", Color32::GRAY),
                        Level::Ok => ("ok   ", Color32::from_rgb(120, 200, 120)),
                        Level::Warn => ("warn ", Color32::from_rgb(230, 190, 90)),
                        Level::Error => ("error", Color32::from_rgb(240, 110, 100)),
                        Level::Print => ("print", Color32::from_rgb(140, 180, 240)),
                    };
                    // long lines wrap under themselves, right of the tag
                    ui.horizontal_top(|ui| {
                        ui.label(RichText::new(tag).monospace().color(color));
                        ui.add(egui::Label::new(RichText::new(line).monospace()).wrap());
                    });
                }
            });
    }
}
