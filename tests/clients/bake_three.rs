//! A real client plays Marionette's baked exports: three.js (Node) loads the file, plays each
//! animation with an AnimationMixer, and its joint world matrices are compared with the bake at
//! every frame (within 1e-4 plus the tolerance, measured at the joint and its 10 cm virtual
//! points) and with Marionette's own reading of the written keys (within 1e-4 per element).

use crate::bake_support::*;
use glam::DMat4;
use marionette_bake::{export_document, joint_error, reduce, ReduceOptions, Target};
use marionette_io::write_document;

/// Marionette's reading of the written keys at every frame, as world matrices.
fn reduced_worlds(
    skeleton: &marionette_anim::Skeleton,
    red: &marionette_bake::ReducedTake,
) -> Vec<Vec<DMat4>> {
    let n = red.grid.len();
    let mut poses = vec![skeleton.rest_pose().to_vec(); n];
    for j in &red.joints {
        let ji = j.joint as usize;
        if let Some(f) = &j.translation {
            for (p, v) in poses.iter_mut().zip(f.dense_on(&red.grid, false)) {
                p[ji].translation = v;
            }
        }
        if let Some(f) = &j.rotation {
            for (p, v) in poses.iter_mut().zip(f.dense_on(&red.grid, false)) {
                p[ji].rotation = v;
            }
        }
        if let Some(f) = &j.scale {
            for (p, v) in poses.iter_mut().zip(f.dense_on(&red.grid, false)) {
                p[ji].scale = v;
            }
        }
    }
    poses
        .iter()
        .map(|p| {
            let mut w = Vec::new();
            marionette_anim::world_matrices(skeleton, p, &mut w);
            w
        })
        .collect()
}

fn max_element_diff(a: &DMat4, b: &DMat4) -> f64 {
    a.to_cols_array()
        .iter()
        .zip(b.to_cols_array())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Skeleton-only exports (.glb and .gltf) play in three.js as Marionette baked them.
#[test]
fn animation_only_export_plays_in_three() {
    let Some(()) = node_ready("animation_only_export_plays_in_three") else {
        return;
    };
    let skeleton = arm();
    let take = wave(&skeleton, 30.0);
    let opts = ReduceOptions::default();
    let red = reduce(&skeleton, &take, &opts).unwrap();
    let raw = take_worlds(&skeleton, &take);
    let ours = reduced_worlds(&skeleton, &red);
    let doc = export_document(
        std::slice::from_ref(&red),
        Target::AnimationOnly {
            skeleton: &skeleton,
        },
    )
    .unwrap();
    let dir = TempDir::new("bake-three-anim-only");
    for name in ["wave.glb", "wave.gltf"] {
        let out = dir.join(name);
        write_document(&doc, &out, false, &[]).unwrap();
        let times: Vec<f32> = (0..red.grid.len()).map(|i| red.grid.time(i)).collect();
        let nodes: Vec<usize> = (0..skeleton.len()).collect();
        let three = three_poses(&out, &nodes, &[("wave".to_string(), times)]);
        assert_eq!(three.len(), 1);
        let (_, samples) = &three[0];
        assert_eq!(samples.len(), red.grid.len());
        let (mut worst_bake, mut worst_keys) = (0.0f64, 0.0f64);
        for (f, (_, nodes)) in samples.iter().enumerate() {
            assert_eq!(nodes.len(), skeleton.len());
            for &(node, m) in nodes {
                worst_bake = worst_bake.max(joint_error(&m, &raw[f][node]));
                worst_keys = worst_keys.max(max_element_diff(&m, &ours[f][node]));
            }
        }
        let budget = 1e-4 + opts.tolerance as f64;
        assert!(worst_bake <= budget, "{name}: three vs bake {worst_bake}");
        assert!(worst_keys <= 1e-4, "{name}: three vs keys {worst_keys}");
        println!("{name}: three vs bake {worst_bake:.2e} m, vs keys {worst_keys:.2e}");
    }
}

use crate::common;

/// Exports into real rigs (Fox .glb, SimpleSkin .gltf, the mannequin) play in three.js as
/// baked: at every frame within 1e-4 + tolerance of the bake, and at times between frames
/// within 1e-4 of Marionette sampling the re-imported export.
#[test]
fn rig_exports_play_in_three() {
    use marionette_anim::world_matrices;
    use marionette_anim::SamplingCache;
    use marionette_bake::bake_clip;
    use marionette_io::import;
    let Some(()) = node_ready("rig_exports_play_in_three") else {
        return;
    };
    let mut rigs = Vec::new();
    for name in ["Fox.glb", "SimpleSkin.gltf"] {
        match common::testdata_file(name) {
            Some(p) => rigs.push(p),
            None => return,
        }
    }
    rigs.push(root().join("assets/mannequin.glb"));
    let opts = ReduceOptions::default();
    let dir = TempDir::new("bake-three-rig");
    for rig in rigs {
        let model = import(&rig).unwrap();
        let takes: Vec<_> = model
            .clips
            .iter()
            .map(|c| bake_clip(&model.skeleton, c, 30.0, &mut |_, _| {}))
            .collect();
        let reduced: Vec<_> = takes
            .iter()
            .map(|t| reduce(&model.skeleton, t, &opts).unwrap())
            .collect();
        let doc = export_document(
            &reduced,
            Target::Rig {
                source: &rig,
                joint_nodes: &model.joint_nodes,
                morph_nodes: &model.skeleton.morphs().source_nodes(),
            },
        )
        .unwrap();
        let ext = rig.extension().unwrap().to_string_lossy().into_owned();
        let out = dir.join(format!("baked.{ext}"));
        write_document(&doc, &out, false, &[]).unwrap();
        let back = import(&out).unwrap();
        // every frame, then three times between frames
        let spec: Vec<(String, Vec<f32>)> = takes
            .iter()
            .map(|t| {
                let mut times: Vec<f32> = t.grid.times().to_vec();
                let d = t.duration();
                times.extend([0.137 * d, 0.5 * d + 0.0123, 0.873 * d]);
                (t.name.clone(), times)
            })
            .collect();
        let three = three_poses(&out, &model.joint_nodes, &spec);
        let node_joint = |node: usize| model.joint_nodes.iter().position(|&n| n == node);
        let raw_of = |t: &marionette_bake::BakedTake| take_worlds(&model.skeleton, t);
        assert_eq!(three.len(), takes.len());
        for (name, samples) in &three {
            let take = takes.iter().find(|t| &t.name == name).unwrap();
            let raw = raw_of(take);
            let clip = back.clips.iter().find(|c| &c.name == name).unwrap();
            let mut cache = SamplingCache::new();
            let mut pose = back.skeleton.rest_pose().to_vec();
            let mut w = Vec::new();
            let (mut worst_bake, mut worst_between) = (0.0f64, 0.0f64);
            for (si, (time, nodes)) in samples.iter().enumerate() {
                assert_eq!(nodes.len(), model.joint_nodes.len(), "{name}");
                if si < take.frames.len() {
                    for &(node, m) in nodes {
                        let j = node_joint(node).unwrap();
                        worst_bake = worst_bake.max(joint_error(&m, &raw[si][j]));
                    }
                } else {
                    clip.sample(*time, back.skeleton.rest_pose(), &mut cache, &mut pose);
                    world_matrices(&back.skeleton, &pose, &mut w);
                    for &(node, m) in nodes {
                        let j = node_joint(node).unwrap();
                        if let Some(k) = back.skeleton.find(&model.skeleton.names()[j]) {
                            worst_between = worst_between.max(joint_error(&m, &w[k as usize]));
                        }
                    }
                }
            }
            let label = format!("{} {name}", rig.display());
            assert!(
                worst_bake <= 1e-4 + opts.tolerance as f64,
                "{label}: {worst_bake}"
            );
            assert!(
                worst_between <= 1e-4,
                "{label}: between frames {worst_between}"
            );
            println!(
                "{label}: three vs bake {worst_bake:.2e} m, between frames {worst_between:.2e} m"
            );
        }
    }
}
