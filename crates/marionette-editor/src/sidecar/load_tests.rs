use std::path::PathBuf;

use serde_json::json;

use super::*;
use crate::sidecar::{save, CameraState, Panels};
use marionette_anim::graph::{ParamValue, Take};
use marionette_render::OrbitCamera;

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("marionette-sidecar-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn empty() -> Sidecar {
    Sidecar {
        version: VERSION as u32,
        selected_take: None,
        time: 0.0,
        camera: Some(CameraState::from(&OrbitCamera::default())),
        overlays: None,
        panels: Panels::default(),
        takes: Vec::new(),
        kept: Vec::new(),
        timeline: Some(Default::default()),
    }
}

/// Saving then loading gives the same sidecar, with no temporary file left; a corrupt file is
/// moved aside with its content intact.
#[test]
fn save_load_and_corrupt() {
    let dir = scratch("roundtrip");
    let path = dir.join("x.marionette.json");
    let s = empty();
    save(&path, &s).unwrap();
    assert_eq!(load(&path).unwrap(), Some(s));
    assert_eq!(listing(&dir), vec!["x.marionette.json"]);
    std::fs::write(&path, "{ not json").unwrap();
    match load(&path) {
        Err(SidecarError::Corrupt { aside, .. }) => {
            assert_eq!(std::fs::read_to_string(&aside).unwrap(), "{ not json");
            assert!(!path.exists());
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A newer version is refused by name and version, and the file is left exactly as it was
/// (not renamed, not rewritten).
#[test]
fn newer_version_left_untouched() {
    let dir = scratch("newer");
    let path = dir.join("x.marionette.json");
    let text = r#"{"version": 9, "takes": [{"future": true}], "new_field": 1}"#;
    std::fs::write(&path, text).unwrap();
    let e = load(&path).unwrap_err();
    assert!(
        matches!(
            e,
            SidecarError::Newer {
                version: 9,
                supported: 3,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "{}: sidecar version 9 is newer than the supported version 3 (written by a newer \
             Marionette); the file is left untouched",
            path.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert_eq!(listing(&dir), vec!["x.marionette.json"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// No version, a version that is not a whole number and version 0 (never written) are not
/// sidecars: set aside like a file that does not parse.
#[test]
fn missing_or_impossible_version_is_corrupt() {
    for (text, why) in [
        (r#"{"takes": []}"#, "it has no version"),
        (
            r#"{"version": "1"}"#,
            "version must be a whole number, got \"1\"",
        ),
        (
            r#"{"version": -1}"#,
            "version must be a whole number, got -1",
        ),
        (
            r#"{"version": 0}"#,
            "version 0 does not exist (the first is 1)",
        ),
        (
            r#"{"version": 1, "takes": 3}"#,
            "takes must be a list, got 3",
        ),
    ] {
        let parsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            from_value(parsed).unwrap_err(),
            Refusal::Corrupt(why.into()),
            "{text}"
        );
    }
}

/// Older files are upgraded one version at a time, from their own version on, in order.
#[test]
fn upgrades_run_in_order_from_the_file_version() {
    fn to_v2(mut v: Value) -> Result<Value, String> {
        v["steps"].as_array_mut().ok_or("no steps")?.push(json!(2));
        Ok(v)
    }
    fn to_v3(mut v: Value) -> Result<Value, String> {
        v["steps"].as_array_mut().ok_or("no steps")?.push(json!(3));
        Ok(v)
    }
    let steps: &[Upgrade] = &[to_v2, to_v3];
    let v1 = json!({"steps": []});
    assert_eq!(
        upgrade(v1.clone(), 1, steps).unwrap(),
        json!({"steps": [2, 3]})
    );
    assert_eq!(
        upgrade(v1.clone(), 2, steps).unwrap(),
        json!({"steps": [3]})
    );
    assert_eq!(upgrade(v1.clone(), 3, steps).unwrap(), json!({"steps": []}));
    assert_eq!(
        upgrade(json!({}), 1, steps).unwrap_err(),
        "upgrading version 1 failed: no steps"
    );
    // this build: version 3 is current; versions 1 and 2 read unchanged (takes' `script`,
    // tracks' `eases` absent)
    assert_eq!(VERSION, 3);
    assert_eq!(upgrade(v1.clone(), 1, UPGRADES).unwrap(), v1);
    assert_eq!(upgrade(v1.clone(), 2, UPGRADES).unwrap(), v1);
    assert_eq!(upgrade(v1.clone(), 3, UPGRADES).unwrap(), v1);
}

/// Invalid takes are reported by name with what is wrong, not loaded, and written back
/// unchanged by the next save; the valid take and the rest of the file load.
#[test]
fn invalid_takes_are_kept() {
    let dir = scratch("invalid");
    let path = dir.join("x.marionette.json");
    let bad = json!([
        {"name": "huge", "duration": 1e30, "fps": 60, "tracks": [], "triggers": []},
        {"name": "still", "duration": 2, "fps": 0, "tracks": [], "triggers": []},
        {"name": "late", "duration": 2, "fps": 30, "triggers": [],
         "tracks": [{"param": "speed", "step": false, "keys": [[0, 1.0], [5, 2.0]]}]},
        {"name": "back", "duration": 2, "fps": 30, "triggers": [],
         "tracks": [{"param": "speed", "step": false, "keys": [[1, 1.0], [0.5, 2.0]]}]},
        {"name": "inf", "duration": 2, "fps": 30, "triggers": [],
         "tracks": [{"param": "speed", "step": false, "keys": [[1, 1e39]]}]},
        {"name": "jumpy", "duration": 2, "fps": 30, "tracks": [],
         "triggers": [{"param": "jump", "time": -1}]},
        {"name": "typo", "duration": 2, "fps": 30, "tracks": [{"param": "speed", "keys": "x"}]},
        {"duration": 2}
    ]);
    let good = json!({"name": "walk", "duration": 2, "fps": 30, "triggers": [],
        "tracks": [{"param": "speed", "step": false, "keys": [[0, 1.0], [2, 3.0]]}]});
    let mut takes = vec![good];
    takes.extend(bad.as_array().unwrap().iter().cloned());
    let file = json!({"version": 1, "time": 0.5, "selected_take": "walk", "takes": takes});
    std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();

    let s = load(&path).unwrap().unwrap();
    assert_eq!(s.selected_take.as_deref(), Some("walk"));
    assert_eq!(s.time, 0.5);
    assert_eq!(s.takes.len(), 1);
    assert_eq!(
        s.takes[0].take,
        Take::new("walk", 2.0)
            .fps(30.0)
            .floats("speed", &[(0.0, 1.0), (2.0, 3.0)])
    );
    let problems: Vec<(&str, &str)> = s
        .kept
        .iter()
        .map(|k| (k.name.as_str(), k.problem.as_str()))
        .collect();
    assert_eq!(problems[0].0, "huge");
    assert!(
        problems[0]
            .1
            .ends_with("over the limit of 1000000; shorten it or lower its fps"),
        "{}",
        problems[0].1
    );
    assert_eq!(
        &problems[1..6],
        &[
            ("still", "fps 0 is outside 1..1000"),
            ("late", "speed: time 5 is outside the take (0 to 2 s)"),
            ("back", "speed: key times must increase (0.5 comes after 1)"),
            ("inf", "speed: the value at 1 s is not finite"),
            ("jumpy", "jump: time -1 is outside the take (0 to 2 s)"),
        ]
    );
    assert_eq!(problems[6].0, "typo");
    assert!(problems[6].1.contains("invalid type"), "{}", problems[6].1);
    assert_eq!(problems[7].0, "#9");
    assert!(problems[7].1.contains("missing field"), "{}", problems[7].1);

    // saved again (as the editor does): the bad takes are written back as they were
    save(&path, &s).unwrap();
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let back_takes = back["takes"].as_array().unwrap();
    assert_eq!(back_takes.len(), 9);
    assert_eq!(&back_takes[1..], bad.as_array().unwrap().as_slice());
    assert_eq!(load(&path).unwrap().unwrap(), s);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Version 1 files (no `script` in their takes) still load, their takes' base unknown; a save
/// writes the current version with what each take was edited from; `read` never moves a bad file.
#[test]
fn version_1_reads_and_version_2_records_the_script_take() {
    use crate::sidecar::{fingerprint, ScriptBase};
    let dir = scratch("v1");
    let path = dir.join("x.marionette.json");
    let v1 = json!({"version": 1, "takes": [
        {"name": "t", "duration": 2.0, "fps": 30.0, "tracks": [], "triggers": []}]});
    std::fs::write(&path, v1.to_string()).unwrap();
    let s = read(&path).unwrap().expect("a sidecar");
    assert_eq!(s.version, 3);
    assert_eq!(s.takes.len(), 1);
    assert_eq!(s.takes[0].script, ScriptBase::Unknown);
    let script = Take::new("t", 1.0);
    let mut s2 = s.clone();
    s2.takes[0] = s2.takes[0].clone().with_script(fingerprint(Some(&script)));
    save(&path, &s2).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(written["version"], 3);
    assert_eq!(
        written["takes"][0]["script"].as_str(),
        match fingerprint(Some(&script)) {
            ScriptBase::Take(f) => Some(f),
            _ => None,
        }
        .as_deref()
    );
    assert_eq!(read(&path).unwrap(), Some(s2));
    // a recorded take: the script had none
    let mut s3 = s.clone();
    s3.takes[0] = s3.takes[0].clone().with_script(ScriptBase::Absent);
    save(&path, &s3).unwrap();
    assert_eq!(
        read(&path).unwrap().unwrap().takes[0].script,
        ScriptBase::Absent
    );
    // equal takes, equal fingerprints; another take, another one
    assert_eq!(
        fingerprint(Some(&script)),
        fingerprint(Some(&Take::new("t", 1.0)))
    );
    assert_ne!(
        fingerprint(Some(&script)),
        fingerprint(Some(&Take::new("t", 1.5)))
    );
    // read leaves a file that does not parse where it is
    std::fs::write(&path, "{ nope").unwrap();
    assert!(matches!(read(&path), Err(SidecarError::Invalid { .. })));
    assert!(path.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Version 3: a track's eases load, save back as they were, and drive the value; an unknown
/// ease or a count that does not match the keys is reported and the take kept as it was.
#[test]
fn eases_round_trip_and_bad_ones_are_kept() {
    use marionette_anim::graph::Ease;
    let dir = scratch("eases");
    let path = dir.join("x.marionette.json");
    let good = json!({"name": "walk", "duration": 2, "fps": 30, "triggers": [],
        "tracks": [{"param": "speed", "step": false, "keys": [[0, 1.0], [1, 3.0], [2, 2.0]],
                    "eases": ["flat", [0.5, -1.0], "step"]}]});
    let bad = json!([
        {"name": "bouncy", "duration": 2, "fps": 30, "triggers": [],
         "tracks": [{"param": "speed", "step": false, "keys": [[0, 1.0]], "eases": ["bouncy"]}]},
        {"name": "short", "duration": 2, "fps": 30, "triggers": [],
         "tracks": [{"param": "speed", "step": false, "keys": [[0, 1.0], [1, 2.0]],
                     "eases": ["flat"]}]},
    ]);
    let mut takes = vec![good];
    takes.extend(bad.as_array().unwrap().iter().cloned());
    let file = json!({"version": 3, "takes": takes});
    std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
    let s = load(&path).unwrap().unwrap();
    assert_eq!(s.takes.len(), 1);
    let track = &s.takes[0].take.tracks[0];
    assert_eq!(
        track.eases,
        vec![
            Ease::Flat,
            Ease::Slopes {
                slope_in: 0.5,
                slope_out: -1.0
            },
            Ease::Step
        ]
    );
    // flat out of the first key (slope 0), into the second at slope 0.5: the Hermite curve's
    // middle, 0.5 * 1 + 0.5 * 3 - 0.125 * 0.5
    let Some(ParamValue::Float(v)) = track.value_at(0.5) else {
        panic!("a float")
    };
    assert!((v - 1.9375).abs() < 1e-5, "{v}");
    let problems: Vec<(&str, &str)> = s
        .kept
        .iter()
        .map(|k| (k.name.as_str(), k.problem.as_str()))
        .collect();
    assert_eq!(problems[0].0, "bouncy");
    assert!(
        problems[0].1.contains("unknown ease 'bouncy'"),
        "{}",
        problems[0].1
    );
    assert_eq!(
        problems[1],
        (
            "short",
            "speed: 1 eases for 2 keys (give one per key, or none)"
        )
    );
    save(&path, &s).unwrap();
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(back["version"], json!(3));
    assert_eq!(
        back["takes"][0]["tracks"][0]["eases"],
        json!(["flat", [0.5, -1.0], "step"])
    );
    assert_eq!(
        &back["takes"].as_array().unwrap()[1..],
        bad.as_array().unwrap().as_slice()
    );
    assert_eq!(load(&path).unwrap().unwrap(), s);
    let _ = std::fs::remove_dir_all(&dir);
}
