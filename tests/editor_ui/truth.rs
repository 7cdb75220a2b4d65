//! One truth for a take (issue 20 §5): a take edited in the editor lives in the sidecar, and
//! every command plays it as the editor shows it — `marionette bake` writes the same bytes as
//! the editor's Bake, `run` prints the edited take's pose and says so — unless `--no-sidecar`.
//! A change of the script's own take since the edit is said in the console and the take bar,
//! with an undoable Revert; the command line warns about it.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use marionette::anim::graph::ParamValue;
use marionette::editor::set_key_at;

use super::reload::step_until;
use super::{harness, options, project, TempScript};

fn marionette(args: &[&str], script: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marionette"))
        .arg(args[0])
        .arg(script)
        .args(&args[1..])
        .output()
        .expect("run marionette")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Edits walk_to_run (speed 5 at 2 s), saves the sidecar: the edited take.
fn edit_and_save(h: &mut egui_kittest::Harness<'_, marionette::editor::Editor>) {
    h.run_steps(2);
    h.state_mut().edit_takes(|takes, cur| {
        let take = &mut takes[cur.expect("a take")];
        set_key_at(take, "speed", 2.0, ParamValue::Float(5.0)).expect("key");
    });
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(1);
    assert!(!h.state().is_dirty());
}

/// The editor's Bake of an edited take and `marionette bake` of the same take write the same
/// bytes; `run` prints the edited pose and says it uses the sidecar; `--no-sidecar` gives the
/// script's take.
#[test]
fn cli_and_editor_play_and_bake_the_same_edited_take() {
    let tmp = TempScript::new("truth-bake");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    edit_and_save(&mut h);
    h.get_by_label("Bake...").click();
    h.run_steps(2);
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

    let rig = project("assets/mannequin.glb");
    let rig = rig.to_str().expect("utf-8 path");
    let cli = tmp.dir.join("cli.glb");
    let o = marionette(
        &[
            "bake",
            "--take",
            "walk_to_run",
            "--quiet",
            "--rig",
            rig,
            "-o",
            cli.to_str().expect("path"),
        ],
        &tmp.script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("using 1 edited take from"),
        "{}",
        stderr(&o)
    );
    let a = std::fs::read(&out).expect("dialog output");
    let b = std::fs::read(&cli).expect("cli output");
    assert!(
        a == b,
        "the editor's bake differs from the CLI's ({} vs {} bytes)",
        a.len(),
        b.len()
    );

    let plain = tmp.dir.join("plain.glb");
    let o = marionette(
        &[
            "bake",
            "--take",
            "walk_to_run",
            "--quiet",
            "--no-sidecar",
            "--rig",
            rig,
            "-o",
            plain.to_str().expect("path"),
        ],
        &tmp.script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("edited take"), "{}", stderr(&o));
    assert_ne!(std::fs::read(&plain).expect("plain output"), a);

    // run: the edited take at 2.5 s (speed 5 from 2 s) against the script's
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--take", "walk_to_run", "--time", "2.5", "--json"];
        args.extend_from_slice(extra);
        marionette(&args, &tmp.script)
    };
    let (edited, written) = (run(&[]), run(&["--no-sidecar"]));
    assert!(edited.status.success() && written.status.success());
    assert!(stderr(&edited).contains("using 1 edited take from"));
    assert_ne!(edited.stdout, written.stdout);
    let json: serde_json::Value = serde_json::from_slice(&edited.stdout).expect("json");
    let speed = json["params"]["speed"]
        .as_f64()
        .expect("speed in run's report");
    // keys (1, 1.4), (2, 5) edited in, (3, 4): 4.5 at 2.5 s (the script's take has 3.35)
    assert!((speed - 4.5).abs() < 1e-4, "speed {speed}");
}

/// After the script changes a take that was edited here, the console and the take bar say so;
/// Revert takes the script's version, Ctrl+Z brings the edit back; `run` warns too.
#[test]
fn a_script_change_under_an_edit_is_said_and_revert_is_undoable() {
    let tmp = TempScript::new("truth-conflict");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    edit_and_save(&mut h);
    let edited = h.state().session().take().cloned().expect("take");

    let source = std::fs::read_to_string(&tmp.script).expect("script");
    let changed = source.replace("{ 3, 4.0 } }", "{ 3, 3.0 } }");
    assert_ne!(changed, source, "the script's walk_to_run keys were found");
    std::fs::write(&tmp.script, changed).expect("write");
    let wanted = "the script changed take 'walk_to_run' since it was edited here";
    step_until(&mut h, Duration::from_secs(20), |ed| {
        ed.console().contains(wanted)
    });
    assert!(
        h.state().console().contains(wanted),
        "{:?}",
        h.state().console().lines()
    );
    h.run_steps(1);
    assert_eq!(
        h.state().session().take(),
        Some(&edited),
        "the edit still plays"
    );
    // the console line and the take bar's notice
    assert!(
        h.query_all_by_label_contains(wanted).count() >= 2,
        "the take bar says it"
    );

    // the command line plays the edit too, and warns
    let o = marionette(
        &["run", "--take", "walk_to_run", "--time", "1"],
        &tmp.script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("the script changed take 'walk_to_run' since it was edited in the editor"),
        "{}",
        stderr(&o)
    );

    h.get_by_label("Revert take to script").click();
    h.run_steps(2);
    let script = h
        .state()
        .session()
        .script_take("walk_to_run")
        .cloned()
        .expect("the script's take");
    assert_eq!(h.state().session().take(), Some(&script));
    assert!(h.query_by_label("Revert take to script").is_none());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(
        h.state().session().take(),
        Some(&edited),
        "undo brings the edit back"
    );
}

/// A key set to flat in the editor plays as `run` prints it (through the sidecar), as the same
/// key written `ease = "flat"` in the script does, and as the curve says: walk_to_run's speed
/// keys (0, 0), (1, 1.4), (3, 4) with key 1 flat give, at 0.75 s, the Hermite value with slopes
/// 1.4 out of key 0 and 0 into key 1 (1.246875).
#[test]
fn an_eased_key_plays_the_same_in_the_editor_run_and_the_script() {
    use marionette::anim::graph::Ease;
    let tmp = TempScript::new("truth-ease");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    opts.time = Some(0.75);
    let mut h = harness(&opts);
    h.run_steps(2);
    h.state_mut().edit_takes(|takes, cur| {
        let take = &mut takes[cur.expect("a take")];
        marionette::editor::set_ease(take, "speed", &[1], Ease::Flat).expect("ease");
    });
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    h.state_mut().session_mut().seek(0.75);
    let shown = h
        .state()
        .session()
        .running()
        .expect("runs")
        .graph()
        .params()
        .values()
        .iter()
        .zip(
            h.state()
                .session()
                .running()
                .expect("runs")
                .graph()
                .params()
                .defs(),
        )
        .find(|(_, d)| d.name == "speed")
        .map(|(v, _)| v.as_f32())
        .expect("speed");
    assert!((shown - 1.246875).abs() < 1e-5, "editor: {shown}");
    let speed_of = |out: Output| {
        assert!(out.status.success(), "{}", stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        json["params"]["speed"].as_f64().expect("speed") as f32
    };
    let run = speed_of(marionette(
        &["run", "--take", "walk_to_run", "--time", "0.75", "--json"],
        &tmp.script,
    ));
    assert_eq!(
        run, shown,
        "run plays the edited take as the editor shows it"
    );
    // the same key written in the script, without the sidecar
    let source = std::fs::read_to_string(&tmp.script).expect("script");
    let eased = source.replace("{ 1, 1.4 }", "{ 1, 1.4, ease = \"flat\" }");
    assert_ne!(eased, source);
    std::fs::write(&tmp.script, eased).expect("write");
    let script = speed_of(marionette(
        &[
            "run",
            "--take",
            "walk_to_run",
            "--time",
            "0.75",
            "--json",
            "--no-sidecar",
        ],
        &tmp.script,
    ));
    assert_eq!(script, shown, "the script's ease plays as the editor's");
}
