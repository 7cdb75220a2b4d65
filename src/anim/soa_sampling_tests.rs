//! Unit tests for [`super`]: the SoA sampler against the scalar reference, bit for bit.

use super::*;
use crate::anim::{JointTracks, SamplingCache};

/// Deterministic pseudo-random numbers in [-1, 1].
fn lcg(state: &mut u32) -> f32 {
    *state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    (*state >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}

/// Bit patterns of a pose (so -0.0 and 0.0, or two NaNs, are told apart / alike exactly).
fn bits(pose: &[Transform]) -> Vec<u32> {
    pose.iter()
        .flat_map(|t| {
            let mut v = t.translation.to_array().to_vec();
            v.extend(t.rotation.to_array());
            v.extend(t.scale.to_array());
            v
        })
        .map(f32::to_bits)
        .collect()
}

/// Samples `clip` at every time in `times` with both paths (each with its own warm context)
/// and asserts identical bits.
fn assert_same(clip: &Clip, rest: &[Transform], times: &[f32]) {
    let (mut cache, mut ctx) = (SamplingCache::new(), SoaSamplingContext::new());
    let mut want = rest.to_vec();
    let mut got = vec![Transform::IDENTITY; rest.len()];
    for &t in times {
        clip.sample(t, rest, &mut cache, &mut want);
        clip.sample_soa(t, rest, &mut ctx, &mut got);
        assert_eq!(bits(&got), bits(&want), "clip {} at t = {t}", clip.name);
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

/// Every case of [`mixed_clip`] agrees with the scalar path bit for bit.
#[test]
fn mixed_clip_matches_scalar_bit_for_bit() {
    for seed in [1, 2, 3] {
        let clip = mixed_clip(30, seed);
        let rest = rest_pose(30, seed);
        assert!(SoaSamplingContext::new().vector_channels() == 0);
        assert_same(&clip, &rest, &probe_times(&clip));
    }
}

/// Every clip of the bundled mannequin, played forwards and probed, agrees bit for bit.
#[test]
fn mannequin_clips_match_scalar_bit_for_bit() {
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
            assert_eq!(bits(&got), bits(&want), "{} joints at {t}", joints);
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
    assert_eq!(bits(&got), bits(&want));
    assert!(ctx.vector_channels() > 0);
}
