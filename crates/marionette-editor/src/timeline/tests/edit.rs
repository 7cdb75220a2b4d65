//! Key editing through the UI: drag, add, delete, step/smooth, triggers, live mode.

use egui::PointerButton;
use egui_kittest::kittest::Queryable;

use super::*;
use marionette_anim::graph::{KeyInterpolation, ParamValue};

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
