//! Renderer benchmarks on the bundled mannequin: CPU time to pose, upload, record and submit a
//! frame with 1, 100 and 1000 skinned instances (one instanced draw per mesh, palettes in one
//! storage buffer), plus bytes uploaded per frame and the adapter used. Then RobotExpressive
//! (from the test data, when present) with its face still (every morph weight 0) and animating
//! (its three targets moving on each of its three face meshes): the cost of GPU morphing, as a
//! ratio measured in the same run.
//!
//! The timed part (pose every character, upload palettes/instances/lines, record, submit) ends
//! at `queue.submit`; the pose + upload share is printed separately. Waiting for the GPU is not
//! timed. A separate line
//! reports submit-to-idle GPU time, which on lavapipe (a CPU rasteriser) is NOT a GPU figure.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use glam::{Mat4, Vec3};
use marionette::anim::{PoseSource, Transform};
use marionette::render::{
    Bounds, Cast, Character, ClipPoses, GpuContext, OffscreenTarget, OrbitCamera, Scene, Shot,
    ViewOptions, OFFSCREEN_FORMAT,
};

fn characters(model: &marionette::Model, n: usize, frame: usize) -> Vec<Character> {
    let side = (n as f32).sqrt().ceil() as usize;
    (0..n)
        .map(|i| {
            let clip = i % model.clips.len();
            let c = &model.clips[clip];
            let t = c.start + ((i * 7 + frame) % 60) as f32 / 60.0 * (c.end - c.start);
            Character {
                world: Mat4::from_translation(Vec3::new(
                    (i % side) as f32 * 1.5,
                    0.0,
                    (i / side) as f32 * -1.5,
                )),
                source: clip,
                time: t,
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let ctx = match GpuContext::headless() {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("skipped: no wgpu adapter (install mesa-vulkan-drivers): {e}");
            return;
        }
    };
    let software = ctx.info.device_type == wgpu::DeviceType::Cpu;
    println!(
        "adapter: {} ({:?}, {:?}){}",
        ctx.info.name,
        ctx.info.backend,
        ctx.info.device_type,
        if software {
            " -- software rasteriser: GPU timings below are CPU emulation, not GPU figures"
        } else {
            ""
        }
    );
    let model = marionette::mannequin::build();
    let (w, h) = (256, 256);
    let target = OffscreenTarget::new(&ctx, w, h, ctx.sample_count(OFFSCREEN_FORMAT))
        .expect("offscreen target");
    let mut scene = Scene::new(&ctx, &model, OFFSCREEN_FORMAT, target.sample_count).expect("scene");
    let view = ViewOptions::default();
    let bounds = Bounds {
        min: Vec3::new(-1.0, 0.0, -50.0),
        max: Vec3::new(50.0, 2.0, 1.0),
    };
    let mut camera = OrbitCamera::default();
    camera.frame(&bounds, 1.0);
    let shot = Shot { camera, bounds };
    // One pose source per clip; character `i` plays clip `i % clips` (its `source`).
    let mut sources: Vec<ClipPoses> = (0..model.clips.len())
        .map(|i| ClipPoses::new(&model, Some(i)).expect("clip"))
        .collect();
    let mut group = c.benchmark_group("render_frame_cpu");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for n in [1usize, 100, 1000] {
        let frames: Vec<Vec<Character>> = (0..4).map(|f| characters(&model, n, f)).collect();
        let mut bytes = 0;
        let mut gpu_time = Duration::ZERO;
        let mut gpu_frames = 0u32;
        let mut prepare_time = Duration::ZERO;
        group.bench_function(format!("{n}_instances"), |b| {
            b.iter_custom(|iters| {
                let mut cpu = Duration::ZERO;
                for i in 0..iters {
                    let start = Instant::now();
                    bytes = scene.prepare(
                        &ctx,
                        &model,
                        Cast {
                            sources: &mut sources,
                            characters: &frames[i as usize % 4],
                        },
                        &view,
                        &shot,
                        1.0,
                    );
                    prepare_time += start.elapsed();
                    let mut encoder =
                        ctx.device
                            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                                label: Some("bench frame encoder"),
                            });
                    {
                        let mut pass = target.begin_pass(&mut encoder);
                        scene.renderer.draw(&mut pass, &scene.gpu);
                    }
                    ctx.queue.submit([encoder.finish()]);
                    let submitted = Instant::now();
                    cpu += submitted - start;
                    let _ = ctx.wait_idle();
                    gpu_time += submitted.elapsed();
                    gpu_frames += 1;
                }
                cpu
            })
        });
        let frames = gpu_frames.max(1) as f64;
        println!(
            "{n} instances: {bytes} bytes uploaded per frame ({} per instance); of the CPU time, \
             pose + upload {:.3} ms/frame; submit-to-idle {:.2} ms/frame on {}{}",
            bytes / n as u64,
            prepare_time.as_secs_f64() * 1e3 / frames,
            gpu_time.as_secs_f64() * 1e3 / frames,
            ctx.info.name,
            if software {
                " (software, not a GPU timing)"
            } else {
                ""
            }
        );
    }
    group.finish();
    assert!(ctx.take_errors().is_empty(), "wgpu validation errors");
}

/// A clip's poses with the face's weights moving (`Some`: each target a phase-shifted wave),
/// or as the clip has them (`None`: the Robot's clips keep them at zero).
struct Face<'m> {
    clip: ClipPoses<'m>,
    animate: bool,
    weights: Vec<f32>,
}

impl PoseSource for Face<'_> {
    fn range(&self) -> (f32, f32) {
        self.clip.range()
    }
    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4 {
        let world = self.clip.pose_at(time, local);
        if self.animate {
            for (k, w) in self.weights.iter_mut().enumerate() {
                *w = 0.5 + 0.5 * (time * 3.0 + k as f32).sin();
            }
        }
        world
    }
    fn morphs(&self) -> &[f32] {
        if self.animate {
            &self.weights
        } else {
            self.clip.morphs()
        }
    }
}

/// The Robot's face still and animating, 1 and 100 instances: CPU time to submit and
/// submit-to-idle time, and their ratio (animating / still) in the same run.
fn face(c: &mut Criterion) {
    let dir = std::env::var_os("MARIONETTE_TESTDATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/gltf")
        });
    let path = dir.join("RobotExpressive.glb");
    let model = match marionette::io::import(&path) {
        Ok(m) => m,
        Err(e) => {
            eprintln!(
                "skipped: the Robot face bench needs {}: {e}",
                path.display()
            );
            return;
        }
    };
    let Ok(ctx) = GpuContext::headless() else {
        eprintln!("skipped: no wgpu adapter (install mesa-vulkan-drivers)");
        return;
    };
    let (w, h) = (512, 512);
    let target = OffscreenTarget::new(&ctx, w, h, ctx.sample_count(OFFSCREEN_FORMAT))
        .expect("offscreen target");
    let mut scene = Scene::new(&ctx, &model, OFFSCREEN_FORMAT, target.sample_count).expect("scene");
    let bounds = Bounds {
        min: Vec3::new(-1.0, 0.0, -15.0),
        max: Vec3::new(15.0, 5.0, 1.0),
    };
    let mut camera = OrbitCamera::default();
    camera.frame(&bounds, 1.0);
    let shot = Shot { camera, bounds };
    let view = ViewOptions::default();
    let mut group = c.benchmark_group("robot_face_frame");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    let mut rows = Vec::new();
    for n in [1usize, 100] {
        let mut per_mode = Vec::new();
        for animate in [false, true] {
            let mut sources: Vec<Face> = (0..model.clips.len())
                .map(|i| Face {
                    clip: ClipPoses::new(&model, Some(i)).expect("clip"),
                    animate,
                    weights: vec![0.0; model.skeleton.morphs().len()],
                })
                .collect();
            let frames: Vec<Vec<Character>> = (0..4).map(|f| characters(&model, n, f)).collect();
            let (mut cpu_total, mut gpu_total, mut count) = (Duration::ZERO, Duration::ZERO, 0u32);
            let label = format!("{n}_{}", if animate { "animating" } else { "still" });
            group.bench_function(label, |b| {
                b.iter_custom(|iters| {
                    let mut cpu = Duration::ZERO;
                    for i in 0..iters {
                        let start = Instant::now();
                        scene.prepare(
                            &ctx,
                            &model,
                            Cast {
                                sources: &mut sources,
                                characters: &frames[i as usize % 4],
                            },
                            &view,
                            &shot,
                            1.0,
                        );
                        let mut encoder =
                            ctx.device
                                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                                    label: Some("bench face encoder"),
                                });
                        {
                            let mut pass = target.begin_pass(&mut encoder);
                            scene.renderer.draw(&mut pass, &scene.gpu);
                        }
                        ctx.queue.submit([encoder.finish()]);
                        let submitted = Instant::now();
                        cpu += submitted - start;
                        let _ = ctx.wait_idle();
                        gpu_total += submitted.elapsed();
                        count += 1;
                    }
                    cpu_total += cpu;
                    cpu
                })
            });
            let k = f64::from(count.max(1));
            per_mode.push((
                cpu_total.as_secs_f64() * 1e3 / k,
                gpu_total.as_secs_f64() * 1e3 / k,
            ));
        }
        rows.push((n, per_mode[0], per_mode[1]));
    }
    group.finish();
    println!(
        "
RobotExpressive, {w}x{h}, face still vs animating, same run, on {}:",
        ctx.info.name
    );
    for (n, (c0, g0), (c1, g1)) in rows {
        println!(
            "  {n:>3} instances: CPU {c0:.3} -> {c1:.3} ms/frame ({:.2}x), submit-to-idle {g0:.2} -> {g1:.2} ms/frame ({:.2}x)",
            c1 / c0,
            g1 / g0
        );
    }
    assert!(ctx.take_errors().is_empty(), "wgpu validation errors");
}

criterion_group!(benches, bench, face);
criterion_main!(benches);
