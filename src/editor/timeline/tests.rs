//! Headless UI tests of the timeline with egui_kittest: widgets are found by their accessible
//! names and driven with pointer and key events; assertions are on the take, the view state and
//! the responses.

use egui::{Event, Modifiers, MouseWheelSource, MouseWheelUnit, PointerButton, Pos2, TouchPhase};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use super::keys::track;
use super::*;
use crate::anim::graph::{KeyInterpolation, ParamKind, ParamValue, Take};

/// Everything the widget reads and writes, plus every response it gave.
struct Fixture {
    state: TimelineState,
    take: Option<Take>,
    params: Vec<ParamLane>,
    states: Vec<StateLane>,
    weights: Vec<WeightLane>,
    transport: Transport,
    playhead: f32,
    responses: Vec<TimelineResponse>,
}

impl Fixture {
    fn new(take: Option<Take>) -> Self {
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
            transport: Transport::default(),
            playhead: 0.5,
            responses: Vec::new(),
        }
    }

    /// The edit gestures begun / finished over all frames.
    fn edits(&self) -> (usize, usize) {
        let begun = self.responses.iter().filter(|r| r.edit_begun.is_some());
        let finished = self.responses.iter().filter(|r| r.edit_finished);
        (begun.count(), finished.count())
    }

    fn keys(&self, param: &str) -> Vec<(f32, ParamValue)> {
        self.take
            .as_ref()
            .and_then(|t| track(t, param))
            .map(|t| t.keys.clone())
            .unwrap_or_default()
    }
}

fn take() -> Take {
    Take::new("walk", 2.0)
        .fps(30.0)
        .floats("speed", &[(0.0, 0.0), (1.0, 1.0)])
        .trigger("jump", 1.5)
}

fn harness(fixture: Fixture) -> Harness<'static, Fixture> {
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
fn x_of(h: &Harness<'_, Fixture>, t: f32) -> f32 {
    let r = h.get_by_label("Timeline ruler").rect();
    let v = h.state().state.visible;
    r.left() + (t - v.start) / v.span() * r.width()
}

fn press(h: &Harness<'_, Fixture>, pos: Pos2, button: PointerButton, pressed: bool) {
    h.event(Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers: Modifiers::NONE,
    });
}

fn click_at(h: &mut Harness<'_, Fixture>, pos: Pos2) {
    h.hover_at(pos);
    press(h, pos, PointerButton::Primary, true);
    press(h, pos, PointerButton::Primary, false);
    h.run();
}

fn double_click_at(h: &mut Harness<'_, Fixture>, pos: Pos2) {
    h.hover_at(pos);
    for _ in 0..2 {
        press(h, pos, PointerButton::Primary, true);
        press(h, pos, PointerButton::Primary, false);
    }
    h.run();
}

/// A primary drag from `from` to `to` in a few moves.
fn drag(h: &mut Harness<'_, Fixture>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.drag_at(from);
    for s in [0.3, 0.7, 1.0] {
        h.hover_at(from + (to - from) * s);
    }
    h.drop_at(to);
    h.run();
}

/// Clicking the ruler seeks to the frame under the pointer and pauses.
#[test]
fn ruler_click_seeks_and_pauses() {
    let mut f = Fixture::new(Some(take()));
    f.transport.playing = true;
    let mut h = harness(f);
    h.run();
    let y = h.get_by_label("Timeline ruler").rect().center().y;
    let x = x_of(&h, 1.0) + 2.0;
    click_at(&mut h, egui::pos2(x, y));
    let f = h.state();
    assert_eq!(f.playhead, 1.0);
    assert!(f.responses.iter().any(|r| r.seek == Some(1.0)));
    assert!(!f.transport.playing);
    assert_eq!(f.edits(), (0, 0));
}

/// Dragging on the ruler scrubs through frames; the playhead stays on the frame grid.
#[test]
fn ruler_drag_scrubs() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    let y = h.get_by_label("Timeline ruler").rect().center().y;
    let (a, b) = (x_of(&h, 0.2), x_of(&h, 1.6) + 1.0);
    drag(&mut h, egui::pos2(a, y), egui::pos2(b, y));
    let seeks: Vec<f32> = h.state().responses.iter().filter_map(|r| r.seek).collect();
    assert!(seeks.len() >= 3, "{seeks:?}");
    assert!(seeks.windows(2).all(|w| w[1] >= w[0]));
    assert!(seeks
        .iter()
        .all(|s| ((s * 30.0) - (s * 30.0).round()).abs() < 1e-3));
    assert!((h.state().playhead - 1.6).abs() < 1e-4);
}

/// Dragging a key moves it (time snapped to frames, value by height) as one undoable gesture.
#[test]
fn drag_key_moves_snapped_as_one_gesture() {
    let original = take();
    let mut h = harness(Fixture::new(Some(original.clone())));
    h.run();
    let from = h.get_by_label("Key speed 1").rect().center();
    let lane = h.get_by_label("Lane speed").rect();
    let plot_h = lane.height() - 10.0;
    let dx = x_of(&h, 1.5) - x_of(&h, 1.0) + 2.0;
    let to = from + egui::vec2(dx, -plot_h / 4.0);
    drag(&mut h, from, to);
    let f = h.state();
    let keys = f.keys("speed");
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[1].0, 1.5);
    let ParamValue::Float(v) = keys[1].1 else {
        panic!("not a float: {:?}", keys[1].1)
    };
    assert!((v - 1.5).abs() < 0.05, "value {v}");
    assert_eq!(f.edits(), (1, 1));
    let begun = f.responses.iter().find_map(|r| r.edit_begun.clone());
    assert_eq!(begun, Some(original));
    assert_eq!(
        f.state.selected,
        Some(KeyRef::Key {
            param: "speed".into(),
            index: 1
        })
    );
}

/// Double-clicking a lane adds a key on the frame under the pointer with the curve's value.
#[test]
fn double_click_adds_key() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    let lane = h.get_by_label("Lane speed").rect();
    let pos = egui::pos2(x_of(&h, 0.5) + 1.0, lane.top() + 8.0);
    double_click_at(&mut h, pos);
    let f = h.state();
    assert_eq!(
        f.keys("speed"),
        vec![
            (0.0, ParamValue::Float(0.0)),
            (0.5, ParamValue::Float(0.5)),
            (1.0, ParamValue::Float(1.0))
        ]
    );
    assert_eq!(f.edits(), (1, 1));
}

/// A selected key is deleted with the Delete key, as one edit.
#[test]
fn delete_key_removes_selected() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    h.get_by_label("Key speed 0").click();
    h.run();
    assert!(h.state().state.selected.is_some());
    h.key_press(egui::Key::Delete);
    h.run();
    let f = h.state();
    assert_eq!(f.keys("speed"), vec![(1.0, ParamValue::Float(1.0))]);
    assert_eq!(f.edits(), (1, 1));
    assert_eq!(f.state.selected, None);
}

/// The lane's context menu switches the track to step interpolation.
#[test]
fn context_menu_sets_step() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    let lane = h.get_by_label("Lane speed").rect();
    let pos = egui::pos2(x_of(&h, 0.5), lane.top() + 8.0);
    h.hover_at(pos);
    press(&h, pos, PointerButton::Secondary, true);
    press(&h, pos, PointerButton::Secondary, false);
    h.run();
    h.get_by_label("Step").click();
    h.run();
    let f = h.state();
    let interp = f
        .take
        .as_ref()
        .and_then(|t| track(t, "speed"))
        .map(|t| t.interpolation);
    assert_eq!(interp, Some(KeyInterpolation::Step));
    assert_eq!(f.edits(), (1, 1));
}

/// Triggers: double-click adds a marker, dragging it moves it to another frame.
#[test]
fn triggers_add_and_move() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    let lane = h.get_by_label("Lane jump").rect();
    let pos = egui::pos2(x_of(&h, 0.5) + 1.0, lane.center().y);
    double_click_at(&mut h, pos);
    let times: Vec<f32> = h
        .state()
        .take
        .as_ref()
        .unwrap()
        .triggers
        .iter()
        .map(|t| t.time)
        .collect();
    assert_eq!(times, vec![0.5, 1.5]);
    let from = h.get_by_label("Trigger jump 1").rect().center();
    let to = from + egui::vec2(x_of(&h, 1.9) - x_of(&h, 1.5), 0.0);
    drag(&mut h, from, to);
    let times: Vec<f32> = h
        .state()
        .take
        .as_ref()
        .unwrap()
        .triggers
        .iter()
        .map(|t| t.time)
        .collect();
    assert_eq!(times, vec![0.5, 1.9]);
    assert_eq!(h.state().edits(), (2, 2));
}

/// Play toggles to Pause and back; step and jump buttons seek by frames and pause.
#[test]
fn transport_buttons() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    h.get_by_label("Play").click();
    h.run();
    assert!(h.state().transport.playing);
    h.get_by_label("Pause").click();
    h.run();
    assert!(!h.state().transport.playing);
    h.get_by_label("Step forward").click();
    h.run();
    assert_eq!(h.state().playhead, 16.0 / 30.0);
    h.get_by_label("Step back").click();
    h.run();
    h.get_by_label("Step back").click();
    h.run();
    assert_eq!(h.state().playhead, 14.0 / 30.0);
    h.get_by_label("Go to end").click();
    h.run();
    assert_eq!(h.state().playhead, 2.0);
    h.get_by_label("Go to start").click();
    h.run();
    assert_eq!(h.state().playhead, 0.0);
    let looping = h.state().transport.looping;
    h.get_by_label("Loop").click();
    h.run();
    assert_eq!(h.state().transport.looping, !looping);
    assert_eq!(h.state().edits(), (0, 0));
}

/// The wheel zooms in at the pointer: the time under it stays put; Shift+wheel pans.
#[test]
fn wheel_zooms_at_pointer() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    let ruler = h.get_by_label("Timeline ruler").rect();
    let x = x_of(&h, 1.5);
    let before = h.state().state.visible;
    let wheel = |delta: f32, modifiers: Modifiers| Event::MouseWheel {
        unit: MouseWheelUnit::Line,
        delta: egui::vec2(0.0, delta),
        phase: TouchPhase::Move,
        source: MouseWheelSource::Wheel,
        modifiers,
    };
    h.hover_at(egui::pos2(x, ruler.center().y + 60.0));
    h.event(wheel(2.0, Modifiers::NONE));
    h.run();
    let after = h.state().state.visible;
    assert!(
        after.span() < before.span() * 0.8,
        "{before:?} -> {after:?}"
    );
    let t_at = |v: TimeRange| v.start + (x - ruler.left()) / ruler.width() * v.span();
    assert!((t_at(after) - 1.5).abs() < 1e-3);
    h.event(wheel(-1.0, Modifiers::SHIFT));
    h.run();
    let panned = h.state().state.visible;
    assert!((panned.span() - after.span()).abs() < 1e-4);
    assert!(panned.start > after.start);
}

/// Middle-drag pans the view; a double-click on the ruler fits the take again.
#[test]
fn middle_drag_pans_and_double_click_fits() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    let before = h.state().state.visible;
    let lane = h.get_by_label("Lane speed").rect();
    let from = egui::pos2(x_of(&h, 1.0), lane.center().y);
    h.hover_at(from);
    press(&h, from, PointerButton::Middle, true);
    h.hover_at(from + egui::vec2(-100.0, 0.0));
    press(
        &h,
        from + egui::vec2(-100.0, 0.0),
        PointerButton::Middle,
        false,
    );
    h.run();
    let panned = h.state().state.visible;
    assert!(
        panned.start > before.start + 0.1,
        "{before:?} -> {panned:?}"
    );
    assert_eq!(h.state().keys("speed").len(), 2);
    let ruler = h.get_by_label("Timeline ruler").rect();
    double_click_at(&mut h, ruler.center());
    assert_eq!(h.state().state.visible, TimeRange::fit(2.0));
}

/// Live mode: lanes show values only; double-clicks edit nothing; every lane kind is named.
#[test]
fn live_mode_is_read_only() {
    let mut h = harness(Fixture::new(None));
    h.run();
    for label in [
        "Lane speed",
        "Lane jump",
        "State lane locomotion",
        "Weight lane walk",
    ] {
        assert!(h.query_by_label(label).is_some(), "{label}");
    }
    let lane = h.get_by_label("Lane speed").rect();
    double_click_at(&mut h, lane.center());
    assert!(h.query_by_label("Key speed 0").is_none());
    assert_eq!(h.state().edits(), (0, 0));
}

/// Clicking a lane's name folds it; the view state survives a JSON round trip.
#[test]
fn fold_and_state_round_trip() {
    let mut h = harness(Fixture::new(Some(take())));
    h.run();
    h.get_by_label("Collapse speed").click();
    h.run();
    assert!(h.query_by_label("Expand speed").is_some());
    assert!(h.query_by_label("Key speed 0").is_none());
    let state = h.state().state.clone();
    assert_eq!(
        state.lanes.get("param:speed").map(|v| v.collapsed),
        Some(true)
    );
    let json = serde_json::to_string(&state).unwrap();
    let back: TimelineState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    let empty: TimelineState = serde_json::from_str("{}").unwrap();
    assert_eq!(empty, TimelineState::default());
}
