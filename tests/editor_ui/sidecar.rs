//! The sidecar: take edits and the camera survive closing and reopening; a corrupt sidecar is
//! reported and set aside, never lost.

use egui::{Key, Modifiers};
use marionette::anim::graph::ParamValue;
use marionette::editor::sidecar::path_for;
use marionette::editor::timeline::keys::{set_key_at, track};

use super::{harness, options, TempScript};

/// A key added in the editor and the camera are back after a reopen (and the script file was
/// not touched).
#[test]
fn edits_survive_reopen() {
    let tmp = TempScript::new("sidecar");
    let source = std::fs::read(&tmp.script).expect("script");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    let (take, camera) = {
        let mut h = harness(&opts);
        h.run_steps(2);
        h.state_mut().edit_takes(|takes, cur| {
            let take = &mut takes[cur.expect("a take")];
            set_key_at(take, "speed", 3.5, ParamValue::Float(5.0)).expect("key");
        });
        h.state_mut().viewport.camera.yaw = 1.25;
        h.key_press_modifiers(Modifiers::COMMAND, Key::S);
        h.run_steps(1);
        assert!(!h.state().is_dirty());
        let take = h.state().session.take().cloned().expect("take");
        (take, h.state().viewport.camera)
    };
    assert!(path_for(&tmp.script).is_file());
    assert_eq!(std::fs::read(&tmp.script).expect("script"), source);
    opts.take = None;
    let mut h = harness(&opts);
    h.run_steps(1);
    let back = h
        .state()
        .session
        .take()
        .cloned()
        .expect("the saved take is selected");
    assert_eq!(back, take);
    let keys = &track(&back, "speed").expect("speed track").keys;
    assert!(keys.iter().any(|k| (k.0 - 3.5).abs() < 1e-6));
    assert_eq!(h.state().viewport.camera.yaw, camera.yaw);
}

/// Opening a script, looking around and closing without a take edit writes no sidecar: the
/// script's folder is left as it was.
#[test]
fn no_edit_writes_no_sidecar() {
    let tmp = TempScript::new("sidecar-untouched");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    h.run_steps(2);
    h.state_mut().viewport.camera.yaw = 0.75;
    // Longer than the autosave interval (5 s at 30 steps per second).
    h.run_steps(200);
    h.state_mut().request_close();
    h.run_steps(1);
    assert!(!path_for(&tmp.script).exists());
    let entries = std::fs::read_dir(&tmp.dir).expect("dir").count();
    assert_eq!(entries, 1, "only the script is in its folder");
}

/// A sidecar that does not parse is renamed aside with its content intact and reported.
#[test]
fn corrupt_sidecar_set_aside() {
    let tmp = TempScript::new("corrupt");
    let path = path_for(&tmp.script);
    std::fs::write(&path, "{ \"version\": 1, oops").expect("write");
    let opts = options(&tmp.script, true);
    let mut h = harness(&opts);
    h.run_steps(1);
    assert!(h.state().console.contains("not a valid sidecar"));
    let aside: Vec<_> = std::fs::read_dir(&tmp.dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        std::fs::read_to_string(&aside[0]).expect("aside"),
        "{ \"version\": 1, oops"
    );
}
