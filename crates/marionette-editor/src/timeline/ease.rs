//! Curves with tangents in the parameter lanes: a track whose keys have eases is drawn as the
//! curve a take plays (sampled across the lane, only where it is on screen); a key's context
//! menu sets the ease of every selected key (auto, flat, linear, step); the selected float
//! key shows its two handles, and dragging one sets explicit slopes (both sides together;
//! Shift drags one side alone, a broken tangent).

use egui::{Color32, Pos2, Rect, Sense, Stroke};

use marionette_anim::graph::{key_slopes, Ease, ParamTrack, ParamValue, Take};

use super::gesture::edit;
use super::keys::{self, KeyError};
use super::{KeyRef, LaneCtx, TimelineResponse, TimelineState};

/// Points between two samples of an eased curve.
const SAMPLE_PX: f32 = 2.0;
/// Length of a key's handle, points.
const HANDLE_PX: f32 = 28.0;

/// Whether `track` needs its curve sampled (some key eases other than straight or step).
pub(crate) fn curved(track: &ParamTrack) -> bool {
    track
        .eases
        .iter()
        .any(|e| !matches!(e, Ease::Linear | Ease::Step))
}

/// The curve of component `c` of `track` across `rect`, sampled every few points (the keys
/// themselves included, so a corner stays sharp).
pub(crate) fn sampled(
    track: &ParamTrack,
    c: usize,
    ctx: &LaneCtx,
    rect: Rect,
    y_of: impl Fn(f32) -> f32,
) -> Vec<Pos2> {
    let comp = |v: ParamValue| match v {
        ParamValue::Float(x) => x,
        ParamValue::Vec3(v) => v[c.min(2)],
        other => other.as_f32(),
    };
    let mut ts: Vec<f32> = Vec::new();
    let mut x = rect.left();
    while x <= rect.right() {
        ts.push(ctx.axis.t(x));
        x += SAMPLE_PX;
    }
    let (t0, t1) = (ctx.axis.t(rect.left()), ctx.axis.t(rect.right()));
    ts.extend(
        track
            .keys
            .iter()
            .map(|k| k.0)
            .filter(|t| (t0..=t1).contains(t)),
    );
    ts.sort_by(f32::total_cmp);
    ts.into_iter()
        .filter_map(|t| {
            let v = track.value_at(t)?;
            Some(egui::pos2(ctx.axis.x(t), y_of(comp(v))))
        })
        .collect()
}

/// The ease buttons of a key's context menu: they set every selected key of a float or vector
/// track (`key` first among them). Returns whether one was clicked.
pub(crate) fn ease_menu(
    ui: &mut egui::Ui,
    state: &TimelineState,
    take: &mut Take,
    key: &KeyRef,
    response: &mut TimelineResponse,
) -> bool {
    let KeyRef::Key { param, index } = key else {
        return false;
    };
    let Some(track) = keys::track(take, param) else {
        return false;
    };
    if matches!(track.keys.first(), Some((_, ParamValue::Bool(_)))) {
        return false;
    }
    let current = track.ease(*index);
    ui.label("Ease");
    let mut clicked = false;
    for name in Ease::NAMES {
        let Some(ease) = Ease::from_name(name) else {
            continue;
        };
        let label = match name {
            "auto" => "Auto (smooth)",
            "flat" => "Flat",
            "linear" => "Linear",
            _ => "Step",
        };
        if ui
            .add(egui::Button::selectable(current == ease, label))
            .clicked()
        {
            let chosen = state.selection();
            edit(take, response, |t| set_selected(t, &chosen, ease));
            clicked = true;
        }
    }
    if let Ease::Slopes {
        slope_in,
        slope_out,
    } = current
    {
        ui.weak(format!("slopes {slope_in:.3} in, {slope_out:.3} out"));
    }
    clicked
}

/// Sets `ease` on every key of `chosen` (triggers and bool keys are left alone).
pub(crate) fn set_selected(take: &mut Take, chosen: &[KeyRef], ease: Ease) -> Result<(), KeyError> {
    let mut by_param: Vec<(&str, Vec<usize>)> = Vec::new();
    for k in chosen {
        if let KeyRef::Key { param, index } = k {
            match by_param.iter_mut().find(|(p, _)| p == param) {
                Some((_, v)) => v.push(*index),
                None => by_param.push((param, vec![*index])),
            }
        }
    }
    for (param, indices) in by_param {
        let bools = keys::track(take, param)
            .is_some_and(|t| matches!(t.keys.first(), Some((_, ParamValue::Bool(_)))));
        if !bools {
            keys::set_ease(take, param, &indices, ease)?;
        }
    }
    Ok(())
}

/// A handle drag in progress.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HandleDrag {
    /// The key whose handle it is.
    key: KeyRef,
    /// The take when it began.
    before: Take,
    /// The handle into the key (else out of it).
    incoming: bool,
    /// The take has been changed (`edit_begun` reported).
    begun: bool,
}

/// Where a lane plots and where the key is: what the handles need to turn points into slopes.
pub(crate) struct Plot {
    /// The plotted area.
    pub rect: Rect,
    /// `(min, max)` value plotted.
    pub range: (f32, f32),
    /// The key's mark.
    pub at: Pos2,
}

impl Plot {
    /// Value units per point, vertically.
    fn per_point(&self) -> f32 {
        (self.range.1 - self.range.0) / self.rect.height().max(1.0)
    }
}

/// The selected float key's handles: drawn, and dragged into explicit slopes.
pub(crate) fn handles(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    ctx: &LaneCtx,
    take: &mut Take,
    key: &KeyRef,
    plot: &Plot,
    response: &mut TimelineResponse,
) {
    let key_pos = plot.at;
    let KeyRef::Key { param, index } = key else {
        return;
    };
    let Some(track) = keys::track(take, param) else {
        return;
    };
    if !matches!(track.keys.get(*index), Some((_, ParamValue::Float(_)))) {
        return;
    }
    let (slope_in, slope_out) = key_slopes(&track.keys, |k| track.ease(k), *index);
    let px_per_sec = ctx.axis.px_per_sec().max(1e-6);
    // a slope as a screen direction: one second right, slope value units up
    let dir = |slope: f32| {
        let d = egui::vec2(px_per_sec, -slope / plot.per_point());
        d / d.length().max(1e-6) * HANDLE_PX
    };
    let color = Color32::from_rgb(230, 230, 140);
    let painter = ui.painter_at(plot.rect.expand(HANDLE_PX));
    for (incoming, slope) in [(true, slope_in), (false, slope_out)] {
        let d = dir(slope);
        let pos = if incoming { key_pos - d } else { key_pos + d };
        painter.line_segment([key_pos, pos], Stroke::new(1.0, color));
        painter.circle_filled(pos, 3.5, color);
        let name = format!(
            "Handle {} {index} {}",
            param,
            if incoming { "in" } else { "out" }
        );
        let id = ui.make_persistent_id(&name);
        let r = ui.interact(
            Rect::from_center_size(pos, egui::vec2(10.0, 10.0)),
            id,
            Sense::drag(),
        );
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
        if r.drag_started() {
            state.handle = Some(HandleDrag {
                key: key.clone(),
                before: take.clone(),
                incoming,
                begun: false,
            });
        }
    }
    let Some(mut drag) = state.handle.take().filter(|d| d.key == *key) else {
        return;
    };
    let (pointer, down, shift) = ui.input(|i| {
        (
            i.pointer.latest_pos(),
            i.pointer.primary_down(),
            i.modifiers.shift,
        )
    });
    if let Some(p) = pointer {
        let d = if drag.incoming {
            key_pos - p
        } else {
            p - key_pos
        };
        // pointing backwards in time reads as vertical: the steepest slope
        let dt = (d.x / px_per_sec).max(1e-4);
        let slope = -d.y * plot.per_point() / dt;
        let (a, b) = if shift {
            if drag.incoming {
                (slope, slope_out)
            } else {
                (slope_in, slope)
            }
        } else {
            (slope, slope)
        };
        let ease = Ease::Slopes {
            slope_in: a,
            slope_out: b,
        };
        let prev = take.clone();
        *take = drag.before.clone();
        if keys::set_ease(take, param, &[*index], ease).is_err() {
            *take = prev.clone();
        }
        if *take != prev {
            response.changed = true;
        }
        if !drag.begun && *take != drag.before {
            response.edit_begun = Some(drag.before.clone());
            drag.begun = true;
        }
    }
    if down {
        state.handle = Some(drag);
    } else if drag.begun {
        response.edit_finished = true;
    }
}
