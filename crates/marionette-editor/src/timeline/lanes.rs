//! Lane layout under the ruler: the name column (fold, resize), vertical scrolling, and the
//! state machine and node weight lanes; parameter lanes are drawn and edited in `edit`.

use egui::accesskit::Role;
use egui::{Align2, CursorIcon, FontId, Rect, Sense, Stroke, WidgetInfo};

use marionette_anim::graph::{ParamKind, ParamValue, Take};

use super::keys::frame_of;
use super::WeightLane;
use super::{
    edit, gesture, paint, LaneCtx, LaneView, ParamLane, StateLane, TimelineResponse, TimelineState,
};

/// Height of a folded lane, points.
const FOLDED: f32 = 16.0;
/// Lane heights a user can drag to, points.
const HEIGHTS: std::ops::RangeInclusive<f32> = 16.0..=240.0;

/// One lane.
enum Lane<'a> {
    Param(&'a ParamLane),
    State(&'a StateLane),
    Weight(&'a WeightLane),
}

impl Lane<'_> {
    /// Key of the lane in [`TimelineState::lanes`].
    fn id(&self) -> String {
        match self {
            Lane::Param(p) => format!("param:{}", p.name),
            Lane::State(s) => format!("state:{}", s.name),
            Lane::Weight(w) => format!("weight:{}", w.name),
        }
    }

    fn name(&self) -> &str {
        match self {
            Lane::Param(p) => &p.name,
            Lane::State(s) => &s.name,
            Lane::Weight(w) => &w.name,
        }
    }

    fn default_height(&self) -> f32 {
        match self {
            Lane::Param(p) => match p.kind {
                ParamKind::Float | ParamKind::Vec3 => 44.0,
                ParamKind::Bool => 24.0,
                ParamKind::Trigger => 22.0,
            },
            Lane::State(_) => 24.0,
            Lane::Weight(_) => 30.0,
        }
    }
}

fn height(view: Option<&LaneView>, lane: &Lane<'_>) -> f32 {
    match view {
        Some(v) if v.collapsed => FOLDED,
        Some(LaneView {
            height: Some(h), ..
        }) => h.clamp(*HEIGHTS.start(), *HEIGHTS.end()),
        _ => lane.default_height(),
    }
}

/// The value of a parameter as short text.
fn value_text(v: &ParamValue) -> String {
    match v {
        ParamValue::Float(f) => format!("{f:.2}"),
        ParamValue::Bool(b) => (if *b { "on" } else { "off" }).into(),
        ParamValue::Trigger(t) => (if *t { "fired" } else { "" }).into(),
        ParamValue::Vec3(v) => format!("{:.1} {:.1} {:.1}", v.x, v.y, v.z),
    }
}

/// Draws and handles every lane.
pub(crate) fn lanes(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    ctx: &LaneCtx,
    mut take: Option<&mut Take>,
    input: &LaneInput<'_>,
    response: &mut TimelineResponse,
) {
    let list: Vec<Lane<'_>> = input
        .params
        .iter()
        .map(Lane::Param)
        .chain(input.states.iter().map(Lane::State))
        .chain(input.weights.iter().map(Lane::Weight))
        .collect();
    let heights: Vec<f32> = list
        .iter()
        .map(|l| height(state.lanes.get(&l.id()), l))
        .collect();
    let total: f32 = heights.iter().sum();
    let area = ctx.lanes_rect;
    // a newly lit weight lane is scrolled into view once
    let lit = input.highlight.map(str::to_string);
    if lit != state.lit {
        let at = list
            .iter()
            .position(|l| matches!(l, Lane::Weight(w) if Some(w.name.as_str()) == input.highlight));
        if let Some(k) = at {
            let top: f32 = heights[..k].iter().sum();
            let bottom = top + heights[k];
            if top < state.scroll || bottom > state.scroll + area.height() {
                state.scroll = (bottom - area.height()).max(0.0).min(top);
            }
        }
        state.lit = lit;
    }
    state.scroll = state.scroll.clamp(0.0, (total - area.height()).max(0.0));

    let painter = ui.painter_at(area);
    let visuals = ui.visuals().clone();
    let mut y = area.top() - state.scroll;
    for (i, (lane, h)) in list.iter().zip(&heights).enumerate() {
        let rect = Rect::from_min_size(egui::pos2(area.left(), y), egui::vec2(area.width(), *h));
        y += h;
        if !rect.intersects(area) {
            continue;
        }
        if i % 2 == 1 {
            painter.rect_filled(rect, 0.0, visuals.faint_bg_color);
        }
        painter.hline(
            area.x_range(),
            rect.bottom() - 0.5,
            Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
        );
        let names =
            Rect::from_x_y_ranges(area.left()..=area.left() + ctx.name_width, rect.y_range());
        let content = Rect::from_x_y_ranges(ctx.axis.left..=ctx.axis.right, rect.y_range());
        let id = lane.id();
        let folded = name_cell(ui, state, &id, lane, names, area);
        if let Lane::Param(p) = lane {
            paint::readout(
                &painter,
                names,
                &value_text(&p.value),
                visuals.weak_text_color(),
            );
        }
        if folded {
            continue;
        }
        match lane {
            Lane::Param(p) => {
                edit::param_lane(ui, state, ctx, take.as_deref_mut(), p, content, response)
            }
            Lane::State(s) => {
                let resp = info_lane(ui, &format!("State lane {}", s.name), content, area);
                let clip = painter.with_clip_rect(content.intersect(area));
                paint::state_lane(&clip, &ctx.axis, content, s);
                if let Some(p) = resp.hover_pos() {
                    let t = ctx.axis.t(p.x);
                    if let Some(span) = s.spans.iter().find(|sp| sp.start <= t && t < sp.end) {
                        let what = match &span.transition_to {
                            Some(to) => format!("{} -> {}", span.state, to),
                            None => span.state.clone(),
                        };
                        resp.on_hover_text(format!("{what}  {:.3}-{:.3} s", span.start, span.end));
                    }
                }
            }
            Lane::Weight(w) => {
                if Some(w.name.as_str()) == input.highlight {
                    let lit = visuals.selection.bg_fill.gamma_multiply(0.35);
                    painter.rect_filled(rect.intersect(area), 0.0, lit);
                }
                let resp = info_lane(ui, &format!("Weight lane {}", w.name), content, area);
                let clip = painter.with_clip_rect(content.intersect(area));
                paint::weight_lane(
                    &clip,
                    &ctx.axis,
                    content,
                    w,
                    ctx.fps,
                    paint::state_color(&w.name),
                );
                if let Some(p) = resp.hover_pos() {
                    let frame = frame_of(ctx.axis.t(p.x), ctx.fps);
                    if frame >= 0 {
                        if let Some(v) = w.weights.get(frame as usize) {
                            resp.on_hover_text(format!("{}: {v:.3} at frame {frame}", w.name));
                        }
                    }
                }
            }
        }
    }
    // lanes below the panel's edge: say so (scroll over the names, or drag the panel taller)
    let hidden = y - area.bottom();
    if hidden > 1.0 {
        let below = {
            let mut bottom = area.top() - state.scroll;
            heights
                .iter()
                .filter(|h| {
                    bottom += **h;
                    bottom - **h >= area.bottom() - 4.0
                })
                .count()
        };
        let text = if below > 0 {
            format!(
                "{below} more lane{} below: scroll over the names, or drag the timeline's top edge",
                if below == 1 { "" } else { "s" }
            )
        } else {
            "more below: scroll over the names".to_string()
        };
        let pos = egui::pos2(area.left() + 4.0, area.bottom() - 2.0);
        let font = FontId::proportional(11.0);
        let galley = painter.layout_no_wrap(text, font, visuals.strong_text_color());
        let bg =
            Rect::from_min_size(pos - egui::vec2(0.0, galley.size().y), galley.size()).expand(2.0);
        painter.rect_filled(bg, 2.0, visuals.extreme_bg_color);
        painter.galley(
            bg.min + egui::vec2(2.0, 2.0),
            galley,
            visuals.strong_text_color(),
        );
    }
    if list.is_empty() {
        painter.text(
            area.center(),
            Align2::CENTER_CENTER,
            "no parameters, state machines or weights to show",
            FontId::proportional(12.0),
            visuals.weak_text_color(),
        );
    }
    gesture::end_frame(ui, state, ctx, take, response);
}

/// The lanes' data, from [`super::TimelineInput`].
pub(crate) struct LaneInput<'a> {
    pub params: &'a [ParamLane],
    pub states: &'a [StateLane],
    pub weights: &'a [WeightLane],
    /// The weight lane to light, by name.
    pub highlight: Option<&'a str>,
}

/// A display-only lane, named for accessibility.
fn info_lane(ui: &egui::Ui, label: &str, content: Rect, area: Rect) -> egui::Response {
    let id = ui.make_persistent_id(("timeline lane", label));
    let resp = ui.interact(content.intersect(area), id, Sense::hover());
    resp.widget_info(|| WidgetInfo::labeled(Role::Group, true, label));
    resp
}

/// The name cell: the name (click folds/unfolds) and a resize handle at its bottom edge.
/// Returns whether the lane is folded.
fn name_cell(
    ui: &egui::Ui,
    state: &mut TimelineState,
    id: &str,
    lane: &Lane<'_>,
    rect: Rect,
    area: Rect,
) -> bool {
    let view = state.lanes.get(id).copied().unwrap_or_default();
    let handle = Rect::from_x_y_ranges(rect.x_range(), rect.bottom() - 4.0..=rect.bottom());
    let label_rect = Rect::from_x_y_ranges(rect.x_range(), rect.top()..=handle.top());
    let name = lane.name();
    let fold_id = ui.make_persistent_id(("timeline fold", id));
    let fold = ui.interact(label_rect.intersect(area), fold_id, Sense::click());
    if fold.clicked() {
        state.lanes.entry(id.to_string()).or_default().collapsed = !view.collapsed;
    }
    let folded = state.lanes.get(id).is_some_and(|v| v.collapsed);
    let fold_label = if folded {
        format!("Expand {name}")
    } else {
        format!("Collapse {name}")
    };
    fold.widget_info(|| WidgetInfo::labeled(Role::Button, true, &fold_label));

    if !folded && handle.intersects(area) {
        let size_id = ui.make_persistent_id(("timeline resize", id));
        let size = ui.interact(handle.intersect(area), size_id, Sense::drag());
        if size.hovered() || size.dragged() {
            ui.set_cursor_icon(CursorIcon::ResizeVertical);
        }
        if size.dragged() {
            let h = rect.height() + size.drag_delta().y;
            let v = state.lanes.entry(id.to_string()).or_default();
            v.height = Some(h.clamp(*HEIGHTS.start(), *HEIGHTS.end()));
        }
        let label = format!("Resize {name}");
        size.widget_info(|| WidgetInfo::labeled(Role::Splitter, true, &label));
    }

    let painter = ui.painter_at(rect.intersect(area));
    let visuals = ui.visuals();
    let color = if fold.hovered() {
        visuals.strong_text_color()
    } else {
        visuals.text_color()
    };
    let y = if folded {
        rect.center().y
    } else {
        rect.top() + 9.0
    };
    let a = egui::pos2(rect.left() + 8.0, y);
    let arrow = if folded {
        vec![
            a + egui::vec2(-3.0, -4.0),
            a + egui::vec2(3.0, 0.0),
            a + egui::vec2(-3.0, 4.0),
        ]
    } else {
        vec![
            a + egui::vec2(-4.0, -2.5),
            a + egui::vec2(4.0, -2.5),
            a + egui::vec2(0.0, 3.5),
        ]
    };
    painter.add(egui::Shape::convex_polygon(arrow, color, Stroke::NONE));
    painter.text(
        egui::pos2(rect.left() + 15.0, y),
        Align2::LEFT_CENTER,
        name,
        FontId::proportional(12.0),
        color,
    );
    folded
}
