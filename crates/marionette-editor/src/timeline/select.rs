//! Several keys selected at once: Shift+click adds or removes a key, Shift+drag on a lane draws
//! a box that selects every key mark inside it (across lanes); Delete, a drag and the ease menu
//! then act on all of them. The first selected key stays [`TimelineState::selected`] (the one
//! the key list and the handles show); the others are [`TimelineState::also`].

use egui::{Pos2, Rect, Stroke};

use marionette_anim::graph::{Ease, ParamValue, Take};

use super::keys::{self, KeyError};
use super::{KeyRef, TimelineState};

impl TimelineState {
    /// Every selected key and trigger, the primary first.
    pub fn selection(&self) -> Vec<KeyRef> {
        self.selected.iter().chain(&self.also).cloned().collect()
    }

    /// Whether `key` is selected.
    pub fn is_selected(&self, key: &KeyRef) -> bool {
        self.selected.as_ref() == Some(key) || self.also.contains(key)
    }

    /// Selects `key` alone.
    pub(crate) fn select_only(&mut self, key: KeyRef) {
        self.selected = Some(key);
        self.also.clear();
    }

    /// Adds `key` to the selection (as the primary), or removes it when it is in.
    pub(crate) fn toggle(&mut self, key: KeyRef) {
        if self.is_selected(&key) {
            self.also.retain(|k| *k != key);
            if self.selected.as_ref() == Some(&key) {
                self.selected = if self.also.is_empty() {
                    None
                } else {
                    Some(self.also.remove(0))
                };
            }
        } else {
            if let Some(old) = self.selected.take() {
                self.also.push(old);
            }
            self.selected = Some(key);
        }
    }

    /// Clears the selection.
    pub(crate) fn deselect(&mut self) {
        self.selected = None;
        self.also.clear();
    }
}

/// After the lanes: the box of a Shift+drag drawn, and on release every key mark inside it
/// selected.
pub(crate) fn box_select(ui: &egui::Ui, state: &mut TimelineState, area: Rect) {
    let Some(start) = state.boxing else {
        return;
    };
    let (pos, down) = ui.input(|i| (i.pointer.latest_pos(), i.pointer.primary_down()));
    let Some(pos) = pos else {
        return;
    };
    let rect = Rect::from_two_pos(start, pos);
    let color = ui.visuals().selection.stroke.color;
    ui.painter_at(area)
        .rect_stroke(rect, 2.0, Stroke::new(1.0, color), egui::StrokeKind::Inside);
    if down {
        return;
    }
    state.boxing = None;
    let inside: Vec<KeyRef> = marks_in(&state.marks, rect);
    state.deselect();
    for k in inside {
        if !state.is_selected(&k) {
            state.toggle(k);
        }
    }
}

/// The keys whose marks are in `rect`, once each, in the order drawn.
fn marks_in(marks: &[(KeyRef, Pos2)], rect: Rect) -> Vec<KeyRef> {
    let mut out: Vec<KeyRef> = Vec::new();
    for (k, p) in marks {
        if rect.contains(*p) && !out.contains(k) {
            out.push(k.clone());
        }
    }
    out
}

/// Deletes every key and trigger of `chosen`.
pub(crate) fn delete_all(take: &mut Take, chosen: &[KeyRef]) -> Result<(), KeyError> {
    let mut refs = chosen.to_vec();
    // from the last index down, so the indices still to delete stay valid
    refs.sort_by_key(|k| std::cmp::Reverse(index_of(k)));
    for k in &refs {
        match k {
            KeyRef::Key { param, index } => keys::delete_key(take, param, *index).map(|_| ())?,
            KeyRef::Trigger { index } => keys::delete_trigger(take, *index).map(|_| ())?,
        }
    }
    Ok(())
}

fn index_of(k: &KeyRef) -> usize {
    match k {
        KeyRef::Key { index, .. } | KeyRef::Trigger { index } => *index,
    }
}

/// Moves every key and trigger of `chosen` by `dt` seconds (each snapped to a frame and kept in
/// `0..=duration`, a key landing on another's frame replacing it, as one key's drag does); their
/// values and eases stay. Returns where each went, in the order of `chosen`.
pub(crate) fn shift_all(
    take: &mut Take,
    chosen: &[KeyRef],
    dt: f32,
    duration: f32,
) -> Result<Vec<KeyRef>, KeyError> {
    let fps = take.fps;
    let to = |t: f32| keys::snap_time((t + dt).clamp(0.0, duration), fps);
    // what each is, read before anything moves
    let mut order: Vec<usize> = (0..take.triggers.len()).collect();
    order.sort_by(|&a, &b| take.triggers[a].time.total_cmp(&take.triggers[b].time));
    let mut moving: Vec<Moving> = Vec::new();
    for k in chosen {
        moving.push(match k {
            KeyRef::Key { param, index } => {
                let track = keys::track(take, param).filter(|t| *index < t.keys.len());
                let track = track.ok_or_else(|| KeyError::NoKey {
                    param: param.clone(),
                    index: *index,
                })?;
                let mut sorted = track.clone();
                sorted.sort();
                let (t, v) = sorted.keys[*index];
                Moving::Key(param.clone(), to(t), v, sorted.ease(*index))
            }
            KeyRef::Trigger { index } => {
                let i = *order.get(*index).ok_or_else(|| KeyError::NoKey {
                    param: String::new(),
                    index: *index,
                })?;
                let tr = &take.triggers[i];
                Moving::Trigger(tr.param.clone(), to(tr.time))
            }
        });
    }
    delete_all(take, chosen)?;
    for m in &moving {
        match m {
            Moving::Key(param, time, v, ease) => {
                let index = keys::add_key(take, param, *time, *v)?;
                keys::set_ease(take, param, &[index], *ease)?;
            }
            Moving::Trigger(param, time) => {
                keys::add_trigger(take, param, *time)?;
            }
        }
    }
    // indices once everything has landed
    let mut order: Vec<usize> = (0..take.triggers.len()).collect();
    order.sort_by(|&a, &b| take.triggers[a].time.total_cmp(&take.triggers[b].time));
    Ok(moving
        .into_iter()
        .filter_map(|m| match m {
            Moving::Key(param, time, ..) => keys::track(take, &param)
                .and_then(|tr| tr.keys.iter().position(|k| k.0 == time))
                .map(|index| KeyRef::Key { param, index }),
            Moving::Trigger(param, time) => order
                .iter()
                .position(|&i| take.triggers[i].time == time && take.triggers[i].param == param)
                .map(|index| KeyRef::Trigger { index }),
        })
        .collect())
}

/// A key or trigger on its way: where it goes and what it carries.
enum Moving {
    Key(String, f32, ParamValue, Ease),
    Trigger(String, f32),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take() -> Take {
        Take::new("t", 2.0)
            .fps(10.0)
            .floats("a", &[(0.0, 0.0), (0.5, 1.0), (1.0, 2.0)])
            .floats("b", &[(0.2, 5.0), (1.5, 6.0)])
    }

    fn key(param: &str, index: usize) -> KeyRef {
        KeyRef::Key {
            param: param.into(),
            index,
        }
    }

    #[test]
    fn shift_click_adds_and_removes() {
        let mut s = TimelineState::default();
        s.select_only(key("a", 0));
        s.toggle(key("b", 1));
        assert_eq!(s.selection(), vec![key("b", 1), key("a", 0)]);
        s.toggle(key("b", 1));
        assert_eq!(s.selection(), vec![key("a", 0)]);
        s.toggle(key("a", 0));
        assert!(s.selection().is_empty());
    }

    #[test]
    fn several_keys_delete_move_and_ease_together() {
        let mut t = take();
        delete_all(&mut t, &[key("a", 0), key("a", 2), key("b", 0)]).unwrap();
        assert_eq!(t.tracks[0].keys, vec![(0.5, ParamValue::Float(1.0))]);
        assert_eq!(t.tracks[1].keys, vec![(1.5, ParamValue::Float(6.0))]);

        let mut t = take();
        keys::set_ease(&mut t, "a", &[1], Ease::Flat).unwrap();
        let moved = shift_all(&mut t, &[key("a", 1), key("b", 0)], 0.3, 2.0).unwrap();
        assert_eq!(
            t.tracks[0].keys,
            vec![
                (0.0, ParamValue::Float(0.0)),
                (0.8, ParamValue::Float(1.0)),
                (1.0, ParamValue::Float(2.0))
            ]
        );
        assert_eq!(
            t.tracks[0].ease(1),
            Ease::Flat,
            "the ease moved with its key"
        );
        assert_eq!(t.tracks[1].keys[0], (0.5, ParamValue::Float(5.0)));
        assert_eq!(moved, vec![key("a", 1), key("b", 0)], "in the order given");
        // past the end: kept at the end
        let mut t = take();
        shift_all(&mut t, &[key("b", 1)], 5.0, 2.0).unwrap();
        assert_eq!(t.tracks[1].keys[1].0, 2.0);

        let mut t = take();
        crate::timeline::ease::set_selected(&mut t, &[key("a", 0), key("b", 1)], Ease::Auto)
            .unwrap();
        assert_eq!(t.tracks[0].ease(0), Ease::Auto);
        assert_eq!(t.tracks[0].ease(1), Ease::Linear);
        assert_eq!(t.tracks[1].ease(1), Ease::Auto);
    }

    #[test]
    fn a_box_takes_the_marks_inside() {
        let marks = vec![
            (key("a", 0), egui::pos2(10.0, 10.0)),
            (key("a", 1), egui::pos2(50.0, 10.0)),
            (key("b", 0), egui::pos2(20.0, 40.0)),
            (key("b", 0), egui::pos2(21.0, 41.0)),
        ];
        let r = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(30.0, 50.0));
        assert_eq!(marks_in(&marks, r), vec![key("a", 0), key("b", 0)]);
    }
}
