//! Drawing of lane contents: value curves, bool bars, trigger markers, key diamonds, state bars
//! with blended transition spans, weight area graphs and the playhead.

use egui::{Align2, Color32, FontId, Mesh, Painter, Pos2, Rect, Shape, Stroke};

use marionette_anim::time;

use super::view::TimeAxis;
use super::{StateLane, WeightLane};

/// Colour of the playhead.
pub(crate) const PLAYHEAD: Color32 = Color32::from_rgb(235, 80, 70);
/// Colour of curves, keys, bars and markers.
pub(crate) const ACCENT: Color32 = Color32::from_rgb(90, 170, 250);
/// Colours of vector components x, y, z.
pub(crate) const XYZ: [Color32; 3] = [
    Color32::from_rgb(230, 90, 90),
    Color32::from_rgb(110, 200, 100),
    Color32::from_rgb(90, 140, 240),
];

/// The playhead: a line over `rect` with a handle at its top.
pub(crate) fn playhead(ui: &egui::Ui, axis: &TimeAxis, rect: Rect, t: f32) {
    let x = axis.x(t);
    if x < rect.left() - 1.0 || x > rect.right() + 1.0 {
        return;
    }
    let painter = ui.painter_at(rect.expand2(egui::vec2(6.0, 0.0)));
    painter.vline(x, rect.y_range(), Stroke::new(1.5, PLAYHEAD));
    let top = rect.top();
    painter.add(Shape::convex_polygon(
        vec![
            egui::pos2(x - 5.0, top),
            egui::pos2(x + 5.0, top),
            egui::pos2(x, top + 7.0),
        ],
        PLAYHEAD,
        Stroke::NONE,
    ));
}

/// A stable colour for a state name (hue from a hash of the name).
pub fn state_color(name: &str) -> Color32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    // mix the high bits down: FNV's low bits alone cluster for short names
    let h = (h ^ (h >> 16)).wrapping_mul(0x045d_9f3b) ^ (h >> 13);
    let hue = (h % 1024) as f32 / 1024.0;
    egui::ecolor::Hsva::new(hue, 0.5, 0.8, 1.0).into()
}

/// The polyline of keyed values `(time, value)` (sorted) across `rect`: flat before the first
/// and after the last key, linear or stepped between.
pub(crate) fn curve_points(
    keys: &[(f32, f32)],
    step: bool,
    axis: &TimeAxis,
    rect: Rect,
    y_of: impl Fn(f32) -> f32,
) -> Vec<Pos2> {
    let Some(&(_, first)) = keys.first() else {
        return Vec::new();
    };
    let mut pts = vec![egui::pos2(rect.left(), y_of(first))];
    let mut prev = first;
    for &(t, v) in keys {
        let x = axis.x(t).clamp(rect.left() - 1.0, rect.right() + 1.0);
        if step {
            pts.push(egui::pos2(x, y_of(prev)));
        }
        pts.push(egui::pos2(x, y_of(v)));
        prev = v;
    }
    pts.push(egui::pos2(rect.right(), y_of(prev)));
    pts
}

/// A key diamond centred at `c`.
pub(crate) fn diamond(painter: &Painter, c: Pos2, r: f32, fill: Color32, stroke: Stroke) {
    painter.add(Shape::convex_polygon(
        vec![
            egui::pos2(c.x, c.y - r),
            egui::pos2(c.x + r, c.y),
            egui::pos2(c.x, c.y + r),
            egui::pos2(c.x - r, c.y),
        ],
        fill,
        stroke,
    ));
}

/// Filled bars where a bool is on: `keys` are `(time, on)` sorted; `default` holds without keys.
pub(crate) fn bool_bars(
    painter: &Painter,
    keys: &[(f32, bool)],
    default: bool,
    axis: &TimeAxis,
    rect: Rect,
    color: Color32,
) {
    let bar = rect.shrink2(egui::vec2(0.0, rect.height() * 0.2));
    let mut spans = Vec::new();
    match keys.first() {
        None if default => spans.push((rect.left(), rect.right())),
        None => {}
        Some(&(_, on0)) => {
            let mut on = on0;
            let mut from = rect.left();
            for &(t, v) in keys {
                let x = axis.x(t);
                if v != on {
                    if on {
                        spans.push((from, x));
                    }
                    from = x;
                    on = v;
                }
            }
            if on {
                spans.push((from, rect.right()));
            }
        }
    }
    for (a, b) in spans {
        let r = Rect::from_x_y_ranges(a.max(rect.left())..=b.min(rect.right()), bar.y_range());
        if r.width() > 0.0 {
            painter.rect_filled(r, 2.0, color);
        }
    }
}

/// A trigger marker (a line and a downward triangle) at `x`.
pub(crate) fn trigger_marker(
    painter: &Painter,
    x: f32,
    rect: Rect,
    color: Color32,
    selected: bool,
) {
    let w = if selected { 6.0 } else { 4.5 };
    painter.vline(
        x,
        rect.y_range(),
        Stroke::new(1.0, color.gamma_multiply(0.6)),
    );
    let top = rect.top() + 2.0;
    painter.add(Shape::convex_polygon(
        vec![
            egui::pos2(x - w, top),
            egui::pos2(x + w, top),
            egui::pos2(x, top + 2.0 * w),
        ],
        color,
        if selected {
            Stroke::new(1.5, Color32::WHITE)
        } else {
            Stroke::NONE
        },
    ));
}

/// A state machine lane: a coloured bar per state span; transition spans blend from the source
/// colour to the target colour under diagonal hatching, labelled `from -> to`.
pub(crate) fn state_lane(painter: &Painter, axis: &TimeAxis, rect: Rect, lane: &StateLane) {
    let bar = rect.shrink2(egui::vec2(0.0, 2.0));
    let font = FontId::proportional(11.0);
    for span in &lane.spans {
        let a = axis.x(span.start).max(rect.left());
        let b = axis.x(span.end).min(rect.right());
        if b <= a {
            continue;
        }
        let r = Rect::from_x_y_ranges(a..=b, bar.y_range());
        let from = state_color(&span.state);
        let label = match &span.transition_to {
            None => {
                painter.rect_filled(r, 2.0, from);
                span.state.clone()
            }
            Some(to) => {
                let to_c = state_color(to);
                let mut mesh = Mesh::default();
                mesh.colored_vertex(r.left_top(), from);
                mesh.colored_vertex(r.right_top(), to_c);
                mesh.colored_vertex(r.right_bottom(), to_c);
                mesh.colored_vertex(r.left_bottom(), from);
                mesh.add_triangle(0, 1, 2);
                mesh.add_triangle(0, 2, 3);
                painter.add(Shape::mesh(mesh));
                hatch(&painter.with_clip_rect(r.intersect(painter.clip_rect())), r);
                format!("{} -> {}", span.state, to)
            }
        };
        let galley = painter.layout_no_wrap(label, font.clone(), Color32::BLACK);
        if galley.size().x + 6.0 < r.width() {
            painter.galley(
                egui::pos2(r.left() + 3.0, r.center().y - galley.size().y / 2.0),
                galley,
                Color32::BLACK,
            );
        }
    }
}

/// Diagonal stripes over `r`.
fn hatch(painter: &Painter, r: Rect) {
    let stroke = Stroke::new(1.0, Color32::from_white_alpha(70));
    let h = r.height();
    let mut x = r.left() - h;
    while x < r.right() {
        painter.line_segment(
            [egui::pos2(x, r.bottom()), egui::pos2(x + h, r.top())],
            stroke,
        );
        x += 6.0;
    }
}

/// A node weight lane: the weight per frame as a filled area from 0 (bottom) to 1 (top).
pub(crate) fn weight_lane(
    painter: &Painter,
    axis: &TimeAxis,
    rect: Rect,
    lane: &WeightLane,
    fps: f32,
    color: Color32,
) {
    if lane.weights.is_empty() || !(fps.is_finite() && fps > 0.0) {
        return;
    }
    let plot = rect.shrink2(egui::vec2(0.0, 2.0));
    let y = |w: f32| plot.bottom() - w.clamp(0.0, 1.0) * plot.height();
    let n = lane.weights.len();
    let (first, last) =
        time::frames_covering(f64::from(axis.range.start), f64::from(axis.range.end), fps);
    let first = (first.max(0.0) as usize).min(n - 1);
    let last = (last.max(0.0) as usize).min(n - 1);
    // saturating cast (inf or huge: usize::MAX, NaN: 0, then 1)
    let stride = ((fps / axis.px_per_sec()).floor() as usize).max(1);
    let mut pts = Vec::new();
    let mut i = first;
    loop {
        let x = axis.x(time::step_time(i as u64, fps));
        pts.push(egui::pos2(x, y(lane.weights[i])));
        if i >= last {
            break;
        }
        // saturating: a view spanning ~1e38 s (read from a sidecar) makes the stride
        // usize::MAX, which `i + stride` overflowed
        i = i.saturating_add(stride).min(last);
    }
    let fill = color.gamma_multiply(0.45);
    let mut mesh = Mesh::default();
    for (k, p) in pts.iter().enumerate() {
        mesh.colored_vertex(*p, fill);
        mesh.colored_vertex(egui::pos2(p.x, plot.bottom()), fill);
        if k > 0 {
            // (fits: at most one point per weight, one per frame, MAX_FRAMES + 1 in all)
            let j = (2 * k) as u32;
            mesh.add_triangle(j - 2, j - 1, j);
            mesh.add_triangle(j - 1, j + 1, j);
        }
    }
    painter.add(Shape::mesh(mesh));
    painter.add(Shape::line(pts, Stroke::new(1.2, color)));
}

/// A value readout at the right of a name cell.
pub(crate) fn readout(painter: &Painter, rect: Rect, text: &str, color: Color32) {
    painter.text(
        egui::pos2(rect.right() - 4.0, rect.center().y),
        Align2::RIGHT_CENTER,
        text,
        FontId::monospace(10.0),
        color,
    );
}
