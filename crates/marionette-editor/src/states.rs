//! The state panel: for each state machine, its current state and the state it fades from,
//! each state's weight and phase, and for every transition leaving the current state why it
//! has not fired: each condition with its value, exit time not reached, or blocked by a
//! running transition that cannot be interrupted.

use egui::{Color32, ProgressBar, RichText};

use super::session::Session;
use marionette_anim::graph::{
    Condition, Graph, ParamValue, StateMachine, StateMachineInfo, Transition,
};

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
                let running = running_transition(sm, &info);
                let mut any = false;
                for tr in sm.transitions() {
                    if leaves(sm, tr, info.current) {
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

/// The transition running in machine `info` (its definition), if any.
pub(crate) fn running_transition<'a>(
    sm: &'a StateMachine,
    info: &StateMachineInfo<'_>,
) -> Option<&'a Transition> {
    info.transition.as_ref().and_then(|t| {
        sm.transitions().iter().find(|tr| {
            tr.from
                .is_none_or(|f| sm.states()[f.index()].name == t.from)
                && sm.states()[tr.to.index()].name == info.current
        })
    })
}

/// Whether `tr` may leave state `current` (its own, or from any state to another).
pub(crate) fn leaves(sm: &StateMachine, tr: &Transition, current: &str) -> bool {
    match tr.from {
        Some(f) => sm.states()[f.index()].name == current,
        None => sm.states()[tr.to.index()].name != current,
    }
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
    for (ok, text) in why_not(graph, sm, tr, running, current) {
        let (mark, color) = if ok {
            ("ok", Color32::from_rgb(120, 200, 120))
        } else {
            ("no", Color32::from_rgb(230, 120, 100))
        };
        ui.horizontal_wrapped(|ui| {
            ui.add_space(12.0);
            ui.colored_label(color, mark);
            // wraps inside the panel, a long name broken anywhere rather than clipped
            let font = egui::TextStyle::Body.resolve(ui.style());
            let mut job =
                egui::text::LayoutJob::simple(text, font, ui.visuals().text_color(), f32::INFINITY);
            job.wrap.break_anywhere = true;
            ui.add(egui::Label::new(job).wrap());
        });
    }
}

/// Why transition `tr` out of state `current` has not fired: each condition with whether it
/// holds now and what it reads, and a block by a running transition that cannot be interrupted.
pub(crate) fn why_not(
    graph: &Graph,
    sm: &StateMachine,
    tr: &Transition,
    running: Option<&Transition>,
    current: &str,
) -> Vec<(bool, String)> {
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
                        "{name} = {x:.3} {} {v}: {}",
                        op.symbol(),
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
    reasons
}

/// A transition's conditions in a few words (`speed > 1.5 · trigger jump`), for a label on its
/// arrow; `always` when it has none.
pub(crate) fn conditions_text(graph: &Graph, tr: &Transition) -> String {
    let params = graph.params();
    let parts: Vec<String> = tr
        .conditions
        .iter()
        .map(|c| match c {
            Condition::Trigger(p) => format!("trigger {}", params.def(*p).name),
            Condition::Compare(p, op, v) => {
                format!("{} {} {v}", params.def(*p).name, op.symbol())
            }
            Condition::Flag(p, want) => format!("{} = {want}", params.def(*p).name),
            Condition::Predicate(_) => "Lua predicate".to_string(),
            Condition::AtEnd => "at end".to_string(),
            Condition::ExitTime(e) => format!("exit {e:.2}"),
        })
        .collect();
    if parts.is_empty() {
        "always".to_string()
    } else {
        parts.join(" · ")
    }
}
