//! Key and trigger drags: the take is rebuilt from its state at the press each frame (so a key
//! dragged across another does not erase it), reported once as an edit, ended on release; and
//! the frame's end: Delete removes the selected key, a vanished selection is dropped; and the
//! one-frame edits ([`edit`], [`delete`]) that `edit` and the drags share.

use egui::{Key, Modifiers, Pos2};
use glam::Vec3;

use marionette_anim::graph::{ParamValue, Take};

use super::keys::{self, KeyError};
use super::{KeyRef, LaneCtx, TimelineResponse, TimelineState};

/// A key or trigger drag in progress.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Gesture {
    /// What is dragged (its index in `before`).
    pub(super) target: KeyRef,
    /// The other selected keys, which move with it in time.
    pub(super) others: Vec<KeyRef>,
    /// The take when the drag started.
    pub(super) before: Take,
    /// Pointer position at the press.
    pub(super) origin: Pos2,
    /// The key's time at the press.
    pub(super) time: f32,
    /// The key's value at the press.
    pub(super) value: ParamValue,
    /// Vector component dragged (0..3).
    pub(super) component: usize,
    /// Value range of the lane.
    pub(super) range: (f32, f32),
    /// Plot y range (top, bottom) of the lane.
    pub(super) plot: (f32, f32),
    /// The take has been changed (and `edit_begun` reported).
    pub(super) begun: bool,
}

/// The dragged key's value for a pointer at `pos`.
fn dragged_value(g: &Gesture, pos: Pos2) -> ParamValue {
    let (top, bottom) = g.plot;
    let per_point = (g.range.1 - g.range.0) / (bottom - top).max(1.0);
    let dv = -(pos.y - g.origin.y) * per_point;
    match g.value {
        ParamValue::Float(v) => ParamValue::Float((v + dv).clamp(g.range.0, g.range.1)),
        ParamValue::Bool(_) => ParamValue::Bool(pos.y < (top + bottom) * 0.5),
        ParamValue::Vec3(v) => {
            let mut a = v.to_array();
            a[g.component] += dv;
            ParamValue::Vec3(Vec3::from_array(a))
        }
        other => other,
    }
}

/// After the lanes: moves the dragged key, ends the drag on release, deletes the selected key
/// on Delete, and drops a selection that no longer exists.
pub(crate) fn end_frame(
    ui: &egui::Ui,
    state: &mut TimelineState,
    ctx: &LaneCtx,
    take: Option<&mut Take>,
    response: &mut TimelineResponse,
) {
    let Some(take) = take else {
        state.gesture = None;
        return;
    };
    if let Some(mut g) = state.gesture.take() {
        let (pos, down) = ui.input(|i| (i.pointer.latest_pos(), i.pointer.primary_down()));
        if let Some(pos) = pos {
            let dt = (pos.x - g.origin.x) / ctx.axis.px_per_sec();
            let t = (g.time + dt).clamp(0.0, ctx.duration);
            let prev = take.clone();
            *take = g.before.clone();
            let moved = if g.others.is_empty() {
                match &g.target {
                    KeyRef::Key { param, index } => {
                        keys::move_key(take, param, *index, t, dragged_value(&g, pos)).map(|i| {
                            vec![KeyRef::Key {
                                param: param.clone(),
                                index: i,
                            }]
                        })
                    }
                    KeyRef::Trigger { index } => keys::move_trigger(take, *index, t)
                        .map(|i| vec![KeyRef::Trigger { index: i }]),
                }
            } else {
                // several selected: all move in time together, values kept
                let mut all = vec![g.target.clone()];
                all.extend(g.others.iter().cloned());
                super::select::shift_all(take, &all, t - g.time, ctx.duration)
            };
            match moved {
                Ok(mut keys) if !keys.is_empty() => {
                    state.selected = Some(keys.remove(0));
                    state.also = keys;
                }
                _ => *take = prev.clone(),
            }
            if *take != prev {
                response.changed = true;
            }
            if !g.begun && *take != g.before {
                response.edit_begun = Some(g.before.clone());
                g.begun = true;
            }
        }
        if down {
            state.gesture = Some(g);
        } else if g.begun {
            response.edit_finished = true;
        }
    }
    let delete_pressed = state.selected.is_some()
        && state.gesture.is_none()
        && ui.memory(|m| m.focused().is_none())
        && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Delete));
    if delete_pressed {
        let chosen = state.selection();
        if edit(take, response, |t| super::select::delete_all(t, &chosen)).is_some() {
            state.deselect();
        }
    }
    let exists = |k: &KeyRef| match k {
        KeyRef::Key { param, index } => {
            keys::track(take, param).is_some_and(|t| *index < t.keys.len())
        }
        KeyRef::Trigger { index } => *index < take.triggers.len(),
    };
    if state.selected.as_ref().is_some_and(|k| !exists(k)) {
        state.selected = None;
    }
    state.also.retain(|k| exists(k));
    if state.selected.is_none() && !state.also.is_empty() {
        state.selected = Some(state.also.remove(0));
    }
}

/// Applies a one-frame edit; reports it as a whole gesture when it changed the take.
pub(super) fn edit<T>(
    take: &mut Take,
    response: &mut TimelineResponse,
    op: impl FnOnce(&mut Take) -> Result<T, KeyError>,
) -> Option<T> {
    let before = take.clone();
    match op(take) {
        Ok(v) => {
            if *take != before {
                response.edit_begun.get_or_insert(before);
                response.edit_finished = true;
                response.changed = true;
            }
            Some(v)
        }
        Err(_) => {
            *take = before;
            None
        }
    }
}
