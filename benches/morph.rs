//! Morph target cost on the CPU reference path (what the GPU path is checked against):
//! `morph_vertices` then `skin_vertices` over a generated 8192-vertex mesh with 8 targets,
//! with 0, 1, 2, 4 and 8 targets active (non-zero weight). Criterion reports each; a table
//! follows with ns per vertex and the cost of one more active target per vertex (the slope of a
//! least-squares line through the five points, in the same run).

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::{Mat4, Quat, Vec3};
use marionette::anim::{morph_vertices, skin_vertices, MorphTarget};

const VERTICES: usize = 8192;
const TARGETS: usize = 8;

/// Deterministic pseudo-random numbers in [-1, 1].
struct Lcg(u32);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (self.0 >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
    fn vec3(&mut self, scale: f32) -> Vec3 {
        Vec3::new(self.next(), self.next(), self.next()) * scale
    }
}

/// A mesh on four joints and its targets (every vertex moved by every target, the dense case).
struct Mesh {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
    targets: Vec<MorphTarget>,
    palette: Vec<Mat4>,
}

fn mesh() -> Mesh {
    let mut r = Lcg(7);
    let positions: Vec<Vec3> = (0..VERTICES).map(|_| r.vec3(1.0)).collect();
    let normals = positions.iter().map(|p| p.normalize_or(Vec3::Y)).collect();
    let joints = (0..VERTICES)
        .map(|v| [(v % 4) as u16, ((v + 1) % 4) as u16, 0, 0])
        .collect();
    let weights = (0..VERTICES).map(|_| [0.7, 0.3, 0.0, 0.0]).collect();
    let targets = (0..TARGETS)
        .map(|_| MorphTarget {
            positions: (0..VERTICES).map(|_| r.vec3(0.02)).collect(),
            normals: (0..VERTICES).map(|_| r.vec3(0.1)).collect(),
            tangents: Vec::new(),
        })
        .collect();
    let palette = (0..4)
        .map(|j| {
            Mat4::from_rotation_translation(
                Quat::from_rotation_y(0.1 * j as f32),
                Vec3::new(0.0, j as f32 * 0.3, 0.0),
            )
        })
        .collect();
    Mesh {
        positions,
        normals,
        joints,
        weights,
        targets,
        palette,
    }
}

/// Weights with `active` targets at non-zero weights, the rest zero.
fn weights(active: usize) -> Vec<f32> {
    (0..TARGETS)
        .map(|t| {
            if t < active {
                0.3 + 0.05 * t as f32
            } else {
                0.0
            }
        })
        .collect()
}

/// One morph-then-skin pass over the mesh.
fn pass(m: &Mesh, w: &[f32], scratch: &mut [Vec<Vec3>; 4]) {
    let [mp, mn, sp, sn] = scratch;
    morph_vertices(&m.positions, &m.normals, &m.targets, w, mp, mn);
    skin_vertices(&m.palette, &m.joints, &m.weights, mp, mn, sp, sn);
    black_box(&sp[0]);
}

/// Median over 15 batches of this process's wall time per vertex for one pass.
fn ns_per_vertex(m: &Mesh, w: &[f32], scratch: &mut [Vec<Vec3>; 4]) -> f64 {
    let calls = 40;
    let mut batches: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..calls {
                pass(m, black_box(w), scratch);
            }
            start.elapsed().as_nanos() as f64 / (calls * VERTICES) as f64
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[batches.len() / 2]
}

fn morph(c: &mut Criterion) {
    let m = mesh();
    let mut scratch: [Vec<Vec3>; 4] = std::array::from_fn(|_| vec![Vec3::ZERO; VERTICES]);
    let actives = [0usize, 1, 2, 4, 8];
    let mut group = c.benchmark_group("morph_then_skin");
    group.throughput(Throughput::Elements(VERTICES as u64));
    for &a in &actives {
        let w = weights(a);
        group.bench_function(format!("{a}_active_of_{TARGETS}"), |b| {
            b.iter(|| pass(&m, black_box(&w), &mut scratch))
        });
    }
    group.finish();
    let points: Vec<(f64, f64)> = actives
        .iter()
        .map(|&a| (a as f64, ns_per_vertex(&m, &weights(a), &mut scratch)))
        .collect();
    println!("\nmorph then skin, {VERTICES} vertices, {TARGETS} targets (median of 15 batches)");
    for (a, ns) in &points {
        println!("  {a:>2} active targets  {ns:>7.2} ns/vertex");
    }
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a, y + b));
    let (mx, my) = (sx / n, sy / n);
    let slope = points.iter().map(|(a, b)| (a - mx) * (b - my)).sum::<f64>()
        / points.iter().map(|(a, _)| (a - mx).powi(2)).sum::<f64>();
    println!(
        "  per active target: {slope:.2} ns per vertex (least squares); skinning alone (0 active) {:.2} ns/vertex",
        points[0].1
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = morph
}
criterion_main!(benches);
