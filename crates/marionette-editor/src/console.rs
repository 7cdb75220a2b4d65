//! The console panel: import warnings, script `print` output, reload results, runtime errors,
//! bake progress and results, one entry each, newest at the bottom; a long entry wraps at the
//! panel's width. A line said again (the same level and text: a model's warnings after every
//! reload, a script printing the same thing) is not repeated: its entry moves to the bottom
//! with a count, `(x3)`.

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
    /// How many times each line was said (1 for most).
    counts: Vec<u32>,
}

impl Console {
    /// Appends a line (multi-line text stays one entry); a line already there (same level and
    /// text) moves to the bottom with its count raised instead.
    pub fn push(&mut self, level: Level, text: impl Into<String>) {
        let text = text.into();
        let mut count = 1;
        if let Some(i) = self
            .lines
            .iter()
            .rposition(|(l, t)| *l == level && *t == text)
        {
            self.lines.remove(i);
            count += self.counts.remove(i);
        }
        self.lines.push((level, text));
        self.counts.push(count);
        if self.lines.len() > MAX_LINES {
            let extra = self.lines.len() - MAX_LINES;
            self.lines.drain(..extra);
            self.counts.drain(..extra);
        }
    }

    /// How many times each line was said, in the order of [`Console::lines`].
    pub fn counts(&self) -> &[u32] {
        &self.counts
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
                self.counts.clear();
            }
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, true])
            .max_height(ui.available_height())
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for ((level, line), &count) in self.lines.iter().zip(&self.counts) {
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
                        if count > 1 {
                            ui.label(RichText::new(format!("(x{count})")).monospace().weak());
                        }
                    });
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Said again, a line moves to the bottom with a count; another level or text is its own.
    #[test]
    fn repeats_are_grouped() {
        let mut c = Console::default();
        for _ in 0..3 {
            c.push(Level::Warn, "meshes[0]: weights normalised");
            c.push(Level::Info, "reloaded");
        }
        c.push(Level::Error, "reloaded");
        let lines: Vec<&str> = c.lines().iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            lines,
            ["meshes[0]: weights normalised", "reloaded", "reloaded"]
        );
        assert_eq!(c.counts(), [3, 3, 1]);
        assert_eq!(c.lines()[2].0, Level::Error);
    }
}
