//! The cost of a frame during a state machine transition on the mannequin: the outgoing state
//! is the synced idle/walk/run blend space, the incoming one the same blend space at another
//! speed (a realistic pair: both sample two or three clips). One iteration is one 60 Hz frame,
//! `advance(1/60)` + `evaluate()`, while the transition runs (its blend is made long enough
//! never to end during the measurement). Compared in the same run: a live crossfade (both
//! states evaluated), a frozen one (the source captured once) and an inertial transition (the
//! target alone plus the decaying offsets). A plain table of ratios follows criterion's.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use marionette::anim::graph::{
    BlendSpace1D, Curve, Graph, GraphBuilder, SourceMode, StateMachine, Transition,
};

/// The machine, switched to its second state and run for a few frames.
fn switched(mode: SourceMode) -> Graph {
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
    let other = b.float("other", 3.0, 0.0, 6.0).expect("param");
    let go = b.trigger("go").expect("param");
    let mut space = |param| {
        let (idle, walk, run) = (
            b.clip(clip("idle")),
            b.clip(clip("walk")),
            b.clip(clip("run")),
        );
        b.add(
            BlendSpace1D::new(param)
                .sample(0.0, idle)
                .sample(1.4, walk)
                .sample(4.0, run)
                .sync(true),
        )
    };
    let (from, to) = (space(speed), space(other));
    let mut sm = StateMachine::new();
    let (a, c) = (sm.state("from", from), sm.state("to", to));
    sm.transition(
        Transition::new(a, c)
            .on(go)
            .blend(1.0e5, Curve::Linear)
            .source(mode),
    );
    let root = b.add(sm);
    let mut g = b.build(root).expect("graph builds");
    g.advance(0.5);
    g.params_mut().fire(go).expect("trigger");
    for _ in 0..4 {
        g.advance(1.0 / 60.0);
        g.evaluate();
    }
    g
}

const MODES: [(&str, SourceMode); 3] = [
    ("crossfade_live", SourceMode::Playing),
    ("crossfade_frozen", SourceMode::Frozen),
    ("inertial", SourceMode::Inertial),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("transition_frame");
    for (name, mode) in MODES {
        let mut g = switched(mode);
        group.bench_function(name, |bencher| {
            bencher.iter(|| {
                g.advance(1.0 / 60.0);
                black_box(g.evaluate()[0]);
            })
        });
    }
    group.finish();

    // plain table: the best of five runs of 20 000 frames each, as ratios to the live crossfade
    let ns: Vec<f64> = MODES
        .iter()
        .map(|&(_, mode)| {
            (0..5)
                .map(|_| {
                    let mut g = switched(mode);
                    let frames = 20_000u32;
                    let start = Instant::now();
                    for _ in 0..frames {
                        g.advance(1.0 / 60.0);
                        black_box(g.evaluate()[0]);
                    }
                    start.elapsed().as_nanos() as f64 / f64::from(frames)
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    println!("\ntransition frame on the mannequin (best of 5 x 20 000 frames):");
    for ((name, _), t) in MODES.iter().zip(&ns) {
        println!(
            "  {name:<17} {t:>7.0} ns/frame  {:.2}x the live crossfade",
            t / ns[0]
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
