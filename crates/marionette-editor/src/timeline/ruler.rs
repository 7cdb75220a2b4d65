//! The ruler (ticks in seconds and frames; click or drag scrubs, double-click fits) and the time
//! area's navigation (wheel zoom at the pointer, wheel and drag pans, lane scrolling).

use egui::{Color32, Event, FontId, MouseWheelUnit, PointerButton, Rect, Sense, Stroke};

use marionette_anim::time;

use super::keys::frame_of;
use super::view::{ticks, TimeAxis, TimeRange};
use super::{TimelineState, Transport};

/// Points one wheel "line" scrolls (egui's native default).
const LINE_POINTS: f32 = 40.0;
/// Zoom per wheel point (egui's Ctrl+wheel speed).
const ZOOM_PER_POINT: f32 = 1.0 / 200.0;

/// Zooms, pans and scrolls from this frame's wheel, pinch and drag input.
pub(crate) fn navigate(
    ui: &egui::Ui,
    state: &mut TimelineState,
    time_area: Rect,
    lanes_rect: Rect,
    ruler_rect: Rect,
) {
    let axis = TimeAxis {
        range: state.visible,
        left: ruler_rect.left(),
        right: ruler_rect.right(),
    };
    let pps = axis.px_per_sec();
    let (events, hover, pointer) = ui.input(|i| {
        let wheel_or_zoom = |e: &&Event| matches!(e, Event::MouseWheel { .. } | Event::Zoom(_));
        let events: Vec<Event> = i.events.iter().filter(wheel_or_zoom).cloned().collect();
        (events, i.pointer.hover_pos(), i.pointer.clone())
    });
    let names = Rect::from_x_y_ranges(lanes_rect.left()..=time_area.left(), lanes_rect.y_range());
    let over_time = hover.is_some_and(|p| time_area.contains(p));
    let over_names = hover.is_some_and(|p| names.contains(p));
    let mut used_wheel = false;
    for event in events {
        match event {
            Event::Zoom(factor) if over_time => {
                if let Some(p) = hover {
                    state.visible = state.visible.zoomed(axis.t(p.x), factor);
                }
            }
            Event::MouseWheel {
                unit,
                delta,
                modifiers,
                ..
            } => {
                let delta = match unit {
                    MouseWheelUnit::Point => delta,
                    MouseWheelUnit::Line => delta * LINE_POINTS,
                    MouseWheelUnit::Page => delta * time_area.height(),
                };
                if over_names {
                    state.scroll -= delta.y;
                    used_wheel = true;
                } else if over_time {
                    used_wheel = true;
                    let (pan, zoom) = if modifiers.shift {
                        (delta.x + delta.y, 0.0)
                    } else {
                        (delta.x, delta.y)
                    };
                    state.visible = state.visible.panned(-pan / pps);
                    if zoom != 0.0 {
                        if let Some(p) = hover {
                            let factor = (zoom * ZOOM_PER_POINT).exp();
                            state.visible = state.visible.zoomed(axis.t(p.x), factor);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if used_wheel {
        ui.input_mut(|i| i.smooth_scroll_delta = egui::Vec2::ZERO);
    }

    // middle-drag or Alt+drag pans
    let alt = ui.input(|i| i.modifiers.alt);
    let started = pointer.button_pressed(PointerButton::Middle)
        || (alt && pointer.button_pressed(PointerButton::Primary));
    if started
        && pointer
            .press_origin()
            .is_some_and(|p| time_area.contains(p))
    {
        state.panning = true;
    }
    if state.panning {
        if pointer.middle_down() || pointer.primary_down() {
            state.visible = state.visible.panned(-pointer.delta().x / pps);
        } else {
            state.panning = false;
        }
    }
    if !state.visible.is_valid() {
        state.visible = TimeRange::fit(1.0);
    }
}

/// Draws the ruler and handles scrubbing; returns the new playhead when the user moved it.
pub(crate) fn ruler(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    axis: &TimeAxis,
    rect: Rect,
    duration: f32,
    fps: f32,
    transport: &mut Transport,
) -> Option<f32> {
    let id = ui.make_persistent_id("timeline ruler");
    let resp = ui.interact(rect, id, Sense::click_and_drag());
    let mut seek = None;
    let scrubbing = resp.is_pointer_button_down_on()
        && ui.input(|i| i.pointer.primary_down() && !i.modifiers.alt)
        && !state.panning;
    if scrubbing || resp.clicked() {
        if let Some(p) = resp.interact_pointer_pos() {
            seek = Some(snap_into(axis.t(p.x), duration, fps));
            transport.playing = false;
        }
    }
    if resp.double_clicked() {
        state.visible = TimeRange::fit(duration);
    }
    let playhead = seek.map(f64::from);
    resp.widget_info(|| {
        let mut info =
            egui::WidgetInfo::labeled(egui::accesskit::Role::Slider, true, "Timeline ruler");
        info.value = playhead;
        info
    });
    paint_ruler(ui, axis, rect, duration, fps);
    // the loop range: a band on the ruler, set from its context menu
    if let Some((a, b)) = state.loop_range {
        let band = Rect::from_x_y_ranges(
            axis.x(a).max(rect.left())..=axis.x(b).min(rect.right()),
            rect.bottom() - 5.0..=rect.bottom(),
        );
        if band.width() > 0.0 {
            ui.painter_at(rect)
                .rect_filled(band, 1.0, Color32::from_rgb(90, 170, 255));
        }
    }
    // (the time right-clicked, kept while its menu is open)
    if resp.secondary_clicked() {
        state.menu_time = resp
            .interact_pointer_pos()
            .map(|p| snap_into(axis.t(p.x), duration, fps));
    }
    let at = state.menu_time;
    resp.context_menu(|ui| {
        let (a, b) = state.loop_range.unwrap_or((0.0, duration));
        if let Some(t) = at {
            if ui.button(format!("Loop from {t:.3} s")).clicked() {
                state.loop_range = Some((t, b.max(t)));
                ui.close();
            }
            if ui.button(format!("Loop to {t:.3} s")).clicked() {
                state.loop_range = Some((a.min(t), t));
                ui.close();
            }
        }
        if state.loop_range.is_some() && ui.button("Loop the whole take").clicked() {
            state.loop_range = None;
            ui.close();
        }
    });
    seek
}

/// Markers and events on the ruler: a small flag at each, the ones under the pointer listed.
pub(crate) fn events(ui: &egui::Ui, axis: &TimeAxis, rect: Rect, events: &[(f32, String)]) {
    if events.is_empty() {
        return;
    }
    let painter = ui.painter_at(rect);
    let color = Color32::from_rgb(255, 170, 60);
    let (t0, t1) = (axis.range.start, axis.range.end);
    let start = events.partition_point(|e| e.0 < t0);
    let mut last_x = f32::NEG_INFINITY;
    for (t, _) in events[start..].iter().take_while(|e| e.0 <= t1) {
        let x = axis.x(*t);
        if x - last_x < 1.0 {
            continue;
        }
        last_x = x;
        let top = rect.top() + 1.0;
        painter.add(egui::Shape::convex_polygon(
            vec![
                egui::pos2(x, top),
                egui::pos2(x + 5.0, top + 3.0),
                egui::pos2(x, top + 6.0),
            ],
            color,
            egui::Stroke::NONE,
        ));
    }
    let Some(p) = ui.ctx().pointer_hover_pos().filter(|p| rect.contains(*p)) else {
        return;
    };
    let near: Vec<String> = events
        .iter()
        .filter(|(t, _)| (axis.x(*t) - p.x).abs() <= 4.0)
        .map(|(t, text)| format!("{t:.3} s  {text}"))
        .collect();
    if near.is_empty() {
        return;
    }
    let id = ui.make_persistent_id("timeline events");
    egui::Tooltip::always_open(
        ui.ctx().clone(),
        ui.layer_id(),
        id,
        egui::PopupAnchor::Pointer,
    )
    .show(|ui| {
        for line in near.iter().take(12) {
            ui.label(line);
        }
        if near.len() > 12 {
            ui.weak(format!("and {} more", near.len() - 12));
        }
    });
}

/// `t` snapped to the frame grid and clamped to the take.
pub(crate) fn snap_into(t: f32, duration: f32, fps: f32) -> f32 {
    if !(fps.is_finite() && fps > 0.0) {
        return t.clamp(0.0, duration);
    }
    let last = frame_of(duration, fps).max(0);
    time::step_time(frame_of(t, fps).clamp(0, last) as u64, fps)
}

/// Where a tick's label starts: just right of the tick at `x`, or just left of it where it would
/// run past the ruler's right end (the last label at full zoom-out).
fn label_left(x: f32, width: f32, ruler: egui::Rangef) -> f32 {
    if x + 3.0 + width > ruler.max {
        (x - 3.0 - width).max(ruler.min)
    } else {
        x + 3.0
    }
}

fn paint_ruler(ui: &egui::Ui, axis: &TimeAxis, rect: Rect, duration: f32, fps: f32) {
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 0.0, visuals.extreme_bg_color);
    // outside the take: shaded
    let shade = Color32::from_black_alpha(60);
    let x0 = axis.x(0.0).clamp(rect.left(), rect.right());
    let x1 = axis.x(duration).clamp(rect.left(), rect.right());
    painter.rect_filled(
        Rect::from_x_y_ranges(rect.left()..=x0, rect.y_range()),
        0.0,
        shade,
    );
    painter.rect_filled(
        Rect::from_x_y_ranges(x1..=rect.right(), rect.y_range()),
        0.0,
        shade,
    );
    let color = visuals.text_color();
    let font = FontId::proportional(10.0);
    for tick in ticks(axis, fps) {
        let x = axis.x(tick.time);
        let h = 3.0 + 9.0 * tick.strength;
        let c = color.gamma_multiply(0.25 + 0.6 * tick.strength);
        painter.vline(x, (rect.bottom() - h)..=rect.bottom(), Stroke::new(1.0, c));
        if let Some(label) = &tick.label {
            let ink = color.gamma_multiply(0.8);
            let galley = painter.layout_no_wrap(label.clone(), font.clone(), ink);
            let left = label_left(x, galley.size().x, rect.x_range());
            painter.galley(egui::pos2(left, rect.top() + 1.0), galley, ink);
        }
    }
    painter.hline(
        rect.x_range(),
        rect.bottom() - 0.5,
        Stroke::new(1.0, color.gamma_multiply(0.3)),
    );
}

#[cfg(test)]
mod tests {
    use super::label_left;

    /// Labels sit right of their tick, except where that would cut them at the ruler's end.
    #[test]
    fn last_label_turns_left_at_the_end() {
        let ruler = egui::Rangef::new(100.0, 500.0);
        assert_eq!(label_left(200.0, 30.0, ruler), 203.0);
        assert_eq!(label_left(467.0, 30.0, ruler), 470.0);
        assert_eq!(label_left(480.0, 30.0, ruler), 447.0);
        assert_eq!(label_left(500.0, 30.0, ruler), 467.0);
        // a label wider than the ruler starts at its left end
        assert_eq!(label_left(150.0, 600.0, ruler), 100.0);
    }
}
