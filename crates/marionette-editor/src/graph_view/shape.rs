//! What the graph view draws and where, built once per script load: a card per node of the
//! blend tree (inputs left, the output right) with the wires between them, and below it a state
//! diagram per state machine (its states as boxes, its transitions as arrows). Placed by
//! [`super::layout::layered`]; rows of a node seen in the previous drawing (same `file:line`,
//! kind and name) order ties, so a reload that changes values moves nothing.

use std::collections::HashMap;

use egui::{pos2, vec2, Pos2, Rect, Vec2};
use marionette_anim::graph::NodeId;
use marionette_script::spec::NodeSpec;
use marionette_script::{Location, ScriptedGraph};

use super::layout::{layered, Layered};

/// A node card's size, and the gaps between columns and rows.
pub const CARD: Vec2 = vec2(128.0, 50.0);
const CARD_GAP: Vec2 = vec2(30.0, 10.0);
/// A state box's size, and the gaps (wide: the arrows carry labels).
pub const STATE: Vec2 = vec2(130.0, 40.0);
const STATE_GAP: Vec2 = vec2(150.0, 34.0);
/// Space between the tree and a diagram, and above a diagram for its title.
const SECTION_GAP: f32 = 60.0;

/// A node of the blend tree.
#[derive(Clone, Debug)]
pub struct Card {
    /// The node.
    pub node: NodeId,
    /// Its name, else its kind.
    pub title: String,
    /// Its kind with the clip it plays or the parameters it reads.
    pub detail: String,
    /// The call that made it.
    pub at: Option<Location>,
    /// Its rectangle in the view.
    pub rect: Rect,
}

/// A state of a diagram (`node: None`: the "any state" box of transitions from any state).
#[derive(Clone, Debug)]
pub struct StateBox {
    /// Its name.
    pub name: String,
    /// The state's node.
    pub node: Option<NodeId>,
    /// Its rectangle in the view.
    pub rect: Rect,
}

/// A transition: from box `from` to box `to`; `index` in the machine's transitions.
#[derive(Clone, Copy, Debug)]
pub struct Arrow {
    /// Box it leaves.
    pub from: usize,
    /// Box it enters.
    pub to: usize,
    /// The transition.
    pub index: usize,
}

/// A state machine drawn as a state diagram.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// The machine node.
    pub node: NodeId,
    /// Its title (name, else `state machine #N`).
    pub title: String,
    /// Where the title goes.
    pub title_at: Pos2,
    /// Its states (then "any state" if a transition leaves any).
    pub states: Vec<StateBox>,
    /// Its transitions.
    pub arrows: Vec<Arrow>,
}

/// The whole drawing.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The blend tree's cards, by node.
    pub cards: Vec<Card>,
    /// Wires (input card, user card).
    pub wires: Vec<(usize, usize)>,
    /// One diagram per state machine.
    pub diagrams: Vec<Diagram>,
    /// Everything drawn.
    pub bounds: Rect,
}

impl Shape {
    /// The card of `node`.
    pub fn card(&self, node: NodeId) -> Option<&Card> {
        self.cards.iter().find(|c| c.node == node)
    }

    /// The key of `node`'s card (see [`Shape::node_of`]).
    pub fn key_of(&self, node: NodeId) -> Option<String> {
        self.card(node).map(key)
    }

    /// The node whose card has `key` (where it is made, its kind and title).
    pub fn node_of(&self, key_: &str) -> Option<NodeId> {
        self.cards.iter().find(|c| key(c) == key_).map(|c| c.node)
    }

    /// Each card's key and row, to order ties in the next drawing.
    pub fn rows(&self) -> HashMap<String, f32> {
        self.cards.iter().map(|c| (key(c), c.rect.min.y)).collect()
    }
}

/// A node's identity across reloads: where it was made, its kind and its title.
fn key(c: &Card) -> String {
    let at =
        c.at.as_ref()
            .map_or(String::new(), |l| format!("{}:{}", l.file, l.line));
    format!("{at}|{}|{}", c.detail, c.title)
}

/// The drawing of `scripted`'s graph, ordering ties by `previous` rows.
pub fn build(scripted: &ScriptedGraph, previous: &HashMap<String, f32>) -> Shape {
    let graph = scripted.graph();
    let infos: Vec<_> = graph.nodes().collect();
    let mut cards: Vec<Card> = infos
        .iter()
        .map(|n| {
            // (a clip player is named after its clip, a state machine "state_machine")
            let title = n.name.map_or_else(|| n.kind.to_string(), str::to_string);
            let detail = match scripted.node_spec(n.id).and_then(reads) {
                Some(r) => format!("{} · {r}", n.kind),
                None => n.kind.to_string(),
            };
            Card {
                node: n.id,
                title,
                detail,
                at: scripted.node_location(n.id).cloned(),
                rect: Rect::NOTHING,
            }
        })
        .collect();
    let index: HashMap<NodeId, usize> =
        cards.iter().enumerate().map(|(i, c)| (c.node, i)).collect();
    let mut wires = Vec::new();
    for (k, c) in cards.iter().enumerate() {
        for input in graph.node_inputs(c.node) {
            if let Some(&i) = index.get(input) {
                wires.push((i, k));
            }
        }
    }
    let rank: Vec<f32> = cards
        .iter()
        .enumerate()
        .map(|(i, c)| previous.get(&key(c)).copied().unwrap_or(1e6 + i as f32))
        .collect();
    let l = layered(cards.len(), &wires, &[], &rank);
    for (i, c) in cards.iter_mut().enumerate() {
        c.rect = cell(&l, i, CARD, CARD_GAP);
    }
    let tree = cards.iter().fold(Rect::NOTHING, |r, c| r.union(c.rect));
    let mut top = if cards.is_empty() {
        0.0
    } else {
        tree.max.y + SECTION_GAP
    };
    let mut bounds = tree;
    let mut diagrams = Vec::new();
    for info in graph.state_machines() {
        let Some(sm) = graph.state_machine(info.node) else {
            continue;
        };
        let mut states: Vec<StateBox> = sm
            .states()
            .iter()
            .map(|s| StateBox {
                name: s.name.clone(),
                node: Some(s.node),
                rect: Rect::NOTHING,
            })
            .collect();
        let any = states.len();
        let mut arrows = Vec::new();
        for (index, tr) in sm.transitions().iter().enumerate() {
            let from = tr.from.map_or(any, |f| f.index());
            arrows.push(Arrow {
                from,
                to: tr.to.index(),
                index,
            });
        }
        if arrows.iter().any(|a| a.from == any) {
            states.push(StateBox {
                name: "any state".into(),
                node: None,
                rect: Rect::NOTHING,
            });
        }
        let edges: Vec<(usize, usize)> = arrows.iter().map(|a| (a.from, a.to)).collect();
        let start = sm.initial_state().index();
        let starts = if any < states.len() {
            vec![any, start]
        } else {
            vec![start]
        };
        let l = layered(states.len(), &edges, &starts, &[]);
        let title = info.name.map_or_else(
            || format!("state machine #{}", info.node.index()),
            str::to_string,
        );
        let origin = vec2(0.0, top + 56.0);
        for (i, s) in states.iter_mut().enumerate() {
            s.rect = cell(&l, i, STATE, STATE_GAP).translate(origin);
        }
        let r = states.iter().fold(Rect::NOTHING, |r, s| r.union(s.rect));
        bounds = bounds
            .union(r)
            .union(Rect::from_min_size(pos2(0.0, top), vec2(1.0, 1.0)));
        diagrams.push(Diagram {
            node: info.node,
            title,
            title_at: pos2(0.0, top),
            states,
            arrows,
        });
        top = r.max.y + SECTION_GAP;
    }
    Shape {
        cards,
        wires,
        diagrams,
        bounds,
    }
}

/// The rectangle of node `i` of layout `l`: its column, its row, the column centred on the
/// tallest (so an output sits level with the middle of its inputs).
fn cell(l: &Layered, i: usize, size: Vec2, gap: Vec2) -> Rect {
    let step = size + gap;
    let (layer, row) = (l.layer[i], l.row[i]);
    let len = l.layer.iter().filter(|&&k| k == layer).count();
    let shift = (l.rows - len) as f32 * 0.5;
    Rect::from_min_size(
        pos2(layer as f32 * step.x, (row as f32 + shift) * step.y),
        size,
    )
}

/// The parameters a node reads (a blend space's axes, a weight given by a parameter).
fn reads(node: &NodeSpec) -> Option<String> {
    use marionette_anim::graph::Value;
    let param = |v: &Value<String>| match v {
        Value::Param(p) => Some(p.clone()),
        _ => None,
    };
    match node {
        NodeSpec::Blend1d(b) => Some(b.param.clone()),
        NodeSpec::Blend2d(b) => Some(format!("{}, {}", b.x, b.y)),
        NodeSpec::Blend(b) => {
            let ps: Vec<String> = b.inputs.iter().filter_map(|i| param(&i.1)).collect();
            (!ps.is_empty()).then(|| ps.join(", "))
        }
        NodeSpec::Additive { weight, .. } => param(weight),
        NodeSpec::Layer { layers, .. } => {
            let ps: Vec<String> = layers.iter().filter_map(|l| param(&l.weight)).collect();
            (!ps.is_empty()).then(|| ps.join(", "))
        }
        _ => None,
    }
}
