//! Recording a live session into a take, and picking a joint in the viewport.

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use marionette::anim::graph::ParamValue;

use super::{harness, options, project};

/// Live mode: Record, move `speed`, fire `jump`, stop: a new take holds the keys and the
/// trigger, is selected, and plays back what was recorded.
#[test]
fn record_live_session_into_take() {
    let opts = options(&project("scripts/locomotion.lua"), false);
    let mut h = harness(&opts);
    h.run_steps(1);
    h.get_by_label("Take").click();
    h.run_steps(2);
    h.get_by_label("live").click();
    h.run_steps(2);
    let takes_before = h.state().session.takes.len();
    h.get_by_label("Record").click();
    h.run_steps(5);
    assert!(h.state().window.recording && h.state().window.transport.playing);
    h.get_by_role_and_label(Role::Slider, "speed")
        .set_value_accesskit(3.0);
    h.run_steps(5);
    h.get_all_by_label("jump")
        .filter(|n| n.rect().left() > 900.0)
        .min_by(|a, b| b.rect().left().total_cmp(&a.rect().left()))
        .expect("the jump button")
        .click();
    h.run_steps(5);
    h.get_by_label("Recording").click();
    h.run_steps(1);
    let ed = h.state();
    assert_eq!(ed.session.takes.len(), takes_before + 1);
    let take = ed.session.take().expect("the recorded take is selected");
    assert_eq!(take.name, "recorded_1");
    assert!(take.duration > 0.3, "{}", take.duration);
    assert_eq!(take.triggers.len(), 1);
    let speed = take
        .tracks
        .iter()
        .find(|t| t.param == "speed")
        .expect("speed track");
    assert!(speed.keys.iter().any(|k| k.1 == ParamValue::Float(3.0)));
    assert!(speed.keys.iter().any(|k| k.1 == ParamValue::Float(0.0)));
}

/// Clicking on a joint's projection in the viewport selects it; the outliner then shows it.
#[test]
fn click_selects_joint() {
    let opts = options(&project("scripts/locomotion.lua"), false);
    let mut h = harness(&opts);
    h.run_steps(2);
    let model = h.state().session.model().clone();
    let head = model.skeleton.find("head").expect("a head joint");
    let pos = h
        .state()
        .viewport
        .joint_on_screen(head)
        .expect("head on screen");
    h.hover_at(pos);
    h.run_steps(1);
    h.drag_at(pos);
    h.run_steps(1);
    h.drop_at(pos);
    h.run_steps(2);
    assert_eq!(h.state().window.selected_joint, Some(head));
    assert!(
        h.query_all_by_label("local T").count() >= 1,
        "TRS of the selection shows"
    );
}

/// The outliner says what last changed the selected joint: in `hello` at 1.5 s the right upper
/// arm comes from the wave layer (mask 1, weight 1), the head from the look-at post op, and the
/// left upper arm from the state machine underneath (the layer's mask is 0 there).
#[test]
fn outliner_shows_joint_provenance() {
    let mut opts = options(&project("scripts/locomotion.lua"), false);
    opts.take = Some("hello".into());
    opts.time = Some(1.5);
    let mut h = harness(&opts);
    h.run_steps(2);
    let model = h.state().session.model().clone();
    let joint = |name: &str| model.skeleton.find(name).expect(name);
    for (name, expected) in [
        ("R_upperarm", "layer (mask 1.00 x weight 1.00)"),
        ("head", "post op 1 (look at)"),
        ("L_upperarm", "state machine 'state_machine'"),
    ] {
        h.state_mut().window.selected_joint = Some(joint(name));
        h.run_steps(2);
        assert!(
            h.query_by_label(expected).is_some(),
            "{name}: expected '{expected}' in the outliner"
        );
    }
    assert!(h
        .query_by_label("then the script's post function, which may change any joint")
        .is_none());
}
