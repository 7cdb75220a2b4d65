//! Blend-graph benchmark: a locomotion graph on the bundled mannequin, built directly in Rust —
//! a 1D blend space of idle/walk/run with phase sync, inside a state machine with a jump
//! one-shot, a right-arm masked wave layer on top, and a look-at on the head as post-process.
//! One iteration is one 60 Hz frame: `advance(1/60)` + `evaluate()`. The Lua-driven version of
//! the same graph is compared against this one. A plain ns/joint table follows criterion's, and
//! the cost of the same graph with a foot lock (the one post op with memory, which evaluates the
//! pose at every step) as a ratio, measured in interleaved rounds.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::Vec3;
use marionette::anim::graph::{
    BlendSpace1D, ClipNode, Curve, FootLock, Graph, GraphBuilder, LayerNode, LockedFoot, PostOp,
    StateMachine, Transition,
};
use marionette::anim::ik::LookAt;
use marionette::anim::root_motion::RootMotionMode;

/// Builds the locomotion graph on the mannequin.
fn locomotion() -> Graph {
    build(false)
}

/// The locomotion graph, with `ik.foot_lock` on both feet when `lock`.
fn build(lock: bool) -> Graph {
    let model = marionette::mannequin::build();
    let clip = |name: &str| {
        model
            .clips
            .iter()
            .find(|c| c.name == name)
            .cloned()
            .unwrap_or_else(|| panic!("mannequin has no '{name}' clip"))
    };
    let mut b = GraphBuilder::new(model.skeleton.clone());
    let speed = b.float("speed", 2.0, 0.0, 6.0).expect("param");
    let jump = b.trigger("jump").expect("param");
    let look = b.vec3("look", Vec3::new(0.5, 1.6, 2.0)).expect("param");
    let idle = b.clip(clip("idle"));
    let walk = b.clip(clip("walk"));
    let run = b.clip(clip("run"));
    let moving = b.add(
        BlendSpace1D::new(speed)
            .sample(0.0, idle)
            .sample(1.4, walk)
            .sample(4.0, run)
            .sync(true),
    );
    let hop = b.add(ClipNode::new(clip("jump")).once());
    let mut sm = StateMachine::new();
    let (m, j) = (sm.state("move", moving), sm.state("jump", hop));
    sm.transition(
        Transition::new(m, j)
            .on(jump)
            .blend(0.15, Curve::SmoothStep),
    );
    sm.transition(Transition::new(j, m).at_end().blend(0.25, Curve::EaseInOut));
    let body = b.add(sm);
    let wave = b.clip(clip("wave"));
    let mask = b
        .mask()
        .subtree(b.skeleton(), "R_clavicle", 1.0)
        .expect("joint");
    let root = b.add(LayerNode::new(body, wave).weight(0.8).mask(mask));
    let head = b.joint("head").expect("joint");
    b.post(PostOp::LookAt {
        joint: head,
        target: look.into(),
        settings: LookAt {
            limit: 60f32.to_radians(),
            weight: 0.7,
            ..LookAt::default()
        },
        weight: 1.0.into(),
    });
    if lock {
        let rest = marionette::anim::rest_positions(b.skeleton());
        let feet = ["L_foot", "R_foot"]
            .iter()
            .map(|name| {
                let tip = b.joint(name).expect("joint");
                LockedFoot {
                    tip,
                    height: rest[tip as usize].y + 0.04,
                    speed: 0.35,
                    pole: None,
                }
            })
            .collect();
        b.post(PostOp::FootLock {
            lock: FootLock { feet, release: 0.1 },
            weight: 1.0.into(),
        });
    }
    b.root_motion("root", RootMotionMode::Ground);
    b.build(root).expect("graph builds")
}

fn bench(c: &mut Criterion) {
    let mut graph = locomotion();
    let joints = graph.skeleton().len();
    let jump = graph.param("jump").expect("param");
    let mut group = c.benchmark_group("graph");
    group.throughput(Throughput::Elements(joints as u64));
    let mut frame = 0u64;
    group.bench_function(format!("locomotion/{joints}_joints"), |bencher| {
        bencher.iter(|| {
            frame += 1;
            if frame.is_multiple_of(240) {
                let _ = graph.params_mut().fire(jump);
            }
            graph.advance(1.0 / 60.0);
            black_box(graph.evaluate()[0]);
        })
    });
    group.finish();

    // plain table: five runs of 4 000 frames (jumping every 4 s of animation); the fastest run
    // is the least disturbed by other processes on a shared machine
    let mut runs = Vec::new();
    for _ in 0..5 {
        let mut graph = locomotion();
        let frames = 4_000u32;
        let start = Instant::now();
        for f in 0..frames {
            if f.is_multiple_of(240) {
                let _ = graph.params_mut().fire(jump);
            }
            graph.advance(1.0 / 60.0);
            black_box(graph.evaluate()[0]);
        }
        runs.push(start.elapsed().as_nanos() as f64 / frames as f64);
    }
    runs.sort_by(f64::total_cmp);
    let (best, median) = (runs[0], runs[2]);
    println!(
        "\ngraph locomotion (Rust-built): {joints} joints, {best:.0} ns/frame best ({:.1} ns/joint/frame), {median:.0} ns/frame median ({:.1} ns/joint/frame)",
        best / joints as f64,
        median / joints as f64
    );

    // the foot lock's cost: fifteen rounds, the graph without and with the lock in turn, the
    // ratio taken within each round and its median printed
    let mut graphs = [build(false), build(true)];
    let mut ratios = Vec::new();
    let mut with = Vec::new();
    for _ in 0..15 {
        let mut ns = [0.0; 2];
        for (g, t) in graphs.iter_mut().zip(ns.iter_mut()) {
            let frames = 4_000u32;
            let start = Instant::now();
            for f in 0..frames {
                if f.is_multiple_of(240) {
                    let _ = g.params_mut().fire(jump);
                }
                g.advance(1.0 / 60.0);
                black_box(g.evaluate()[0]);
            }
            *t = start.elapsed().as_nanos() as f64 / f64::from(frames);
        }
        ratios.push(ns[1] / ns[0]);
        with.push(ns[1]);
    }
    ratios.sort_by(f64::total_cmp);
    with.sort_by(f64::total_cmp);
    println!(
        "graph locomotion with ik.foot_lock on both feet: {:.0} ns/frame median, {:.2}x the graph without it (median of 15 interleaved rounds)",
        with[7], ratios[7]
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
