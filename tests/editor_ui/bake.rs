//! The bake dialog runs `bake::run` and writes the same bytes as `marionette bake` with the
//! same settings.

use std::process::Command;
use std::time::{Duration, Instant};

use egui_kittest::kittest::Queryable;

use super::{harness, options, project, TempScript};

/// Open the dialog from the title bar, bake one take, compare with the CLI's file.
#[test]
fn dialog_bakes_like_the_cli() {
    let tmp = TempScript::new("bake");
    let opts = options(&tmp.script, false);
    let mut h = harness(&opts);
    h.run_steps(1);
    h.get_by_label("Bake...").click();
    h.run_steps(2);
    assert!(h.state().bake_dialog().open);
    h.get_by_label("hello").click();
    h.run_steps(1);
    let out = tmp.dir.join("dialog.glb");
    h.state_mut().bake_dialog_mut().output = out.display().to_string();
    h.run_steps(1);
    h.get_by_label("Bake now").click();
    let start = Instant::now();
    while !h.state().console().contains("wrote") && start.elapsed() < Duration::from_secs(120) {
        if h.state().console().contains("bake:") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    assert!(
        h.state().console().contains("baked walk_to_run"),
        "{:?}",
        h.state().console().lines()
    );
    assert!(!h.state().console().contains("baked hello"));

    let cli = tmp.dir.join("cli.glb");
    let run = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .arg("bake")
        .arg(&tmp.script)
        .args(["--take", "walk_to_run", "--quiet", "--rig"])
        .arg(project("assets/mannequin.glb"))
        .arg("-o")
        .arg(&cli)
        .output()
        .expect("marionette bake");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let a = std::fs::read(&out).expect("dialog output");
    let b = std::fs::read(&cli).expect("cli output");
    assert!(
        a == b,
        "the dialog's file differs from the CLI's ({} vs {} bytes)",
        a.len(),
        b.len()
    );
}

/// A take edited in the editor is baked as edited: the dialog marks it and its job carries the
/// edited take as data (`BakeJob::takes`), with the key profile chosen in the dialog.
#[test]
fn dialog_bakes_edited_takes() {
    use marionette::anim::graph::ParamValue;
    use marionette::bake::Curves;
    use marionette::editor::set_key_at;

    let tmp = TempScript::new("bake-edited");
    let mut opts = options(&tmp.script, false);
    opts.take = Some("hello".into());
    let mut h = harness(&opts);
    h.run_steps(1);
    h.state_mut().edit_takes(|takes, cur| {
        let take = &mut takes[cur.expect("a take")];
        set_key_at(take, "wave", 1.0, ParamValue::Float(0.25)).expect("key");
    });
    h.run_steps(1);
    h.get_by_label("Bake...").click();
    h.run_steps(2);
    assert!(h.query_by_label("hello (as edited)").is_some());
    h.get_by_label("cubic").click();
    h.run_steps(1);
    let job = h.state().bake_dialog().job();
    assert_eq!(job.curves, Curves::Cubic);
    assert_eq!(job.takes.len(), 1);
    assert_eq!(&job.takes[0], h.state().session().take().expect("hello"));
}
