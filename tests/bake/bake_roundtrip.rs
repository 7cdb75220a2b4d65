//! Bake exports read back: importing the export and sampling every frame matches the bake
//! within the tolerance; the Khronos validator finds 0 errors in `.glb` and `.gltf` exports;
//! re-baking gives byte-identical files; inputs are never overwritten without `--force`.

use crate::common;

use crate::common::marionette;
use std::path::{Path, PathBuf};

use crate::bake_support::*;
use marionette_anim::Model;
use marionette_bake::{
    bake_clip, export_document, reduce, BakedTake, ReduceOptions, ReducedTake, Target,
};
use marionette_io::import;
use marionette_io::write_document;

/// Rigs to test: the public test models and the bundled mannequin.
fn rigs() -> Vec<PathBuf> {
    let mut v = common::testdata_models();
    v.push(root().join("assets/mannequin.glb"));
    v
}

/// Bakes and reduces every clip of a model at 30 fps.
fn bake_all(model: &Model, opts: &ReduceOptions) -> Vec<(BakedTake, ReducedTake)> {
    model
        .clips
        .iter()
        .map(|c| {
            let take = bake_clip(&model.skeleton, c, 30.0, &mut |_, _| {});
            let red = reduce(&model.skeleton, &take, opts).unwrap();
            (take, red)
        })
        .collect()
}

/// Importing each export (.glb and .gltf, with the rig and animation-only) and sampling every
/// frame matches the bake within the tolerance (the fitter and the runtime share one interpolation).
#[test]
fn round_trip_within_tolerance() {
    let opts = ReduceOptions::default();
    let dir = TempDir::new("bake-roundtrip");
    for rig in rigs() {
        let model = import(&rig).unwrap();
        let baked = bake_all(&model, &opts);
        let reduced: Vec<ReducedTake> = baked.iter().map(|(_, r)| r.clone()).collect();
        let stem = rig.file_stem().unwrap().to_string_lossy().into_owned();
        for (kind, target) in [
            (
                "rig",
                Target::Rig {
                    source: &rig,
                    joint_nodes: &model.joint_nodes,
                    morph_nodes: &model.skeleton.morphs().source_nodes(),
                },
            ),
            (
                "anim",
                Target::AnimationOnly {
                    skeleton: &model.skeleton,
                },
            ),
        ] {
            let doc = export_document(&reduced, target).unwrap();
            for ext in ["glb", "gltf"] {
                let out = dir.join(format!("{stem}.{kind}.{ext}"));
                write_document(&doc, &out, false, &doc.inputs).unwrap();
                let back = import(&out).unwrap();
                if kind == "rig" {
                    assert_eq!(back.meshes.len(), model.meshes.len(), "{}", out.display());
                    assert_eq!(back.skins.len(), model.skins.len());
                    assert_eq!(back.images.len(), model.images.len());
                }
                for (take, red) in &baked {
                    let e = round_trip_error(&model, take, &back, false);
                    assert!(
                        e <= opts.tolerance as f64,
                        "{} {}: {e} m",
                        out.display(),
                        take.name
                    );
                    assert!(red.report.max_error <= opts.tolerance as f64);
                }
            }
        }
    }
}

/// The Khronos validator reports 0 errors for every export, .glb and .gltf.
#[test]
fn validator_finds_no_errors() {
    let Some(()) = node_ready("validator_finds_no_errors") else {
        return;
    };
    let dir = TempDir::new("bake-validate");
    let opts = ReduceOptions::default();
    let mut files = Vec::new();
    for rig in rigs() {
        let model = import(&rig).unwrap();
        let reduced: Vec<ReducedTake> = bake_all(&model, &opts).into_iter().map(|x| x.1).collect();
        let stem = rig.file_stem().unwrap().to_string_lossy().into_owned();
        let rig_doc = export_document(
            &reduced,
            Target::Rig {
                source: &rig,
                joint_nodes: &model.joint_nodes,
                morph_nodes: &model.skeleton.morphs().source_nodes(),
            },
        )
        .unwrap();
        let anim_doc = export_document(
            &reduced,
            Target::AnimationOnly {
                skeleton: &model.skeleton,
            },
        )
        .unwrap();
        for (doc, kind) in [(&rig_doc, "rig"), (&anim_doc, "anim")] {
            for ext in ["glb", "gltf"] {
                let out = dir.join(format!("{stem}.{kind}.{ext}"));
                write_document(doc, &out, false, &[]).unwrap();
                files.push(out);
            }
        }
    }
    for f in &files {
        let (errors, text) = validate(f);
        assert_eq!(errors, 0, "{text}");
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Baking twice gives byte-identical files (.glb, and .gltf with its .bin).
#[test]
fn rebake_is_byte_identical() {
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let dir = TempDir::new("bake-rebake");
    for ext in ["glb", "gltf"] {
        let a = dir.join(format!("a.{ext}"));
        let b = dir.join(format!("b.{ext}"));
        for out in [&a, &b] {
            let o = marionette(&["bake", s(&fox), "-o", s(out), "--quiet"]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        assert_same_export(&dir, ext);
    }
}

/// The input is not overwritten without --force; a failure leaves no file behind.
#[test]
fn input_is_protected_and_failures_leave_nothing() {
    let Some(simple) = common::testdata_file("SimpleSkin.gltf") else {
        return;
    };
    let dir = TempDir::new("bake-protect");
    let input = dir.join("SimpleSkin.gltf");
    std::fs::copy(&simple, &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let o = marionette(&["bake", s(&input), "-o", s(&input), "--quiet"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("refusing to overwrite") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
    let listing = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(listing(&dir), vec!["SimpleSkin.gltf"]);
    // an output folder that does not exist: an error naming the file, nothing written
    let missing = dir.join("no/such/dir/out.glb");
    let o = marionette(&["bake", s(&input), "-o", s(&missing), "--quiet"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("out.glb"));
    assert_eq!(listing(&dir), vec!["SimpleSkin.gltf"]);
    // with --force the input is replaced by the baked file, which imports
    let o = marionette(&["bake", s(&input), "-o", s(&input), "--force", "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(listing(&dir), vec!["SimpleSkin.bin", "SimpleSkin.gltf"]);
    assert_eq!(import(&input).unwrap().clips.len(), 1);
}

/// Markers and events of a take land in the animation's extras, in the documented shape.
#[test]
fn extras_carry_markers_and_events() {
    let skeleton = arm();
    let take = wave(&skeleton, 24.0);
    let red = reduce(&skeleton, &take, &ReduceOptions::default()).unwrap();
    let doc = export_document(
        std::slice::from_ref(&red),
        Target::AnimationOnly {
            skeleton: &skeleton,
        },
    )
    .unwrap();
    let anim = &doc.json["animations"][0];
    assert_eq!(anim["name"], "wave");
    let m = &anim["extras"]["marionette"];
    assert_eq!(m["take"], "wave");
    assert_eq!(m["fps"], 24.0);
    assert_eq!(m["frames"], 73);
    assert_eq!(m["markers"][0]["name"], "peak");
    assert_eq!(m["markers"][0]["time"].as_f64().unwrap() as f32, 0.4);
    assert_eq!(m["events"][0]["name"], "clap");
    assert!(m["events"][0].get("value").is_none());
}
