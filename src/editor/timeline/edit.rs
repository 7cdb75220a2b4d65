//! Parameter lanes: their curves, bars and markers, and key editing (select, start a drag, add,
//! delete, step/smooth), each edit reported once for undo.

use egui::accesskit::Role;
use egui::{Color32, PointerButton, Pos2, Rect, Sense, Stroke, WidgetInfo};
use glam::Vec3;

use crate::anim::graph::{KeyInterpolation, ParamKind, ParamTrack, ParamValue, Take};

use super::gesture::Gesture;
use super::keys::{self, KeyError};
use super::lanes::LaneCtx;
use super::{paint, KeyRef, ParamLane, TimelineResponse, TimelineState};

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

/// A track with its keys in time order (the order key indices refer to).
fn sorted(track: Option<&ParamTrack>) -> Option<ParamTrack> {
    track.map(|t| {
        let mut t = t.clone();
        t.keys.sort_by(|a, b| a.0.total_cmp(&b.0));
        t
    })
}

/// `(min, max)` a lane plots: the float range, or a vec3's keyed and current components.
fn plot_range(lane: &ParamLane, track: Option<&ParamTrack>) -> (f32, f32) {
    let (lo, hi) = match lane.kind {
        ParamKind::Float => lane.range,
        ParamKind::Vec3 => {
            let mut vals: Vec<Vec3> = track
                .map(|t| {
                    t.keys
                        .iter()
                        .filter_map(|k| match k.1 {
                            ParamValue::Vec3(v) => Some(v),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            if let ParamValue::Vec3(v) = lane.value {
                vals.push(v);
            }
            let lo = vals
                .iter()
                .map(|v| v.min_element())
                .fold(f32::MAX, f32::min);
            let hi = vals
                .iter()
                .map(|v| v.max_element())
                .fold(f32::MIN, f32::max);
            let pad = (hi - lo) * 0.1;
            (lo - pad, hi + pad)
        }
        _ => (0.0, 1.0),
    };
    if lo.is_finite() && hi.is_finite() && hi - lo > 1e-4 {
        (lo, hi)
    } else if lo.is_finite() {
        (lo - 1.0, lo + 1.0)
    } else {
        (-1.0, 1.0)
    }
}

/// The numbers a value is drawn at: one for floats and bools, three for vectors.
fn components(v: &ParamValue) -> Vec<f32> {
    match *v {
        ParamValue::Float(f) => vec![f],
        ParamValue::Bool(b) | ParamValue::Trigger(b) => vec![b as u8 as f32],
        ParamValue::Vec3(v) => v.to_array().to_vec(),
    }
}

/// Draws one parameter lane and handles its keys.
pub(crate) fn param_lane(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    ctx: &LaneCtx,
    take: Option<&mut Take>,
    lane: &ParamLane,
    rect: Rect,
    response: &mut TimelineResponse,
) {
    let clip = rect.intersect(ctx.lanes_rect);
    let id = ui.make_persistent_id(("timeline lane", &lane.name));
    let editable = take.is_some();
    let sense = if editable {
        Sense::click_and_drag()
    } else {
        Sense::hover()
    };
    let lane_resp = ui.interact(clip, id, sense);
    let label = format!("Lane {}", lane.name);
    lane_resp.widget_info(|| WidgetInfo::labeled(Role::Group, true, &label));

    let track = take
        .as_deref()
        .and_then(|t| sorted(keys::track(t, &lane.name)));
    let plot = rect.shrink2(egui::vec2(0.0, 5.0));
    let range = plot_range(lane, track.as_ref());
    let y_of = |v: f32| plot.bottom() - (v - range.0) / (range.1 - range.0) * plot.height();
    let painter = ui.painter_at(clip);
    let text = ui.visuals().text_color();
    let accent = paint::ACCENT;

    // the curve, bars or markers
    let has_keys = track.as_ref().is_some_and(|t| !t.keys.is_empty());
    let step = track
        .as_ref()
        .is_some_and(|t| t.interpolation == KeyInterpolation::Step);
    match lane.kind {
        ParamKind::Float | ParamKind::Vec3 => {
            let n = components(&lane.value).len();
            for c in 0..n {
                let color = if n == 3 { paint::XYZ[c] } else { accent };
                let pts: Vec<(f32, f32)> = match &track {
                    Some(t) if has_keys => {
                        t.keys.iter().map(|k| (k.0, components(&k.1)[c])).collect()
                    }
                    _ => vec![(0.0, components(&lane.value)[c])],
                };
                let faint = if has_keys { 1.0 } else { 0.4 };
                let line = paint::curve_points(&pts, step, &ctx.axis, rect, y_of);
                painter.line(line, Stroke::new(1.5, color.gamma_multiply(faint)));
            }
        }
        ParamKind::Bool => {
            let keys: Vec<(f32, bool)> = track
                .as_ref()
                .map(|t| t.keys.iter().map(|k| (k.0, k.1.as_f32() > 0.5)).collect())
                .unwrap_or_default();
            let on = lane.value.as_f32() > 0.5;
            let color = accent.gamma_multiply(if has_keys { 1.0 } else { 0.5 });
            paint::bool_bars(&painter, &keys, on, &ctx.axis, rect, color);
        }
        ParamKind::Trigger => {
            if !editable && lane.value.as_f32() > 0.5 {
                paint::trigger_marker(&painter, ctx.axis.x(ctx.playhead), rect, accent, false);
            }
        }
    }
    // the current value at the playhead
    if lane.kind != ParamKind::Trigger {
        let x = ctx.axis.x(ctx.playhead);
        for (c, v) in components(&lane.value).iter().enumerate() {
            let color = if lane.kind == ParamKind::Vec3 {
                paint::XYZ[c]
            } else {
                text
            };
            painter.circle_filled(egui::pos2(x, y_of(*v)), 2.5, color);
        }
    }

    let Some(take) = take else {
        return;
    };
    let alt = ui.input(|i| i.modifiers.alt);
    let mut targets: Vec<(KeyRef, String, Pos2, f32, ParamValue, usize)> = Vec::new();
    if lane.kind == ParamKind::Trigger {
        let mut order: Vec<usize> = (0..take.triggers.len()).collect();
        order.sort_by(|&a, &b| take.triggers[a].time.total_cmp(&take.triggers[b].time));
        let mut k = 0;
        for (index, &i) in order.iter().enumerate() {
            let tr = &take.triggers[i];
            if tr.param != lane.name {
                continue;
            }
            let pos = egui::pos2(ctx.axis.x(tr.time), rect.top() + 7.0);
            let key = KeyRef::Trigger { index };
            let selected = state.selected.as_ref() == Some(&key);
            paint::trigger_marker(&painter, pos.x, rect, accent, selected);
            let name = format!("Trigger {} {k}", lane.name);
            targets.push((key, name, pos, tr.time, ParamValue::Trigger(true), 0));
            k += 1;
        }
    } else if let Some(track) = &track {
        for (index, (t, v)) in track.keys.iter().enumerate() {
            let comps = components(v);
            for (c, cv) in comps.iter().enumerate() {
                let pos = egui::pos2(ctx.axis.x(*t), y_of(*cv));
                let key = KeyRef::Key {
                    param: lane.name.clone(),
                    index,
                };
                let selected = state.selected.as_ref() == Some(&key);
                let fill = match (comps.len(), selected) {
                    (_, true) => Color32::WHITE,
                    (3, false) => paint::XYZ[c],
                    _ => accent,
                };
                let stroke = Stroke::new(1.0, if selected { accent } else { Color32::BLACK });
                paint::diamond(
                    &painter,
                    pos,
                    if selected { 6.0 } else { 5.0 },
                    fill,
                    stroke,
                );
                let suffix = if comps.len() == 3 {
                    [" x", " y", " z"][c]
                } else {
                    ""
                };
                let name = format!("Key {} {index}{suffix}", lane.name);
                targets.push((key, name, pos, *t, *v, c));
            }
        }
    }

    // keys: select, drag, context menu
    for (key, name, pos, time, value, component) in targets {
        let hit = Rect::from_center_size(pos, egui::vec2(12.0, 12.0));
        if !clip.contains(pos) {
            continue;
        }
        let kid = id.with(&name);
        let kr = ui.interact(hit, kid, Sense::click_and_drag());
        kr.widget_info(|| WidgetInfo::labeled(Role::Button, true, &name));
        if kr.clicked() || kr.drag_started() || kr.secondary_clicked() {
            state.selected = Some(key.clone());
        }
        if kr.drag_started_by(PointerButton::Primary) && !alt && state.gesture.is_none() {
            let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(pos);
            state.gesture = Some(Gesture {
                target: key.clone(),
                before: take.clone(),
                origin,
                time,
                value,
                component,
                range,
                plot: (plot.top(), plot.bottom()),
                begun: false,
            });
        }
        kr.context_menu(|ui| {
            if ui.button("Delete key").clicked() {
                if edit(take, response, |t| delete(t, &key)).is_some() {
                    state.selected = None;
                }
                ui.close();
            }
        });
    }

    // the lane: double-click adds, click deselects, context menu
    if alt {
        return;
    }
    if lane_resp.double_clicked() {
        if let Some(p) = lane_resp.interact_pointer_pos() {
            let t = keys::snap_time(ctx.axis.t(p.x), take.fps).clamp(0.0, ctx.duration);
            let value = track
                .as_ref()
                .and_then(|tr| keys::value_at(tr, t))
                .unwrap_or(lane.value);
            let added = if lane.kind == ParamKind::Trigger {
                edit(take, response, |tk| add_trigger_ref(tk, &lane.name, t))
            } else {
                edit(take, response, |tk| {
                    keys::add_key(tk, &lane.name, t, value).map(|index| KeyRef::Key {
                        param: lane.name.clone(),
                        index,
                    })
                })
            };
            state.selected = added;
        }
    } else if lane_resp.clicked() {
        state.selected = None;
    }
    lane_resp.context_menu(|ui| {
        if matches!(lane.kind, ParamKind::Float | ParamKind::Vec3) {
            for (label, interp) in [
                ("Smooth", KeyInterpolation::Linear),
                ("Step", KeyInterpolation::Step),
            ] {
                let current = track.as_ref().map(|t| t.interpolation).unwrap_or_default();
                if ui
                    .add(egui::Button::selectable(current == interp, label))
                    .clicked()
                {
                    edit(take, response, |t| {
                        Ok::<_, KeyError>(keys::set_interpolation(t, &lane.name, interp))
                    });
                    ui.close();
                }
            }
        }
        let at = ctx.playhead;
        if ui.button("Key at playhead").clicked() {
            state.selected = if lane.kind == ParamKind::Trigger {
                edit(take, response, |tk| add_trigger_ref(tk, &lane.name, at))
            } else {
                edit(take, response, |tk| {
                    keys::add_key(tk, &lane.name, at, lane.value).map(|index| KeyRef::Key {
                        param: lane.name.clone(),
                        index,
                    })
                })
            };
            ui.close();
        }
    });
}

fn add_trigger_ref(take: &mut Take, param: &str, t: f32) -> Result<KeyRef, KeyError> {
    keys::add_trigger(take, param, t).map(|index| KeyRef::Trigger { index })
}

pub(super) fn delete(take: &mut Take, key: &KeyRef) -> Result<(), KeyError> {
    match key {
        KeyRef::Key { param, index } => keys::delete_key(take, param, *index).map(|_| ()),
        KeyRef::Trigger { index } => keys::delete_trigger(take, *index).map(|_| ()),
    }
}
