//! Runtime benchmarks: clip sampling (LINEAR and CUBICSPLINE, warm sequential playback),
//! local-to-model and skin palette, on a generated 1023-joint chain and a generated 25-joint
//! humanoid. Every joint animates translation, rotation and scale (the worst case), 31 keys per
//! second. Criterion reports throughput in joints ("elem"); a plain ns/joint table follows.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::{Affine3A, Mat4, Quat, Vec3};
use marionette::anim::soa::{self, PalettePlan, SoaClip, SoaCursor, SoaPose};
use marionette::anim::{
    local_to_model, Clip, Interpolation, JointTracks, SamplingCache, Skeleton, Skin, Track,
    Transform, WrapMode,
};

/// Keys per track (30 fps over one second, both ends included).
const KEYS: usize = 31;
/// Playback step: 60 fps.
const DT: f32 = 1.0 / 60.0;

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
    fn quat(&mut self) -> Quat {
        Quat::from_euler(glam::EulerRot::XYZ, self.next(), self.next(), self.next())
    }
}

/// A test character: skeleton, the same motion as LINEAR and CUBICSPLINE clips, one skin.
struct Rig {
    name: &'static str,
    skeleton: Skeleton,
    linear: Clip,
    cubic: Clip,
    skin: Skin,
}

fn track<T: Copy>(
    interpolation: Interpolation,
    keys: Vec<T>,
    tangent: impl Fn(T) -> T,
) -> Track<T> {
    let times = (0..KEYS).map(|k| k as f32 / (KEYS - 1) as f32).collect();
    let values = match interpolation {
        Interpolation::CubicSpline => keys
            .iter()
            .flat_map(|&v| [tangent(v), v, tangent(v)])
            .collect(),
        _ => keys,
    };
    Track {
        interpolation,
        times,
        values,
    }
}

/// Smooth looping motion (one cycle per second, joint-dependent phases), like real clips:
/// rotations swing up to about 0.5 rad, so adjacent keys are a few degrees apart.
fn clip(rest: &[Transform], interpolation: Interpolation, seed: u32) -> Clip {
    let mut rng = Lcg(seed);
    let tracks = rest
        .iter()
        .enumerate()
        .map(|(j, r)| {
            let phase = rng.vec3(3.0);
            let wave = |k: usize, amp: f32| {
                let a = k as f32 / (KEYS - 1) as f32 * std::f32::consts::TAU;
                Vec3::new(
                    (a + phase.x).sin(),
                    (a + phase.y).sin(),
                    (a + phase.z).sin(),
                ) * amp
            };
            let mut jt = JointTracks::new(j as u16);
            let t: Vec<Vec3> = (0..KEYS).map(|k| r.translation + wave(k, 0.01)).collect();
            let q: Vec<Quat> = (0..KEYS)
                .map(|k| {
                    let e = wave(k, 0.5);
                    r.rotation * Quat::from_euler(glam::EulerRot::XYZ, e.x, e.y, e.z)
                })
                .collect();
            let s: Vec<Vec3> = (0..KEYS).map(|k| Vec3::ONE + wave(k, 0.05)).collect();
            jt.translation = Some(track(interpolation, t, |v| v * 0.1));
            jt.rotation = Some(track(interpolation, q, |v| v * 0.1));
            jt.scale = Some(track(interpolation, s, |v| v * 0.1));
            jt
        })
        .collect();
    Clip::new("bench", tracks)
}

fn rig(name: &'static str, names: Vec<String>, parents: Vec<Option<usize>>) -> Rig {
    let mut rng = Lcg(7);
    let rest: Vec<Transform> = (0..names.len())
        .map(|_| Transform::new(Vec3::Y * 0.1 + rng.vec3(0.02), rng.quat(), Vec3::ONE))
        .collect();
    let armature = Mat4::from_scale(Vec3::splat(0.01)) * Mat4::from_rotation_x(-1.0);
    let skeleton = match Skeleton::new(names, parents, rest.clone(), armature) {
        Ok(built) => built.skeleton,
        Err(e) => panic!("bench skeleton: {e}"),
    };
    let mut model = vec![Mat4::IDENTITY; skeleton.len()];
    local_to_model(
        &skeleton,
        skeleton.rest_pose(),
        0..skeleton.len(),
        &mut model,
    );
    let skin = Skin {
        name: name.into(),
        joints: (0..skeleton.len() as u16).collect(),
        // affine inverses, last row exactly (0, 0, 0, 1), as glTF files carry them (the Fox,
        // RobotExpressive, our mannequin): a general inverse leaves some a rounding off it
        inverse_bind: model
            .iter()
            .map(|m| Mat4::from(Affine3A::from_mat4(*m).inverse()))
            .collect(),
    };
    Rig {
        name,
        linear: clip(skeleton.rest_pose(), Interpolation::Linear, 1),
        cubic: clip(skeleton.rest_pose(), Interpolation::CubicSpline, 1),
        skeleton,
        skin,
    }
}

/// A 1023-joint chain.
fn chain() -> Rig {
    let n = 1023;
    let names = (0..n).map(|j| format!("joint_{j}")).collect();
    let parents = (0..n)
        .map(|j| if j == 0 { None } else { Some(j - 1) })
        .collect();
    rig("chain1023", names, parents)
}

/// A 25-joint humanoid: hips, spine to head and jaw, arms with thumbs, legs to toes.
fn humanoid() -> Rig {
    let mut names: Vec<String> = Vec::new();
    let mut parents: Vec<Option<usize>> = Vec::new();
    let mut add = |name: String, parent: Option<usize>| {
        names.push(name);
        parents.push(parent);
        names.len() - 1
    };
    let hips = add("Hips".into(), None);
    let mut spine = hips;
    for n in ["Spine", "Spine1", "Spine2"] {
        spine = add(n.into(), Some(spine));
    }
    let neck = add("Neck".into(), Some(spine));
    let head = add("Head".into(), Some(neck));
    add("Jaw".into(), Some(head));
    for side in ["L_", "R_"] {
        let mut p = spine;
        for n in ["Clavicle", "UpperArm", "ForeArm", "Hand"] {
            p = add(format!("{side}{n}"), Some(p));
        }
        add(format!("{side}Thumb"), Some(p));
        let mut p = hips;
        for n in ["Thigh", "Calf", "Foot", "Toe"] {
            p = add(format!("{side}{n}"), Some(p));
        }
    }
    rig("humanoid25", names, parents)
}

/// Sequential playback at 60 fps, looping: the warm (cursor) path.
fn play(
    clip: &Clip,
    rest: &[Transform],
    t: &mut f32,
    cache: &mut SamplingCache,
    out: &mut [Transform],
) {
    *t = clip.wrap_time(*t + DT, WrapMode::Loop);
    clip.sample(*t, rest, cache, out);
}

/// [`play`] through the SoA runtime (a compiled clip into an SoA pose).
fn play_soa(clip: &SoaClip, t: &mut f32, cursor: &mut SoaCursor, out: &mut SoaPose) {
    *t = clip.clip().wrap_time(*t + DT, WrapMode::Loop);
    clip.sample(*t, cursor, out);
}

fn bench_rig(
    c: &mut Criterion,
    rig: &Rig,
    table: &mut Vec<(String, f64)>,
    ratios: &mut Vec<(String, f64)>,
) {
    let n = rig.skeleton.len();
    let rest = rig.skeleton.rest_pose();
    let mut pose = vec![Transform::IDENTITY; n];
    let mut model = vec![Mat4::IDENTITY; n];
    let mut palette = vec![Mat4::IDENTITY; n];
    let mut soa_pose = SoaPose::new(n);
    let mut group = c.benchmark_group(rig.name);
    group.throughput(Throughput::Elements(n as u64));
    for (label, clip) in [("sample_linear", &rig.linear), ("sample_cubic", &rig.cubic)] {
        let (mut cache, mut t) = (SamplingCache::new(), 0.0);
        group.bench_function(label, |b| {
            b.iter(|| play(clip, rest, &mut t, &mut cache, black_box(&mut pose)))
        });
        let per = ns_per_joint(n, || {
            play(clip, rest, &mut t, &mut cache, black_box(&mut pose))
        });
        table.push((format!("{}/{label}", rig.name), per));
        // the SoA path on the same clip (same pose within 1e-6), measured right after
        let compiled = SoaClip::new(clip, &rig.skeleton);
        let (mut cursor, mut t) = (SoaCursor::new(), 0.0);
        let soa = format!("{label}_soa");
        group.bench_function(&soa, |b| {
            b.iter(|| play_soa(&compiled, &mut t, &mut cursor, black_box(&mut soa_pose)))
        });
        let per_soa = ns_per_joint(n, || {
            play_soa(&compiled, &mut t, &mut cursor, black_box(&mut soa_pose))
        });
        table.push((format!("{}/{soa}", rig.name), per_soa));
        ratios.push((format!("{}/{label}", rig.name), per / per_soa));
    }
    let sk = &rig.skeleton;
    let armature = sk.armature();
    let l2m =
        |pose: &[Transform], model: &mut [Mat4]| local_to_model(sk, pose, 0..n, black_box(model));
    group.bench_function("local_to_model", |b| b.iter(|| l2m(&pose, &mut model)));
    table.push((
        format!("{}/local_to_model", rig.name),
        ns_per_joint(n, || l2m(&pose, &mut model)),
    ));
    let pal = |model: &[Mat4], out: &mut [Mat4]| rig.skin.palette(model, armature, black_box(out));
    group.bench_function("palette", |b| b.iter(|| pal(&model, &mut palette)));
    table.push((
        format!("{}/palette", rig.name),
        ns_per_joint(n, || pal(&model, &mut palette)),
    ));
    let both = |model: &mut [Mat4], out: &mut [Mat4]| {
        l2m(&pose, model);
        pal(model, out);
    };
    group.bench_function("local_to_model+palette", |b| {
        b.iter(|| both(&mut model, &mut palette))
    });
    let per = ns_per_joint(n, || both(&mut model, &mut palette));
    table.push((format!("{}/local_to_model+palette", rig.name), per));
    // the SoA runtime's fused local-to-model and palette, from the same pose
    let plan = PalettePlan::new(&rig.skin, sk);
    let soa_pose = SoaPose::from_transforms(&pose);
    let fused = |model: &mut [Mat4], out: &mut [Mat4]| {
        soa::local_to_model_palette(sk, &soa_pose, &plan, black_box(model), black_box(out))
    };
    group.bench_function("local_to_model+palette_soa", |b| {
        b.iter(|| fused(&mut model, &mut palette))
    });
    let per_soa = ns_per_joint(n, || fused(&mut model, &mut palette));
    table.push((format!("{}/local_to_model+palette_soa", rig.name), per_soa));
    ratios.push((
        format!("{}/local_to_model+palette", rig.name),
        per / per_soa,
    ));
    let l2m_soa = |model: &mut [Mat4]| soa::local_to_model(sk, &soa_pose, black_box(model));
    table.push((
        format!("{}/local_to_model_soa", rig.name),
        ns_per_joint(n, || l2m_soa(&mut model)),
    ));
    group.finish();
}

/// Median over 15 batches of the thread CPU time per call divided by the joint count.
fn ns_per_joint(joints: usize, mut f: impl FnMut()) -> f64 {
    let calls = (400_000 / joints).max(100);
    let mut batches: Vec<f64> = (0..15)
        .map(|_| {
            let start = cpu_ns();
            for _ in 0..calls {
                f();
            }
            (cpu_ns() - start) as f64 / (calls * joints) as f64
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[batches.len() / 2]
}

/// This thread's CPU time in ns: on a shared machine, wall time also counts other processes.
#[cfg(target_os = "linux")]
fn cpu_ns() -> u64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: clock_gettime writes one timespec (two i64 on 64-bit Linux) into `ts`.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return wall_ns();
    }
    ts.sec as u64 * 1_000_000_000 + ts.nsec as u64
}

/// Fallback clock: wall time since the first call.
#[cfg(not(target_os = "linux"))]
fn cpu_ns() -> u64 {
    wall_ns()
}

fn wall_ns() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

fn runtime(c: &mut Criterion) {
    let (mut table, mut ratios) = (Vec::new(), Vec::new());
    for rig in [chain(), humanoid()] {
        bench_rig(c, &rig, &mut table, &mut ratios);
    }
    println!("\nns per joint, thread CPU time (median of 15 batches; targets: sampling <= 8, local_to_model+palette <= 5)");
    for (name, ns) in table {
        println!("  {name:<40} {ns:>7.2} ns/joint");
    }
    println!(
        "\nscalar / SoA, same run ({} kernels)",
        marionette::anim::soa::simd_level()
    );
    for (name, r) in ratios {
        println!("  {name:<40} {r:>7.2}x");
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = runtime
}
criterion_main!(benches);
