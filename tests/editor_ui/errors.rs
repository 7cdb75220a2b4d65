//! Errors the editor shows: a `post` that throws at the playhead (a banner naming the take and
//! time, one console line however many frames fail), gone on a frame that works, after a
//! parameter change or once the script is fixed; a script broken when opened (the rig at rest,
//! the banner, loaded by the save that fixes it); a long error readable at 1280x720.

use std::path::Path;
use std::time::Duration;

use egui_kittest::kittest::Queryable;
use egui_kittest::SnapshotOptions;
use marionette::anim::graph::ParamValue;
use marionette::anim::Transform;
use marionette::editor::Editor;
use marionette::preview::load_preview;

use super::reload::step_until;
use super::{harness, options, project, TempScript};

/// A take whose `post` (a Rust op, then Lua) throws between 1 and 1.9 s, on line 8.
const LATE: &str = "local rig = marionette.rig()
params { look = vec3(0, 1.6, 2) }
return graph {
  root = rig.idle,
  post = {
    ik.look_at('head', 'look', { weight = 0.7 }),
    function(pose, ctx)
      if ctx.time > 1 and ctx.time < 1.9 then error('boom') end
    end,
  },
  takes = { late = { duration = 2, fps = 10 } },
}
";

/// The pose `marionette run SCRIPT --take late --time T` shows.
fn run_pose(script: &std::path::Path, t: f64) -> Vec<Transform> {
    let mut p = load_preview(
        script,
        &marionette::rigs::RigChoice::fallback(project("assets/mannequin.glb")),
    )
    .expect("loads");
    p.graph.play(Some("late")).expect("take plays");
    p.graph.seek(t).to_vec()
}

/// Console lines containing `needle`.
fn console_lines(ed: &Editor, needle: &str) -> usize {
    ed.console()
        .lines()
        .iter()
        .filter(|(_, l)| l.contains(needle))
        .count()
}

/// `post` throwing at the playhead: banner and one console line with take and time; a later or
/// earlier frame where it works shows no banner and `post` applies again (Rust ops included);
/// the error comes back without a second line; a fixed script clears it.
#[test]
fn post_error_shows_and_clears() {
    let tmp = TempScript::new("post-error");
    std::fs::write(&tmp.script, LATE).expect("write");
    let mut h = harness(&options(&tmp.script, false));
    h.run_steps(2);
    assert!(
        h.state().session().error().is_none(),
        "{:?}",
        h.state().session().error()
    );
    assert_eq!(
        h.state().session().take().map(|t| t.name.as_str()),
        Some("late")
    );
    h.state_mut().seek(0.5);
    h.run_steps(1);
    assert!(h.state().session().runtime_error().is_none());
    assert!(h.query_by_label_contains("Runtime error").is_none());

    h.state_mut().seek(1.5);
    h.run_steps(2);
    let where_ = "locomotion.lua:8: boom";
    let headline = h
        .state()
        .session()
        .runtime_error()
        .map(|e| e.headline())
        .expect("post threw at 1.5 s");
    assert!(headline.ends_with(where_), "{headline}");
    assert!(
        h.query_by_label_contains("Runtime error").is_some(),
        "banner"
    );
    assert!(
        h.query_by_label("in take 'late' at 1.50 s").is_some(),
        "the banner names the take and time"
    );
    assert_eq!(
        console_lines(h.state(), where_),
        1,
        "{:?}",
        h.state().console().lines()
    );
    assert!(h.state().console().contains(&format!(
        "runtime error in take 'late' at 1.50 s (the pose is shown without post): {headline}"
    )));
    assert!(
        h.query_all_by_label_contains(where_).count() >= 2,
        "banner and console show file:line"
    );
    assert_eq!(
        h.state().session().pose(),
        run_pose(&tmp.script, 1.5).as_slice(),
        "the pose without post, as `run` shows it"
    );

    // every failing frame of playback: still one line
    h.get_by_label("Play").click();
    h.run_steps(4);
    h.state_mut().window_mut().transport.playing = false;
    h.state_mut().seek(1.8);
    h.run_steps(1);
    assert_eq!(console_lines(h.state(), where_), 1);

    // a later frame where post works: no banner, and post (look_at included) applies again
    h.state_mut().seek(1.95);
    h.run_steps(1);
    assert!(h.state().session().runtime_error().is_none());
    assert!(h.query_by_label_contains("Runtime error").is_none());
    assert_eq!(
        h.state().session().pose(),
        run_pose(&tmp.script, 1.95).as_slice(),
        "post applies again"
    );

    // an earlier one too
    h.state_mut().seek(0.5);
    h.run_steps(1);
    assert!(h.state().session().runtime_error().is_none());
    assert!(h.query_by_label_contains("Runtime error").is_none());
    assert_eq!(
        h.state().session().pose(),
        run_pose(&tmp.script, 0.5).as_slice(),
        "post applies again"
    );

    // back to the failing frame, then the fix: the reload clears it at the same playhead
    h.state_mut().seek(1.5);
    h.run_steps(1);
    assert!(h.query_by_label_contains("Runtime error").is_some());
    let fixed = LATE.replace("error('boom')", "local _ = 1");
    std::fs::write(&tmp.script, fixed).expect("write");
    step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.console().contains("reloaded in")
    });
    h.run_steps(1);
    assert_eq!(h.state().session().time(), 1.5, "the playhead stays");
    assert!(h.state().session().runtime_error().is_none());
    assert!(h.query_by_label_contains("Runtime error").is_none());
    assert_eq!(
        h.state().session().pose(),
        run_pose(&tmp.script, 1.5).as_slice()
    );
}

/// Live parameters: a value that makes `post` throw shows the banner while playing; moving it
/// back clears the banner at once, paused.
#[test]
fn parameter_change_clears_runtime_error() {
    let tmp = TempScript::new("param-error");
    std::fs::write(
        &tmp.script,
        "local rig = marionette.rig()
params { bad = float(0, 0, 1) }
return graph {
  root = rig.idle,
  post = function(pose, ctx)
    if ctx.bad > 0.5 then error('too bad: ' .. ctx.bad) end
  end,
}
",
    )
    .expect("write");
    let mut h = harness(&options(&tmp.script, false));
    h.run_steps(2);
    assert!(
        h.state().session().error().is_none(),
        "{:?}",
        h.state().session().error()
    );
    assert!(h.state().session().take().is_none(), "live mode");
    h.state_mut()
        .session_mut()
        .set_param("bad", ParamValue::Float(1.0));
    h.state_mut().window_mut().transport.playing = true;
    h.run_steps(3);
    h.state_mut().window_mut().transport.playing = false;
    h.run_steps(1);
    assert!(h.query_by_label_contains("Runtime error").is_some());
    assert_eq!(
        h.query_all_by_label_contains("in live parameters at")
            .count(),
        2,
        "banner and console name where"
    );
    assert_eq!(console_lines(h.state(), "locomotion.lua:6: too bad: 1"), 1);

    h.state_mut()
        .session_mut()
        .set_param("bad", ParamValue::Float(0.0));
    h.run_steps(1);
    assert!(h.state().session().runtime_error().is_none());
    assert!(h.query_by_label_contains("Runtime error").is_none());
}

/// A script that does not load opens anyway: the mannequin at rest, the banner with
/// `file:line`, empty panels; saving a fix loads it (its first take selected).
#[test]
fn broken_script_opens_and_loads_when_fixed() {
    let tmp = TempScript::new("broken-open");
    let good = std::fs::read_to_string(&tmp.script).expect("script");
    let mut lines: Vec<&str> = good.lines().collect();
    lines[9] = "  speed = float(0, 0, 6) +";
    std::fs::write(&tmp.script, lines.join("\n")).expect("write");
    let mut h = harness(&options(&tmp.script, false));
    h.run_steps(2);
    let ed = h.state();
    assert!(!ed.session().is_loaded());
    let headline = ed
        .session()
        .error()
        .map(|e| e.headline())
        .expect("an error");
    assert!(headline.contains("locomotion.lua:1"), "{headline}");
    assert!(ed.session().takes.is_empty());
    assert_eq!(
        ed.session().pose(),
        ed.session().model().skeleton.rest_pose(),
        "the rig at rest"
    );
    assert!(ed.console().contains("the script did not load"));
    assert!(
        h.query_by_label_contains("Script error").is_some(),
        "banner"
    );
    assert!(h
        .query_by_label_contains("saving a fix loads the script")
        .is_some());
    assert_eq!(
        h.query_all_by_label_contains("not loaded yet").count(),
        2,
        "parameters and states say so"
    );

    std::fs::write(&tmp.script, &good).expect("write");
    step_until(&mut h, Duration::from_secs(5), |ed| {
        ed.session().is_loaded()
    });
    h.run_steps(1);
    let ed = h.state();
    assert!(ed.session().is_loaded(), "the fix loads");
    assert!(ed.session().error().is_none());
    assert_eq!(
        ed.session().take().map(|t| t.name.as_str()),
        Some("walk_to_run"),
        "the first take in the script's order plays (not the alphabetical first, hello)"
    );
    assert!(ed.console().contains("reloaded in"));
    assert!(h.query_by_label_contains("Script error").is_none());
}

/// A long first error with more after it (`tests/fixtures/editor/long_error.lua`, opened by a
/// relative path on the built-in mannequin so the image is the same in any checkout): the
/// banner wraps it (file:line first, the message elided after three rows) and keeps "+2 more"
/// in view; the console wraps too.
#[test]
fn long_error_is_readable() {
    let mut opts = options(Path::new("tests/fixtures/editor/long_error.lua"), false);
    opts.rig = Default::default();
    let mut h = harness(&opts);
    h.run_steps(2);
    let e = h.state().session().error().cloned().expect("an error");
    assert_eq!(e.more.len(), 2);
    assert!(e.headline().len() > 500, "{}", e.headline());
    assert!(h
        .query_by_label_contains("(+2 more: see the console)")
        .is_some());
    assert!(
        h.query_all_by_label_contains("long_error.lua:4: unknown clip")
            .count()
            >= 2,
        "banner and console"
    );
    h.remove_cursor();
    h.run_steps(1);
    h.snapshot_options(
        "editor_long_error",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
}
