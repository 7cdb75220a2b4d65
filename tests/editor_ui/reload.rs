//! Hot reload inside the editor: a saved change shows on the next frame, a syntax error shows
//! the banner with `file:line` while the last good graph keeps playing, a fix removes it.

use std::time::{Duration, Instant};

use egui_kittest::kittest::Queryable;
use marionette::editor::Editor;

use super::{harness, options, TempScript};

/// Steps the editor until `done` holds (or `limit` passes); returns the time it took.
pub(crate) fn step_until(
    h: &mut egui_kittest::Harness<'_, Editor>,
    limit: Duration,
    done: impl Fn(&Editor) -> bool,
) -> Duration {
    let start = Instant::now();
    while !done(h.state()) && start.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    start.elapsed()
}

/// A change to `speed`'s range shows after the save; a syntax error shows the banner and keeps
/// the old graph playing; fixing it removes the banner.
#[test]
fn reload_error_banner_and_fix() {
    let tmp = TempScript::new("reload");
    let opts = options(&tmp.script, false);
    let mut h = harness(&opts);
    h.run_steps(2);
    let max = |ed: &mut Editor| {
        let params = ed
            .session_mut()
            .graph()
            .expect("the script runs")
            .graph()
            .params();
        params
            .defs()
            .iter()
            .find(|d| d.name == "speed")
            .map(|d| d.max)
    };
    assert_eq!(max(h.state_mut()), Some(6.0));
    let source = std::fs::read_to_string(&tmp.script).expect("script");
    let changed = source.replace("speed = float(0, 0, 6)", "speed = float(0, 0, 9)");
    assert_ne!(changed, source);
    std::fs::write(&tmp.script, &changed).expect("write");
    let took = step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.console().contains("reloaded in")
    });
    println!("save -> reloaded frame: {took:?}");
    assert_eq!(max(h.state_mut()), Some(9.0), "the new graph runs");
    assert!(
        h.query_all_by_label_contains("reloaded in").count() >= 2,
        "flash and console show the reload"
    );

    // A syntax error on line 12: banner with file:line, old graph keeps playing.
    let mut lines: Vec<&str> = changed.lines().collect();
    lines[11] = "  this is not lua (";
    std::fs::write(&tmp.script, lines.join("\n")).expect("write");
    step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.session().error().is_some()
    });
    let headline = h
        .state()
        .session()
        .error()
        .map(|e| e.headline())
        .expect("an error");
    assert!(headline.contains("locomotion.lua:12:"), "{headline}");
    h.run_steps(1);
    assert!(
        h.query_by_label_contains("Script error").is_some(),
        "banner shows"
    );
    assert!(
        h.query_all_by_label_contains("locomotion.lua:12:").count() >= 2,
        "banner and console name file:line"
    );
    h.get_by_label("Play").click();
    let t0 = h.state().session().time();
    h.run_steps(5);
    assert!(
        h.state().session().time() > t0,
        "the last good graph keeps playing"
    );
    assert_eq!(max(h.state_mut()), Some(9.0));

    std::fs::write(&tmp.script, &source).expect("write");
    step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.session().error().is_none()
    });
    h.run_steps(1);
    assert!(
        h.query_by_label_contains("Script error").is_none(),
        "banner gone"
    );
    assert_eq!(max(h.state_mut()), Some(6.0));
}

/// A/B after a reload: the previous script's pose at the playhead shows as a ghost for a few
/// seconds (the pose the old script gave at that time, exactly), then goes and its graph is
/// dropped; the toolbar's A/B keeps it.
#[test]
fn the_previous_scripts_pose_shows_as_a_ghost_after_a_reload() {
    let tmp = TempScript::new("compare");
    let mut opts = options(&tmp.script, false);
    opts.take = Some("walk_to_run".into());
    opts.time = Some(1.5);
    let mut h = harness(&opts);
    h.run_steps(2);
    let before = h.state().session().pose().to_vec();
    assert!(
        h.state().window().compare.is_none(),
        "no ghost before a reload"
    );
    let source = std::fs::read_to_string(&tmp.script).expect("script");
    let changed = source.replace("{ 1.4, rig.walk },", "{ 1.4, rig.run },");
    assert_ne!(changed, source);
    std::fs::write(&tmp.script, changed).expect("write");
    step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.console().contains("reloaded in")
    });
    h.run_steps(1);
    let ghost = h.state().window().compare.clone().expect("the A/B ghost");
    assert_eq!(
        ghost.local, before,
        "the old script's pose at the same time"
    );
    assert_ne!(
        h.state().session().pose(),
        before.as_slice(),
        "the new one differs"
    );
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_ab.png"))
            .expect("save");
    }
    // once its time is over it goes (and the old graph with it) ...
    h.state_mut().window_mut().compare_until = 0.0;
    h.run_steps(1);
    assert!(h.state().window().compare.is_none());
    assert!(h
        .state_mut()
        .session_mut()
        .previous_pose_at(1.5, &mut Vec::new(), &mut Vec::new())
        .is_none());
    // ... unless pinned: the next reload's ghost stays
    h.get_by_label("A/B").click();
    h.run_steps(1);
    std::fs::write(&tmp.script, &source).expect("write back");
    step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.session().generation() >= 2
    });
    h.state_mut().window_mut().compare_until = 0.0;
    h.run_steps(2);
    assert!(h.state().window().compare.is_some(), "pinned");
}
