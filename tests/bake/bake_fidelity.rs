//! Bake correctness on real rigs (issue 10): STEP only where the source holds, clips keep their
//! exact duration, and re-baking over a rig with `--force` neither grows the file nor loses a
//! channel. Both key profiles (`linear`, the default, and `cubic`) are checked.

use crate::common;

use std::path::Path;

use crate::bake_support::TempDir;
use marionette_anim::world_matrices;
use marionette_anim::{Interpolation, SamplingCache};
use marionette_bake::{run, BakeJob, BakeSource, Curves};
use marionette_io::{import, Document};

fn bake_fox(fox: &Path, out: &Path, curves: Curves) {
    // resampled at 30 fps (the Fox's clips are 24 fps, and Run ends between frames)
    let job = BakeJob {
        curves,
        fps: Some(30.0),
        force: true,
        ..BakeJob::new(
            BakeSource::Clips {
                rig: fox.to_path_buf(),
                into: None,
            },
            out,
        )
    };
    run(&job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
}

/// The Fox Walk's `b_Spine01_02` moves continuously: it is never written as STEP (with
/// changing values), and a hundredth of a frame before frame 8 (where the old STEP bake jumped
/// 2 units) the pose is within 0.5 units of frame 8 (a whole frame of motion is about 8), which
/// matches the source.
#[test]
fn fox_walk_spine_is_not_step() {
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let source = import(&fox).unwrap();
    let dir = TempDir::new("fidelity-step");
    for curves in [Curves::Linear, Curves::Cubic] {
        let out = dir.join(format!("{curves:?}.glb"));
        bake_fox(&fox, &out, curves);
        let baked = import(&out).unwrap();
        let spine = baked.skeleton.find("b_Spine01_02").unwrap();
        let walk = baked.clips.iter().find(|c| c.name == "Walk").unwrap();
        let track = walk.tracks.iter().find(|t| t.joint == spine).unwrap();
        let rot = track.rotation.as_ref().unwrap();
        assert!(
            rot.interpolation != Interpolation::Step || rot.values.windows(2).all(|w| w[0] == w[1]),
            "{curves:?}: spine rotation is STEP with {} keys",
            rot.times.len()
        );
        let src = source.clips.iter().find(|c| c.name == "Walk").unwrap();
        let mut cache = SamplingCache::new();
        let mut a = source.skeleton.rest_pose().to_vec();
        let mut b = baked.skeleton.rest_pose().to_vec();
        let (mut wa, mut wb) = (Vec::new(), Vec::new());
        let mut dist = |t_src: f32, t_baked: f32| {
            src.sample(t_src, source.skeleton.rest_pose(), &mut cache, &mut a);
            walk.sample(t_baked, baked.skeleton.rest_pose(), &mut cache, &mut b);
            world_matrices(&source.skeleton, &a, &mut wa);
            world_matrices(&baked.skeleton, &b, &mut wb);
            wa.iter()
                .zip(&wb)
                .map(|(x, y)| x.w_axis.truncate().distance(y.w_axis.truncate()))
                .fold(0.0f64, f64::max)
        };
        // at frame 8 the bake is the source; a hundredth of a frame before it, no jump
        let at = dist(8.0 / 30.0, 8.0 / 30.0);
        assert!(at <= 1.01e-4, "{curves:?}: {at} at frame 8");
        let worst = dist(8.0 / 30.0, 7.99 / 30.0);
        assert!(worst < 0.5, "{curves:?}: {worst} units just before frame 8");
    }
}

/// Clips at 24 fps baked at 30 fps keep their exact duration (the last key at the clip's end),
/// and the extras (shown by `inspect`) say so.
#[test]
fn fox_durations_are_exact() {
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let source = import(&fox).unwrap();
    let dir = TempDir::new("fidelity-duration");
    for curves in [Curves::Linear, Curves::Cubic] {
        let out = dir.join(format!("{curves:?}.glb"));
        bake_fox(&fox, &out, curves);
        let baked = import(&out).unwrap();
        let doc = Document::read(&out).unwrap();
        for c in &source.clips {
            let b = baked.clips.iter().find(|x| x.name == c.name).unwrap();
            assert!(
                (b.end - c.end).abs() < 1e-6,
                "{curves:?} {}: {} vs {}",
                c.name,
                b.end,
                c.end
            );
            let anim = doc.json["animations"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["name"] == c.name.as_str())
                .unwrap();
            let m = &anim["extras"]["marionette"];
            assert_eq!(m["fps"], 30.0);
            assert_eq!(
                m["curves"],
                if curves == Curves::Linear {
                    "linear"
                } else {
                    "cubic"
                }
            );
            let d = m["duration"].as_f64().unwrap();
            assert!(
                (d - f64::from(c.end)).abs() < 1e-6,
                "{}: extras duration {d}",
                c.name
            );
            let frames = m["frames"].as_u64().unwrap();
            assert_eq!(
                frames,
                (f64::from(c.end) * 30.0 - 1e-4).ceil() as u64 + 1,
                "{}",
                c.name
            );
        }
    }
}

/// Buffer views and accessors nothing references (the validator's UNUSED_OBJECT).
fn unreferenced(doc: &Document) -> (usize, usize) {
    let text = doc.json.to_string();
    let views = doc.json["bufferViews"].as_array().map_or(0, Vec::len);
    let used_views = (0..views)
        .filter(|i| text.contains(&format!("\"bufferView\":{i}")))
        .count();
    let accessors = doc.json["accessors"].as_array().map_or(0, Vec::len);
    let mut refs = std::collections::HashSet::new();
    for a in doc.json["animations"].as_array().into_iter().flatten() {
        for s in a["samplers"].as_array().into_iter().flatten() {
            refs.insert(s["input"].as_u64().unwrap());
            refs.insert(s["output"].as_u64().unwrap());
        }
    }
    for m in doc.json["meshes"].as_array().into_iter().flatten() {
        for p in m["primitives"].as_array().into_iter().flatten() {
            for v in p["attributes"].as_object().into_iter().flatten() {
                refs.insert(v.1.as_u64().unwrap());
            }
            if let Some(i) = p["indices"].as_u64() {
                refs.insert(i);
            }
        }
    }
    for s in doc.json["skins"].as_array().into_iter().flatten() {
        if let Some(i) = s["inverseBindMatrices"].as_u64() {
            refs.insert(i);
        }
    }
    (views - used_views, accessors - refs.len())
}

/// Re-baking the Fox into itself with `force` five times: the file does not grow, nothing
/// unreferenced is written, no animation is duplicated and no channel is lost.
#[test]
fn rebaking_over_a_rig_keeps_size_and_channels() {
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let dir = TempDir::new("fidelity-rebake");
    let rig = dir.join("fox.glb");
    std::fs::copy(&fox, &rig).unwrap();
    let channels = |p: &Path| -> Vec<(String, usize)> {
        import(p)
            .unwrap()
            .clips
            .iter()
            .map(|c| {
                let n = c.tracks.iter().map(|t| {
                    usize::from(t.translation.is_some())
                        + usize::from(t.rotation.is_some())
                        + usize::from(t.scale.is_some())
                });
                (c.name.clone(), n.sum())
            })
            .collect()
    };
    let original = channels(&rig);
    let mut sizes = Vec::new();
    for _ in 0..5 {
        bake_fox(&rig, &rig, Curves::Linear);
        sizes.push(std::fs::metadata(&rig).unwrap().len());
        assert_eq!(channels(&rig), original, "after {} re-bakes", sizes.len());
        let doc = Document::read(&rig).unwrap();
        assert_eq!(unreferenced(&doc), (0, 0), "after {} re-bakes", sizes.len());
    }
    let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    assert!(max - min < max / 100, "sizes {sizes:?}");
    println!("re-bake sizes {sizes:?}");
}
