//! The procedural-rigging operations' cost, per joint per frame, against a plain clip sample
//! (the mannequin's walk, 24 joints) in the same run; FABRIK's and CCD's iterations to converge
//! on a 10-joint chain; and a 32-joint spring chain with 4 colliders per 60 Hz frame, with the
//! published figures of three-vrm and VRChat's PhysBones beside it. A plain table follows
//! criterion's.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec3};
use marionette::anim::rigging::aim::{aim, AimSettings};
use marionette::anim::rigging::chain_ik::{solve, spline, ChainSettings, Solver};
use marionette::anim::rigging::spring::{
    Collider, Shape, SpringChain, SpringSettings, SpringState,
};
use marionette::anim::{JointIndex, SamplingCache, Transform, WrapMode};

/// A straight chain of `n` joints along +Y, 0.1 m apart, under a root at the origin.
fn chain_rig(n: usize) -> (Vec<Option<JointIndex>>, Vec<Transform>, Vec<JointIndex>) {
    let mut parents = vec![None];
    let mut pose = vec![Transform::IDENTITY];
    for k in 1..=n {
        parents.push(Some(k as JointIndex - 1));
        // a slight curl, so no target lies on the chain's line
        let mut t = Transform::from_translation(Vec3::Y * 0.1);
        t.rotation = Quat::from_rotation_z(0.05);
        pose.push(t);
    }
    let joints = (1..=n as JointIndex).collect();
    (parents, pose, joints)
}

/// Reachable targets spread around a 10-joint (1 m) chain's root, deterministic.
fn targets(count: usize) -> Vec<Vec3> {
    (0..count)
        .map(|k| {
            let a = k as f32 * 2.399;
            let r = 0.25 + 0.6 * ((k * 7 % 13) as f32 / 13.0);
            Vec3::new(r * a.cos(), 0.1 + 0.5 * ((k % 5) as f32 / 5.0), r * a.sin())
        })
        .collect()
}

/// One timed measure: seconds per call of `f` over `n` calls.
fn per_call(n: u32, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        f();
    }
    start.elapsed().as_secs_f64() / f64::from(n)
}

/// A 32-joint spring hanging from an anchor that swings, with 4 capsule colliders around it.
struct SpringScene {
    parents: Vec<Option<JointIndex>>,
    pose: Vec<Transform>,
    chain: SpringChain,
    settings: SpringSettings,
    state: SpringState,
    t: f64,
}

impl SpringScene {
    fn new() -> Self {
        // root 0, anchor 1, collider joints 2..6, the chain from 6
        let mut parents = vec![None, Some(0)];
        let mut pose = vec![
            Transform::IDENTITY,
            Transform::from_translation(Vec3::Y * 2.0),
        ];
        let mut colliders = Vec::new();
        for k in 0..4 {
            parents.push(Some(0));
            let a = k as f32 * std::f32::consts::FRAC_PI_2;
            pose.push(Transform::from_translation(Vec3::new(
                0.4 * a.cos(),
                1.5,
                0.4 * a.sin(),
            )));
            colliders.push(Collider {
                joint: (2 + k) as JointIndex,
                shape: Shape::Capsule {
                    offset: Vec3::ZERO,
                    tail: Vec3::Y * 0.4,
                    radius: 0.08,
                },
            });
        }
        let first = parents.len();
        let mut joints = Vec::new();
        for k in 0..32 {
            parents.push(Some(if k == 0 {
                1
            } else {
                (first + k - 1) as JointIndex
            }));
            pose.push(Transform::from_translation(if k == 0 {
                Vec3::ZERO
            } else {
                Vec3::NEG_Y * 0.05
            }));
            joints.push((first + k) as JointIndex);
        }
        SpringScene {
            parents,
            pose,
            chain: SpringChain {
                tails: vec![Vec3::NEG_Y * 0.05; 32],
                joints,
                colliders,
                per_joint: Vec::new(),
            },
            settings: SpringSettings {
                stiffness: 2.0,
                damping: 0.5,
                drag: 0.0,
                gravity: Vec3::new(0.0, -9.81, 0.0),
                radius: 0.02,
            },
            state: SpringState::default(),
            t: 0.0,
        }
    }

    /// One 60 Hz frame: the anchor swings, the spring runs 4 substeps.
    fn frame(&mut self) -> f32 {
        self.t += 1.0 / 60.0;
        let mut p = self.pose.clone();
        p[1].translation.x = (self.t * 3.0).sin() as f32 * 0.5;
        self.chain.apply(
            &self.parents,
            &mut p,
            &Transform::IDENTITY,
            self.t,
            &self.settings,
            1.0,
            &mut self.state,
        );
        p[self.chain.joints[31] as usize].rotation.x
    }
}

fn bench(c: &mut Criterion) {
    let model = marionette::mannequin::build();
    let walk = model
        .clips
        .iter()
        .find(|c| c.name == "walk")
        .expect("the mannequin walks")
        .clone();
    let rest = model.skeleton.rest_pose().to_vec();
    let mut out = rest.clone();
    let mut cache = SamplingCache::new();
    let mut t = 0.0f32;
    let mut sample = move || {
        t = walk.wrap_time(t + 1.0 / 60.0, WrapMode::Loop);
        walk.sample(t, &rest, &mut cache, &mut out);
        black_box(out[3].rotation.x);
    };
    let (parents, pose, joints) = chain_rig(10);
    let goals = targets(64);
    let mut k = 0usize;
    let mut solve_with = move |solver: Solver| {
        let mut p = pose.clone();
        k = (k + 1) % goals.len();
        let s = ChainSettings {
            solver,
            ..Default::default()
        };
        black_box(solve(&parents, &mut p, &joints, goals[k], &s, 1.0));
    };
    let (sp, spose, sj) = chain_rig(10);
    let points = [Vec3::new(0.2, 0.4, 0.0), Vec3::new(0.5, 0.7, 0.2)];
    let mut lay = move || {
        let mut p = spose.clone();
        spline(&sp, &mut p, &sj, &points, 1.0);
        black_box(p[5].rotation.x);
    };
    let (ap, apose, _) = chain_rig(3);
    let mut aim_once = move || {
        let mut p = apose.clone();
        aim(
            &ap,
            &mut p,
            3,
            Vec3::new(1.0, 2.0, 1.0),
            &AimSettings::default(),
            1.0,
        );
        black_box(p[3].rotation.x);
    };
    let mut spring = SpringScene::new();

    let mut g = c.benchmark_group("rigging");
    g.bench_function("sample walk (24 joints)", |b| b.iter(&mut sample));
    g.bench_function("aim (1 joint)", |b| b.iter(&mut aim_once));
    g.bench_function("fabrik (10 joints)", |b| {
        b.iter(|| solve_with(Solver::Fabrik))
    });
    g.bench_function("ccd (10 joints)", |b| b.iter(|| solve_with(Solver::Ccd)));
    g.bench_function("spline (10 joints)", |b| b.iter(&mut lay));
    g.bench_function("spring (32 joints, 4 colliders, 60 Hz frame)", |b| {
        b.iter(|| black_box(spring.frame()))
    });
    g.finish();

    // the plain table: per joint per frame, as ratios of the sample's, measured in one run
    let n = 20_000;
    let sample_s = per_call(n, &mut sample) / 24.0;
    let rows = [
        ("aim", per_call(n, &mut aim_once), 1.0),
        (
            "fabrik",
            per_call(n / 10, || solve_with(Solver::Fabrik)),
            10.0,
        ),
        ("ccd", per_call(n / 10, || solve_with(Solver::Ccd)), 10.0),
        ("spline", per_call(n / 10, &mut lay), 10.0),
        (
            "spring",
            per_call(n / 10, || {
                black_box(spring.frame());
            }),
            32.0,
        ),
    ];
    println!("\nper joint per frame (ratio to sampling the walk's joints, same run):");
    println!("  sample walk        {:8.1} ns   1.00x", sample_s * 1e9);
    for (name, s, j) in rows {
        let per = s / j;
        println!(
            "  {name:<18} {:8.1} ns {:6.2}x   ({:.2} us per frame)",
            per * 1e9,
            per / sample_s,
            s * 1e6
        );
    }
    let spring_frame = rows_spring_ms(&mut spring);
    println!(
        "spring, 32 joints + 4 colliders: {spring_frame:.4} ms per 60 Hz frame ({:.2} us per joint); \
         published: three-vrm 0.15-0.4 ms per avatar, VRChat PhysBones about 2 ms per 1000 bones (2 us per bone)",
        spring_frame * 1000.0 / 32.0
    );
    // iterations to converge (a count, not a time)
    let (parents, pose, joints) = chain_rig(10);
    for solver in [Solver::Fabrik, Solver::Ccd] {
        let mut its = Vec::new();
        let mut missed = 0;
        for goal in targets(200) {
            let mut p = pose.clone();
            let s = ChainSettings {
                solver,
                ..Default::default()
            };
            let r = solve(&parents, &mut p, &joints, goal, &s, 1.0);
            if r.error > 1e-4 {
                missed += 1;
            }
            its.push(r.iterations);
        }
        its.sort_unstable();
        let mean = its.iter().map(|&i| f64::from(i)).sum::<f64>() / its.len() as f64;
        println!(
            "{solver:?} on 10 joints, 200 reachable targets: iterations mean {mean:.1}, median {}, max {}; {missed} not within 0.1 mm",
            its[its.len() / 2],
            its[its.len() - 1]
        );
    }
}

/// Milliseconds per 60 Hz frame of the spring scene.
fn rows_spring_ms(spring: &mut SpringScene) -> f64 {
    per_call(2000, || {
        black_box(spring.frame());
    }) * 1000.0
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
