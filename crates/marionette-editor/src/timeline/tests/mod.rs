//! Headless UI tests of the timeline with egui_kittest: widgets are found by their accessible
//! names and driven with pointer and key events; assertions are on the take, the view state and
//! the responses. This file holds the fixture and input helpers.

mod curves;
mod edit;
mod navigation;

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use super::keys::track;
use super::*;
use marionette_anim::graph::{ParamKind, ParamValue, Take};

/// Everything the widget reads and writes, plus every response it gave.
pub(super) struct Fixture {
    pub state: TimelineState,
    pub take: Option<Take>,
    pub params: Vec<ParamLane>,
    pub states: Vec<StateLane>,
    pub weights: Vec<WeightLane>,
    pub events: Vec<(f32, String)>,
    pub transport: Transport,
    pub playhead: f32,
    pub responses: Vec<TimelineResponse>,
}

impl Fixture {
    pub fn new(take: Option<Take>) -> Self {
        let float = |name: &str, v: f32| ParamLane {
            name: name.into(),
            kind: ParamKind::Float,
            range: (0.0, 2.0),
            value: ParamValue::Float(v),
        };
        Self {
            state: TimelineState::default(),
            take,
            params: vec![
                float("speed", 0.5),
                ParamLane {
                    name: "jump".into(),
                    kind: ParamKind::Trigger,
                    range: (0.0, 1.0),
                    value: ParamValue::Trigger(false),
                },
            ],
            states: vec![StateLane {
                name: "locomotion".into(),
                spans: vec![
                    StateSpan {
                        state: "idle".into(),
                        start: 0.0,
                        end: 0.8,
                        transition_to: None,
                    },
                    StateSpan {
                        state: "idle".into(),
                        start: 0.8,
                        end: 1.0,
                        transition_to: Some("walk".into()),
                    },
                    StateSpan {
                        state: "walk".into(),
                        start: 1.0,
                        end: 2.0,
                        transition_to: None,
                    },
                ],
            }],
            weights: vec![WeightLane {
                name: "walk".into(),
                weights: (0..=60).map(|i| i as f32 / 60.0).collect(),
            }],
            events: Vec::new(),
            transport: Transport::default(),
            playhead: 0.5,
            responses: Vec::new(),
        }
    }

    /// The edit gestures begun / finished over all frames.
    pub fn edits(&self) -> (usize, usize) {
        let begun = self.responses.iter().filter(|r| r.edit_begun.is_some());
        let finished = self.responses.iter().filter(|r| r.edit_finished);
        (begun.count(), finished.count())
    }

    pub fn keys(&self, param: &str) -> Vec<(f32, ParamValue)> {
        self.take
            .as_ref()
            .and_then(|t| track(t, param))
            .map(|t| t.keys.clone())
            .unwrap_or_default()
    }
}

pub(super) fn take() -> Take {
    Take::new("walk", 2.0)
        .fps(30.0)
        .floats("speed", &[(0.0, 0.0), (1.0, 1.0)])
        .trigger("jump", 1.5)
}

pub(super) fn harness(fixture: Fixture) -> Harness<'static, Fixture> {
    Harness::builder()
        .with_size([800.0, 320.0])
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(64)
        .build_ui_state(
            |ui, f: &mut Fixture| {
                let r = timeline(
                    ui,
                    &mut f.state,
                    TimelineInput {
                        take: f.take.as_mut(),
                        params: &f.params,
                        duration: 2.0,
                        fps: 30.0,
                        playhead: f.playhead,
                        states: &f.states,
                        weights: &f.weights,
                        events: &f.events,
                        highlight: None,
                        transport: &mut f.transport,
                    },
                );
                if let Some(t) = r.seek {
                    f.playhead = t;
                }
                f.responses.push(r);
            },
            fixture,
        )
}

/// Screen x of time `t` on the ruler.
pub(super) fn x_of(h: &Harness<'_, Fixture>, t: f32) -> f32 {
    let r = h.get_by_label("Timeline ruler").rect();
    let v = h.state().state.visible;
    r.left() + (t - v.start) / v.span() * r.width()
}

pub(super) fn press(h: &Harness<'_, Fixture>, pos: Pos2, button: PointerButton, pressed: bool) {
    h.event(Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers: Modifiers::NONE,
    });
}

pub(super) fn click_at(h: &mut Harness<'_, Fixture>, pos: Pos2) {
    h.hover_at(pos);
    press(h, pos, PointerButton::Primary, true);
    press(h, pos, PointerButton::Primary, false);
    h.run();
}

pub(super) fn double_click_at(h: &mut Harness<'_, Fixture>, pos: Pos2) {
    h.hover_at(pos);
    for _ in 0..2 {
        press(h, pos, PointerButton::Primary, true);
        press(h, pos, PointerButton::Primary, false);
    }
    h.run();
}

/// A primary drag from `from` to `to` in a few moves.
pub(super) fn drag(h: &mut Harness<'_, Fixture>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.drag_at(from);
    for s in [0.3, 0.7, 1.0] {
        h.hover_at(from + (to - from) * s);
    }
    h.drop_at(to);
    h.run();
}
