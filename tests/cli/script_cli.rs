//! `marionette run` and `marionette check` on real files.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::script_common::TempDir;

use crate::common;

fn bin() -> Command {
    crate::common::marionette_cmd()
}

/// A scratch folder for one test (`tag`, removed when dropped) holding the script `name` with
/// `text`: (folder, script); keep the folder alive while the script is used.
fn script_file(tag: &str, name: &str, text: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new(&format!("cli-{tag}"));
    let path = dir.write(name, text);
    (dir, path)
}

/// `run SCRIPT --take TAKE --time TIME --json`, which must succeed: the report.
fn run_json(script: &Path, take: &str, time: &str) -> serde_json::Value {
    let out = common::stdout_ok(
        bin()
            .arg("run")
            .arg(script)
            .args(["--take", take, "--time", time, "--json"]),
    );
    serde_json::from_slice(&out).expect("json")
}

/// `run --json` prints the sample contract plus states, transition progress and node weights.
#[test]
fn run_prints_pose_states_and_weights() {
    let v = run_json(Path::new("scripts/locomotion.lua"), "walk_to_run", "2.05");
    assert_eq!(v["clip"], "walk_to_run");
    assert_eq!(v["joints"].as_array().map(Vec::len), Some(24));
    let j = &v["joints"][0];
    for key in [
        "name",
        "node",
        "parent",
        "translation",
        "rotation",
        "scale",
        "world",
    ] {
        assert!(j.get(key).is_some(), "joint field {key}");
    }
    let sm = &v["states"][0];
    assert_eq!(sm["current"], "jump");
    let t = &sm["transition"];
    assert_eq!(t["from"], "move");
    let p = t["progress"].as_f64().expect("progress");
    assert!(p > 0.0 && p < 1.0, "{p}");
    assert!(v["nodes"].as_array().is_some_and(|n| !n.is_empty()));
}

/// `check` exits 0 on every shipped script (each `scripts/*.lua` but the stubs) and non-zero
/// with `file:line` on a broken one.
#[test]
fn check_reports_file_and_line() {
    let mut scripts: Vec<String> = std::fs::read_dir(crate::common::repo_path("scripts"))
        .expect("scripts/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".lua") && !n.ends_with(".d.lua"))
        .map(|n| format!("scripts/{n}"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 4, "{scripts:?}");
    for script in &scripts {
        let out = bin().args(["check", script]).output().expect("runs");
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (_dir, path) = script_file(
        "broken",
        "broken.lua",
        "local rig = marionette.rig()\nlocal m = blend1d('speed', {})\nreturn graph { root = m }\n",
    );
    let out = bin().arg("check").arg(&path).output().expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("broken.lua:2:") && err.contains("unknown parameter 'speed'"),
        "{err}"
    );
}

/// `run --set` sets live parameters by kind (`speed=2.5`, `look=0,1.6,2`); bad values and
/// `--set` with `--take` are errors naming the parameter.
#[test]
fn run_sets_live_parameters() {
    let out = common::stdout_ok(bin().args([
        "run",
        "scripts/locomotion.lua",
        "--set",
        "speed=2.5",
        "--set",
        "look=0,1.6,2",
        "--time",
        "0.5",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(v["params"]["speed"], 2.5);
    assert_eq!(
        v["params"]["look"],
        serde_json::json!([0.0, 1.600000023841858, 2.0])
    );
    assert_eq!(v["markers"], serde_json::json!([]));
    let fails = |set: &str, extra: &[&str]| {
        let out = bin()
            .args([
                "run",
                "scripts/locomotion.lua",
                "--time",
                "0.5",
                "--set",
                set,
            ])
            .args(extra)
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{set}");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let err = fails("speed=fast", &[]);
    assert!(
        err.contains("--set speed=fast: speed is a float: give a number"),
        "{err}"
    );
    let err = fails("look=1,2", &[]);
    assert!(
        err.contains("--set look=1,2: look is a vec3: give x,y,z"),
        "{err}"
    );
    let err = fails("sped=1", &[]);
    assert!(
        err.contains("--set sped: unknown parameter (did you mean 'speed'?)"),
        "{err}"
    );
    let err = fails("speed=1", &["--take", "hello"]);
    assert!(
        err.contains("--set speed=1: live parameters cannot be set while playing --take hello"),
        "{err}"
    );
}

/// `check` shows what the script printed and its warnings on stderr, as `run` does.
#[test]
fn check_shows_print_and_warnings() {
    let (_dir, path) = script_file(
        "print",
        "printing.lua",
        "local rig = marionette.rig()\nprint('hello from the script')\nreturn graph { root = rig.idle }\n",
    );
    let out = bin().arg("check").arg(&path).output().expect("runs");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("printing.lua: hello from the script"), "{err}");
}

/// `run --json` shows the take's markers and the clip events crossed in the frame shown.
#[test]
fn run_shows_markers_and_events() {
    let (_dir, path) = script_file(
        "events",
        "events.lua",
        "local rig = marionette.rig()\nreturn graph { root = rig.walk:event('foot_l', 0.49),\n  takes = { t = { duration = 1, markers = { {0.25, 'start'}, {0.75, 'end'} } } } }\n",
    );
    let run = |time: &str| run_json(&path, "t", time);
    let v = run("0.5");
    assert_eq!(
        v["markers"],
        serde_json::json!([{"name": "start", "time": 0.25}, {"name": "end", "time": 0.75}])
    );
    assert_eq!(
        v["events"].as_array().map(Vec::len),
        Some(1),
        "{}",
        v["events"]
    );
    assert_eq!(v["events"][0]["name"], "foot_l");
    assert!((v["events"][0]["clip_time"].as_f64().unwrap_or(0.0) - 0.49).abs() < 1e-6);
    assert_eq!(run("0.6")["events"], serde_json::json!([]));
}

/// `check` on a script that fails still shows what it printed first (stderr, before the
/// error), and lists every mistake with its line.
#[test]
fn check_shows_print_before_the_errors() {
    let (_dir, path) = script_file(
        "printfail",
        "failing.lua",
        "local rig = marionette.rig()\nprint('loading failing.lua')\nlocal a = rig.wlak\nlocal b = blend1d('sped', { {0, rig.idle} })\nreturn graph { root = rig.idle }\n",
    );
    let out = bin().arg("check").arg(&path).output().expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let shown = path.display().to_string();
    let printed = err
        .find(&format!("{shown}: loading failing.lua"))
        .unwrap_or_else(|| panic!("print shown: {err}"));
    let first = err
        .find(&format!("{shown}:3: unknown clip 'wlak'"))
        .unwrap_or_else(|| panic!("first error: {err}"));
    let second = err
        .find(&format!("{shown}:4: blend1d: unknown parameter 'sped'"))
        .unwrap_or_else(|| panic!("second error: {err}"));
    assert!(printed < first && first < second, "{err}");
}

/// `run --json` shows a state event in the frame it fires, with its state and state time.
#[test]
fn run_shows_state_events() {
    let (_dir, path) = script_file(
        "stev",
        "states.lua",
        "local rig = marionette.rig()\nparams { go = trigger() }\nlocal sm = state_machine { start = 'a', states = { a = rig.idle, b = rig.walk },\n  transitions = { { 'a', 'b', on = 'go', blend = 0 } },\n  events = { b = { {'enter', 'start_b'}, {0.22, 'soon'} } } }\nreturn graph { root = sm, takes = { t = { duration = 2, fps = 20, go = { 0.5 } } } }\n",
    );
    let run = |time: &str| run_json(&path, "t", time);
    let v = run("0.5");
    assert_eq!(
        v["events"],
        serde_json::json!([{"name": "start_b", "state": "b", "state_time": 0.0, "weight": 1.0}])
    );
    let v = run("0.75");
    // 0.22 s in the state is crossed in the step from 0.2 to 0.25 s in it, which ends at 0.75 s
    assert_eq!(v["events"][0]["name"], "soon");
    assert_eq!(v["events"][0]["state"], "b");
    assert!((v["events"][0]["state_time"].as_f64().unwrap_or(0.0) - 0.22).abs() < 1e-6);
    assert_eq!(run("0.7")["events"], serde_json::json!([]));
}

/// Which character a script gets, in order: `--rig`, the script's own `marionette.rig(file)`,
/// `mannequin.glb` beside the script (then `assets/mannequin.glb` there), the working folder's
/// `assets/mannequin.glb`, the built-in one; `check` says which it took and why.
#[test]
fn check_says_which_character_and_why() {
    let dir = crate::script_common::TempDir::new("character-choice");
    let sub = dir.join("anim");
    std::fs::create_dir_all(&sub).expect("folder");
    std::fs::write(
        sub.join("a.lua"),
        "local rig = marionette.rig()\nreturn graph { root = rig.idle }\n",
    )
    .expect("script");
    let note = |args: &[&str]| {
        let o = crate::common::marionette_in(dir.path(), args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .find(|l| l.contains("note: character: "))
            .unwrap_or_else(|| panic!("no character note: {}", String::from_utf8_lossy(&o.stderr)))
            .to_string()
    };
    // nothing anywhere: the built-in one, and where it looked
    let n = note(&["check", "anim/a.lua"]);
    assert!(
        n.contains("the built-in mannequin (no --rig") && n.contains("anim/mannequin.glb"),
        "{n}"
    );
    // the working folder's assets/mannequin.glb
    let mannequin = crate::common::repo_path("assets/mannequin.glb");
    std::fs::create_dir_all(dir.join("assets")).expect("assets");
    std::fs::copy(&mannequin, dir.join("assets/mannequin.glb")).expect("copy");
    let n = note(&["check", "anim/a.lua"]);
    assert!(
        n.contains("assets/mannequin.glb (in the working folder"),
        "{n}"
    );
    // one beside the script wins over the working folder's
    std::fs::copy(&mannequin, sub.join("mannequin.glb")).expect("copy");
    let n = note(&["check", "anim/a.lua"]);
    assert!(n.contains("anim/mannequin.glb (beside the script"), "{n}");
    // --rig wins over everything
    let n = note(&["check", "anim/a.lua", "--rig", "assets/mannequin.glb"]);
    assert!(n.contains("assets/mannequin.glb (--rig)"), "{n}");
}
