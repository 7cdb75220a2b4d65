//! The transport bar above the ruler: go to start, step back, play/pause, step forward, go to
//! end, loop, speed and a frame/time readout.

use egui::{Button, DragValue, RichText};

use super::keys::frame_of;
use super::Transport;

/// The playhead's position in the take.
pub(crate) struct Clock {
    /// Length, seconds.
    pub duration: f32,
    /// Frames per second.
    pub fps: f32,
    /// Playhead, seconds.
    pub playhead: f32,
}

impl Clock {
    /// The last frame (the take's end).
    pub fn last_frame(&self) -> i64 {
        frame_of(self.duration, self.fps).max(0)
    }

    /// The playhead's frame.
    pub fn frame(&self) -> i64 {
        frame_of(self.playhead, self.fps)
    }

    /// Time of frame `n`, clamped to the take.
    pub fn time_of(&self, n: i64) -> f32 {
        if !(self.fps.is_finite() && self.fps > 0.0) {
            return 0.0;
        }
        (n.clamp(0, self.last_frame()) as f64 / self.fps as f64) as f32
    }
}

/// An icon button named for accessibility.
fn icon(ui: &mut egui::Ui, glyph: &str, name: &str, selected: bool) -> egui::Response {
    ui.add(Button::new(RichText::new(glyph).size(15.0)).selected(selected))
        .accessible_name(name)
        .on_hover_text(name)
}

/// Draws the bar; returns a new playhead when a button moved it (stepping pauses).
pub(crate) fn transport_bar(
    ui: &mut egui::Ui,
    transport: &mut Transport,
    clock: &Clock,
) -> Option<f32> {
    let mut seek = None;
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        if icon(ui, "⏮", "Go to start", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(0));
        }
        if icon(ui, "⏪", "Step back", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(clock.frame() - 1));
        }
        let (glyph, name) = if transport.playing {
            ("⏸", "Pause")
        } else {
            ("▶", "Play")
        };
        if icon(ui, glyph, name, false).clicked() {
            transport.playing = !transport.playing;
        }
        if icon(ui, "⏩", "Step forward", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(clock.frame() + 1));
        }
        if icon(ui, "⏭", "Go to end", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(clock.last_frame()));
        }
        if icon(ui, "🔁", "Loop", transport.looping).clicked() {
            transport.looping = !transport.looping;
        }
        ui.separator();
        ui.label("speed");
        ui.add(
            DragValue::new(&mut transport.speed)
                .range(0.1..=4.0)
                .speed(0.01)
                .fixed_decimals(2)
                .suffix("x"),
        )
        .accessible_name("Speed");
        ui.separator();
        let shown = seek.unwrap_or(clock.playhead);
        ui.monospace(format!(
            "frame {} / {}   {:.3} s",
            frame_of(shown, clock.fps),
            clock.last_frame(),
            shown
        ));
    });
    seek
}
