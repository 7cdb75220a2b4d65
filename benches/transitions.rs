//! The cost of a frame during a state machine transition on the mannequin: the outgoing state
//! is the synced idle/walk/run blend space, the incoming one the same blend space at another
//! speed (a realistic pair: both sample two or three clips). One iteration is one 60 Hz frame,
//! `advance(1/60)` + `evaluate()`, while a 0.3 s transition runs: every 15 frames the graph is
//! put back to the frame after the switch (a snapshot restored, the same cost for every mode),
//! so each frame measured is inside the blend, as an animator's transitions are. Compared in
//! the same run: a live crossfade (both states evaluated), a frozen one (the source captured
//! once) and an inertial transition (the target alone plus the decaying offsets). A plain table
//! of ratios follows criterion's.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use marionette::anim::graph::{
    BlendSpace1D, Curve, Graph, GraphBuilder, GraphState, SourceMode, StateMachine, Transition,
};

/// The blend time, seconds, and the frames measured of each transition (all inside it).
const BLEND: f32 = 0.3;
const FRAMES_IN: u32 = 15;

/// A graph inside a transition, put back to its first frame every [`FRAMES_IN`] frames.
struct Running {
    g: Graph,
    start: GraphState,
    frame: u32,
}

impl Running {
    fn new(mode: SourceMode) -> Self {
        let g = switched(mode);
        let start = g.snapshot();
        Running { g, start, frame: 0 }
    }

    /// One frame: `advance(1/60)` and `evaluate()`.
    fn frame(&mut self) -> f32 {
        self.frame += 1;
        if self.frame == FRAMES_IN {
            self.g.restore(&self.start);
            self.frame = 0;
        }
        self.g.advance(1.0 / 60.0);
        self.g.evaluate()[0].translation.x
    }
}

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
            .blend(BLEND, Curve::Linear)
            .source(mode),
    );
    let root = b.add(sm);
    let mut g = b.build(root).expect("graph builds");
    g.advance(0.5);
    g.params_mut().fire(go).expect("trigger");
    g.advance(1.0 / 60.0);
    g.evaluate();
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
        let mut run = Running::new(mode);
        group.bench_function(name, |bencher| {
            bencher.iter(|| {
                black_box(run.frame());
            })
        });
    }
    group.finish();

    // plain table: fifteen rounds of 10 000 frames per mode, the modes taken in turn within a
    // round; the ratio to the live crossfade is taken within each round (a slow spell of a
    // shared machine falls on all three) and the median of the rounds printed
    let mut runs: Vec<Running> = MODES.iter().map(|&(_, mode)| Running::new(mode)).collect();
    let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); MODES.len()];
    for _ in 0..15 {
        let mut ns = Vec::new();
        for run in runs.iter_mut() {
            let frames = 10_000u32;
            let start = Instant::now();
            for _ in 0..frames {
                black_box(run.frame());
            }
            ns.push(start.elapsed().as_nanos() as f64 / f64::from(frames));
        }
        for (k, t) in ns.iter().enumerate() {
            rounds[k].push(*t);
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "\ntransition frame on the mannequin (median of 15 interleaved rounds x 10 000 frames):"
    );
    for (k, (name, _)) in MODES.iter().enumerate() {
        let ratios: Vec<f64> = rounds[k]
            .iter()
            .zip(&rounds[0])
            .map(|(t, l)| t / l)
            .collect();
        println!(
            "  {name:<17} {:>7.0} ns/frame  {:.2}x the live crossfade",
            median(rounds[k].clone()),
            median(ratios)
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
