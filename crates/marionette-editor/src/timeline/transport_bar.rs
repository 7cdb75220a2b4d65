//! The transport bar above the ruler (and the playhead's [`Clock`]): go to start, step back, play/pause, step forward, go to
//! end, loop, speed and a frame/time readout.

use egui::accesskit::Role;
use egui::{pos2, DragValue, Rect, Sense, Shape, Stroke, StrokeKind, WidgetInfo};

use marionette_anim::time;

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
        time::step_time(n.clamp(0, self.last_frame()) as u64, self.fps)
    }
}

/// The transport icons, drawn as shapes (egui's default fonts carry no media glyphs).
#[derive(Clone, Copy)]
enum Icon {
    Start,
    Back,
    Play,
    Pause,
    Forward,
    End,
    Loop,
}

/// An icon button named for accessibility.
fn icon(ui: &mut egui::Ui, icon: Icon, name: &str, selected: bool) -> egui::Response {
    let (rect, resp) = ui.allocate_exact_size(egui::vec2(24.0, 20.0), Sense::click());
    resp.widget_info(|| WidgetInfo::selected(Role::Button, true, selected, name));
    let visuals = ui.style().interact_selectable(&resp, selected);
    let painter = ui.painter();
    painter.rect(
        rect,
        visuals.corner_radius,
        visuals.weak_bg_fill,
        visuals.bg_stroke,
        StrokeKind::Inside,
    );
    let c = visuals.fg_stroke.color;
    let r = Rect::from_center_size(rect.center(), egui::vec2(10.0, 10.0));
    let tri = |right: bool, r: Rect| {
        let (tip, base) = if right {
            (r.right(), r.left())
        } else {
            (r.left(), r.right())
        };
        Shape::convex_polygon(
            vec![
                pos2(base, r.top()),
                pos2(tip, r.center().y),
                pos2(base, r.bottom()),
            ],
            c,
            Stroke::NONE,
        )
    };
    let bar = |x: f32| Shape::rect_filled(Rect::from_x_y_ranges(x..=x + 2.0, r.y_range()), 0.0, c);
    let (left, right) = (
        Rect::from_x_y_ranges(r.left() + 3.0..=r.right(), r.y_range()),
        Rect::from_x_y_ranges(r.left()..=r.right() - 3.0, r.y_range()),
    );
    let shapes = match icon {
        Icon::Start => vec![bar(r.left()), tri(false, left)],
        Icon::Back => vec![tri(false, right), bar(r.right() - 2.0)],
        Icon::Play => vec![tri(true, r.shrink2(egui::vec2(1.0, 0.0)))],
        Icon::Pause => vec![bar(r.left() + 1.5), bar(r.right() - 3.5)],
        Icon::Forward => vec![bar(r.left()), tri(true, left)],
        Icon::End => vec![tri(true, right), bar(r.right() - 2.0)],
        Icon::Loop => {
            let stroke = Stroke::new(1.5, c);
            let mut v = vec![Shape::circle_stroke(r.center(), 4.5, stroke)];
            let tip = pos2(r.center().x + 4.5, r.center().y);
            v.push(Shape::convex_polygon(
                vec![
                    tip + egui::vec2(-3.0, -1.0),
                    tip + egui::vec2(3.0, -1.0),
                    tip + egui::vec2(0.0, 3.0),
                ],
                c,
                Stroke::NONE,
            ));
            v
        }
    };
    painter.extend(shapes);
    resp.on_hover_text(name)
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
        if icon(ui, Icon::Start, "Go to start", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(0));
        }
        if icon(ui, Icon::Back, "Step back", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(clock.frame().saturating_sub(1)));
        }
        let (glyph, name) = if transport.playing {
            (Icon::Pause, "Pause")
        } else {
            (Icon::Play, "Play")
        };
        if icon(ui, glyph, name, false).clicked() {
            transport.playing = !transport.playing;
        }
        if icon(ui, Icon::Forward, "Step forward", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(clock.frame().saturating_add(1)));
        }
        if icon(ui, Icon::End, "Go to end", false).clicked() {
            transport.playing = false;
            seek = Some(clock.time_of(clock.last_frame()));
        }
        if icon(ui, Icon::Loop, "Loop", transport.looping).clicked() {
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
