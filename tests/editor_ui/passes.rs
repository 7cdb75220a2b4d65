//! Bake passes in the editor (issue 33): a take with passes shows the frames after them and a
//! "Passes" toggle in the take bar; the console lists what they did; off shows the raw graph
//! (as `--no-passes`), kept across a reload; the bake dialog follows the toggle.

use egui_kittest::kittest::Queryable;

use super::{harness, options, TempScript};

#[test]
fn the_passes_toggle_shows_the_raw_graph() {
    let tmp = TempScript::new("passes");
    let text = std::fs::read_to_string(&tmp.script).expect("script");
    let anchor = "  root_motion = \"ground\",\n";
    assert!(text.contains(anchor));
    let with = text.replace(
        anchor,
        &format!("{anchor}  passes = {{ pass.smooth {{ window = 0.3 }}, pass.loop_close {{ blend = 0.5 }} }},\n"),
    );
    std::fs::write(&tmp.script, with).expect("write");
    let mut opts = options(&tmp.script, false);
    opts.take = Some("walk_to_run".into());
    opts.time = Some(3.9);
    let mut h = harness(&opts);
    h.run_steps(3);
    assert!(h.state().session().passes_on());
    assert!(
        h.state()
            .console()
            .contains("passes: take 'walk_to_run': loop_close: "),
        "{:?}",
        h.state().console().lines()
    );
    let after = h.state().session().pose().to_vec();
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_passes.png"))
            .expect("save");
    }
    h.get_by_label("Passes").click();
    h.run_steps(2);
    assert!(!h.state().session().passes_on());
    assert!(h
        .state()
        .console()
        .contains("passes off: the take plays the raw graph"));
    let raw = h.state().session().pose().to_vec();
    assert_ne!(after, raw, "the toggle changed nothing at 3.9 s");
    assert!(
        (h.state().session().time() - 3.9).abs() < 1e-9,
        "the playhead moved"
    );
    // the bake dialog opens as the toggle is
    h.get_by_label("Bake...").click();
    h.run_steps(1);
    assert!(!h.state().bake_dialog().job().passes);
    // off stays off across a reload
    h.state_mut().session_mut().reload();
    h.run_steps(1);
    assert!(!h.state().session().passes_on());
    assert_eq!(h.state().session().pose(), &raw[..]);
}
