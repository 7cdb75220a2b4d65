//! Playhead and view through the UI: ruler seek and scrub, transport, zoom, pan, fit, fold.

use egui::{Event, Modifiers, MouseWheelSource, MouseWheelUnit, PointerButton, TouchPhase};
use egui_kittest::kittest::Queryable;

use super::*;

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

/// While playing, the view pages forward when the playhead leaves it.
#[test]
fn playing_view_follows_playhead() {
    let mut f = Fixture::new(Some(take()));
    f.state.visible = TimeRange {
        start: 0.0,
        end: 0.5,
    };
    f.transport.playing = true;
    f.playhead = 1.2;
    let mut h = harness(f);
    h.run();
    let v = h.state().state.visible;
    assert!(v.start < 1.2 && v.end > 1.2, "{v:?}");
    assert!((v.span() - 0.5).abs() < 1e-4);
}

/// A sidecar's view of a huge span (`end` near `f32::MAX`) draws the weight lane: its sample
/// stride saturated to `usize::MAX` and `i + stride` overflowed (a panic in debug builds).
#[test]
fn huge_view_span_from_sidecar_draws() {
    let mut f = Fixture::new(Some(take()));
    f.state = serde_json::from_str(r#"{"visible": {"start": 1, "end": 3e38}}"#).unwrap();
    assert!(f.state.visible.is_valid());
    let mut h = harness(f);
    h.run();
    assert!(h.query_by_label("Weight lane walk").is_some());
}

/// The ruler's context menu sets a loop range (saved with the view); markers and events show
/// on the ruler and are listed on hover.
#[test]
fn loop_range_and_events_on_the_ruler() {
    let mut f = Fixture::new(Some(take()));
    f.events = vec![(0.5, "marker contact_l".into()), (0.5, "event step".into())];
    let mut h = harness(f);
    h.run();
    let ruler = h.get_by_label("Timeline ruler").rect();
    let at = |h: &Harness<'_, Fixture>, t: f32| egui::pos2(x_of(h, t) + 0.5, ruler.center().y);
    for (t, item) in [(0.5, "Loop from 0.500 s"), (1.5, "Loop to 1.500 s")] {
        let p = at(&h, t);
        h.hover_at(p);
        press(&h, p, PointerButton::Secondary, true);
        press(&h, p, PointerButton::Secondary, false);
        h.run();
        h.get_by_label(item).click();
        h.run();
    }
    assert_eq!(h.state().state.loop_range, Some((0.5, 1.5)));
    let json = serde_json::to_string(&h.state().state).unwrap();
    let back: TimelineState = serde_json::from_str(&json).unwrap();
    assert_eq!(back.loop_range, Some((0.5, 1.5)));
    // hovering the flags lists both
    let p = egui::pos2(x_of(&h, 0.5), ruler.top() + 3.0);
    h.hover_at(p);
    h.run();
    assert!(h.query_by_label("0.500 s  marker contact_l").is_some());
    assert!(h.query_by_label("0.500 s  event step").is_some());
}
