//! Drawing the graph view's [`Shape`] with the graph's live values: cards and wires of the
//! blend tree, state diagrams; returns the node clicked.

use egui::epaint::{CubicBezierShape, QuadraticBezierShape};
use egui::{pos2, Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use marionette_anim::graph::{Graph, NodeId, StateMachineInfo};

use super::shape::{Arrow, Diagram, Shape};
use crate::states::{conditions_text, leaves, running_transition, why_not};

const ACTIVE: Color32 = Color32::from_rgb(120, 210, 120);
const SELECTED: Color32 = Color32::from_rgb(255, 190, 60);
const WIRE: Color32 = Color32::from_rgb(140, 150, 170);
const RUNNING: Color32 = Color32::from_rgb(255, 210, 90);
const FILL: Color32 = Color32::from_rgb(40, 44, 52);
const FILL_IDLE: Color32 = Color32::from_rgb(30, 32, 36);
/// Below this zoom cards are drawn without their text and wires straight.
const DETAIL_ZOOM: f32 = 0.4;

/// Draws `shape` into the scene's `ui`; the node whose card or state was clicked.
pub fn draw(
    ui: &mut egui::Ui,
    shape: &Shape,
    graph: &Graph,
    selected: Option<NodeId>,
) -> Option<NodeId> {
    let mut clicked = None;
    let clip = ui.clip_rect();
    let painter = ui.painter().clone();
    // Zoomed far out the labels cannot be read: boxes and straight wires only (a large graph
    // zoomed out then costs what a small one does).
    let zoom = ui
        .ctx()
        .layer_transform_to_global(ui.layer_id())
        .map_or(1.0, |t| t.scaling);
    let detail = zoom >= DETAIL_ZOOM;
    for &(from, to) in &shape.wires {
        let (a, b) = (&shape.cards[from], &shape.cards[to]);
        let w = graph.node_weight(a.node).clamp(0.0, 1.0);
        let p0 = pos2(a.rect.max.x, a.rect.center().y);
        let p3 = pos2(b.rect.min.x, b.rect.center().y);
        if !clip.intersects(Rect::from_two_pos(p0, p3).expand(4.0)) {
            continue;
        }
        let color = if w > 0.0 {
            ACTIVE
        } else {
            WIRE.gamma_multiply(0.5)
        };
        if !detail {
            painter.line_segment([p0, p3], Stroke::new(1.0 + 4.0 * w, color));
            continue;
        }
        let dx = (p3.x - p0.x).abs() * 0.5;
        painter.add(CubicBezierShape::from_points_stroke(
            [p0, p0 + Vec2::X * dx, p3 - Vec2::X * dx, p3],
            false,
            Color32::TRANSPARENT,
            Stroke::new(1.0 + 4.0 * w, color),
        ));
    }
    let mut phases: Vec<Option<f32>> = Vec::new();
    for n in graph.nodes() {
        let i = n.id.index();
        if phases.len() <= i {
            phases.resize(i + 1, None);
        }
        phases[i] = n.phase;
    }
    let leaders: Vec<NodeId> = shape
        .cards
        .iter()
        .filter_map(|c| graph.sync_leader(c.node))
        .collect();
    for card in &shape.cards {
        if !clip.intersects(card.rect) {
            continue;
        }
        let w = graph.node_weight(card.node).clamp(0.0, 1.0);
        let r = card.rect;
        painter.rect_filled(r, 6.0, if w > 0.0 { FILL } else { FILL_IDLE });
        let border = if selected == Some(card.node) {
            Stroke::new(2.5, SELECTED)
        } else if w > 0.0 {
            Stroke::new(1.5, ACTIVE.gamma_multiply(0.4 + 0.6 * w))
        } else {
            Stroke::new(1.0, WIRE.gamma_multiply(0.4))
        };
        painter.rect_stroke(r, 6.0, border, StrokeKind::Inside);
        let id = ui.scope_id().with(("card", card.node.index()));
        let resp = ui.interact(r, id, Sense::click());
        let label = format!("{} — {}", card.title, card.detail);
        resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        if resp.clicked() {
            clicked = Some(card.node);
        }
        if !detail {
            bar(&painter, r, w, None);
            continue;
        }
        let text = ui.visuals().text_color();
        painter.text(
            r.min + Vec2::new(8.0, 6.0),
            Align2::LEFT_TOP,
            clipped(&card.title, 17),
            FontId::proportional(13.0),
            text,
        );
        painter.text(
            r.min + Vec2::new(8.0, 22.0),
            Align2::LEFT_TOP,
            clipped(&card.detail, 22),
            FontId::proportional(10.5),
            ui.visuals().weak_text_color(),
        );
        if leaders.contains(&card.node) {
            painter.text(
                pos2(r.max.x - 6.0, r.min.y + 6.0),
                Align2::RIGHT_TOP,
                "leads",
                FontId::proportional(10.0),
                RUNNING,
            );
        }
        bar(
            &painter,
            r,
            w,
            phases.get(card.node.index()).copied().flatten(),
        );
        resp.on_hover_text(format!(
            "{}\n{}\nweight {w:.3}{}",
            card.title,
            card.detail,
            card.at
                .as_ref()
                .map_or(String::new(), |at| format!("\n{}:{}", at.file, at.line))
        ));
    }
    let infos: Vec<StateMachineInfo<'_>> = graph.state_machines().collect();
    for d in &shape.diagrams {
        let Some(info) = infos.iter().find(|i| i.node == d.node) else {
            continue;
        };
        if let Some(pick) = diagram(ui, &painter, d, graph, info, selected) {
            clicked = Some(pick);
        }
    }
    clicked
}

/// The weight bar along a card's bottom, and the clip phase as a tick on it.
fn bar(painter: &egui::Painter, r: Rect, w: f32, phase: Option<f32>) {
    let track = Rect::from_min_max(
        pos2(r.min.x + 8.0, r.max.y - 14.0),
        pos2(r.max.x - 8.0, r.max.y - 8.0),
    );
    painter.rect_filled(track, 2.0, Color32::from_gray(60));
    let mut fill = track;
    fill.max.x = track.min.x + track.width() * w;
    painter.rect_filled(fill, 2.0, ACTIVE);
    if let Some(p) = phase {
        let x = track.min.x + track.width() * p.clamp(0.0, 1.0);
        painter.line_segment(
            [pos2(x, track.min.y - 3.0), pos2(x, track.max.y + 3.0)],
            Stroke::new(1.5, Color32::WHITE),
        );
    }
}

/// One state diagram; the state node clicked.
fn diagram(
    ui: &mut egui::Ui,
    painter: &egui::Painter,
    d: &Diagram,
    graph: &Graph,
    info: &StateMachineInfo<'_>,
    selected: Option<NodeId>,
) -> Option<NodeId> {
    let sm = graph.state_machine(d.node)?;
    let mut clicked = None;
    painter.text(
        d.title_at,
        Align2::LEFT_TOP,
        format!(
            "{} — in {} for {:.2} s",
            d.title, info.current, info.state_time
        ),
        FontId::proportional(14.0),
        ui.visuals().strong_text_color(),
    );
    let running = running_transition(sm, info);
    for a in &d.arrows {
        let Some(tr) = sm.transitions().get(a.index) else {
            continue;
        };
        let is_running = running.is_some_and(|r| std::ptr::eq(r, tr));
        let progress = info
            .transition
            .as_ref()
            .filter(|_| is_running)
            .map(|t| t.progress);
        let mid = arrow(painter, d, a, if is_running { RUNNING } else { WIRE });
        let mut label = conditions_text(graph, tr);
        if let Some(p) = progress {
            label = format!("{label}  {:.0}%", p * 100.0);
        }
        let font = FontId::proportional(10.5);
        let galley = painter.layout_no_wrap(label, font, ui.visuals().text_color());
        let rect = Rect::from_center_size(mid, galley.size() + Vec2::splat(4.0));
        painter.rect_filled(rect, 3.0, Color32::from_black_alpha(200));
        painter.galley(
            rect.min + Vec2::splat(2.0),
            galley,
            ui.visuals().text_color(),
        );
        let id = ui.scope_id().with(("arrow", d.node.index(), a.index));
        let resp = ui.interact(rect, id, Sense::hover());
        let to = &sm.states()[tr.to.index()].name;
        let from = d.states.get(a.from).map_or("?", |s| s.name.as_str());
        let label = format!("transition {from} to {to}");
        resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
        resp.on_hover_ui(|ui| {
            ui.strong(format!("to {to} (blend {:.2} s)", tr.duration));
            if is_running {
                ui.label("running now");
            } else if !leaves(sm, tr, info.current) {
                ui.weak(format!(
                    "does not leave {}, the current state",
                    info.current
                ));
            } else {
                for (ok, text) in why_not(graph, sm, tr, running, info.current) {
                    let color = if ok {
                        ACTIVE
                    } else {
                        Color32::from_rgb(230, 120, 100)
                    };
                    ui.colored_label(color, format!("{} {text}", if ok { "ok" } else { "no" }));
                }
            }
        });
    }
    for s in &d.states {
        let r = s.rect;
        let w = s.node.map_or(0.0, |n| graph.node_weight(n).clamp(0.0, 1.0));
        let current = s.node.is_some() && s.name == info.current;
        painter.rect_filled(r, 8.0, if w > 0.0 { FILL } else { FILL_IDLE });
        let border = match (s.node.is_some() && s.node == selected, current) {
            (true, _) => Stroke::new(2.5, SELECTED),
            (false, true) => Stroke::new(2.5, ACTIVE),
            _ => Stroke::new(1.0, WIRE.gamma_multiply(0.6)),
        };
        painter.rect_stroke(r, 8.0, border, StrokeKind::Inside);
        painter.text(
            r.center() - Vec2::new(0.0, 5.0),
            Align2::CENTER_CENTER,
            clipped(&s.name, 18),
            FontId::proportional(13.0),
            ui.visuals().text_color(),
        );
        if s.node.is_some() {
            let track = Rect::from_min_max(
                pos2(r.min.x + 10.0, r.max.y - 9.0),
                pos2(r.max.x - 10.0, r.max.y - 5.0),
            );
            painter.rect_filled(track, 2.0, Color32::from_gray(60));
            let mut fill = track;
            fill.max.x = track.min.x + track.width() * w;
            painter.rect_filled(fill, 2.0, ACTIVE);
        }
        if let Some(node) = s.node {
            let id = ui.scope_id().with(("state", d.node.index(), node.index()));
            let resp = ui.interact(r, id, Sense::click());
            let label = format!("state {}", s.name);
            resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            if resp.clicked() {
                clicked = Some(node);
            }
        }
    }
    clicked
}

/// An arrow for transition `a`, curved to its right so that a pair going both ways shows as
/// two; returns the middle of its curve (where its label goes).
fn arrow(painter: &egui::Painter, d: &Diagram, a: &Arrow, color: Color32) -> Pos2 {
    let (Some(from), Some(to)) = (d.states.get(a.from), d.states.get(a.to)) else {
        return Pos2::ZERO;
    };
    let (c0, c1) = (from.rect.center(), to.rect.center());
    let dir = (c1 - c0).normalized();
    let normal = Vec2::new(-dir.y, dir.x);
    let bend = (0.15 * (c1 - c0).length()).clamp(10.0, 28.0);
    let control = pos2((c0.x + c1.x) * 0.5, (c0.y + c1.y) * 0.5) + normal * bend;
    let p0 = border(from.rect, c0, control);
    let p1 = border(to.rect, c1, control);
    let stroke = Stroke::new(1.6, color);
    painter.add(QuadraticBezierShape::from_points_stroke(
        [p0, control, p1],
        false,
        Color32::TRANSPARENT,
        stroke,
    ));
    // the head, along the curve's last tangent
    let tip = (p1 - control).normalized();
    let side = Vec2::new(-tip.y, tip.x) * 4.5;
    painter.add(egui::Shape::convex_polygon(
        vec![p1, p1 - tip * 10.0 + side, p1 - tip * 10.0 - side],
        color,
        Stroke::NONE,
    ));
    pos2(
        0.25 * p0.x + 0.5 * control.x + 0.25 * p1.x,
        0.25 * p0.y + 0.5 * control.y + 0.25 * p1.y,
    )
}

/// Where the line from `center` (inside `rect`) towards `toward` leaves `rect`.
fn border(rect: Rect, center: Pos2, toward: Pos2) -> Pos2 {
    let d = toward - center;
    let half = rect.size() * 0.5;
    let tx = if d.x.abs() > 1e-6 {
        half.x / d.x.abs()
    } else {
        f32::INFINITY
    };
    let ty = if d.y.abs() > 1e-6 {
        half.y / d.y.abs()
    } else {
        f32::INFINITY
    };
    let t = tx.min(ty).min(1.0);
    center + d * t
}

/// `text` cut to `n` characters with an ellipsis.
fn clipped(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        text.to_string()
    } else {
        let cut: String = text.chars().take(n.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}
