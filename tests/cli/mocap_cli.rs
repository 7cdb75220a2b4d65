//! Motion capture and FBX from the command line, as a user meets them: `inspect` and `sample` on
//! the Blender-made fixtures (`tests/fixtures/mocap/`), `--unit`, a broken BVH's `file:line`
//! error, a capture's glitch reported by `inspect` and `bake`, a BVH and an FBX baked to glTF,
//! and `bake --retarget-to` landing the capture on the mannequin's floor, `--rest` honoured.

use std::path::Path;

use crate::common::{marionette_in, repo_path, TempDir};

/// What a successful run printed on stdout (its stderr in the failure message).
fn stdout_ok(o: &std::process::Output) -> String {
    assert!(
        o.status.success(),
        "marionette failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}
use serde_json::Value;

fn mocap(name: &str) -> std::path::PathBuf {
    repo_path("tests/fixtures/mocap").join(name)
}

fn text(o: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// World position of `joint` in `sample --json` output.
fn world(sample: &Value, joint: &str) -> [f64; 3] {
    let j = sample["joints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == joint)
        .unwrap_or_else(|| panic!("no joint {joint}"));
    let w = j["world"].as_array().unwrap();
    [12, 13, 14].map(|i| w[i].as_f64().unwrap())
}

/// The world position of `joint` in `file`'s `clip` at `time` (`sample --json`).
fn joint_at(dir: &Path, file: &str, clip: &str, time: f32, joint: &str) -> [f64; 3] {
    world(&sample(dir, file, clip, time, &[]), joint)
}

/// The distance between two points.
fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

/// A fixture BVH with every frame's numbers passed through `edit(frame, values)`.
fn with_frames(fixture: &str, edit: impl Fn(usize, &mut [f64])) -> String {
    let text = std::fs::read_to_string(mocap(fixture)).unwrap();
    let (head, motion) = text.split_once("Frame Time:").unwrap();
    let mut lines = motion.lines();
    let mut out = format!("{head}Frame Time:{}\n", lines.next().unwrap());
    for (frame, line) in lines.enumerate() {
        let mut values: Vec<f64> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        edit(frame, &mut values);
        let words: Vec<String> = values.iter().map(f64::to_string).collect();
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

fn sample(dir: &Path, file: &str, clip: &str, time: f32, extra: &[&str]) -> Value {
    let t = time.to_string();
    let mut args = vec![
        "sample",
        file,
        "--clip",
        clip,
        "--time",
        &t,
        "--all-joints",
        "--json",
    ];
    args.extend_from_slice(extra);
    serde_json::from_str(&stdout_ok(&marionette_in(dir, &args))).unwrap()
}

/// `bake capture_walk.bvh --retarget-to mannequin.glb EXTRA -o OUT` in `dir`.
fn walk_onto_mannequin(dir: &std::path::Path, extra: &[&str], out: &str) -> std::process::Output {
    let mut args = vec!["bake", "capture_walk.bvh", "--retarget-to", "mannequin.glb"];
    args.extend(extra);
    args.extend(["-o", out]);
    marionette_in(dir, &args)
}

#[test]
fn inspect_and_sample_read_bvh_and_fbx_with_their_units() {
    let dir = TempDir::new("mocap-cli");
    for f in ["capture_walk.bvh", "capture.fbx"] {
        std::fs::copy(mocap(f), dir.join(f)).unwrap();
    }
    let out = stdout_ok(&marionette_in(dir.path(), &["inspect", "capture_walk.bvh"]));
    assert!(out.contains("skeleton: 26 joints"), "{out}");
    assert!(out.contains("capture_walk") && out.contains("241"), "{out}");
    assert!(out.contains("read as centimetres"), "{out}");
    assert!(out.contains("Z-up file"), "{out}");
    let fbx = stdout_ok(&marionette_in(dir.path(), &["inspect", "capture.fbx"]));
    assert!(
        fbx.contains("Capture|Walk") && fbx.contains("Capture|Run"),
        "{fbx}"
    );
    assert!(fbx.contains("Body (follows Head): Smile, Blink"), "{fbx}");
    // the hips a walk's height up, in metres, whichever way the unit is named
    let guessed = world(
        &sample(dir.path(), "capture_walk.bvh", "capture_walk", 0.0, &[]),
        "Hips",
    );
    let named = world(
        &sample(
            dir.path(),
            "capture_walk.bvh",
            "capture_walk",
            0.0,
            &["--unit", "cm"],
        ),
        "Hips",
    );
    assert!((guessed[1] - 0.885).abs() < 1e-3, "{guessed:?}");
    assert_eq!(guessed, named);
    // the wrong unit: a body 156 m tall, and a note naming the likely one
    let o = marionette_in(dir.path(), &["inspect", "capture_walk.bvh", "--unit", "m"]);
    let (out, _) = text(&o);
    assert!(out.contains("--unit cm"), "{out}");
    let o = marionette_in(
        dir.path(),
        &["inspect", "capture_walk.bvh", "--unit", "yards"],
    );
    let (_, err) = text(&o);
    assert!(
        !o.status.success() && err.contains("m, cm, mm, in"),
        "{err}"
    );
}

#[test]
fn a_broken_bvh_is_an_error_at_its_line() {
    let dir = TempDir::new("mocap-bad");
    let text_in = std::fs::read_to_string(mocap("capture_run.bvh")).unwrap();
    let bad = text_in.replacen("Xrotation", "Qrotation", 1);
    let line = bad.lines().position(|l| l.contains("Qrotation")).unwrap() + 1;
    dir.write("bad.bvh", &bad);
    for cmd in [
        &["inspect", "bad.bvh"][..],
        &["bake", "bad.bvh", "--all", "-o", "x.glb"][..],
    ] {
        let o = marionette_in(dir.path(), cmd);
        let (_, err) = text(&o);
        assert!(!o.status.success(), "{cmd:?}");
        assert!(
            err.contains(&format!("bad.bvh:{line}: 'Qrotation' is not a BVH channel")),
            "{cmd:?}: {err}"
        );
    }
}

#[test]
fn a_capture_glitch_is_reported_by_inspect_and_bake() {
    let dir = TempDir::new("mocap-glitch");
    // the hips flip by 100 degrees over two frames of the 120 fps run, and back
    let glitch = with_frames("capture_run.bvh", |frame, v| {
        // Hips: X Y Z position, then X Y Z rotation (the run is XYZ): its Y rotation
        v[4] += match frame {
            60 => 50.0,
            61 | 62 => 100.0,
            _ => 0.0,
        };
    });
    dir.write("glitch.bvh", &glitch);
    let out = stdout_ok(&marionette_in(dir.path(), &["inspect", "glitch.bvh"]));
    assert!(out.contains("fast turns (over 1500 degrees/s"), "{out}");
    assert!(out.contains("joint 'Hips' turns"), "{out}");
    // the clean run has none; a limit above the flip hides it
    let clean = stdout_ok(&marionette_in(
        dir.path(),
        &["inspect", &mocap("capture_run.bvh").display().to_string()],
    ));
    assert!(!clean.contains("fast turns"), "{clean}");
    let high = stdout_ok(&marionette_in(
        dir.path(),
        &["inspect", "glitch.bvh", "--turn-limit", "100000"],
    ));
    assert!(!high.contains("fast turns"), "{high}");
    let o = marionette_in(dir.path(), &["bake", "glitch.bvh", "--all", "-o", "g.glb"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("note: glitch.bvh: clip 'glitch' at 0.5"),
        "{err}"
    );
    assert!(err.contains("a capture's glitch?"), "{err}");
}

#[test]
fn bvh_and_fbx_bake_to_gltf_and_a_capture_lands_on_the_mannequins_floor() {
    let dir = TempDir::new("mocap-bake");
    for f in ["capture_walk.bvh", "capture.fbx"] {
        std::fs::copy(mocap(f), dir.join(f)).unwrap();
    }
    std::fs::copy(repo_path("assets/mannequin.glb"), dir.join("mannequin.glb")).unwrap();
    // converters: the bake imports again with its clips
    stdout_ok(&marionette_in(
        dir.path(),
        &["bake", "capture_walk.bvh", "--all", "-o", "walk.glb"],
    ));
    stdout_ok(&marionette_in(
        dir.path(),
        &["bake", "capture.fbx", "--all", "-o", "hero.glb"],
    ));
    let walk = stdout_ok(&marionette_in(dir.path(), &["inspect", "walk.glb"]));
    assert!(walk.contains("capture_walk"), "{walk}");
    let hero = stdout_ok(&marionette_in(dir.path(), &["inspect", "hero.glb"]));
    assert!(
        hero.contains("Capture|Walk") && hero.contains("Smile, Blink"),
        "{hero}"
    );
    // the same pose as the source, to a tenth of a millimetre
    let a = joint_at(
        dir.path(),
        "capture_walk.bvh",
        "capture_walk",
        0.5,
        "LeftFoot",
    );
    let b = joint_at(dir.path(), "walk.glb", "capture_walk", 0.5, "LeftFoot");
    assert!(distance(a, b) < 1e-4, "{a:?} {b:?}");
    // onto the mannequin: on its floor, each foot on its side
    let o = walk_onto_mannequin(dir.path(), &[], "on.glb");
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("aligned in a T-pose") && err.contains("motion measured from its floor"),
        "{err}"
    );
    let stand = joint_at(dir.path(), "mannequin.glb", "idle", 0.0, "L_foot")[1];
    let mut lowest = f64::MAX;
    for k in 0..20 {
        let s = sample(dir.path(), "on.glb", "capture_walk", k as f32 * 0.1, &[]);
        let (pelvis, l, r) = (
            world(&s, "pelvis"),
            world(&s, "L_foot"),
            world(&s, "R_foot"),
        );
        assert!(pelvis[1] > 0.85 && pelvis[1] < 1.1, "pelvis at {pelvis:?}");
        assert!(l[0] > r[0], "crossed at {k}: left {l:?} right {r:?}");
        lowest = lowest.min(l[1]).min(r[1]);
    }
    assert!(
        (lowest - stand).abs() < 0.015,
        "lowest foot {lowest} vs standing {stand}"
    );
    // the take ends where the clip ends: its last frame continues the walk (it once wrapped
    // to the first frame: the right foot jumped back 25 cm)
    let before = joint_at(dir.path(), "on.glb", "capture_walk", 1.9833, "R_foot");
    let end = joint_at(dir.path(), "on.glb", "capture_walk", 2.0, "R_foot");
    let step = distance(before, end);
    assert!(step < 0.06, "{before:?} -> {end:?}");
    // an explicit --rest is honoured: rest keeps the splayed rests (and crosses the legs)
    let o = walk_onto_mannequin(dir.path(), &["--rest", "rest"], "rest.glb");
    assert!(o.status.success());
    assert_ne!(
        std::fs::read(dir.join("rest.glb")).unwrap(),
        std::fs::read(dir.join("on.glb")).unwrap()
    );
}

/// A capture recorded 2.5 m from the origin and turned 90 degrees starts where the character
/// stands, facing its way: entered from a state machine (no root motion extraction), the root
/// starts at the origin and walks along the character's forward (+Z), not towards the
/// capture's absolute position.
#[test]
fn a_capture_far_out_and_turned_starts_where_the_character_stands() {
    let dir = TempDir::new("mocap-start");
    let turned = with_frames("capture_walk.bvh", |_, v| {
        // the file is Z up: X and Y are the ground; Hips' first rotation channel is Z
        let (x, y) = (v[0], v[1]);
        v[0] = -y + 150.0;
        v[1] = x - 200.0;
        v[3] += 90.0;
    });
    dir.write("turned.bvh", &turned);
    std::fs::copy(repo_path("assets/mannequin.glb"), dir.join("mannequin.glb")).unwrap();
    dir.write(
        "enter.lua",
        r#"local me = marionette.rig()
local cap = marionette.rig("turned.bvh", { unit = "cm" })
params { go = trigger() }
return graph {
  root = state_machine {
    start = "idle",
    states = { idle = me.idle, walk = retarget(cap.turned, { from = cap }) },
    transitions = { { "idle", "walk", on = "go", blend = 0.5 } },
  },
  takes = { t = { duration = 2, go = { 0.5 } } },
}
"#,
    );
    let root_at = |t: f32| {
        let time = t.to_string();
        let out = stdout_ok(&marionette_in(
            dir.path(),
            &[
                "run",
                "enter.lua",
                "--rig",
                "mannequin.glb",
                "--take",
                "t",
                "--time",
                &time,
                "--json",
            ],
        ));
        let v: Value = serde_json::from_str(&out).unwrap();
        world(&v, "root")
    };
    let (early, late) = (root_at(0.6), root_at(2.0));
    assert!(
        early[0].abs() < 0.05 && early[2].abs() < 0.1,
        "starts at {early:?}"
    );
    // walked along +Z, about 1.9 m in 1.5 s, barely sideways
    assert!(late[2] > 1.0 && late[0].abs() < 0.1, "walked to {late:?}");
}
