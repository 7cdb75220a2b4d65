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
    let takes_before = h.state().session().takes.len();
    h.get_by_label("Record").click();
    h.run_steps(5);
    assert!(h.state().window().recording && h.state().window().transport.playing);
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
    assert_eq!(ed.session().takes.len(), takes_before + 1);
    let take = ed.session().take().expect("the recorded take is selected");
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
    let model = h.state().session().model().clone();
    let head = model.skeleton.find("head").expect("a head joint");
    let pos = h
        .state()
        .viewport()
        .joint_on_screen(head)
        .expect("head on screen");
    h.hover_at(pos);
    h.run_steps(1);
    h.drag_at(pos);
    h.run_steps(1);
    h.drop_at(pos);
    h.run_steps(2);
    assert_eq!(h.state().window().selected_joint, Some(head));
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
    let model = h.state().session().model().clone();
    let joint = |name: &str| model.skeleton.find(name).expect(name);
    for (name, expected) in [
        ("R_upperarm", "layer (mask 1.00 x weight 1.00)"),
        ("head", "post op 1 (look at, weight 0.70)"),
        ("L_upperarm", "state machine 'state_machine'"),
    ] {
        h.state_mut().window_mut().selected_joint = Some(joint(name));
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

/// The outliner lists the mannequin's face (a mesh with morph targets) under `head`; clicking
/// it shows each target's weight at the playhead, after `post`: `hello` smiles at 1.5 s.
#[test]
fn outliner_shows_morph_weights() {
    let mut opts = options(&project("scripts/locomotion.lua"), false);
    opts.take = Some("hello".into());
    opts.time = Some(1.5);
    let mut h = harness(&opts);
    h.run_steps(2);
    h.state_mut().window_mut().outliner_search = "face".into();
    h.run_steps(2);
    h.get_by_label("face (mesh, 3 morphs)").click();
    h.run_steps(2);
    assert_eq!(h.state().window().selected_morphs, Some(0));
    assert!(h.query_by_label("3 morph targets, follows head").is_some());
    // a row per target (the name, and a bar with the weight): blink and smile also name
    // parameters of the script, jaw_open only the target
    assert!(h.query_by_label("jaw_open").is_some());
    let bars = |w: &str| {
        h.query_all_by_role_and_label(Role::ProgressIndicator, w)
            .count()
    };
    assert_eq!((bars("1.000"), bars("0.000")), (1, 2));
    // selecting a joint goes back to the joint's details
    h.state_mut()
        .apply(marionette::editor::Action::SelectJoint(Some(0)));
    h.run_steps(2);
    assert_eq!(h.state().window().selected_morphs, None);
}

/// `--select` picks a joint or a mesh with morph targets by name; an unknown name is an error
/// with the closest one.
#[test]
fn select_option_picks_joint_or_mesh() {
    let mut opts = options(&project("scripts/locomotion.lua"), false);
    opts.select = Some("face".into());
    let h = harness(&opts);
    assert_eq!(h.state().window().selected_morphs, Some(0));
    opts.select = Some("head".into());
    let h = harness(&opts);
    let head = h.state().session().model().skeleton.find("head");
    assert_eq!(h.state().window().selected_joint, head);
    opts.select = Some("fase".into());
    let e = super::open_error(&opts);
    assert!(
        e.contains(
            "--select: no joint, mesh with morph targets, graph node or state called 'fase' (did you mean 'face'?) (graph nodes and states: "
        ),
        "{e}"
    );
}

/// A script with retarget nodes (`scripts/retarget.lua`): the inspector's Retarget section
/// lists each node with its weight; opened, its map (a row per character joint with the source
/// joint it follows, the chain, the joints left at rest) and *Copy as Lua*, which puts the map
/// on the clipboard as the table the script takes.
#[test]
fn retarget_section_shows_and_copies_the_map() {
    let mut opts = options(&project("scripts/retarget.lua"), false);
    opts.take = Some("march_and_bow".into());
    opts.time = Some(1.6);
    let mut h = harness(&opts);
    h.run_steps(2);
    assert!(h.query_by_label("Retarget").is_some());
    h.get_by_label("retarget from puppet.glb (March)  (100%)")
        .click();
    h.run_steps(2);
    assert!(h.query_by_label("from mixamorig:Hips").is_some());
    // how the rigs were aligned (the script asks for a T-pose: the puppet rests in an A-pose)
    assert!(
        h.query_by_label_contains(
            "aligned in a T-pose (arms out, legs straight down); translation scale"
        )
        .is_some(),
        "the rest alignment is not shown"
    );
    assert!(h
        .query_by_label("from the chain mixamorig:Spine, mixamorig:Spine1")
        .is_some());
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_retarget_panel.png"))
            .expect("save");
    }
    h.get_by_label("Copy as Lua").click();
    h.run_steps(1);
    let copied: Vec<String> = h
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    let text = copied.first().expect("Copy as Lua copies");
    assert!(text.contains("pelvis = \"mixamorig:Hips\""), "{text}");
    assert!(
        text.contains("{ \"spine_01\", \"spine_02\", \"chest\", from = { \"mixamorig:Spine\", \"mixamorig:Spine1\" } }"),
        "{text}"
    );
}

/// A capture retargeted with the rest chosen by measurement (`scripts/mocap.lua`): the section
/// says the rigs were aligned in a T-pose and lists the notes the retarget made (the rests
/// differ), as `bake` prints them.
#[test]
fn retarget_section_shows_alignment_and_notes() {
    let mut opts = options(&project("scripts/mocap.lua"), false);
    opts.take = Some("capture".into());
    opts.time = Some(0.5);
    let mut h = harness(&opts);
    h.run_steps(2);
    let notes: Vec<String> = {
        let g = h.state().session().running().expect("running").graph();
        let list = g.retargets();
        list[0].retargeter.notes().to_vec()
    };
    assert!(
        notes.iter().any(|n| n.contains("the rests differ by")),
        "{notes:?}"
    );
    assert!(h
        .query_by_label_contains("aligned in a T-pose (arms out, legs straight down)")
        .is_some());
    for note in &notes {
        assert!(
            h.query_by_label(&format!("- {note}")).is_some(),
            "note not shown: {note}"
        );
    }
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_retarget_notes.png"))
            .expect("save");
    }
}
