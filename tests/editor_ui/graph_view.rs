//! The graph view (issue 35): the script's graph drawn live — a card per node with its weight,
//! the state machine as a diagram — clicking a node selects it (its `file:line`, the joints it
//! drives lit in the viewport), the drawing stays put across a reload, and the viewport's
//! Drivers mode colours each bone by what last changed it.

use std::time::Duration;

use egui_kittest::kittest::Queryable;
use marionette::editor::{JointColors, Panel};

use super::reload::step_until;
use super::{harness, options, TempScript};

/// The line of the script that holds `needle` (1-based).
fn line_of(script: &std::path::Path, needle: &str) -> usize {
    let text = std::fs::read_to_string(script).expect("script");
    text.lines()
        .position(|l| l.contains(needle))
        .expect("the line")
        + 1
}

#[test]
fn the_graph_view_draws_every_node_live_and_a_click_selects_one() {
    let tmp = TempScript::new("graph-view");
    let mut opts = options(&tmp.script, false);
    opts.panels = vec![Panel::Graph];
    opts.take = Some("hello".into());
    opts.time = Some(1.0);
    let mut h = harness(&opts);
    h.run_steps(3);
    let (nodes, wave) = {
        let g = h.state().session().running().expect("running").graph();
        (g.nodes().count(), g.node("wave").expect("the wave player"))
    };
    {
        let shape = h.state().window().graph_view.shape().expect("drawn");
        assert_eq!(shape.cards.len(), nodes, "a card per node");
        // clips -> blend space -> state machine -> layer, and the wave clip into the layer
        assert_eq!(shape.wires.len(), nodes - 1, "a tree: one wire per input");
        let d = &shape.diagrams[0];
        assert_eq!(d.states.len(), 2);
        assert_eq!(d.arrows.len(), 2);
        // inputs are left of the nodes that read them
        for &(a, b) in &shape.wires {
            assert!(shape.cards[a].rect.max.x < shape.cards[b].rect.min.x);
        }
    }
    // the cards, the states and the transitions are there to click and read
    assert!(h.query_by_label("state move").is_some());
    assert!(h.query_by_label("transition move to jump").is_some());
    // (through AccessKit: egui reports the rectangles of a zoomed scene's widgets in the
    // scene's own coordinates, so a pointer click at them would miss)
    h.get_by_label("wave — clip").click_accesskit();
    h.run_steps(2);
    assert_eq!(h.state().window().selected_node, Some(wave));
    // its line in the script, and its weight (the take has wave at 1 at t = 1 s)
    let at = format!(
        "locomotion.lua:{}",
        line_of(&tmp.script, "rig.wave, mask = mask.subtree")
    );
    assert!(
        h.query_by_label_contains(&at).is_some(),
        "the selection shows {at}"
    );
    assert!(h.query_by_label("w 1.00").is_some(), "its weight");
    // the viewport lights the joints it drives: the masked right arm's, not the left foot
    let JointColors { colors, legend } = h.state().joint_colors();
    let skeleton = &h.state().session().model().skeleton;
    let joint = |n: &str| usize::from(skeleton.find(n).expect("joint"));
    assert_ne!(colors[joint("R_hand")], colors[joint("L_foot")]);
    assert!(
        legend[0].0.starts_with("driven by clip 'wave'"),
        "{legend:?}"
    );
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_graph_view.png"))
            .expect("save");
    }
    // a reload that changes a value moves nothing and keeps the selection
    let before: Vec<_> = {
        let shape = h.state().window().graph_view.shape().expect("drawn");
        shape
            .cards
            .iter()
            .map(|c| (c.title.clone(), c.rect))
            .collect()
    };
    let source = std::fs::read_to_string(&tmp.script).expect("script");
    let changed = source.replace("{ 1.4, rig.walk },", "{ 1.5, rig.walk },");
    assert_ne!(changed, source);
    std::fs::write(&tmp.script, changed).expect("write");
    step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.console().contains("reloaded in")
    });
    h.run_steps(2);
    let after: Vec<_> = {
        let shape = h.state().window().graph_view.shape().expect("drawn");
        shape
            .cards
            .iter()
            .map(|c| (c.title.clone(), c.rect))
            .collect()
    };
    assert_eq!(before, after, "the drawing stays put");
    assert_eq!(h.state().window().selected_node, Some(wave));
}

#[test]
fn drivers_colour_each_bone_by_what_last_changed_it() {
    let tmp = TempScript::new("drivers");
    let mut opts = options(&tmp.script, false);
    opts.take = Some("hello".into());
    opts.time = Some(1.0);
    let mut h = harness(&opts);
    h.run_steps(2);
    assert!(h.state().joint_colors().colors.is_empty(), "off by default");
    h.get_by_label("Drivers").click();
    h.run_steps(2);
    let JointColors { colors, legend } = h.state().joint_colors();
    let skeleton = &h.state().session().model().skeleton;
    assert_eq!(colors.len(), skeleton.len());
    let joint = |n: &str| usize::from(skeleton.find(n).expect("joint"));
    let names: Vec<&str> = legend.iter().map(|(t, _)| t.as_str()).collect();
    // the wave layer drives the right arm, the look-at the head, the foot lock the feet, the
    // state machine the rest
    assert!(names.iter().any(|t| t.starts_with("layer (")), "{names:?}");
    assert!(
        names.iter().any(|t| t.starts_with("post op 1 (look at)")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|t| t.starts_with("state machine")),
        "{names:?}"
    );
    assert_ne!(colors[joint("R_hand")], colors[joint("L_hand")]);
    assert_ne!(colors[joint("head")], colors[joint("spine_01")]);
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_drivers.png"))
            .expect("save");
    }
}

/// The state panel's "why it has not fired" lines wrap inside the inspector at 1280x720, however
/// long a condition reads (new-user trial: they were clipped at the window's edge).
#[test]
fn why_not_fired_wraps_inside_the_inspector() {
    let tmp = TempScript::new("why-not");
    let script = "local rig = marionette.rig()\n\
        params { the_speed_of_the_character_in_metres_per_second = float(0, 0, 6), \
        another_rather_long_condition_flag = bool(false) }\n\
        local sm = state_machine { start = 'idle', states = { idle = rig.idle, run = rig.run },\n\
          transitions = { { 'idle', 'run', when = { the_speed_of_the_character_in_metres_per_second = { '>', 2.5 }, another_rather_long_condition_flag = true } } } }\n\
        return graph { root = sm }\n";
    std::fs::write(&tmp.script, script).expect("write");
    let opts = options(&tmp.script, false);
    let mut h = harness(&opts);
    h.run_steps(3);
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_why_not.png"))
            .expect("save");
    }
    let line = h
        .get_by_label_contains("the_speed_of_the_character_in_metres_per_second = 0.000 > 2.5")
        .rect();
    assert!(
        line.right() <= 1280.0,
        "the reason ends at {} past the window",
        line.right()
    );
    assert!(line.height() > 20.0, "it wraps onto a second row: {line:?}");
}

/// `--select` takes a state's name too (its node is selected); a name several nodes share
/// selects the first and says so in the console, and the view moves to it.
#[test]
fn select_by_state_name_and_a_shared_name_says_which() {
    let mut opts = options(&super::project("scripts/locomotion.lua"), false);
    opts.panels = vec![Panel::Graph];
    opts.select = Some("move".into());
    let h = harness(&opts);
    let move_node = {
        let g = h.state().session().running().expect("runs").graph();
        let info = g.state_machines().next().expect("a machine");
        let sm = g.state_machine(info.node).expect("machine");
        sm.states()
            .iter()
            .find(|s| s.name == "move")
            .expect("move")
            .node
    };
    assert_eq!(h.state().window().selected_node, Some(move_node));

    let mut opts = options(&super::project("scripts/big_graph.lua"), false);
    opts.panels = vec![Panel::Graph];
    opts.select = Some("walk".into());
    let mut h = harness(&opts);
    h.run_steps(3);
    assert!(
        h.state()
            .console()
            .contains("--select: 48 graph nodes are called 'walk': the first (made at"),
        "{:?}",
        h.state().console().lines()
    );
    let chosen = h.state().window().selected_node.expect("selected");
    let card = h
        .state()
        .window()
        .graph_view
        .shape()
        .expect("drawn")
        .card(chosen)
        .expect("card")
        .rect;
    let view = h.state().window().graph_view.view_rect().expect("shown");
    assert!(
        view.contains_rect(card),
        "the view {view:?} shows the card {card:?}"
    );
}
