//! Baking Lua scripts (scripts/locomotion.lua, all takes, and scripts/procedural.lua) on the
//! mannequin:
//! (a) every raw baked frame is bit-identical to the preview (`ScriptedGraph`) at that frame's
//!     time, scrubbed in reverse order, with root motion applied or kept in place, and with an
//!     `--fps` override;
//! (b) the Khronos validator finds 0 errors in the `.glb` and `.gltf` the CLI writes;
//! (c) importing the export and sampling every frame matches the raw bake within the tolerance;
//! (d) three.js plays each take within 1e-4 + tolerance of the raw bake;
//! (e) re-baking gives byte-identical files;
//! (f) the take's triggers (events) and state entries (markers) are in the animation's extras.

use crate::common;

use crate::common::marionette;
use std::path::{Path, PathBuf};

use crate::bake_support::*;
use marionette_anim::Model;
use marionette_anim::Transform;
use marionette_bake::{bake_take, ScriptBake};
use marionette_bake::{joint_error, BakedTake, ReduceOptions};
use marionette_io::import;
use marionette_io::Document;
use marionette_script::{load, HostOptions, Rig, ScriptedGraph};

const SCRIPTS: [&str; 2] = ["locomotion", "procedural"];

fn mannequin_path() -> PathBuf {
    root().join("assets/mannequin.glb")
}

fn script_path(name: &str) -> PathBuf {
    root().join("scripts").join(format!("{name}.lua"))
}

/// A fresh preview of `script` on the mannequin.
fn preview(script: &Path, model: &Model) -> ScriptedGraph {
    let rig = Rig::from_model(mannequin_path().display().to_string(), model);
    let loaded = load(script, &HostOptions::with_rig(rig)).unwrap_or_else(|e| panic!("{e}"));
    ScriptedGraph::new(loaded).unwrap_or_else(|e| panic!("{e}"))
}

/// Every take of `script`, baked with `options`.
fn bake_all(script: &Path, model: &Model, options: &ScriptBake) -> Vec<BakedTake> {
    let mut g = preview(script, model);
    let names: Vec<String> = g
        .script()
        .spec
        .takes
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert!(!names.is_empty(), "{}", script.display());
    names
        .iter()
        .map(|t| bake_take(&mut g, t, options, &mut |_, _| {}).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn bits(t: &Transform) -> Vec<u32> {
    let mut v: Vec<u32> = t.translation.to_array().map(f32::to_bits).to_vec();
    v.extend(t.rotation.to_array().map(f32::to_bits));
    v.extend(t.scale.to_array().map(f32::to_bits));
    v
}

/// Compares every frame of `take` with a fresh preview playing it (at `fps` when given),
/// scrubbing from the last frame back to the first.
fn assert_matches_preview(
    script: &Path,
    model: &Model,
    take: &BakedTake,
    fps: Option<f32>,
    in_place: bool,
) {
    let mut g = preview(script, model);
    g.play_at(Some(&take.name), fps)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut pose = vec![Transform::IDENTITY; model.skeleton.len()];
    for (i, frame) in take.frames.iter().enumerate().rev() {
        g.seek(f64::from(take.grid.time(i)));
        assert!(g.runtime_error().is_none());
        if in_place {
            pose.copy_from_slice(g.pose());
        } else {
            g.pose_with_root_motion(&mut pose);
        }
        for (j, (a, b)) in frame.iter().zip(&pose).enumerate() {
            assert_eq!(
                bits(a),
                bits(b),
                "{} take {} frame {i} joint {}: bake {a:?} preview {b:?}",
                script.display(),
                take.name,
                model.skeleton.names()[j]
            );
        }
    }
}

/// (a) Baked frames equal the preview bit for bit: every take of both scripts at the take's
/// rate, locomotion kept in place too, and a take at an overridden rate.
#[test]
fn baked_frames_equal_the_preview() {
    let model = import(&mannequin_path()).unwrap();
    for name in SCRIPTS {
        let script = script_path(name);
        for take in bake_all(&script, &model, &ScriptBake::default()) {
            assert!(take.frames.len() > 1);
            assert_matches_preview(&script, &model, &take, None, false);
        }
    }
    let script = script_path("locomotion");
    let in_place = ScriptBake {
        fps: None,
        in_place: true,
    };
    let travelled = bake_all(&script, &model, &ScriptBake::default());
    for (take, moving) in bake_all(&script, &model, &in_place).iter().zip(&travelled) {
        assert_matches_preview(&script, &model, take, None, true);
        if take.name == "walk_to_run" {
            // the travelling bake moves its root; the in-place one does not
            let last = take.frames.len() - 1;
            let d = moving.frames[last][0].translation - take.frames[last][0].translation;
            assert!(d.length() > 1.0, "root travelled only {d:?}");
        }
    }
    let at24 = ScriptBake {
        fps: Some(24.0),
        in_place: false,
    };
    let mut g = preview(&script, &model);
    let take = bake_take(&mut g, "walk_to_run", &at24, &mut |_, _| {}).unwrap();
    assert_eq!(take.fps(), Some(24.0));
    assert_eq!(take.frames.len(), 97);
    assert_matches_preview(&script, &model, &take, Some(24.0), false);
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `marionette bake SCRIPT --rig mannequin -o OUT --quiet`; panics with stderr on failure.
fn cli_bake(script: &Path, out: &Path, extra: &[&str]) {
    let rig = mannequin_path();
    let mut args = vec!["bake", s(script), "--rig", s(&rig), "-o", s(out), "--quiet"];
    args.extend(extra);
    let o = marionette(&args);
    assert!(
        o.status.success(),
        "bake {}: {}",
        script.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// (c) The CLI's exports (.glb and .gltf, into the rig and animation-only) import back and
/// match the raw bake at every frame within the tolerance (plus 1 µm for the runtime's slerp).
#[test]
fn round_trip_within_tolerance() {
    let model = import(&mannequin_path()).unwrap();
    let tolerance = ReduceOptions::default().tolerance as f64;
    let dir = TempDir::new("bake-script-roundtrip");
    for name in SCRIPTS {
        let script = script_path(name);
        let takes = bake_all(&script, &model, &ScriptBake::default());
        for (kind, extra) in [("rig", &[][..]), ("anim", &["--animation-only"][..])] {
            for ext in ["glb", "gltf"] {
                let out = dir.join(format!("{name}.{kind}.{ext}"));
                cli_bake(&script, &out, extra);
                let back = import(&out).unwrap();
                if kind == "rig" {
                    assert_eq!(back.meshes.len(), model.meshes.len());
                    assert_eq!(back.clips.len(), model.clips.len() + takes.len());
                }
                for take in &takes {
                    let e = round_trip_error(&model, take, &back, kind == "rig");
                    assert!(
                        e <= tolerance + 1e-6,
                        "{} {}: {e} m",
                        out.display(),
                        take.name
                    );
                }
            }
        }
    }
}

/// (b) The Khronos validator reports 0 errors for the CLI's .glb and .gltf exports.
#[test]
fn validator_finds_no_errors() {
    let Some(()) = node_ready("bake_script validator_finds_no_errors") else {
        return;
    };
    let dir = TempDir::new("bake-script-validate");
    for name in SCRIPTS {
        for ext in ["glb", "gltf"] {
            let out = dir.join(format!("{name}.{ext}"));
            cli_bake(&script_path(name), &out, &[]);
            let (errors, text) = validate(&out);
            assert_eq!(errors, 0, "{}: {text}", out.display());
        }
    }
}

/// (d) three.js plays every take of the .glb export within 1e-4 + tolerance of the raw bake
/// at every frame.
#[test]
fn three_plays_each_take() {
    let Some(()) = node_ready("bake_script three_plays_each_take") else {
        return;
    };
    let model = import(&mannequin_path()).unwrap();
    let budget = 1e-4 + ReduceOptions::default().tolerance as f64;
    let dir = TempDir::new("bake-script-three");
    for name in SCRIPTS {
        let script = script_path(name);
        let takes = bake_all(&script, &model, &ScriptBake::default());
        let out = dir.join(format!("{name}.glb"));
        cli_bake(&script, &out, &[]);
        let spec: Vec<(String, Vec<f32>)> = takes
            .iter()
            .map(|t| {
                let times = (0..t.frames.len() as u32)
                    .map(|i| t.grid.time(i as usize))
                    .collect();
                (t.name.clone(), times)
            })
            .collect();
        let three = three_poses(&out, &model.joint_nodes, &spec);
        assert_eq!(three.len(), takes.len());
        for (anim, samples) in &three {
            let take = takes.iter().find(|t| &t.name == anim).unwrap();
            let raw = take_worlds(&model.skeleton, take);
            assert_eq!(samples.len(), take.frames.len());
            let mut worst = 0.0f64;
            for (f, (_, nodes)) in samples.iter().enumerate() {
                assert_eq!(nodes.len(), model.joint_nodes.len(), "{anim}");
                for &(node, m) in nodes {
                    let j = model.joint_nodes.iter().position(|&n| n == node).unwrap();
                    worst = worst.max(joint_error(&m, &raw[f][j]));
                }
            }
            assert!(worst <= budget, "{name} {anim}: three vs bake {worst} m");
            println!("{name} {anim}: three vs bake {worst:.2e} m");
        }
    }
}

/// (e) Baking the same script twice gives byte-identical files (.glb, and .gltf + .bin).
#[test]
fn rebake_is_byte_identical() {
    let dir = TempDir::new("bake-script-rebake");
    let script = script_path("locomotion");
    for ext in ["glb", "gltf"] {
        let a = dir.join(format!("a.{ext}"));
        let b = dir.join(format!("b.{ext}"));
        cli_bake(&script, &a, &[]);
        cli_bake(&script, &b, &[]);
        assert_same_export(&dir, ext);
    }
}

/// The default output is `<script stem>.glb` in the current folder and is not replaced
/// without --force; nor is the rig.
#[test]
fn default_output_is_protected() {
    let dir = TempDir::new("bake-script-default");
    let script = script_path("procedural");
    let rig = mannequin_path();
    let run = |extra: &[&str]| {
        let mut args = vec!["bake", s(&script), "--rig", s(&rig), "--quiet"];
        args.extend(extra);
        common::marionette_in(&dir, &args)
    };
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("procedural.glb");
    let before = std::fs::read(&out).unwrap();
    let o = run(&[]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("procedural.glb") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    let o = run(&["--force"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // the rig as the output: refused without --force, left as it was
    let rig_copy = dir.join("rig.glb");
    std::fs::copy(&rig, &rig_copy).unwrap();
    let rig_before = std::fs::read(&rig_copy).unwrap();
    let o = marionette(&[
        "bake",
        s(&script),
        "--rig",
        s(&rig_copy),
        "-o",
        s(&rig_copy),
        "--quiet",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("refusing to overwrite"), "{err}");
    assert_eq!(std::fs::read(&rig_copy).unwrap(), rig_before);
    assert!(!o.status.success());
}

/// (f) The take's trigger (an event) and the states it enters (markers) are in the extras,
/// with the take's name, rate and frame count; `--take` and `--fps` select and retime.
#[test]
fn extras_carry_take_events_and_markers() {
    let dir = TempDir::new("bake-script-extras");
    let out = dir.join("loco.glb");
    cli_bake(&script_path("locomotion"), &out, &[]);
    let doc = Document::read(&out).unwrap();
    let anims = doc.json["animations"].as_array().unwrap();
    let find = |name: &str| {
        anims
            .iter()
            .find(|a| a["name"] == name)
            .unwrap_or_else(|| panic!("no animation {name}"))
    };
    let m = &find("walk_to_run")["extras"]["marionette"];
    assert_eq!(m["take"], "walk_to_run");
    assert_eq!(m["fps"], 60.0);
    assert_eq!(m["frames"], 241);
    assert_eq!(m["events"].as_array().unwrap().len(), 1);
    assert_eq!(m["events"][0]["name"], "jump");
    assert_eq!(m["events"][0]["time"], 2.0);
    type Named = Vec<(String, f64)>;
    let (contacts, markers): (Named, Named) = m["markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["name"].as_str().unwrap().to_string(),
                x["time"].as_f64().unwrap(),
            )
        })
        .partition(|(name, _)| name.ends_with(" down") || name.ends_with(" up"));
    // the states entered, and each foot's contacts (the bundled feet start planted)
    // (from the second frame: the first has no speed)
    let second = f64::from(marionette_anim::time::step_time(1, 60.0));
    assert_eq!(contacts[0], ("L_foot down".to_string(), second));
    assert!(
        contacts.iter().any(|(n, _)| n == "R_foot up"),
        "{contacts:?}"
    );
    assert_eq!(markers[0], ("move".to_string(), 0.0));
    assert_eq!(markers[1], ("jump".to_string(), 2.0));
    assert_eq!(markers[2].0, "move");
    assert!(markers[2].1 > 2.0 && markers[2].1 < 4.0, "{markers:?}");
    let hello = &find("hello")["extras"]["marionette"];
    assert_eq!(hello["fps"], 30.0);
    assert_eq!(hello["frames"], 91);
    assert_eq!(hello["events"].as_array().unwrap().len(), 0);
    // one take, retimed
    let out = dir.join("hello24.glb");
    cli_bake(
        &script_path("locomotion"),
        &out,
        &["--take", "hello", "--fps", "24"],
    );
    let doc = Document::read(&out).unwrap();
    let baked: Vec<&serde_json::Value> = doc.json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["extras"]["marionette"].is_object())
        .collect();
    assert_eq!(baked.len(), 1);
    assert_eq!(baked[0]["name"], "hello");
    assert_eq!(baked[0]["extras"]["marionette"]["fps"], 24.0);
    assert_eq!(baked[0]["extras"]["marionette"]["frames"], 73);
}

/// A script error fails the bake with `file:line` and writes nothing; an unknown take names
/// the takes there are.
#[test]
fn errors_name_the_script_line() {
    let dir = TempDir::new("bake-script-errors");
    let script = dir.join("broken.lua");
    std::fs::write(
        &script,
        "local rig = marionette.rig()\nlocal x = rig.nope:once()\nreturn graph { root = x }\n",
    )
    .unwrap();
    let out = dir.join("out.glb");
    let rig = mannequin_path();
    let o = marionette(&["bake", s(&script), "--rig", s(&rig), "-o", s(&out)]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("broken.lua:2:"), "{err}");
    assert!(!out.exists());
    let loco = script_path("locomotion");
    let o = marionette(&["bake", s(&loco), "--take", "nope", "-o", s(&out)]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("hello, walk_to_run"), "{err}");
    assert!(!out.exists());
}
