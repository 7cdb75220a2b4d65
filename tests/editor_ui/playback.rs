//! Play, pause, step, scrub, takes and parameters; the pose shown equals `run`'s.

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::SnapshotOptions;
use marionette::anim::graph::ParamValue;
use marionette::anim::Transform;
use marionette::preview::load_preview;

use super::{harness, options, project};

/// The pose `marionette run SCRIPT --take TAKE --time T` evaluates (same rig).
fn run_pose(take: Option<&str>, t: f64) -> Vec<Transform> {
    let script = project("scripts/locomotion.lua");
    let rig = project("assets/mannequin.glb");
    let mut p = load_preview(&script, &marionette::rigs::RigChoice::fallback(&rig))
        .expect("locomotion.lua loads");
    p.graph.play(take).expect("take plays");
    p.graph.seek(t).to_vec()
}

/// Play advances the playhead; Space pauses; arrows step one frame; Home/End jump; dragging
/// the playhead seeks; at every stop the pose is `run`'s pose at that time.
#[test]
fn play_step_scrub_match_run() {
    let opts = options(&project("scripts/locomotion.lua"), false);
    let mut h = harness(&opts);
    h.run_steps(2);
    let take = h.state().session().take().map(|t| t.name.clone());
    assert!(take.is_some(), "a take is selected on open");
    let take = take.as_deref();
    h.get_by_label("Play").click();
    h.run_steps(8);
    assert!(h.state().window().transport.playing);
    let t = h.state().session().time();
    assert!(t > 0.1, "playback advanced: {t}");
    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(!h.state().window().transport.playing, "Space pauses");
    let t = h.state().session().time();
    assert_eq!(h.state().session().pose(), run_pose(take, t).as_slice());

    let fps = f64::from(h.state().session().fps());
    h.key_press(Key::ArrowRight);
    h.run_steps(1);
    let stepped = h.state().session().time();
    assert!(((stepped - t) * fps - 1.0).abs() < 0.51, "{t} -> {stepped}");
    h.key_press(Key::Home);
    h.run_steps(1);
    assert_eq!(h.state().session().time(), 0.0);
    h.key_press(Key::End);
    h.run_steps(1);
    let end = f64::from(h.state().session().duration().unwrap_or(0.0));
    assert_eq!(h.state().session().time(), end);

    // Drag the playhead from the start of the bar to its middle.
    let rect = h
        .get_by_role_and_label(Role::Slider, "Timeline ruler")
        .rect();
    let (a, b) = (rect.left_center(), rect.center());
    h.drag_at(a);
    h.run_steps(1);
    h.hover_at(b);
    h.run_steps(1);
    h.drop_at(b);
    h.run_steps(2);
    let t = h.state().session().time();
    assert!(
        (t - end / 2.0).abs() < end * 0.1,
        "scrubbed to {t} of {end}"
    );
    assert_eq!(h.state().session().pose(), run_pose(take, t).as_slice());
}

/// The take selector switches takes and live mode; live, the `speed` slider drives the graph.
#[test]
fn takes_and_live_parameters() {
    let opts = options(&project("scripts/locomotion.lua"), false);
    let mut h = harness(&opts);
    h.run_steps(2);
    let first = h.state().session().take_index();
    h.get_by_label("Take").click();
    h.run_steps(2);
    let other = h
        .state()
        .session()
        .takes
        .iter()
        .position(|t| Some(t) != h.state().session().take());
    let other = other.expect("two takes");
    let name = h.state().session().takes[other].name.clone();
    h.get_by_label(&name).click();
    h.run_steps(2);
    assert_eq!(h.state().session().take_index(), Some(other));
    assert_ne!(Some(other), first);

    h.get_by_label("Take").click();
    h.run_steps(2);
    h.get_by_label("live").click();
    h.run_steps(2);
    assert_eq!(h.state().session().take_index(), None);
    h.get_by_role_and_label(Role::Slider, "speed")
        .set_value_accesskit(2.0);
    h.run_steps(2);
    let speed = h
        .state_mut()
        .session_mut()
        .graph()
        .expect("the script runs")
        .graph()
        .params()
        .values()
        .to_vec();
    assert!(speed.contains(&ParamValue::Float(2.0)), "{speed:?}");
    h.get_by_label("Play").click();
    h.run_steps(10);
    let state = h
        .state_mut()
        .session_mut()
        .graph()
        .expect("the script runs")
        .play_state();
    assert!(state.time > 0.2);
    assert!(state
        .params
        .iter()
        .any(|(n, v)| n == "speed" && *v == ParamValue::Float(2.0)));
}

/// In take mode: add a key at the playhead, move it, delete one; Ctrl+Z undoes each edit and
/// Ctrl+Shift+Z redoes it; the pose follows the edited take. Also keeps a snapshot.
#[test]
fn key_edits_undo_redo() {
    // Relative to the package root (cargo runs tests there), so the title bar of the snapshot
    // does not depend on where the repository is checked out.
    let mut opts = options(std::path::Path::new("scripts/locomotion.lua"), false);
    opts.take = Some("walk_to_run".into());
    opts.time = Some(2.5);
    let mut h = harness(&opts);
    h.run_steps(2);
    let keys = |h: &egui_kittest::Harness<'_, marionette::editor::Editor>| {
        let take = h.state().session().take().expect("a take").clone();
        marionette::editor::key_track(&take, "speed")
            .map(|t| t.keys.clone())
            .unwrap_or_default()
    };
    let before = keys(&h);
    let button = h
        .get_all_by_label("speed")
        .filter(|n| n.rect().left() > 900.0)
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the speed name (in the inspector, left of its slider)");
    button.click();
    h.run_steps(2);
    assert_eq!(h.state().window().key_param.as_deref(), Some("speed"));
    let pose_before = h.state().session().pose().to_vec();
    h.get_by_label("Add key at playhead").click();
    h.run_steps(2);
    let added = keys(&h);
    assert_eq!(added.len(), before.len() + 1, "{added:?}");
    assert!(added.iter().any(|k| (k.0 - 2.5).abs() < 1e-4));

    // Move key 0 (t = 0) to 0.5 s.
    h.get_by_label("key 0").set_value_accesskit(0.5);
    h.run_steps(2);
    let moved = keys(&h);
    assert!((moved[0].0 - 0.5).abs() < 1e-4, "{moved:?}");
    h.get_all_by_label("Delete")
        .next()
        .expect("a delete button")
        .click();
    h.run_steps(2);
    let deleted = keys(&h);
    assert_eq!(deleted.len(), moved.len() - 1);
    // The pose shown is the edited take's, evaluated like `run` evaluates a take.
    let edited = h.state().session().take().cloned().expect("take");
    let t = h.state().session().time();
    let mut reference = load_preview(
        &project("scripts/locomotion.lua"),
        &marionette::rigs::RigChoice::fallback(project("assets/mannequin.glb")),
    )
    .expect("loads")
    .graph;
    reference.play_take(&edited).expect("plays");
    assert_eq!(h.state().session().pose(), reference.seek(t));

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(keys(&h), moved);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(keys(&h), added);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(keys(&h), before);
    assert_eq!(
        h.state().session().pose(),
        pose_before.as_slice(),
        "undo restores the pose"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run_steps(1);
    assert_eq!(keys(&h), added);
    h.remove_cursor();
    h.run_steps(1);
    h.snapshot_options(
        "editor_walk_to_run",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
}

/// A loop range set on the ruler (its context menu) keeps playback inside it; the take's
/// events are on the ruler.
#[test]
fn a_loop_range_keeps_playback_inside_it() {
    let mut opts = options(&project("scripts/locomotion.lua"), false);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    h.run_steps(2);
    let ruler = h.get_by_label("Timeline ruler").rect();
    let view = h.state().layout().timeline.visible;
    let x_of = |t: f32| ruler.left() + (t - view.start) / view.span() * ruler.width();
    for (t, item) in [(1.0, "Loop from"), (2.0, "Loop to")] {
        let p = egui::pos2(x_of(t) + 0.5, ruler.center().y);
        h.hover_at(p);
        for pressed in [true, false] {
            h.event(egui::Event::PointerButton {
                pos: p,
                button: egui::PointerButton::Secondary,
                pressed,
                modifiers: Modifiers::NONE,
            });
        }
        h.run_steps(3);
        h.get_by_label_contains(item).click();
        h.run_steps(2);
    }
    // (snapped to the take's frames, within a frame of where it was clicked)
    let (a, b) = h
        .state()
        .layout()
        .timeline
        .loop_range
        .expect("a loop range");
    assert!(
        (a - 1.0).abs() <= 1.0 / 60.0 && (b - 2.0).abs() <= 1.0 / 60.0,
        "{a} {b}"
    );
    let (a, b) = (f64::from(a), f64::from(b));
    h.key_press(Key::Space);
    let mut seen = (f64::MAX, f64::MIN);
    for _ in 0..90 {
        h.step();
        let t = h.state().session().time();
        seen = (seen.0.min(t), seen.1.max(t));
    }
    assert!(seen.0 >= a && seen.1 <= b, "played {seen:?} in {a}..{b}");
    assert!(seen.1 - seen.0 > 0.9, "it loops over the range: {seen:?}");
}

/// The parameter widgets stay where they are when the take bar switches between a take and
/// live parameters (clicks land on the same control).
#[test]
fn parameters_keep_their_place_between_take_and_live() {
    let mut opts = options(&project("scripts/locomotion.lua"), false);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    h.run_steps(2);
    // (the parameters' widgets: those above the state panel, which moves as the key list
    // below the parameters comes and goes)
    let place = |h: &egui_kittest::Harness<'_, marionette::editor::Editor>| {
        let states = h.get_by_label("State machines").rect().top();
        ["speed", "wave", "jump"]
            .iter()
            .flat_map(|n| h.query_all_by_label(n).map(|node| node.rect().min))
            .filter(|p| p.y < states)
            .map(|p| (p.x.to_bits(), p.y.to_bits()))
            .collect::<Vec<_>>()
    };
    let in_take = place(&h);
    h.state_mut().select_take(None);
    h.run_steps(2);
    assert!(h.state().session().take().is_none(), "live");
    assert_eq!(place(&h), in_take);
}
