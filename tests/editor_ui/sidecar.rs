//! The sidecar: take edits and the camera survive closing and reopening; a corrupt sidecar is
//! reported and set aside, never lost.

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use marionette::anim::graph::ParamValue;
use marionette::editor::sidecar_path as path_for;
use marionette::editor::{key_track as track, set_key_at};

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
        h.state_mut().viewport_mut().camera.yaw = 1.25;
        h.key_press_modifiers(Modifiers::COMMAND, Key::S);
        h.run_steps(1);
        assert!(!h.state().is_dirty());
        let take = h.state().session().take().cloned().expect("take");
        (take, h.state().viewport().camera)
    };
    assert!(path_for(&tmp.script).is_file());
    assert_eq!(std::fs::read(&tmp.script).expect("script"), source);
    opts.take = None;
    let mut h = harness(&opts);
    h.run_steps(1);
    let back = h
        .state()
        .session()
        .take()
        .cloned()
        .expect("the saved take is selected");
    assert_eq!(back, take);
    let keys = &track(&back, "speed").expect("speed track").keys;
    assert!(keys.iter().any(|k| (k.0 - 3.5).abs() < 1e-6));
    assert_eq!(h.state().viewport().camera.yaw, camera.yaw);
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
    h.state_mut().viewport_mut().camera.yaw = 0.75;
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
    assert!(h.state().console().contains("not a valid sidecar"));
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

/// The script's folder, file names sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A sidecar of a newer version is refused by name and version and never written: not by
/// Ctrl+S, not by autosave, not on close (which offers no "Save and close").
#[test]
fn newer_sidecar_left_untouched() {
    let tmp = TempScript::new("sidecar-newer");
    let path = path_for(&tmp.script);
    let text = r#"{"version": 9, "future": {"x": 1}, "takes": [{"name": "from_the_future"}]}"#;
    std::fs::write(&path, text).expect("write");
    let mut opts = options(&tmp.script, true);
    opts.take = Some("walk_to_run".into());
    let mut h = harness(&opts);
    h.run_steps(1);
    assert!(h.state().console().contains(&format!(
        "{}: sidecar version 9 is newer than the supported version 3",
        path.display()
    )));
    h.state_mut().edit_takes(|takes, cur| {
        let take = &mut takes[cur.expect("a take")];
        set_key_at(take, "speed", 3.5, ParamValue::Float(5.0)).expect("key");
    });
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    // Longer than the autosave interval (5 s at 30 steps per second).
    h.run_steps(200);
    assert!(h.state().console().contains("not saved: "));
    assert!(h.state().is_dirty());
    h.state_mut().request_close();
    h.run_steps(2);
    assert!(h.state().window().confirm_close && !h.state().window().quit);
    assert!(h.query_by_label("Save and close").is_none());
    assert!(h.query_by_label_contains("will be lost").is_some());
    h.get_by_label("Discard and close").click();
    h.run_steps(1);
    assert!(h.state().window().quit);
    assert_eq!(std::fs::read_to_string(&path).expect("sidecar"), text);
    assert_eq!(
        listing(&tmp.dir),
        vec!["locomotion.lua", "locomotion.marionette.json"]
    );
}

/// An invalid take is reported with the file, its name and what is wrong, is not loaded, and
/// is written back unchanged by the next save; takes naming a parameter the script lacks, or
/// keying one with the wrong kind, are reported and fail to play with a message, no panic.
#[test]
fn invalid_takes_reported_and_kept() {
    let tmp = TempScript::new("sidecar-invalid");
    let path = path_for(&tmp.script);
    let broken = serde_json::json!({"name": "broken", "duration": 2, "fps": 0,
        "tracks": [], "triggers": []});
    let file = serde_json::json!({"version": 1, "takes": [
        broken,
        {"name": "ghost", "duration": 2, "fps": 30, "triggers": [],
         "tracks": [{"param": "nope", "step": false, "keys": [[0, 1.0]]}]},
        {"name": "wrong_kind", "duration": 2, "fps": 30, "triggers": [],
         "tracks": [{"param": "speed", "step": true, "keys": [[0, true]]}]}
    ]});
    std::fs::write(&path, file.to_string()).expect("write");
    let opts = options(&tmp.script, true);
    let mut h = harness(&opts);
    h.run_steps(1);
    let shown = path.display().to_string();
    let console = &h.state().console();
    assert!(console.contains(&format!(
        "{shown}: take 'broken' not loaded: fps 0 is outside 1..1000; it is kept in the file"
    )));
    assert!(console.contains(&format!("{shown}: take 'ghost': unknown parameter 'nope'")));
    assert!(console.contains(&format!(
        "{shown}: take 'wrong_kind': parameter 'speed': a bool key on a float parameter"
    )));
    let names: Vec<String> = h
        .state()
        .session()
        .takes
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert!(!names.iter().any(|n| n == "broken"), "{names:?}");
    for name in ["ghost", "wrong_kind"] {
        let i = names.iter().position(|n| n == name).expect("loaded");
        h.state_mut().select_take(Some(i));
        h.run_steps(2);
        assert_eq!(
            h.state().session().take_index(),
            None,
            "{name} does not play"
        );
    }
    let walk = names.iter().position(|n| n == "walk_to_run").expect("walk");
    h.state_mut().select_take(Some(walk));
    h.state_mut().edit_takes(|takes, cur| {
        let take = &mut takes[cur.expect("a take")];
        set_key_at(take, "speed", 1.5, ParamValue::Float(2.0)).expect("key");
    });
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(1);
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("sidecar")).expect("json");
    let takes = back["takes"].as_array().expect("takes");
    let saved: Vec<&str> = takes.iter().filter_map(|t| t["name"].as_str()).collect();
    for name in ["walk_to_run", "ghost", "wrong_kind", "broken"] {
        assert!(saved.contains(&name), "{name} in {saved:?}");
    }
    assert!(takes.contains(&broken), "the broken take as it was");
}

/// A sidecar whose timeline view spans ~1e38 s (finite, so it is kept) opens and draws the
/// take's weight lanes (scrolled to, they are the last): their sample stride saturated to `usize::MAX` and stepping by it
/// overflowed (a panic in debug builds).
#[test]
fn huge_timeline_span_opens() {
    let tmp = TempScript::new("sidecar-huge-span");
    let file = r#"{"version": 2, "selected_take": "walk_to_run",
        "timeline": {"visible": {"start": 1, "end": 3e38}, "scroll": 100000}}"#;
    std::fs::write(path_for(&tmp.script), file).expect("write");
    let mut h = harness(&options(&tmp.script, true));
    h.run_steps(3);
    let take = h.state().session().take().map(|t| t.name.clone());
    assert_eq!(take.as_deref(), Some("walk_to_run"));
    assert!(h.query_all_by_label_contains("Weight lane ").count() > 0);
}
