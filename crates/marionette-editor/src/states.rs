//! The state panel: for each state machine, its current state and the state it fades from,
//! each state's weight and phase, and for every transition leaving the current state why it
//! has not fired: each condition with its value, exit time not reached, or blocked by a
//! running transition that cannot be interrupted.

use egui::{Color32, ProgressBar, RichText};

use super::session::Session;
use marionette_anim::graph::{Condition, Graph, ParamValue, StateMachine, Transition};

// `sm.states()[id.index()]` below is in range: a graph exists only once its validation
// (`check_state_machine`) found every transition's states in its machine.

/// Draws the panel.
pub fn ui(ui: &mut egui::Ui, session: &Session) {
    ui.heading("State machines");
    let Some(scripted) = session.running() else {
        ui.weak("The script has not loaded yet.");
        return;
    };
    let graph = scripted.graph();
    let infos: Vec<_> = graph.state_machines().collect();
    if infos.is_empty() {
        ui.weak("The graph has no state machine.");
        return;
    }
    for info in infos {
        let Some(sm) = graph.state_machine(info.node) else {
            continue;
        };
        let title = info.name.map_or_else(
            || format!("state machine #{}", info.node.index()),
            str::to_string,
        );
        egui::CollapsingHeader::new(RichText::new(title).strong())
            .id_salt(("sm", info.node.index()))
            .default_open(true)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label("current");
                    ui.label(
                        RichText::new(info.current)
                            .strong()
                            .color(Color32::LIGHT_GREEN),
                    );
                    ui.weak(format!("{:.2} s", info.state_time));
                });
                if let Some(t) = &info.transition {
                    ui.horizontal(|ui| {
                        ui.label(if t.inertial {
                            format!("settling from {} (inertial)", t.from)
                        } else {
                            format!("fading from {}", t.from)
                        });
                        ui.add(
                            ProgressBar::new(t.progress)
                                .desired_width(90.0)
                                .text(format!("{:.0}%  w {:.2}", t.progress * 100.0, t.weight)),
                        );
                    });
                }
                states(ui, graph, sm, info.current);
                ui.label(RichText::new("Transitions from here").italics());
                let running = info.transition.as_ref().and_then(|t| {
                    sm.transitions().iter().find(|tr| {
                        tr.from
                            .is_none_or(|f| sm.states()[f.index()].name == t.from)
                            && sm.states()[tr.to.index()].name == info.current
                    })
                });
                let mut any = false;
                for tr in sm.transitions() {
                    let from_here = match tr.from {
                        Some(f) => sm.states()[f.index()].name == info.current,
                        None => sm.states()[tr.to.index()].name != info.current,
                    };
                    if from_here {
                        any = true;
                        transition(ui, graph, sm, tr, running, info.current);
                    }
                }
                if !any {
                    ui.weak("none leave this state");
                }
            });
    }
}

/// Each state's weight and phase.
fn states(ui: &mut egui::Ui, graph: &Graph, sm: &StateMachine, current: &str) {
    egui::Grid::new(("states", sm.states().len(), current))
        .num_columns(2)
        .show(ui, |ui| {
            for st in sm.states() {
                let w = graph.node_weight(st.node);
                let phase = graph
                    .nodes()
                    .find(|n| n.id == st.node)
                    .and_then(|n| n.phase);
                let name = if st.name == current {
                    RichText::new(&st.name).strong()
                } else {
                    RichText::new(&st.name)
                };
                ui.label(name);
                let text = match phase {
                    Some(p) => format!("w {w:.2} · phase {p:.2}"),
                    None => format!("w {w:.2}"),
                };
                ui.add(ProgressBar::new(w).desired_width(140.0).text(text));
                ui.end_row();
            }
        });
}

/// One transition leaving the current state and why it has not fired.
fn transition(
    ui: &mut egui::Ui,
    graph: &Graph,
    sm: &StateMachine,
    tr: &Transition,
    running: Option<&Transition>,
    current: &str,
) {
    let to = &sm.states()[tr.to.index()].name;
    ui.label(format!("to {to}  (blend {:.2} s)", tr.duration));
    let params = graph.params();
    let phase = sm
        .find(current)
        .and_then(|s| graph.nodes().find(|n| n.id == sm.states()[s.index()].node))
        .and_then(|n| n.phase);
    let mut reasons: Vec<(bool, String)> = Vec::new();
    if let Some(r) = running.filter(|r| !r.interruptible) {
        let from = r
            .from
            .map_or("any", |f| sm.states()[f.index()].name.as_str());
        reasons.push((
            false,
            format!("blocked: the running transition from {from} is not interruptible"),
        ));
    }
    for c in &tr.conditions {
        reasons.push(match c {
            Condition::Trigger(p) => {
                let name = &params.def(*p).name;
                let set = params.is_set(*p);
                (
                    set,
                    format!(
                        "trigger {name}: {}",
                        if set { "pending" } else { "not fired" }
                    ),
                )
            }
            Condition::Compare(p, op, v) => {
                let name = &params.def(*p).name;
                let x = match params.get(*p) {
                    ParamValue::Float(x) => x,
                    other => other.as_f32(),
                };
                let ok = op.test(x, *v);
                (
                    ok,
                    format!(
                        "{name} = {x:.3} {op:?} {v}: {}",
                        if ok { "true" } else { "false" }
                    ),
                )
            }
            Condition::Flag(p, want) => {
                let name = &params.def(*p).name;
                let now = params.get(*p).as_f32() != 0.0;
                let ok = now == *want;
                (ok, format!("{name} is {now}, needs {want}"))
            }
            Condition::Predicate(_) => (false, "Lua predicate: false at the last step".into()),
            Condition::AtEnd => (
                false,
                match phase {
                    Some(p) => format!("waits for the clip end (phase {p:.2})"),
                    None => "waits for the clip end".into(),
                },
            ),
            Condition::ExitTime(e) => {
                let ok = phase.is_some_and(|p| p >= *e);
                (
                    ok,
                    match phase {
                        Some(p) => format!("exit time {e:.2} not reached (phase {p:.2})"),
                        None => format!("exit time {e:.2} not reached"),
                    },
                )
            }
        });
    }
    for (ok, text) in reasons {
        let (mark, color) = if ok {
            ("ok", Color32::from_rgb(120, 200, 120))
        } else {
            ("no", Color32::from_rgb(230, 120, 100))
        };
        ui.horizontal(|ui| {
            ui.add_space(12.0);
            ui.colored_label(color, mark);
            ui.label(text);
        });
    }
}
