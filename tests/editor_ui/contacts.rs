//! Foot contacts in the timeline (issue 33): a take shows one lane per foot under the state
//! machines, a `planted` bar per contact, from the same measure `check --report` uses.

use egui_kittest::kittest::Queryable;
use marionette::editor::sidecar_path as path_for;
use serde_json::json;

use super::{harness, options, TempScript};

#[test]
fn each_foot_has_a_lane_of_contact_bars() {
    let tmp = TempScript::new("contacts");
    // the parameter lanes folded, so the state and contact lanes are on screen
    let folded = json!({"collapsed": true});
    let lanes: serde_json::Map<String, serde_json::Value> =
        ["blink", "jump", "look", "smile", "speed", "wave"]
            .iter()
            .map(|p| (format!("param:{p}"), folded.clone()))
            .collect();
    let file = json!({"version": 1, "selected_take": "walk_to_run", "timeline": {"lanes": lanes}, "takes": []});
    std::fs::write(path_for(&tmp.script), file.to_string()).expect("write");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    h.run_steps(3);
    for foot in ["L_foot", "R_foot"] {
        assert!(
            h.query_by_label(&format!("State lane {foot} contact"))
                .is_some(),
            "no contact lane for {foot}"
        );
    }
    let image = h.render().expect("renders");
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        image
            .save(std::path::Path::new(&dir).join("editor_contacts.png"))
            .expect("save");
    }
}

/// A take's broken `assert_motion` shows in the console as `check` prints it, when the take
/// plays (and again after each edit or reload).
#[test]
fn a_broken_assertion_shows_in_the_console() {
    let tmp = TempScript::new("asserts");
    let text = std::fs::read_to_string(&tmp.script).expect("script");
    assert!(text.contains("L_calf = { max = 150 }"));
    std::fs::write(
        &tmp.script,
        text.replace("L_calf = { max = 150 }", "L_calf = { max = 90 }"),
    )
    .expect("write");
    let mut opts = options(&tmp.script, false);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    h.run_steps(3);
    let line =
        "take 'walk_to_run' at 3.450 s (frame 207): L_calf is 94.3 degrees from rest > 90 degrees";
    assert!(
        h.query_by_label_contains(line).is_some(),
        "the console does not show: {line}"
    );
}
