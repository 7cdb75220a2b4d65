//! The graph view: the script's graph drawn live — the blend tree as cards (inputs left, the
//! output right; a card's bar is the node's weight, its tick the clip phase; wires thicken with
//! the weight they carry; the input leading a synced blend space is marked) and each state
//! machine as a state diagram (the current state lit, the running transition's arrow with its
//! progress, each arrow labelled with its conditions; hovering a label says why it has not
//! fired). Pan by dragging, zoom with Ctrl+scroll (or pinch), Fit frames it all. Clicking a card
//! or a state selects its node: its `file:line` shows above (click to copy), the viewport lights
//! the joints it drives and the timeline its weight lane.
//!
//! The shape is rebuilt when the script reloads (`shape`, placed by `layout`); the live values
//! are read from the graph every frame (`paint`).

mod layout;
mod paint;
mod shape;

use egui::{Rect, RichText};
use marionette_anim::graph::NodeId;

use super::action::Action;
use super::session::Session;

pub use shape::Shape;

/// The view's own state (not saved): the drawing, the part of it shown, and what is selected.
#[derive(Default)]
pub struct GraphView {
    /// The drawing of the loaded script (`None` until it loads).
    shape: Option<Shape>,
    /// The script load the drawing is of ([`Session::generation`]).
    generation: Option<u32>,
    /// The part of the drawing shown (pan and zoom; `None` until first shown).
    scene_rect: Option<Rect>,
    /// Frame the whole drawing next frame.
    fit: bool,
    /// The selection the view last showed (a new one out of view is brought into it).
    shown: Option<NodeId>,
}

impl GraphView {
    /// The drawing shown (for tests and the status line).
    pub fn shape(&self) -> Option<&Shape> {
        self.shape.as_ref()
    }

    /// The part of the drawing in view (`None` before it is first shown).
    pub fn view_rect(&self) -> Option<Rect> {
        self.scene_rect
    }

    /// Rebuilds the drawing when the script has reloaded; then, when a node was selected,
    /// the same node in the new graph (found by where it is made, its kind and name), `None`
    /// when it is gone.
    fn refresh(&mut self, session: &Session, selected: Option<NodeId>) -> Option<Option<NodeId>> {
        let scripted = session.running()?;
        if self.generation == Some(session.generation()) && self.shape.is_some() {
            return None;
        }
        let old = self.shape.take();
        let previous = old.as_ref().map(Shape::rows).unwrap_or_default();
        let shape = shape::build(scripted, &previous);
        // (the first drawing keeps a selection made before it, e.g. by `--select`)
        let remap = match (&old, selected) {
            (Some(old), Some(n)) => Some(old.key_of(n).and_then(|k| shape.node_of(&k))),
            _ => None,
        };
        self.fit |= old.is_none();
        self.shape = Some(shape);
        self.generation = Some(session.generation());
        remap
    }
}

/// Draws the panel; `selected` is the selected node.
pub fn ui(
    ui: &mut egui::Ui,
    view: &mut GraphView,
    session: &Session,
    selected: Option<NodeId>,
) -> Vec<Action> {
    let mut out = Vec::new();
    let mut selected = selected;
    if let Some(now) = view.refresh(session, selected) {
        selected = now;
        out.push(Action::SelectNode(now));
    }
    ui.horizontal(|ui| {
        ui.heading("Graph view");
        if ui
            .button("Fit")
            .on_hover_text("Frame the whole graph (drag to pan, Ctrl+scroll to zoom)")
            .clicked()
        {
            view.fit = true;
        }
    });
    let (Some(scripted), Some(shape)) = (session.running(), view.shape.as_ref()) else {
        ui.weak("The script has not loaded yet.");
        return out;
    };
    let graph = scripted.graph();
    selection_line(ui, shape, graph, selected, &mut out);
    let available = ui.available_size();
    let rect = view.scene_rect.get_or_insert(shape.bounds);
    if view.fit || !rect.is_finite() || rect.area() <= 0.0 {
        let root = shape.card(graph.root_node()).map(|c| c.rect);
        *rect = fit(shape.bounds.expand(20.0), root, available);
        view.fit = false;
    }
    // a node selected elsewhere (--select, a reload) that is out of view: centre on it
    if selected != view.shown {
        view.shown = selected;
        let card = selected.and_then(|n| shape.card(n).map(|c| c.rect));
        let state = selected.and_then(|n| {
            shape
                .diagrams
                .iter()
                .flat_map(|d| &d.states)
                .find(|s| s.node == Some(n))
                .map(|s| s.rect)
        });
        if let Some(r) = card.or(state) {
            if !rect.contains_rect(r) {
                *rect = Rect::from_center_size(r.center(), rect.size());
            }
        }
    }
    let scene = egui::Scene::new().zoom_range(0.05..=2.0).max_inner_size(
        shape.bounds.size().max(egui::vec2(100.0, 100.0)) + egui::vec2(400.0, 400.0),
    );
    egui::Frame::canvas(ui.style()).show(ui, |ui| {
        scene.show(ui, rect, |ui| {
            if let Some(pick) = paint::draw(ui, shape, graph, selected) {
                out.push(Action::SelectNode(Some(pick)));
            }
        });
    });
    out
}

/// Smallest zoom a fit goes to: below it the labels cannot be read, so a large graph is
/// framed at this zoom around its output instead, to be panned (or zoomed out).
const MIN_FIT_ZOOM: f32 = 0.6;

/// The part of `bounds` to show in a view of `size` points: all of it, or when that would be
/// too small to read, the part around `focus` (the output node, at the right, centred).
fn fit(bounds: Rect, focus: Option<Rect>, size: egui::Vec2) -> Rect {
    let zoom = (size.x / bounds.width()).min(size.y / bounds.height());
    if !zoom.is_finite() || zoom >= MIN_FIT_ZOOM {
        return bounds;
    }
    let shown = size / MIN_FIT_ZOOM;
    let focus = focus.unwrap_or(Rect::from_min_size(bounds.right_top(), egui::Vec2::ZERO));
    let right = focus.max.x + 20.0;
    Rect::from_center_size(egui::pos2(right - shown.x * 0.5, focus.center().y), shown)
}

/// The selected node's kind, name and `file:line` (a button that copies it).
fn selection_line(
    ui: &mut egui::Ui,
    shape: &Shape,
    graph: &marionette_anim::graph::Graph,
    selected: Option<NodeId>,
    out: &mut Vec<Action>,
) {
    ui.horizontal_wrapped(|ui| {
        let Some(card) = selected.and_then(|n| shape.card(n)) else {
            ui.weak("Click a node to see where the script makes it.");
            return;
        };
        ui.label(RichText::new(&card.title).strong());
        ui.weak(&card.detail);
        ui.weak(format!("w {:.2}", graph.node_weight(card.node)));
        match &card.at {
            Some(at) => {
                let text = format!("{}:{}", at.file, at.line);
                if ui
                    .link(&text)
                    .on_hover_text("Copy file:line to the clipboard")
                    .clicked()
                {
                    ui.ctx().copy_text(text);
                }
            }
            None => {
                ui.weak("(line unknown)");
            }
        }
        if ui
            .small_button("x")
            .on_hover_text("Clear the selection")
            .clicked()
        {
            out.push(Action::SelectNode(None));
        }
    });
}
