//! The parameters panel: one widget per script parameter (slider with its range for floats,
//! checkbox for bools, button for triggers, x/y/z fields for vectors). Live mode: they drive
//! the graph. Take mode: they show the take's values at the playhead; with Record on, moving
//! one writes a key at the playhead. Below, the key list of the chosen parameter: add a key at
//! the playhead, move (edit its time) or delete keys (at most `KEY_ROWS` at once, around the
//! playhead); every edit is undoable.

use egui::{DragValue, RichText, Slider};
use glam::Vec3;

use super::action::{Action, TakeEdit};
use super::session::Session;
use super::timeline::keys;
use marionette_anim::graph::{ParamDef, ParamValue};

/// What the panel reads.
pub struct View<'a> {
    /// The script, its parameters and the take.
    pub session: &'a Session,
    /// Record is on.
    pub recording: bool,
    /// The parameter whose keys the key list shows.
    pub key_param: Option<&'a str>,
}

/// Draws the parameters (the key list is [`key_list`], drawn below them in take mode).
pub fn ui(ui: &mut egui::Ui, view: &View<'_>) -> Vec<Action> {
    ui.heading("Parameters");
    let mut out = Vec::new();
    let take_mode = view.session.take_index().is_some();
    let (defs, values): (Vec<ParamDef>, Vec<ParamValue>) = match view.session.running() {
        Some(g) => {
            let p = g.graph().params();
            (p.defs().to_vec(), p.values().to_vec())
        }
        None => {
            ui.weak("The script has not loaded yet.");
            return out;
        }
    };
    // one hint line in either mode, so the controls stay where they are when the mode changes
    let hint = match (take_mode, view.recording) {
        (true, true) => "Recording: moving a parameter keys it at the playhead.",
        (true, false) => "Showing the take's keys. Turn on Record to key changes.",
        (false, true) => "Recording a new take: what you do now is kept.",
        (false, false) => "Live: the parameters drive the graph. Record makes a take.",
    };
    // (one row, whatever its width: the whole text on hover)
    ui.add(egui::Label::new(RichText::new(hint).weak()).truncate());
    let mut changes = Vec::new();
    egui::Grid::new("params").num_columns(2).show(ui, |ui| {
        for (def, value) in defs.iter().zip(values) {
            let name = &def.name;
            // a long name is cut (whole on hover) so the panel keeps its width
            let short = short_name(name);
            let label = ui.selectable_label(view.key_param == Some(name.as_str()), &short);
            let label = if short != *name {
                label.on_hover_text(name)
            } else {
                label
            };
            if label.clicked() {
                out.push(Action::ShowKeys(name.clone()));
            }
            match value {
                ParamValue::Float(mut v) => {
                    // (no text beside it: the name is on its left; named for screen readers)
                    let r = ui.add(Slider::new(&mut v, def.min..=def.max));
                    r.widget_info(|| egui::WidgetInfo::slider(true, f64::from(v), name.as_str()));
                    if r.changed() {
                        changes.push(Action::SetParam(name.clone(), ParamValue::Float(v)));
                    }
                }
                ParamValue::Bool(mut b) => {
                    let r = ui.checkbox(&mut b, "");
                    r.widget_info(|| {
                        egui::WidgetInfo::selected(egui::Role::CheckBox, true, b, name.as_str())
                    });
                    if r.changed() {
                        changes.push(Action::SetParam(name.clone(), ParamValue::Bool(b)));
                    }
                }
                ParamValue::Trigger(pending) => {
                    let text = if pending {
                        format!("{name} (pending)")
                    } else {
                        name.clone()
                    };
                    if ui.button(text).on_hover_text("fire the trigger").clicked() {
                        changes.push(Action::Fire(name.clone()));
                    }
                }
                ParamValue::Vec3(v) => {
                    let mut a = v.to_array();
                    let mut changed = false;
                    ui.horizontal(|ui| {
                        for (c, axis) in a.iter_mut().zip(["x", "y", "z"]) {
                            let r = ui
                                .add(DragValue::new(c).speed(0.01).prefix(format!("{axis} ")))
                                .labelled_by(label.id);
                            changed |= r.changed();
                        }
                    });
                    if changed {
                        let v = Vec3::from_array(a);
                        changes.push(Action::SetParam(name.clone(), ParamValue::Vec3(v)));
                    }
                }
            }
            ui.end_row();
        }
    });
    out.extend(changes);
    out
}

/// Longest parameter name shown whole in the panel, characters.
const NAME_CHARS: usize = 18;

/// `name`, cut to [`NAME_CHARS`] with an ellipsis when longer.
fn short_name(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        return name.to_string();
    }
    let cut: String = name.chars().take(NAME_CHARS - 1).collect();
    format!("{cut}…")
}

/// The most keys the key list shows at once.
const KEY_ROWS: usize = 100;

/// The chosen parameter's keys in the current take: add one at the playhead, move or delete
/// them.
pub fn key_list(ui: &mut egui::Ui, view: &View<'_>) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(param) = view.key_param.map(str::to_string) else {
        ui.weak("Click a parameter name to edit its keys.");
        return out;
    };
    let Some(take) = view.session.take() else {
        return out;
    };
    ui.label(RichText::new(format!("Keys of '{param}' in '{}'", take.name)).strong());
    let current = view.session.running().and_then(|g| {
        let params = g.graph().params();
        params
            .defs()
            .iter()
            .zip(params.values())
            .find(|(d, _)| d.name == param)
            .map(|(_, v)| *v)
    });
    let t = view.session.time() as f32;
    if let Some(value) = current.filter(|v| !matches!(v, ParamValue::Trigger(_))) {
        if ui.button("Add key at playhead").clicked() {
            out.push(Action::EditTakes(TakeEdit::AddKey {
                param: param.clone(),
                time: t,
                value,
            }));
        }
    }
    let list = keys::track(take, &param).map_or_else(Vec::new, |t| t.keys.clone());
    // a long list shows the keys around the playhead (the timeline shows them all)
    let start = list
        .partition_point(|k| k.0 < t)
        .saturating_sub(KEY_ROWS / 2)
        .min(list.len().saturating_sub(KEY_ROWS));
    let end = (start + KEY_ROWS).min(list.len());
    if list.len() > KEY_ROWS {
        ui.weak(format!(
            "keys {}-{end} of {}, around the playhead",
            start + 1,
            list.len()
        ));
    }
    let mut action = None;
    egui::Grid::new("keys")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for (i, (time, value)) in list.iter().enumerate().take(end).skip(start) {
                let mut tt = *time;
                let id = ui.label(format!("key {i}")).id;
                let r = ui.add(
                    DragValue::new(&mut tt)
                        .range(0.0..=take.duration)
                        .speed(0.01)
                        .suffix(" s"),
                );
                let r = r.labelled_by(id);
                if r.changed() {
                    action = Some((i, Some((tt, *value))));
                }
                ui.horizontal(|ui| {
                    ui.monospace(value_text(value));
                    if ui
                        .small_button("Delete")
                        .on_hover_text("delete this key")
                        .clicked()
                    {
                        action = Some((i, None));
                    }
                });
                ui.end_row();
            }
        });
    if list.is_empty() {
        ui.weak("No keys: the parameter holds its default.");
    }
    if let Some((index, to)) = action {
        out.push(Action::EditTakes(match to {
            Some((time, value)) => TakeEdit::MoveKey {
                param,
                index,
                time,
                value,
            },
            None => TakeEdit::DeleteKey { param, index },
        }));
    }
    out
}

/// A key value as text.
fn value_text(v: &ParamValue) -> String {
    match v {
        ParamValue::Float(x) => format!("{x:.3}"),
        ParamValue::Bool(b) | ParamValue::Trigger(b) => b.to_string(),
        ParamValue::Vec3(v) => format!("({:.2}, {:.2}, {:.2})", v.x, v.y, v.z),
    }
}
