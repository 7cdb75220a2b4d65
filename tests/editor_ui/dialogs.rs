//! Help overlay, viewport toggles, outliner search and the close confirmation.

use egui::Key;
use egui_kittest::kittest::Queryable;
use marionette::anim::graph::ParamValue;
use marionette::editor::set_key_at;

use super::{harness, options, project, TempScript};

/// F1 opens the shortcut list; the Ghosts toggle adds ghost poses around the playhead; the
/// outliner search narrows the joint list.
#[test]
fn help_ghosts_and_search() {
    let mut opts = options(&project("scripts/locomotion.lua"), false);
    opts.take = Some("walk_to_run".into());
    opts.time = Some(1.0);
    let mut h = harness(&opts);
    h.run_steps(1);
    assert!(h.query_by_label("Keyboard shortcuts").is_none());
    h.key_press(Key::F1);
    h.run_steps(2);
    assert!(h.state().window().help_open);
    assert!(
        h.query_by_label("play / pause").is_some(),
        "the overlay lists shortcuts"
    );
    h.key_press(Key::F1);
    h.run_steps(1);
    assert!(!h.state().window().help_open);

    h.get_by_label("Ghosts").click();
    h.run_steps(2);
    assert!(h.state().viewport().overlays.ghosts);
    let t = h.state().session().time();
    assert_eq!(t, 1.0, "ghosts leave the playhead where it was");

    // (only the rows on screen are drawn: the forearms are below the outliner's edge)
    assert!(h.query_by_label("root").is_some());
    assert!(h.query_by_label("L_forearm").is_none());
    h.get_by_label("Search").focus();
    h.run_steps(1);
    h.get_by_label("Search").type_text("forearm");
    h.run_steps(2);
    assert!(
        h.query_by_label("L_forearm").is_some(),
        "matches come to the top"
    );
    assert!(h.query_by_label("R_forearm").is_some());
    assert!(
        h.query_by_label("root").is_none(),
        "search filters the joints"
    );
}

/// Closing with an unsaved take edit asks; "Discard and close" closes without writing.
#[test]
fn close_with_unsaved_edits_asks() {
    let tmp = TempScript::new("close");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    h.run_steps(1);
    h.state_mut().edit_takes(|takes, cur| {
        let take = &mut takes[cur.expect("take")];
        set_key_at(take, "speed", 2.0, ParamValue::Float(6.0)).expect("key");
    });
    h.run_steps(1);
    assert!(h.state().is_dirty());
    h.state_mut().request_close();
    h.run_steps(2);
    assert!(h.state().window().confirm_close && !h.state().window().quit);
    h.get_by_label("Discard and close").click();
    h.run_steps(1);
    assert!(h.state().window().quit);
    assert!(
        !marionette::editor::sidecar_path(&tmp.script).exists(),
        "discarding writes nothing"
    );
}
