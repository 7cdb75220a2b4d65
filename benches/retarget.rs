//! Retargeting cost: a retarget node playing a clip of `RobotExpressive.glb` on the mannequin
//! (one 60 Hz frame: `advance(1/60)` + `evaluate()`, the source sampled, put on the character,
//! feet and hands placed by IK), against what playing that clip on its own rig costs (sampling
//! it plus local-to-model). The target: at most 2x. The other way round (the mannequin's
//! walk on the Robot) is measured too. A plain table of ns/frame and the ratios, measured in the
//! same run, follows criterion's.
//!
//! `RETARGET_PROBE=1` also prints the retarget alone (`Retargeter::apply`, with and without the
//! IK pass) and a graph playing the clip on its own rig, to see where the time goes.
//!
//! Needs the public test model (`../shared/testdata/gltf/RobotExpressive.glb`, or under
//! `MARIONETTE_TESTDATA`); says so and measures nothing without it.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Mat4;
use marionette::anim::graph::{ClipNode, Graph, GraphBuilder, RetargetNode};
use marionette::anim::retarget::{JointMap, RetargetOptions, Retargeter};
use marionette::anim::{local_to_model, Clip, SamplingCache, Skeleton, Transform};
use marionette::Model;

fn robot() -> Option<Model> {
    let dir = std::env::var_os("MARIONETTE_TESTDATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/gltf"),
        PathBuf::from,
    );
    let path = dir.join("RobotExpressive.glb");
    match marionette::io::import(&path) {
        Ok(m) => Some(m),
        Err(e) => {
            println!("retarget bench skipped: {} ({e})", path.display());
            None
        }
    }
}

fn clip(model: &Model, name: &str) -> Clip {
    model.clips[model.find_clip(name).expect("clip")].clone()
}

/// A graph on `target` playing `clip` of `source` through a retarget node.
fn retarget_graph(target: &Skeleton, source: &Skeleton, clip: Clip) -> Graph {
    let map = JointMap::auto(target, source).map;
    let r = Retargeter::new(target, source, &map, &RetargetOptions::default());
    let mut b = GraphBuilder::new(target.clone());
    let rig = b.source_rig(Arc::new(source.clone()));
    let input = b.add(ClipNode::new(clip));
    let node = b.add(RetargetNode {
        input,
        from: rig,
        retargeter: Arc::new(r),
    });
    b.build(node).expect("graph builds")
}

/// Sampling `clip` on its own rig at 60 Hz plus local-to-model: one frame.
struct Plain {
    skeleton: Skeleton,
    clip: Clip,
    cache: SamplingCache,
    pose: Vec<Transform>,
    model: Vec<Mat4>,
    t: f32,
}

impl Plain {
    fn new(skeleton: &Skeleton, clip: Clip) -> Plain {
        Plain {
            pose: skeleton.rest_pose().to_vec(),
            model: vec![Mat4::IDENTITY; skeleton.len()],
            skeleton: skeleton.clone(),
            clip,
            cache: SamplingCache::default(),
            t: 0.0,
        }
    }

    fn frame(&mut self) -> Mat4 {
        self.t = (self.t + 1.0 / 60.0) % self.clip.duration().max(1e-3);
        let rest = self.skeleton.rest_pose();
        self.clip.sample(
            self.clip.start + self.t,
            rest,
            &mut self.cache,
            &mut self.pose,
        );
        local_to_model(
            &self.skeleton,
            &self.pose,
            0..self.pose.len(),
            &mut self.model,
        );
        self.model[self.model.len() - 1]
    }
}

/// Best of five runs of `frames` frames, ns per frame.
fn best(frames: u32, mut f: impl FnMut()) -> f64 {
    let mut runs: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..frames {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(frames)
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    runs[0]
}

fn bench(c: &mut Criterion) {
    let Some(robot) = robot() else {
        return;
    };
    let mannequin = marionette::mannequin::build();
    let (r, m) = (&robot.skeleton, &mannequin.skeleton);
    let mut group = c.benchmark_group("retarget");
    let mut node = retarget_graph(m, r, clip(&robot, "Walking"));
    group.bench_function("robot_walking_on_mannequin/node", |b| {
        b.iter(|| {
            node.advance(1.0 / 60.0);
            black_box(node.evaluate()[0]);
        })
    });
    let mut plain = Plain::new(r, clip(&robot, "Walking"));
    group.bench_function("robot_walking_on_robot/sample+l2m", |b| {
        b.iter(|| black_box(plain.frame()))
    });
    group.finish();

    let frames = 6_000;
    let mut rows = Vec::new();
    for (label, target, source, model, clip_name) in [
        ("Robot Walking on the mannequin", m, r, &robot, "Walking"),
        ("mannequin walk on the Robot", r, m, &mannequin, "walk"),
    ] {
        let mut g = retarget_graph(target, source, clip(model, clip_name));
        let node = best(frames, || {
            g.advance(1.0 / 60.0);
            black_box(g.evaluate()[0]);
        });
        let mut p = Plain::new(source, clip(model, clip_name));
        let plain = best(frames, || {
            black_box(p.frame());
        });
        rows.push((label, node, plain));
        if std::env::var_os("RETARGET_PROBE").is_some() {
            let map = JointMap::auto(target, source).map;
            for (what, opts) in [
                ("apply, IK on", RetargetOptions::default()),
                (
                    "apply, IK off",
                    RetargetOptions {
                        ik_feet: false,
                        ik_hands: false,
                        ..Default::default()
                    },
                ),
            ] {
                let rt = Retargeter::new(target, source, &map, &opts);
                let mut x = rt.scratch();
                let src = p.pose.clone();
                let mut out = target.rest_pose().to_vec();
                let mut w = target.morphs().defaults().to_vec();
                let t = best(frames, || {
                    rt.apply(&src, &[], &mut out, &mut w, &mut x);
                    black_box(out[0]);
                });
                println!("  probe {label} {what}: {t:.0} ns");
            }
            let mut b = GraphBuilder::new(source.clone());
            let input = b.add(ClipNode::new(clip(model, clip_name)));
            let mut g = b.build(input).expect("graph");
            let t = best(frames, || {
                g.advance(1.0 / 60.0);
                black_box(g.evaluate()[0]);
            });
            println!("  probe {label} plain graph on its own rig: {t:.0} ns");
        }
    }
    println!("\nretarget, best of 5 runs of {frames} frames (the clip played on its own rig: sampled + local-to-model):");
    for (label, node, plain) in rows {
        println!(
            "  {label}: retarget node {node:.0} ns/frame, the clip on its own rig {plain:.0} ns/frame, ratio {:.2}x (target <= 2x)",
            node / plain
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
