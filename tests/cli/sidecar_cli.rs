//! The sidecar on the command line (issue 20 §5): `run` and `check` play a hand-written
//! sidecar's edited take and say so; `--no-sidecar` leaves it out; a sidecar take the command
//! cannot use — invalid, naming a parameter the script lacks, keyed outside a parameter's
//! range, stored twice — is an error naming the sidecar file (exit 1), never the script's take
//! played silently in its place; a newer or broken file, or a link leading out of the project,
//! is refused and left as it is.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::script_common::TempDir;
use serde_json::json;

/// A scratch copy of `scripts/locomotion.lua` and its sidecar's path.
struct Scratch(TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = TempDir::new(&format!("sidecar-cli-{name}"));
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let source =
            std::fs::read_to_string(root.join("scripts/locomotion.lua")).expect("the script");
        dir.write("locomotion.lua", &source);
        Scratch(dir)
    }

    fn script(&self) -> PathBuf {
        self.0.join("locomotion.lua")
    }

    fn sidecar(&self) -> PathBuf {
        self.0.join("locomotion.marionette.json")
    }

    fn write_sidecar(&self, v: &serde_json::Value) {
        std::fs::write(self.sidecar(), v.to_string()).expect("sidecar");
    }
}

fn marionette(cmd: &str, script: &Path, extra: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate::common::marionette_cmd()
        .arg(cmd)
        .arg(script)
        .arg("--rig")
        .arg(root.join("assets/mannequin.glb"))
        .args(extra)
        .output()
        .expect("run marionette")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A sidecar holding one `walk_to_run` with the given speed keys (version 2, no script base).
fn with_speed_keys(keys: serde_json::Value) -> serde_json::Value {
    json!({"version": 2, "takes": [{
        "name": "walk_to_run", "duration": 4.0, "fps": 60.0,
        "tracks": [{"param": "speed", "step": false, "keys": keys}],
        "triggers": []}]})
}

const RUN: [&str; 5] = ["--take", "walk_to_run", "--time", "2.5", "--json"];

fn speed(o: &Output) -> f64 {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("run's JSON");
    v["params"]["speed"].as_f64().expect("speed")
}

/// The edited take plays (and is said to), `--no-sidecar` plays the script's.
#[test]
fn run_and_check_play_the_edited_take() {
    let s = Scratch::new("plays");
    s.write_sidecar(&with_speed_keys(json!([[0.0, 6.0]])));
    let edited = marionette("run", &s.script(), &RUN);
    assert!(edited.status.success(), "{}", stderr(&edited));
    assert!(
        stderr(&edited).contains(&format!(
            "using 1 edited take from {} (--no-sidecar ignores it)",
            s.sidecar().display()
        )),
        "{}",
        stderr(&edited)
    );
    assert_eq!(speed(&edited), 6.0);
    let report: serde_json::Value = serde_json::from_slice(&edited.stdout).expect("json");
    assert_eq!(
        report["sidecar"].as_str(),
        Some(s.sidecar().display().to_string().as_str())
    );
    let mut plain = RUN.to_vec();
    plain.push("--no-sidecar");
    let written = marionette("run", &s.script(), &plain);
    assert!(written.status.success());
    assert!(!stderr(&written).contains("edited take"));
    assert!((speed(&written) - 3.35).abs() < 1e-4, "{}", speed(&written));
    let report: serde_json::Value = serde_json::from_slice(&written.stdout).expect("json");
    assert!(report["sidecar"].is_null());
    let check = marionette("check", &s.script(), &[]);
    assert!(check.status.success(), "{}", stderr(&check));
    assert!(stderr(&check).contains("using 1 edited take"));
}

/// Each take the command cannot use is an error naming the sidecar file and what to do.
#[test]
fn unusable_edited_takes_are_errors_naming_the_sidecar() {
    let cases = [
        (
            json!({"version": 2, "takes": [{"name": "walk_to_run", "duration": 4.0,
                "fps": 0.0, "tracks": [], "triggers": []}]}),
            "edited take 'walk_to_run' is not valid: fps 0 is outside 1..1000",
        ),
        (
            json!({"version": 2, "takes": [{"name": "walk_to_run", "duration": 4.0, "fps": 60.0,
                "tracks": [{"param": "sped", "step": false, "keys": [[0.0, 1.0]]}],
                "triggers": []}]}),
            "take 'walk_to_run': unknown parameter 'sped'",
        ),
        (
            with_speed_keys(json!([[0.0, 60.0]])),
            "take 'walk_to_run', speed: value 60 at 0 s is outside the range [0, 6]",
        ),
        (
            json!({"version": 2, "takes": [
                {"name": "hello", "duration": 1.0, "fps": 30.0, "tracks": [], "triggers": []},
                {"name": "hello", "duration": 2.0, "fps": 30.0, "tracks": [], "triggers": []}]}),
            "take 'hello' is stored twice",
        ),
    ];
    for (file, want) in cases {
        let s = Scratch::new("unusable");
        s.write_sidecar(&file);
        for cmd in ["run", "check"] {
            let extra: &[&str] = if cmd == "run" { &RUN } else { &[] };
            let o = marionette(cmd, &s.script(), extra);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{cmd}: {err}");
            assert!(
                err.contains(&format!("{}: ", s.sidecar().display())) && err.contains(want),
                "{cmd}: want {want:?} in:\n{err}"
            );
            assert!(err.contains("--no-sidecar"), "{err}");
        }
        let mut plain = RUN.to_vec();
        plain.push("--no-sidecar");
        assert!(marionette("run", &s.script(), &plain).status.success());
    }
}

/// A newer version, a file that does not parse and a link leading out of the project are
/// refused (exit 1) and left exactly as they were.
#[test]
fn files_that_cannot_be_used_are_refused_and_left_alone() {
    let s = Scratch::new("refused");
    for (text, want) in [
        (
            r#"{"version": 9, "takes": []}"#,
            "sidecar version 9 is newer than the supported version 3",
        ),
        ("{ not json", "not a valid sidecar"),
    ] {
        std::fs::write(s.sidecar(), text).expect("sidecar");
        let o = marionette("run", &s.script(), &RUN);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains(want), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(s.sidecar()).expect("left"), text);
    }
    #[cfg(unix)]
    {
        let outside = Scratch::new("outside");
        let target = outside.0.join("elsewhere.json");
        std::fs::write(&target, with_speed_keys(json!([[0.0, 6.0]])).to_string()).expect("target");
        std::fs::remove_file(s.sidecar()).expect("remove");
        std::os::unix::fs::symlink(&target, s.sidecar()).expect("link");
        let o = marionette("run", &s.script(), &RUN);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("outside"), "{}", stderr(&o));
        assert!(s
            .sidecar()
            .symlink_metadata()
            .expect("link kept")
            .is_symlink());
    }
}
