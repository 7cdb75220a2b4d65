//! `marionette bench crowd`: the report's shape and values on tiny counts (no timing is
//! asserted: speed is measured by running the command, not by tests).

use std::process::Command;

use crate::common;

fn bin() -> Command {
    crate::common::marionette_cmd()
}

fn crowd_json(args: &[&str]) -> serde_json::Value {
    let out = common::stdout_ok(
        bin()
            .args(["bench", "crowd"])
            .args(args)
            .args(["--frames", "3", "--warmup", "1", "--json"]),
    );
    serde_json::from_slice(&out).expect("json")
}

/// On the mannequin: walk + run by default, the scalar and SoA paths (plus the SoA path on one
/// thread with `--threads 2`), every stage timed (the SoA path's palette inside its
/// local-to-model), one-pass frames too, and the two paths' matrices within 1e-6.
#[test]
fn crowd_reports_both_paths_per_stage() {
    let v = crowd_json(&["--count", "3", "--threads", "2"]);
    assert_eq!(v["rig"], "assets/mannequin.glb");
    assert_eq!(v["joints"], 24);
    assert_eq!(v["clips"], serde_json::json!(["walk", "run"]));
    assert_eq!(
        (v["count"].as_u64(), v["frames"].as_u64()),
        (Some(3), Some(3))
    );
    let paths: Vec<&str> = v["paths"]
        .as_array()
        .expect("paths")
        .iter()
        .filter_map(|p| p["path"].as_str())
        .collect();
    assert_eq!(paths, ["scalar", "soa", "soa-1-thread"]);
    for p in v["paths"].as_array().expect("paths") {
        let fused = p["path"] != "scalar";
        assert_eq!(p["palette"].is_null(), fused, "{p}");
        let stages = [
            "sample",
            "blend",
            "local_to_model",
            "palette",
            "local_to_model_palette",
            "total",
            "one_pass",
        ];
        for stage in stages {
            if stage == "palette" && fused {
                continue;
            }
            let f = &p[stage];
            let (median, min) = (f["ms_median"].as_f64(), f["ms_min"].as_f64());
            let (Some(median), Some(min)) = (median, min) else {
                panic!("{stage}: {f}");
            };
            assert!(min > 0.0 && min <= median, "{stage}: {f}");
            let per_joint = f["ns_per_joint_median"].as_f64().unwrap_or(-1.0);
            // ns per joint is ms per frame over 3 characters x 24 joints
            assert!((per_joint - median * 1e6 / 72.0).abs() <= 1e-6 * per_joint.max(1.0));
        }
    }
    let diff = v["max_difference"].as_f64().expect("max_difference");
    assert!((0.0..=1e-6).contains(&diff), "{diff}");
    assert!(v["speedup_soa"].as_f64().is_some_and(|s| s > 0.0));
    assert!(v["speedup_soa_one_pass"].as_f64().is_some_and(|s| s > 0.0));
    assert!(v["speedup_threads"].as_f64().is_some_and(|s| s > 0.0));
    assert!(matches!(
        v["simd"].as_str(),
        Some("avx2" | "sse2" | "portable")
    ));
}

/// Clips by name or index; a single thread has no thread speed-up; an unknown clip is an
/// error naming what exists.
#[test]
fn crowd_clip_choice_and_errors() {
    let v = crowd_json(&["--count", "2", "--clips", "idle,4"]);
    assert_eq!(v["clips"], serde_json::json!(["idle", "wave"]));
    assert!(v["speedup_threads"].is_null());
    let out = bin()
        .args(["bench", "crowd", "--clips", "walk,sprint", "--count", "1"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sprint"), "{err}");
    // a crowd of nobody, no timed frame or no thread is refused up front
    for (flag, value) in [("--count", "0"), ("--frames", "0"), ("--threads", "0")] {
        let out = bin()
            .args(["bench", "crowd", flag, value])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("invalid value '0' for '{flag}"))
                && err.contains("must be 1 to 1000000, got 0"),
            "{err}"
        );
    }
}

/// The Fox (24 joints, Walk and Run by default) when the test models are present.
#[test]
fn crowd_on_the_fox() {
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let fox = fox.to_string_lossy().into_owned();
    let v = crowd_json(&[&fox, "--count", "2"]);
    assert_eq!(v["joints"], 24);
    assert_eq!(v["clips"], serde_json::json!(["Walk", "Run"]));
    // absolute, on a rig about 100 units across: 1e-6 of its size (the unit tests check the
    // relative bound on every frame of every clip)
    let diff = v["max_difference"].as_f64().expect("max_difference");
    assert!((0.0..=1e-4).contains(&diff), "{diff}");
}

/// `--script`: a whole script graph per character (its own Lua state each), timed per stage;
/// the options that do not apply and a missing script are errors saying so.
#[test]
fn crowd_runs_a_script_per_character() {
    let script = ["--script", "scripts/locomotion.lua", "--count", "3"];
    let v = crowd_json(&script);
    assert_eq!(v["script"], "scripts/locomotion.lua");
    assert_eq!(v["rig"], "assets/mannequin.glb");
    assert_eq!(
        (v["joints"].as_u64(), v["count"].as_u64()),
        (Some(24), Some(3))
    );
    assert!(v["lua_bytes_per_character"]
        .as_u64()
        .is_some_and(|b| b > 1024));
    assert!(v["load_ms_per_character"]
        .as_f64()
        .is_some_and(|ms| ms > 0.0));
    for stage in ["evaluate", "local_to_model", "palette", "total"] {
        let f = &v[stage];
        let (Some(median), Some(min)) = (f["ms_median"].as_f64(), f["ms_min"].as_f64()) else {
            panic!("{stage}: {f}");
        };
        assert!(min > 0.0 && min <= median, "{stage}: {f}");
        let per_joint = f["ns_per_joint_median"].as_f64().unwrap_or(-1.0);
        assert!((per_joint - median * 1e6 / 72.0).abs() <= 1e-6 * per_joint.max(1.0));
    }
    let out = common::stdout_ok(
        bin()
            .args(["bench", "crowd"])
            .args(script)
            .args(["--frames", "2", "--warmup", "1"]),
    );
    let text = String::from_utf8_lossy(&out);
    for row in [
        "evaluate (graph + post)",
        "local-to-model",
        "palette",
        "total",
    ] {
        assert!(text.contains(row), "{text}");
    }
    assert!(text.contains("one Lua state per character: "), "{text}");

    let fails = |args: &[&str]| {
        let out = bin()
            .args(["bench", "crowd"])
            .args(args)
            .output()
            .expect("runs");
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = fails(&["--script", "scripts/nope.lua", "--count", "2"]);
    assert!(
        err.contains("scripts/nope.lua: cannot read: No such file or directory"),
        "{err}"
    );
    let err = fails(&["--script", "scripts/locomotion.lua", "--threads", "2"]);
    assert!(
        err.contains(
            "--script runs on one thread (each character's Lua state stays on the thread that made it): leave out --threads"
        ),
        "{err}"
    );
    let err = fails(&["--script", "scripts/locomotion.lua", "--clips", "walk,run"]);
    assert!(
        err.contains("--clips does not apply with --script (the script chooses its clips)"),
        "{err}"
    );
}
