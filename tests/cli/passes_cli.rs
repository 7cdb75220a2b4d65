//! Bake passes from the command line (issue 33): the bundled capture (scripts/mocap.lua)
//! despiked and foot-locked by its take's passes, `--no-passes` showing the raw graph, `run`
//! reporting the passes, and each misuse of `pass.*` and `passes` an error at its line.

use std::path::Path;

use crate::common::{marionette, marionette_in};
use crate::script_common::TempDir;

fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("JSON")
}

/// `check --report` on the bundled capture: the take's `pass.foot_lock` brings the worst
/// foot slide from millimetres down to almost nothing; its notes are printed.
#[test]
fn the_captures_passes_remove_its_foot_slide() {
    let dir = TempDir::new("passes-mocap");
    let mut worst = Vec::new();
    for extra in [None, Some("--no-passes")] {
        let report = dir.path().join("q.json");
        let mut args = vec![
            "check",
            "scripts/mocap.lua",
            "--report",
            report.to_str().unwrap(),
        ];
        args.extend(extra);
        let out = marionette(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        let noted = err.contains("scripts/mocap.lua: note: take 'capture': foot_lock: ");
        assert_eq!(noted, extra.is_none(), "{err}");
        let r = json(&std::fs::read(&report).unwrap());
        let take = &r["takes"]["capture"];
        println!(
            "capture {}: foot slide {}, fastest turn {}",
            extra.unwrap_or("with passes"),
            take["foot_slide_mm"],
            take["max_joint_speed"]
        );
        worst.push(take["foot_slide_mm"]["worst"].as_f64().unwrap());
        assert!(take["max_joint_speed"]["value"].as_f64().unwrap() < 1500.0);
        // the report says whether the frames measured are after the passes
        assert_eq!(take["passes"]["applied"], extra.is_none());
        assert_eq!(
            take["passes"]["names"],
            serde_json::json!(["pass.despike", "pass.foot_lock"])
        );
    }
    assert!(worst[0] < 0.1, "with passes: {} mm", worst[0]);
    assert!(worst[1] > 4.0, "raw: {} mm", worst[1]);
}

/// `run` says what the take's passes did, and whether the frame shown is after them.
#[test]
fn run_reports_the_passes() {
    let base = [
        "run",
        "scripts/mocap.lua",
        "--take",
        "capture",
        "--time",
        "1",
    ];
    let out = marionette(&[&base[..], &["--json"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = json(&out.stdout);
    assert_eq!(r["passes"]["count"], 2);
    assert_eq!(r["passes"]["applied"], true);
    let notes = r["passes"]["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().unwrap().contains("foot_lock: ")),
        "{notes:?}"
    );
    let raw = marionette(&[&base[..], &["--json", "--no-passes"]].concat());
    let raw = json(&raw.stdout);
    assert_eq!(raw["passes"]["applied"], false);
    assert_ne!(
        raw["joints"], r["joints"],
        "--no-passes shows the same frame"
    );
    let text = marionette(&base);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("passes: 2 (applied)\n"), "{text}");
    // live parameters have no take: no passes
    let live = marionette(&["run", "scripts/mocap.lua", "--time", "1", "--json"]);
    assert_eq!(json(&live.stdout)["passes"]["count"], 0);
}

/// Each misuse is an error at its line, saying what to write instead.
#[test]
fn pass_mistakes_are_errors_at_their_line() {
    let dir = TempDir::new("passes-mistakes");
    let cases: [(&str, &str); 10] = [
        ("pass.loop_close", "graph: passes[1]: pass.loop_close is not called: write pass.loop_close { } (with its options)"),
        ("pass.smooth { windw = 0.1 }", "pass.smooth: unknown option 'windw' (did you mean 'window'?)"),
        ("pass.smooth { channel = \"rot\" }", "pass.smooth: channel 'rot' must be one of \"rotation\", \"translation\", \"both\""),
        ("pass.smooth { joints = { \"hed\" } }", "pass.smooth: joints: unknown joint 'hed'"),
        ("pass.root_extract { from = \"root\" }", "pass.root_extract: from: 'root' is a root joint already"),
        ("pass.root_extract { }", "pass.root_extract: give from = \"pelvis\""),
        ("pass.foot_lock { feet = { \"L_toe\", \"L_toe\" } }", "pass.foot_lock: feet: 'L_toe' is given twice"),
        ("pass.despike { frames = 2.5 }", "pass.despike: frames 2.5 must be a whole number of frames, 1 to 120"),
        ("pass.loop_close { blend = -1 }", "pass.loop_close: blend -1 must be >= 0"),
        ("42", "graph: passes[1] must be a pass.* call or a function(frames), got"),
    ];
    for (k, (pass, message)) in cases.iter().enumerate() {
        let text = format!(
            "local rig = marionette.rig()\n\nreturn graph {{\n  root = rig.idle,\n  passes = {{\n    {pass},\n  }},\n}}\n"
        );
        let name = format!("m{k}.lua");
        dir.write(&name, &text);
        let out = marionette_in(dir.path(), &["check", &name]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{pass}: {err}");
        assert!(err.contains(message), "{pass}: {err}");
        // the pass's own line, else the graph's (a value that is no call has no line of its own)
        let at_line = err.contains(&format!("{name}:6:")) || err.contains(&format!("{name}:3:"));
        assert!(at_line, "{pass}: {err}");
    }
    // a take's passes: not a list
    dir.write(
        "take.lua",
        "local rig = marionette.rig()\nreturn graph {\n  root = rig.idle,\n  takes = {\n    t = { duration = 1, passes = 3 },\n  },\n}\n",
    );
    let out = marionette_in(dir.path(), &["check", "take.lua"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("take.lua:5:")
            && err.contains(
                "take 't': passes must be a list of pass.* calls and function(frames) ... end, got"
            ),
        "{err}"
    );
    assert!(Path::new(&dir.path().join("take.lua")).exists());
}

/// A Lua pass's mistakes, as `check` and `run` print them: the argument named, a frame that is
/// no whole number, a misspelt pass suggested; `run` says the take is shown without its passes.
#[test]
fn lua_pass_mistakes_say_what_is_wrong() {
    let dir = TempDir::new("passes-lua-mistakes");
    let cases = [
        (
            "frames:set_rotation(1, \"head\", 0, 0, 1)",
            "bake pass: frames:set_rotation w: expected a number, got nil",
        ),
        (
            "frames:rotation(1.5, \"head\")",
            "bake pass: frames: a frame is a whole number 1..count, got 1.5",
        ),
        (
            "frames:rotation(1, \"haed\")",
            "bake pass: frames: unknown joint 'haed' (did you mean 'head'?)",
        ),
        (
            "local p = pass.despik {}",
            "bake pass: pass.despik: unknown field (did you mean 'despike'?)",
        ),
    ];
    for (k, (body, message)) in cases.iter().enumerate() {
        let name = format!("l{k}.lua");
        dir.write(
            &name,
            &format!(
                "local rig = marionette.rig()\nreturn graph {{\n  root = rig.idle,\n  takes = {{ t = {{ duration = 1, passes = {{ function(frames)\n    {body}\n  end }} }} }},\n}}\n"
            ),
        );
        let out = marionette_in(dir.path(), &["check", &name]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{body}: {err}");
        assert!(
            err.contains(&format!("{name}:5: take 't': {message}")),
            "{body}: {err}"
        );
    }
    let out = marionette_in(
        dir.path(),
        &["run", "l0.lua", "--take", "t", "--time", "0.5"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("runtime error (the take is shown without its passes)"),
        "{err}"
    );
}

/// A raw capture as the character (its rest pose hangs from the hips at the origin, its
/// stance legs nearly straight): `pass.foot_lock {}` finds its contacts from the lowest the
/// feet go, lowers the hips where a leg cannot reach, and keeps the swinging foot where it was.
#[test]
fn foot_lock_pass_on_a_raw_capture() {
    let dir = TempDir::new("passes-raw-bvh");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("scripts/capture_walk.bvh"),
        dir.path().join("capture_walk.bvh"),
    )
    .unwrap();
    dir.write(
        "cap.lua",
        "local rig = marionette.rig(\"capture_walk.bvh\", { unit = \"cm\" })\nreturn graph {\n  root = rig.capture_walk,\n  takes = { walk = { duration = 2, passes = { pass.foot_lock {} } } },\n}\n",
    );
    let mut worst = Vec::new();
    for extra in [None, Some("--no-passes")] {
        let mut args = vec!["check", "cap.lua", "--report", "q.json"];
        args.extend(extra);
        let out = marionette_in(dir.path(), &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r = json(&std::fs::read(dir.path().join("q.json")).unwrap());
        let take = &r["takes"]["walk"];
        println!(
            "raw capture {}: foot slide {}, contacts {}",
            extra.unwrap_or("with pass.foot_lock"),
            take["foot_slide_mm"],
            take["contacts"]
        );
        for foot in ["LeftFoot", "RightFoot"] {
            assert!(
                !take["contacts"][foot].as_array().unwrap().is_empty(),
                "{foot}"
            );
        }
        worst.push(take["foot_slide_mm"]["worst"].as_f64().unwrap());
    }
    assert!(worst[0] < 0.1, "with the pass: {} mm", worst[0]);
    assert!(worst[1] > 3.0, "raw: {} mm", worst[1]);
}
