//! Unit tests for [`super`]: the `f32` SoA sampler against the `f64` scalar reference, within
//! [`TOL`].

use super::*;
use crate::anim::{JointTracks, SamplingCache};

/// Deterministic pseudo-random numbers in [-1, 1].
fn lcg(state: &mut u32) -> f32 {
    *state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    (*state >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}

/// The largest difference allowed between the SoA and the scalar path (issue 13).
const TOL: f32 = 1e-6;

/// The components of a pose.
fn components(pose: &[Transform]) -> Vec<f32> {
    pose.iter()
        .flat_map(|t| {
            let mut v = t.translation.to_array().to_vec();
            v.extend(t.rotation.to_array());
            v.extend(t.scale.to_array());
            v
        })
        .collect()
}

/// The largest component difference of two equally long lists (NaN against NaN, and equal
/// infinities, count as 0; NaN against a number as infinite).
fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            if x == y || (x.is_nan() && y.is_nan()) {
                0.0
            } else if x.is_nan() || y.is_nan() {
                f32::INFINITY
            } else {
                (x - y).abs()
            }
        })
        .fold(0.0, f32::max)
}

/// Samples `clip` at every time in `times` with both paths (each with its own warm context)
/// and asserts every component within [`TOL`].
fn assert_same(clip: &Clip, rest: &[Transform], times: &[f32]) {
    let (mut cache, mut ctx) = (SamplingCache::new(), SoaSamplingContext::new());
    let mut want = rest.to_vec();
    let mut got = vec![Transform::IDENTITY; rest.len()];
    for &t in times {
        clip.sample(t, rest, &mut cache, &mut want);
        clip.sample_soa(t, rest, &mut ctx, &mut got);
        let d = max_diff(&components(&got), &components(&want));
        assert!(d <= TOL, "clip {} at t = {t}: off by {d}", clip.name);
    }
}

/// Forward at 60 fps over three loops, backwards, random jumps, key times exactly, the ends,
/// outside the range and NaN.
fn probe_times(clip: &Clip) -> Vec<f32> {
    let len = (clip.end - clip.start).max(0.1);
    let mut times: Vec<f32> = (0..(len * 180.0) as usize)
        .map(|f| clip.wrap_time(clip.start + f as f32 / 60.0, crate::anim::WrapMode::Loop))
        .collect();
    times.extend((0..60).rev().map(|f| clip.start + len * f as f32 / 60.0));
    let mut rng = 99u32;
    times.extend((0..60).map(|_| clip.start + len * (lcg(&mut rng) * 0.6 + 0.5)));
    for jt in &clip.tracks {
        if let Some(tr) = &jt.rotation {
            times.extend(&tr.times);
        }
    }
    times.extend([
        clip.start,
        clip.end,
        clip.start - 1.0,
        clip.end + 1.0,
        f32::NAN,
    ]);
    times.extend([
        f32::INFINITY,
        f32::NEG_INFINITY,
        clip.start + 1e-7,
        clip.end - 1e-7,
    ]);
    times
}

fn random_quat(rng: &mut u32, spread: f32) -> Quat {
    let e = Vec3::new(lcg(rng), lcg(rng), lcg(rng)) * spread;
    Quat::from_euler(glam::EulerRot::XYZ, e.x, e.y, e.z)
}

/// A clip over `joints` joints mixing every case: LINEAR with close keys, wide angles (slerp),
/// sign flips and held keys; STEP; CUBICSPLINE; a malformed track; joints without tracks.
fn mixed_clip(joints: u16, seed: u32) -> Clip {
    let mut rng = seed;
    let mut tracks = Vec::new();
    for j in 0..joints {
        if j % 5 == 4 {
            continue; // no tracks: rest pose
        }
        let keys = 3 + (j as usize * 7) % 20;
        let start = if j % 3 == 0 { 0.25 } else { 0.0 };
        let times: Vec<f32> = (0..keys).map(|k| start + k as f32 / 24.0).collect();
        let interpolation = match j % 7 {
            3 => Interpolation::Step,
            5 => Interpolation::CubicSpline,
            _ => Interpolation::Linear,
        };
        let stride = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        let spread = if j % 4 == 1 { 3.0 } else { 0.05 };
        let mut q = random_quat(&mut rng, 1.0);
        let rotations: Vec<Quat> = (0..keys * stride)
            .map(|k| {
                if j % 6 != 2 || k % 3 == 0 {
                    q = (q * random_quat(&mut rng, spread)).normalize();
                }
                if k % 4 == 1 {
                    -q
                } else {
                    q
                }
            })
            .collect();
        let vecs: Vec<Vec3> = (0..keys * stride)
            .map(|_| Vec3::new(lcg(&mut rng), lcg(&mut rng), lcg(&mut rng)))
            .collect();
        let mut jt = JointTracks::new(j);
        jt.rotation = Some(Track {
            interpolation,
            times: times.clone(),
            values: rotations,
        });
        if j % 2 == 0 {
            jt.translation = Some(Track {
                interpolation,
                times: times.clone(),
                values: vecs.clone(),
            });
        }
        if j % 3 != 1 {
            let values = if j == 8 { Vec::new() } else { vecs };
            jt.scale = Some(Track {
                interpolation,
                times,
                values,
            });
        }
        tracks.push(jt);
    }
    Clip::new("mixed", tracks)
}

fn rest_pose(joints: usize, seed: u32) -> Vec<Transform> {
    let mut rng = seed;
    (0..joints)
        .map(|_| {
            Transform::new(
                Vec3::new(lcg(&mut rng), 1.0, 0.0),
                random_quat(&mut rng, 1.0),
                Vec3::splat(1.0 + lcg(&mut rng) * 0.1),
            )
        })
        .collect()
}

/// Every case of [`mixed_clip`] agrees with the scalar path.
#[test]
fn mixed_clip_matches_scalar_within_tolerance() {
    for seed in [1, 2, 3] {
        let clip = mixed_clip(30, seed);
        let rest = rest_pose(30, seed);
        assert!(SoaSamplingContext::new().vector_channels() == 0);
        assert_same(&clip, &rest, &probe_times(&clip));
    }
}

/// Every clip of the bundled mannequin, played forwards and probed, agrees.
#[test]
fn mannequin_clips_match_scalar_within_tolerance() {
    let model = crate::mannequin::build();
    for clip in &model.clips {
        assert_same(clip, model.skeleton.rest_pose(), &probe_times(clip));
    }
}

/// A pose shorter or longer than the rest pose, a context switched between clips, and a clip
/// whose tracks are out of joint order (the scalar fallback) all agree too.
#[test]
fn shapes_and_clip_switches_match() {
    let clip_a = mixed_clip(30, 4);
    let clip_b = mixed_clip(12, 5);
    let rest = rest_pose(30, 6);
    let mut ctx = SoaSamplingContext::new();
    for (clip, joints) in [(&clip_a, 30), (&clip_b, 30), (&clip_a, 10), (&clip_b, 40)] {
        for t in [0.1f32, 0.3, 0.5, 0.31] {
            let mut want = vec![Transform::IDENTITY; joints];
            let mut got = want.clone();
            clip.sample(t, &rest, &mut SamplingCache::new(), &mut want);
            clip.sample_soa(t, &rest, &mut ctx, &mut got);
            let d = max_diff(&components(&got), &components(&want));
            assert!(d <= TOL, "{joints} joints at {t}: off by {d}");
        }
    }
    let mut unsorted = mixed_clip(10, 7);
    unsorted.tracks.reverse();
    assert_same(&unsorted, &rest, &probe_times(&unsorted));
    // after reset, a context still gives the same pose
    ctx.reset();
    let mut want = rest.clone();
    let mut got = rest.clone();
    clip_a.sample(0.2, &rest, &mut SamplingCache::new(), &mut want);
    clip_a.sample_soa(0.2, &rest, &mut ctx, &mut got);
    assert!(max_diff(&components(&got), &components(&want)) <= TOL);
    assert!(ctx.vector_channels() > 0);
}

/// Plays every clip of `model` at 60 fps, frame after frame, with both paths and returns the
/// largest local (TRS component) and model-space (matrix entry, relative to the largest
/// model-space translation, at least 1) differences.
fn play_both(model: &crate::Model) -> (f32, f32) {
    let skeleton = &model.skeleton;
    let rest = skeleton.rest_pose();
    let n = skeleton.len();
    let (mut local, mut world) = (0.0f32, 0.0f32);
    for clip in &model.clips {
        let (mut cache, mut ctx) = (SamplingCache::new(), SoaSamplingContext::new());
        let (mut want, mut got) = (rest.to_vec(), rest.to_vec());
        let (mut mw, mut mg) = (vec![glam::Mat4::IDENTITY; n], vec![glam::Mat4::IDENTITY; n]);
        let frames = ((clip.end - clip.start) * 60.0).ceil() as usize + 1;
        for f in 0..frames {
            let t = (clip.start + f as f32 / 60.0).min(clip.end);
            clip.sample(t, rest, &mut cache, &mut want);
            clip.sample_soa(t, rest, &mut ctx, &mut got);
            local = local.max(max_diff(&components(&got), &components(&want)));
            crate::anim::local_to_model(skeleton, &want, 0..n, &mut mw);
            crate::anim::local_to_model(skeleton, &got, 0..n, &mut mg);
            let scale = mw
                .iter()
                .map(|m| m.w_axis.truncate().abs().max_element())
                .fold(1.0f32, f32::max);
            let flat = |m: &[glam::Mat4]| -> Vec<f32> {
                m.iter().flat_map(|m| m.to_cols_array()).collect()
            };
            world = world.max(max_diff(&flat(&mg), &flat(&mw)) / scale);
        }
    }
    (local, world)
}

/// Every frame of every mannequin clip at 60 fps: local TRS and model matrices within [`TOL`].
#[test]
fn mannequin_playback_within_tolerance_in_model_space() {
    let (local, world) = play_both(&crate::mannequin::build());
    eprintln!("mannequin: local {local:e}, model {world:e}");
    assert!(local <= TOL && world <= TOL, "local {local}, model {world}");
}

/// The Fox (public glTF sample, `../shared/testdata/gltf` or `MARIONETTE_TESTDATA`): every
/// frame of every clip at 60 fps within [`TOL`]. Skipped with a message when the models are
/// missing locally; fails under CI.
#[test]
fn fox_playback_within_tolerance_in_model_space() {
    let dir = match std::env::var_os("MARIONETTE_TESTDATA") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/gltf"),
    };
    let path = dir.join("Fox.glb");
    if !path.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "missing {}",
            path.display()
        );
        eprintln!("skipped: test model not found: {}", path.display());
        return;
    }
    let model = crate::io::import(&path).unwrap();
    assert!(model.clips.len() >= 3);
    let (local, world) = play_both(&model);
    eprintln!("Fox: local {local:e}, model {world:e}");
    assert!(local <= TOL && world <= TOL, "local {local}, model {world}");
}

/// The portable kernels (used without AVX2) agree with the AVX2 ones: vectors bit for bit,
/// rotations within [`TOL`], over holding, close, wide and sign-flipped pairs.
#[test]
fn portable_kernels_match_avx2() {
    let mut rng = 11u32;
    for round in 0..200 {
        let mut q = Group::<4>::PAD;
        let mut v = Group::<3>::PAD;
        for j in 0..LANES {
            let spread = [0.001, 0.02, 0.5, 3.0][j % 4];
            let a = random_quat(&mut rng, 1.0);
            let b = (a * random_quat(&mut rng, spread)).normalize();
            let b = if round % 2 == 1 { -b } else { b };
            q.a.iter_mut().zip(a.to_array()).for_each(|(l, x)| l[j] = x);
            q.b.iter_mut().zip(b.to_array()).for_each(|(l, x)| l[j] = x);
            for c in 0..3 {
                (v.a[c][j], v.b[c][j]) = (lcg(&mut rng), lcg(&mut rng));
            }
            let hold = if j == 7 { ON } else { 0 };
            (q.hold[j], v.hold[j]) = (hold, hold);
            (q.lo[j], q.hi[j]) = (0.0, 0.5 + j as f32);
            (v.lo[j], v.hi[j]) = (0.0, 0.5 + j as f32);
        }
        let t = 0.5 * (lcg(&mut rng) + 1.0) * 0.5;
        let (vp, qp) = (kernels::vec3_portable(t, &v), kernels::quat_portable(t, &q));
        let avx2 = kernels::uses_avx2();
        let (vv, qv) = (kernels::vec3(avx2, t, &v), kernels::quat(avx2, t, &q));
        assert_eq!(vp, vv);
        for c in 0..4 {
            let d = max_diff(&qp[c], &qv[c]);
            assert!(d <= TOL, "round {round}: off by {d}");
            assert_eq!(qp[c][7], q.a[c][7], "holding lane");
        }
    }
}
