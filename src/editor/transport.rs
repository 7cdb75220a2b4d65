//! The bottom bar: transport (start, step, play/pause, step, end), loop, speed, the take
//! selector, record, the playhead readout and a scrub bar over the take. (The full timeline
//! with lanes is `editor::timeline`, built separately; this bar drives the same playhead.)

use egui::{ComboBox, DragValue, RichText, Slider};

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

/// Draws the bar.
pub fn ui(ed: &mut Editor, ui: &mut egui::Ui) {
    ui.add_space(3.0);
    ui.horizontal(|ui| {
        if ui.button("|<").on_hover_text("start (Home)").clicked() {
            ed.seek(0.0);
        }
        if ui.button("<").on_hover_text("previous frame (←)").clicked() {
            ed.step_frame(-1);
        }
        let label = if ed.playing { "Pause" } else { "Play" };
        if ui.button(label).on_hover_text("Space").clicked() {
            ed.playing = !ed.playing;
        }
        if ui.button(">").on_hover_text("next frame (→)").clicked() {
            ed.step_frame(1);
        }
        if ui.button(">|").on_hover_text("end (End)").clicked() {
            let end = ed.session.duration().map_or(ed.session.time(), f64::from);
            ed.seek(end);
        }
        ui.checkbox(&mut ed.looping, "Loop");
        ui.label("Speed");
        ui.add(
            DragValue::new(&mut ed.speed)
                .range(0.05..=4.0)
                .speed(0.01)
                .suffix("x"),
        )
        .on_hover_text("playback speed");
        ui.separator();
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
        ui.separator();
        let fps = ed.session.fps();
        let t = ed.session.time();
        let frame = (t * f64::from(fps)).round();
        match ed.session.duration() {
            Some(d) => ui.monospace(format!(
                "{t:6.3} s  frame {frame:>4} / {:.0} @ {fps} fps",
                (f64::from(d) * f64::from(fps)).round()
            )),
            None => ui.monospace(format!("{t:6.3} s  live")),
        };
    });
    if let Some(d) = ed.session.duration() {
        let mut t = ed.session.time() as f32;
        ui.spacing_mut().slider_width = (ui.available_width() - 70.0).max(100.0);
        let r = ui.add(
            Slider::new(&mut t, 0.0..=d)
                .text("Playhead")
                .step_by(f64::from(1.0 / ed.session.fps()))
                .show_value(false),
        );
        if r.changed() {
            ed.seek(f64::from(t));
        }
    } else {
        ui.weak("Live mode: drive the parameters by hand; Record turns the session into a take.");
    }
    ui.add_space(3.0);
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
