//! Parameter lanes: their curves, bars and markers, and key editing (select, start a drag, add,
//! delete, step/smooth), each edit reported once for undo.

use std::borrow::Cow;

use egui::accesskit::Role;
use egui::{Color32, PointerButton, Pos2, Rect, Sense, Stroke, WidgetInfo};
use glam::Vec3;

use marionette_anim::graph::{KeyInterpolation, ParamKind, ParamTrack, ParamValue, Take};

use super::cull::{cull, Culled};
use super::gesture::{edit, Gesture};
use super::keys::{self, KeyError};
use super::{ease, paint, select, KeyRef, LaneCtx, ParamLane, TimelineResponse, TimelineState};

/// A track with its keys in time order (the order key indices refer to); copied only when
/// they are not in order already.
fn sorted(track: Option<&ParamTrack>) -> Option<Cow<'_, ParamTrack>> {
    track.map(|t| {
        if t.keys.is_sorted_by(|a, b| a.0 <= b.0) {
            return Cow::Borrowed(t);
        }
        let mut t = t.clone();
        t.sort();
        Cow::Owned(t)
    })
}

/// Half the width of a key's mark, points: keys this far off the lane still show in part.
const MARK_RADIUS: f32 = 6.0;

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
    let range = plot_range(lane, track.as_deref());
    // only the keys on screen are drawn, keys closer than a point sharing one mark
    let (left, right) = (rect.left() - MARK_RADIUS, rect.right() + MARK_RADIUS);
    let culled = match &track {
        Some(t) => cull(t.keys.len(), |i| ctx.axis.x(t.keys[i].0), left, right, 1.0),
        None => Culled::default(),
    };
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
                    Some(t) if has_keys => culled
                        .curve_keys()
                        .into_iter()
                        // a key of another kind than the lane's (a take that does not
                        // resolve against the script is never selected) is left out
                        .filter_map(|i| {
                            let (time, v) = t.keys.get(i)?;
                            Some((*time, *components(v).get(c)?))
                        })
                        .collect(),
                    _ => vec![(0.0, components(&lane.value)[c])], // (c < n: this value's)
                };
                let faint = if has_keys { 1.0 } else { 0.4 };
                let line = match &track {
                    Some(t) if has_keys && ease::curved(t) => ease::sampled(t, c, ctx, rect, y_of),
                    _ => paint::curve_points(&pts, step, &ctx.axis, rect, y_of),
                };
                painter.line(line, Stroke::new(1.5, color.gamma_multiply(faint)));
            }
        }
        ParamKind::Bool => {
            let keys: Vec<(f32, bool)> = track
                .as_ref()
                .map(|t| {
                    let keys = culled.curve_keys().into_iter().map(|i| &t.keys[i]);
                    keys.map(|k| (k.0, k.1.as_f32() > 0.5)).collect()
                })
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

    let Some(take_now) = take.as_deref() else {
        return;
    };
    let alt = ui.input(|i| i.modifiers.alt);
    let mut targets: Vec<(KeyRef, String, Pos2, f32, ParamValue, usize)> = Vec::new();
    if lane.kind == ParamKind::Trigger {
        // this lane's triggers as (index in the take's time order, time)
        let mut order: Vec<usize> = (0..take_now.triggers.len()).collect();
        order.sort_by(|&a, &b| {
            take_now.triggers[a]
                .time
                .total_cmp(&take_now.triggers[b].time)
        });
        let mine: Vec<(usize, f32)> = order
            .iter()
            .enumerate()
            .filter(|(_, &i)| take_now.triggers[i].param == lane.name)
            .map(|(index, &i)| (index, take_now.triggers[i].time))
            .collect();
        let selected = match &state.selected {
            Some(KeyRef::Trigger { index }) => mine.iter().position(|m| m.0 == *index),
            _ => None,
        };
        let marks = cull(mine.len(), |k| ctx.axis.x(mine[k].1), left, right, 1.0).marks;
        for mark in marks {
            let k = mark.shown(selected);
            let (index, time) = mine[k];
            let pos = egui::pos2(ctx.axis.x(time), rect.top() + 7.0);
            let key = KeyRef::Trigger { index };
            let selected = state.is_selected(&key);
            paint::trigger_marker(&painter, pos.x, rect, accent, selected);
            let name = format!("Trigger {} {k}", lane.name);
            targets.push((key, name, pos, time, ParamValue::Trigger(true), 0));
        }
    } else if let Some(track) = &track {
        let selected = match &state.selected {
            Some(KeyRef::Key { param, index }) if *param == lane.name => Some(*index),
            _ => None,
        };
        for mark in &culled.marks {
            let index = mark.shown(selected);
            let (t, v) = &track.keys[index];
            let comps = components(v);
            for (c, cv) in comps.iter().enumerate() {
                let pos = egui::pos2(ctx.axis.x(*t), y_of(*cv));
                let key = KeyRef::Key {
                    param: lane.name.clone(),
                    index,
                };
                let selected = state.is_selected(&key);
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

    // what the lane's edits below need of the track, read before the take is changed
    let interpolation = track.as_ref().map(|t| t.interpolation).unwrap_or_default();
    let double_click = lane_resp
        .double_clicked()
        .then(|| lane_resp.interact_pointer_pos())
        .flatten()
        .map(|p| {
            let t = keys::snap_time(ctx.axis.t(p.x), take_now.fps).clamp(0.0, ctx.duration);
            let value = track
                .as_deref()
                .and_then(|tr| keys::value_at(tr, t))
                .unwrap_or(lane.value);
            (t, value)
        });
    let Some(take) = take else {
        return;
    };

    // keys: select (Shift adds), drag, context menu; the selected float key's handles
    let shift = ui.input(|i| i.modifiers.shift);
    let mut primary_at: Option<Pos2> = None;
    for (key, name, pos, time, value, component) in targets {
        let hit = Rect::from_center_size(pos, egui::vec2(12.0, 12.0));
        if !clip.contains(pos) {
            continue;
        }
        state.marks.push((key.clone(), pos));
        if state.selected.as_ref() == Some(&key) {
            primary_at = Some(pos);
        }
        let kid = id.with(&name);
        let kr = ui.interact(hit, kid, Sense::click_and_drag());
        kr.widget_info(|| WidgetInfo::labeled(Role::Button, true, &name));
        if kr.clicked() && shift {
            state.toggle(key.clone());
        } else if kr.clicked()
            || ((kr.drag_started() || kr.secondary_clicked()) && !state.is_selected(&key))
        {
            state.select_only(key.clone());
        }
        if kr.drag_started_by(PointerButton::Primary) && !alt && state.gesture.is_none() {
            let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(pos);
            let others = state
                .selection()
                .into_iter()
                .filter(|k| *k != key)
                .collect();
            state.gesture = Some(Gesture {
                target: key.clone(),
                others,
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
            let chosen = state.selection();
            let label = if chosen.len() > 1 {
                format!("Delete {} keys", chosen.len())
            } else {
                "Delete key".to_string()
            };
            if ui.button(label).clicked() {
                if edit(take, response, |t| select::delete_all(t, &chosen)).is_some() {
                    state.deselect();
                }
                ui.close();
            }
            ui.separator();
            if ease::ease_menu(ui, state, take, &key, response) {
                ui.close();
            }
        });
    }
    if let (Some(at), Some(key)) = (primary_at, state.selected.clone()) {
        if state.also.is_empty() && state.gesture.is_none() {
            let plot = ease::Plot {
                rect: plot,
                range,
                at,
            };
            ease::handles(ui, state, ctx, take, &key, &plot, response);
        }
    }

    // the lane: double-click adds, click deselects, Shift+drag boxes keys, context menu
    if alt {
        return;
    }
    if shift && lane_resp.drag_started_by(PointerButton::Primary) {
        state.boxing = ui.input(|i| i.pointer.press_origin());
    }
    if lane_resp.double_clicked() {
        if let Some((t, value)) = double_click {
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
    } else if lane_resp.clicked() && !shift {
        state.deselect();
    }
    lane_resp.context_menu(|ui| {
        if matches!(lane.kind, ParamKind::Float | ParamKind::Vec3) {
            for (label, interp) in [
                ("Smooth", KeyInterpolation::Linear),
                ("Step", KeyInterpolation::Step),
            ] {
                if ui
                    .add(egui::Button::selectable(interpolation == interp, label))
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
