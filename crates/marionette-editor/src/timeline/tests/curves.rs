//! Curves with tangents in the lanes: a key's context menu sets its ease (every selected key's),
//! Shift+click and a Shift+drag box select several keys, which delete and move together, and
//! the selected key's handle drags into explicit slopes.

use egui::{Modifiers, PointerButton};
use egui_kittest::kittest::Queryable;

use super::*;
use marionette_anim::graph::{Ease, ParamValue};

fn three_keys() -> Take {
    Take::new("walk", 2.0)
        .fps(30.0)
        .floats("speed", &[(0.0, 0.0), (1.0, 1.0), (2.0, 0.0)])
}

fn right_click(h: &mut Harness<'_, Fixture>, pos: Pos2) {
    h.hover_at(pos);
    press(h, pos, PointerButton::Secondary, true);
    press(h, pos, PointerButton::Secondary, false);
    h.run();
}

fn shift_click(h: &mut Harness<'_, Fixture>, pos: Pos2) {
    h.event(egui::Event::ModifiersChanged(Modifiers::SHIFT));
    h.hover_at(pos);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::SHIFT,
        });
    }
    h.run();
    h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    h.run();
}

#[test]
fn the_key_menu_sets_flat_and_the_value_follows_the_curve() {
    let mut h = harness(Fixture::new(Some(three_keys())));
    h.run();
    let k0 = h.get_by_label("Key speed 0").rect().center();
    right_click(&mut h, k0);
    h.get_by_label("Flat").click();
    h.run();
    let f = h.state();
    let track = track(f.take.as_ref().unwrap(), "speed").unwrap().clone();
    assert_eq!(track.ease(0), Ease::Flat);
    assert_eq!(track.ease(1), Ease::Linear);
    assert_eq!(f.edits(), (1, 1));
    // flat out of key 0, linear into key 1: 0.5 s in, below the straight line's 0.5
    let Some(ParamValue::Float(v)) = track.value_at(0.5) else {
        panic!()
    };
    assert!((v - 0.375).abs() < 1e-5, "{v}");
}

#[test]
fn shift_click_selects_several_that_delete_and_ease_together() {
    let mut h = harness(Fixture::new(Some(three_keys())));
    h.run();
    let k0 = h.get_by_label("Key speed 0").rect().center();
    let k2 = h.get_by_label("Key speed 2").rect().center();
    click_at(&mut h, k0);
    shift_click(&mut h, k2);
    assert_eq!(h.state().state.selection().len(), 2);
    right_click(&mut h, k2);
    h.get_by_label("Auto (smooth)").click();
    h.run();
    {
        let t = track(h.state().take.as_ref().unwrap(), "speed").unwrap();
        assert_eq!(
            (t.ease(0), t.ease(1), t.ease(2)),
            (Ease::Auto, Ease::Linear, Ease::Auto)
        );
    }
    h.key_press(egui::Key::Delete);
    h.run();
    assert_eq!(h.state().keys("speed"), vec![(1.0, ParamValue::Float(1.0))]);
}

#[test]
fn a_shift_drag_box_selects_and_a_drag_moves_them_together() {
    let mut h = harness(Fixture::new(Some(three_keys())));
    h.run();
    let k0 = h.get_by_label("Key speed 0").rect().center();
    let k1 = h.get_by_label("Key speed 1").rect().center();
    let lane = h.get_by_label("Lane speed").rect();
    // a box from left of key 0 to just past key 1, over the whole lane
    let from = egui::pos2(k0.x - 8.0, lane.top() + 1.0);
    let to = egui::pos2(k1.x + 8.0, lane.bottom() - 1.0);
    h.event(egui::Event::ModifiersChanged(Modifiers::SHIFT));
    h.hover_at(from);
    h.event(egui::Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::SHIFT,
    });
    h.run();
    for s in [0.3, 0.7, 1.0] {
        h.hover_at(from + (to - from) * s);
    }
    h.event(egui::Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::SHIFT,
    });
    h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    let chosen = h.state().state.selection();
    assert_eq!(chosen.len(), 2, "{chosen:?}");
    // drag key 1 a third of a second later: key 0 comes along, values kept
    let dx = x_of(&h, 1.0 + 1.0 / 3.0) - x_of(&h, 1.0) + 1.0;
    drag(&mut h, k1, k1 + egui::vec2(dx, 0.0));
    let keys = h.state().keys("speed");
    let times: Vec<f32> = keys.iter().map(|k| (k.0 * 30.0).round()).collect();
    assert_eq!(times, vec![10.0, 40.0, 60.0], "{keys:?}");
    assert_eq!(keys[1].1, ParamValue::Float(1.0));
}

#[test]
fn dragging_a_handle_sets_explicit_slopes() {
    let mut h = harness(Fixture::new(Some(three_keys())));
    h.run();
    let k1 = h.get_by_label("Key speed 1").rect().center();
    click_at(&mut h, k1);
    let handle = h.get_by_label("Handle speed 1 out").rect().center();
    // key 1 is a peak of a linear track: its out handle points down the line to key 2;
    // dragged level with the key, the slope becomes 0 on both sides
    drag(&mut h, handle, egui::pos2(handle.x + 10.0, k1.y));
    let t = track(h.state().take.as_ref().unwrap(), "speed")
        .unwrap()
        .clone();
    let Ease::Slopes {
        slope_in,
        slope_out,
    } = t.ease(1)
    else {
        panic!("{:?}", t.ease(1))
    };
    assert!(
        slope_in.abs() < 0.05 && slope_out.abs() < 0.05,
        "{slope_in} {slope_out}"
    );
    assert_eq!(h.state().edits(), (1, 1));
}
