//! Unit tests for the SoA runtime: [`SoaClip`], [`lerp_in_place`] and [`local_to_model`]
//! against the scalar reference, within [`TOL`].

use glam::{Mat4, Quat, Vec3};

use super::verify::{components, max_diff, playback_difference as play_both};
use super::*;
use crate::{Clip, Interpolation, JointTracks, SamplingCache, Skeleton, Track, Transform};

use crate::test_lcg as lcg;

/// The largest difference allowed between the SoA and the scalar path (issue 13).
const TOL: f32 = 1e-6;

/// Samples `clip` at every time in `times` with both paths (each with its own warm cursor)
/// and asserts every component within [`TOL`]; returns the compiled clip.
fn assert_same(clip: &Clip, skeleton: &Skeleton, times: &[f32]) -> SoaClip {
    let soa = SoaClip::new(clip, skeleton);
    let rest = skeleton.rest_pose();
    let (mut cache, mut cursor) = (SamplingCache::new(), SoaCursor::new());
    let mut want = rest.to_vec();
    let mut got = vec![Transform::IDENTITY; rest.len()];
    let mut scratch = SoaPose::new(0);
    for &t in times {
        clip.sample(t, rest, &mut cache, &mut want);
        soa.sample_transforms(t, &mut cursor, &mut scratch, &mut got);
        let d = max_diff(&components(&got), &components(&want));
        assert!(d <= TOL, "clip {} at t = {t}: off by {d}", clip.name);
    }
    soa
}

/// Forward at 60 fps over three loops, backwards, random jumps, key times exactly, the ends,
/// outside the range and NaN.
fn probe_times(clip: &Clip) -> Vec<f32> {
    let len = (clip.end - clip.start).max(0.1);
    let mut times: Vec<f32> = (0..(len * 180.0) as usize)
        .map(|f| clip.wrap_time(clip.start + f as f32 / 60.0, crate::WrapMode::Loop))
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

/// A chain-and-branches skeleton over `rest` (joint `j`'s parent is `j / 2`).
fn skeleton(rest: Vec<Transform>) -> Skeleton {
    let n = rest.len();
    let names = (0..n).map(|j| format!("j{j}")).collect();
    let parents = (0..n).map(|j| (j > 0).then_some(j / 2)).collect();
    Skeleton::new(names, parents, rest, Mat4::IDENTITY)
        .unwrap()
        .skeleton
}

/// Every case of [`mixed_clip`] (a key grid per joint: many groups, loose channels) agrees with
/// the scalar path.
#[test]
fn mixed_clip_matches_scalar_within_tolerance() {
    for seed in [1, 2, 3] {
        let clip = mixed_clip(30, seed);
        let sk = skeleton(rest_pose(30, seed));
        let soa = assert_same(&clip, &sk, &probe_times(&clip));
        assert!(soa.groups() > 1 && soa.loose_channels() > 0);
    }
}

/// A clip whose channels share one key grid is one group and no loose channel; a second grid
/// on some joints of the same blocks makes those loose; both agree with the scalar path.
#[test]
fn shared_grid_is_one_group() {
    let mut clip = mixed_clip(30, 9);
    let times: Vec<f32> = (0..14).map(|k| k as f32 / 24.0).collect();
    for jt in &mut clip.tracks {
        for tr in [&mut jt.translation, &mut jt.scale].into_iter().flatten() {
            tr.interpolation = Interpolation::Linear;
            tr.values = (0..14)
                .map(|k| Vec3::splat(k as f32 * 0.1 + jt.joint as f32))
                .collect();
            tr.times = times.clone();
        }
        if let Some(tr) = &mut jt.rotation {
            tr.interpolation = Interpolation::Linear;
            tr.values = (0..14)
                .map(|k| Quat::from_rotation_z(k as f32 * 0.3 + jt.joint as f32))
                .collect();
            tr.times = times.clone();
        }
    }
    let clip = Clip::new("grid", clip.tracks);
    let sk = skeleton(rest_pose(30, 9));
    let soa = assert_same(&clip, &sk, &probe_times(&clip));
    assert_eq!((soa.groups(), soa.loose_channels()), (1, 0));
    // a different grid on joint 3's rotation: block 0's rotations stay with the big group
    let mut tracks = clip.tracks.clone();
    let jt = tracks.iter_mut().find(|t| t.joint == 3).unwrap();
    let r = jt.rotation.as_mut().unwrap();
    r.times = r.times.iter().map(|t| t * 0.5).collect();
    let clip = Clip::new("two grids", tracks);
    let soa = assert_same(&clip, &sk, &probe_times(&clip));
    assert_eq!((soa.groups(), soa.loose_channels()), (1, 1));
}

/// CUBICSPLINE channels on one grid (random tangents, wide rotations, unanimated joints in
/// the same blocks) are one group sampled by the lane kernels, and agree with the scalar path.
#[test]
fn cubic_grid_is_one_group() {
    let mut rng = 21u32;
    let times: Vec<f32> = (0..9).map(|k| 0.1 + k as f32 / 10.0).collect();
    let mut tracks = Vec::new();
    for j in (0..30u16).filter(|j| j % 4 != 3) {
        let mut jt = JointTracks::new(j);
        let vecs: Vec<Vec3> = (0..27)
            .map(|_| Vec3::new(lcg(&mut rng), lcg(&mut rng), lcg(&mut rng)))
            .collect();
        let rots: Vec<Quat> = (0..27)
            .map(|k| {
                let q = random_quat(&mut rng, 2.0);
                // tangents as they come; values unit
                if k % 3 == 1 {
                    q
                } else {
                    q * 0.3
                }
            })
            .collect();
        let track = |values| Track {
            interpolation: Interpolation::CubicSpline,
            times: times.clone(),
            values,
        };
        jt.translation = Some(track(vecs.clone()));
        jt.rotation = Some(Track {
            interpolation: Interpolation::CubicSpline,
            times: times.clone(),
            values: rots,
        });
        if j % 2 == 0 {
            jt.scale = Some(track(vecs));
        }
        tracks.push(jt);
    }
    let clip = Clip::new("cubic", tracks);
    let sk = skeleton(rest_pose(30, 21));
    let soa = assert_same(&clip, &sk, &probe_times(&clip));
    assert_eq!((soa.groups(), soa.loose_channels()), (1, 0));
}

/// Every clip of the bundled mannequin, played forwards and probed, agrees.
#[test]
fn mannequin_clips_match_scalar_within_tolerance() {
    let model = crate::mannequin::build();
    for clip in &model.clips {
        let soa = assert_same(clip, &model.skeleton, &probe_times(clip));
        assert_eq!(soa.joints(), model.skeleton.len());
    }
}

/// A pose of another length is resized, a cursor moved between clips still gives the right
/// pose, and a clip whose tracks are out of joint order (the reference fallback) agrees.
#[test]
fn shapes_and_clip_switches_match() {
    let sk = skeleton(rest_pose(30, 6));
    let (clip_a, clip_b) = (mixed_clip(30, 4), mixed_clip(12, 5));
    let (a, b) = (SoaClip::new(&clip_a, &sk), SoaClip::new(&clip_b, &sk));
    let mut cursor = SoaCursor::new();
    let mut pose = SoaPose::new(3);
    for (soa, clip) in [(&a, &clip_a), (&b, &clip_b), (&a, &clip_a)] {
        for t in [0.1f32, 0.3, 0.5, 0.31] {
            let mut want = sk.rest_pose().to_vec();
            clip.sample(t, sk.rest_pose(), &mut SamplingCache::new(), &mut want);
            soa.sample(t, &mut cursor, &mut pose);
            assert_eq!(pose.len(), 30);
            let mut got = want.clone();
            pose.to_transforms(&mut got);
            let d = max_diff(&components(&got), &components(&want));
            assert!(d <= TOL, "{} at {t}: off by {d}", clip.name);
        }
    }
    let mut unsorted = mixed_clip(10, 7);
    unsorted.tracks.reverse();
    assert_same(&unsorted, &sk, &probe_times(&unsorted));
    // tracks for joints beyond the skeleton are ignored, as by the scalar path
    let small = skeleton(rest_pose(6, 6));
    assert_same(&clip_a, &small, &probe_times(&clip_a));
}

/// Blending and local-to-model from SoA poses agree with the scalar functions.
#[test]
fn blend_and_local_to_model_match_scalar() {
    let sk = skeleton(rest_pose(30, 12));
    let n = sk.len();
    let mut rng = 5u32;
    for round in 0..40 {
        let pose = |rng: &mut u32| -> Vec<Transform> {
            (0..n)
                .map(|_| {
                    let q = random_quat(rng, 3.0);
                    Transform::new(
                        Vec3::new(lcg(rng), lcg(rng), lcg(rng)) * 2.0,
                        if lcg(rng) < 0.0 { -q } else { q },
                        Vec3::new(1.0 + lcg(rng) * 0.5, 1.0, 1.0 + lcg(rng) * 0.2),
                    )
                })
                .collect()
        };
        let (mut a, b) = (pose(&mut rng), pose(&mut rng));
        let w = [0.0, 1.0, 0.5, 0.25 * (lcg(&mut rng) + 1.0)][round % 4];
        let (mut sa, sb) = (SoaPose::from_transforms(&a), SoaPose::from_transforms(&b));
        crate::blend::lerp_in_place(&mut a, &b, w);
        lerp_in_place(&mut sa, &sb, w);
        let mut got = a.clone();
        sa.to_transforms(&mut got);
        let d = max_diff(&components(&got), &components(&a));
        assert!(d <= TOL, "blend at {w}: off by {d}");
        for (x, y) in got.iter().zip(&a) {
            assert_eq!(
                (x.translation, x.scale),
                (y.translation, y.scale),
                "vectors bit for bit"
            );
        }
        let (mut want, mut have) = (vec![Mat4::IDENTITY; n], vec![Mat4::ZERO; n]);
        crate::local_to_model(&sk, &a, 0..n, &mut want);
        local_to_model(&sk, &sa, &mut have);
        let flat = |m: &[Mat4]| -> Vec<f32> { m.iter().flat_map(|m| m.to_cols_array()).collect() };
        let d = max_diff(&flat(&have), &flat(&want));
        assert!(d <= 4.0 * TOL, "local-to-model: off by {d}");
    }
}

/// The fused local-to-model + palette gives [`crate::Skin::palette`]'s matrices: skin
/// joints in any order, repeated, one outside the skeleton, all inverse binds affine or one
/// projective, with and without an armature, on a tree with more branch joints than the fused
/// path keeps.
#[test]
fn fused_palette_matches_skin_palette() {
    let mut rng = 31u32;
    let armatures = [
        Mat4::IDENTITY,
        Mat4::from_translation(Vec3::new(0.5, -2.0, 1.0)) * Mat4::from_scale(Vec3::splat(0.01)),
    ];
    for (armature, projective) in armatures.into_iter().flat_map(|a| [(a, false), (a, true)]) {
        let rest = rest_pose(20, 31);
        let names = (0..20).map(|j| format!("j{j}")).collect();
        let parents = (0..20).map(|j| (j > 0).then_some(j / 2)).collect();
        let sk = Skeleton::new(names, parents, rest.clone(), armature)
            .unwrap()
            .skeleton;
        let joints: Vec<u16> = vec![19, 0, 5, 5, 12, 40, 3, 7, 1];
        let inverse_bind: Vec<Mat4> = (0..joints.len())
            .map(|i| {
                let m = Mat4::from_scale_rotation_translation(
                    Vec3::splat(1.0 + lcg(&mut rng) * 0.2),
                    random_quat(&mut rng, 3.0),
                    Vec3::new(lcg(&mut rng), lcg(&mut rng), lcg(&mut rng)),
                );
                if i == 2 && projective {
                    {
                        let mut p = m;
                        p.x_axis.w = 0.25; // projective: the last row is not (0, 0, 0, 1)
                        p
                    }
                } else {
                    m
                }
            })
            .collect();
        let skin = crate::Skin {
            name: "s".into(),
            joints,
            inverse_bind,
        };
        let plan = PalettePlan::new(&skin, &sk);
        assert_eq!(plan.len(), 9);
        let n = sk.len();
        let (mut model, mut want_model) = (vec![Mat4::ZERO; n], vec![Mat4::ZERO; n]);
        let (mut got, mut want) = (vec![Mat4::ZERO; 9], vec![Mat4::ZERO; 9]);
        local_to_model_palette(
            &sk,
            &SoaPose::from_transforms(&rest),
            &plan,
            &mut model,
            &mut got,
        );
        crate::local_to_model(&sk, &rest, 0..n, &mut want_model);
        skin.palette(&want_model, sk.armature(), &mut want);
        let flat = |m: &[Mat4]| -> Vec<f32> { m.iter().flat_map(|m| m.to_cols_array()).collect() };
        assert!(max_diff(&flat(&model), &flat(&want_model)) <= 4.0 * TOL);
        let d = max_diff(&flat(&got), &flat(&want));
        assert!(d <= 8.0 * TOL, "palette off by {d}");
        assert_eq!(
            got[5],
            armature * skin.inverse_bind[5],
            "joint outside the skeleton"
        );
    }
}

/// A plan built for another skeleton takes the general path: model matrices still right, no
/// panic, whichever skeleton is longer.
#[test]
fn plan_of_another_skeleton_does_not_panic() {
    let skeleton = |n: usize| {
        let names = (0..n).map(|j| format!("j{j}")).collect();
        let parents = (0..n).map(|j| (j > 0).then_some(j / 2)).collect();
        Skeleton::new(
            names,
            parents,
            rest_pose(n, 5),
            Mat4::from_scale(Vec3::splat(2.0)),
        )
        .unwrap()
        .skeleton
    };
    for (built_for, used_on) in [(20, 5), (5, 20)] {
        let (a, b) = (skeleton(built_for), skeleton(used_on));
        let skin = crate::Skin {
            name: "s".into(),
            joints: (0..built_for as u16).collect(),
            inverse_bind: vec![Mat4::IDENTITY; built_for],
        };
        let plan = PalettePlan::new(&skin, &a);
        let rest = b.rest_pose();
        let (mut model, mut want) = (vec![Mat4::ZERO; used_on], vec![Mat4::ZERO; used_on]);
        let mut palette = vec![Mat4::ZERO; built_for];
        local_to_model_palette(
            &b,
            &SoaPose::from_transforms(rest),
            &plan,
            &mut model,
            &mut palette,
        );
        crate::local_to_model(&b, rest, 0..used_on, &mut want);
        let flat = |m: &[Mat4]| -> Vec<f32> { m.iter().flat_map(|m| m.to_cols_array()).collect() };
        assert!(max_diff(&flat(&model), &flat(&want)) <= 4.0 * TOL);
    }
}

/// Every frame of every mannequin clip at 60 fps: local TRS and model matrices within [`TOL`].
#[test]
fn mannequin_playback_within_tolerance_in_model_space() {
    let (local, world) = play_both(&crate::mannequin::build());
    eprintln!("mannequin: local {local:e}, model {world:e}");
    assert!(local <= TOL && world <= TOL, "local {local}, model {world}");
}

/// The baseline builds (what runs without AVX2) on the whole path: every mannequin frame,
/// blending, local-to-model and the fused palette within [`TOL`] as well.
#[test]
fn baseline_builds_match_scalar() {
    use std::sync::atomic::Ordering;
    simd::BASELINE.store(true, Ordering::Relaxed);
    assert!(!simd::avx2());
    let (local, world) = play_both(&crate::mannequin::build());
    blend_and_local_to_model_match_scalar();
    fused_palette_matches_skin_palette();
    simd::BASELINE.store(false, Ordering::Relaxed);
    assert!(local <= TOL && world <= TOL, "local {local}, model {world}");
}

/// Lerps, then slerp spans (wide, close, sign-flipped and held pairs; blocks all close take
/// the shortcut), through the baseline and the AVX2 builds.
fn kernels(
    a: &[[f32; LANES]; 7],
    b: &[[f32; LANES]; 7],
    s: f32,
    hold: &[u32; LANES],
) -> [[f32; LANES]; 7] {
    let mut out = [[0.0; LANES]; 7];
    kernels::lerp(&a[..3], &b[..3], s, hold, &mut out[..3]);
    let (span, mode) = spans::span(&a[3..], &b[3..]);
    spans::slerp(&span, s, mode, &mut out[3..]);
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn kernels_avx2(
    a: &[[f32; LANES]; 7],
    b: &[[f32; LANES]; 7],
    s: f32,
    hold: &[u32; LANES],
) -> [[f32; LANES]; 7] {
    kernels(a, b, s, hold)
}

/// The lane kernels against the scalar ones ([`Vec3::lerp`]-equal bits for vectors,
/// [`crate::slerp_quat`] within [`TOL`] for rotations), and the AVX2 build against the
/// baseline build (vectors bit for bit).
#[test]
fn kernels_match_scalar_in_both_builds() {
    const HOLD: [u32; LANES] = [0, 0, 0, 0, 0, 0, u32::MAX, 0];
    let mut rng = 11u32;
    let mut modes = [0; 3];
    for round in 0..400 {
        let (mut a, mut b) = ([[0.0; LANES]; 7], [[0.0; LANES]; 7]);
        let mut pairs = Vec::new();
        for j in 0..LANES {
            // every other round all lanes are close (the shortcut)
            let spread = if round % 4 < 2 {
                [0.001, 0.02, 0.5, 3.0][j % 4]
            } else {
                0.01
            };
            let qa = random_quat(&mut rng, 1.0);
            let qb = (qa * random_quat(&mut rng, spread)).normalize();
            let qb = if round % 2 == 1 { -qb } else { qb };
            // every eighth round keys off unit length (the square-root normalisation)
            let (qa, qb) = if round % 8 == 5 {
                (qa * 1.0003, qb * 0.9998)
            } else {
                (qa, qb)
            };
            let qb = if j == 7 { qa } else { qb }; // held keys
            for c in 0..4 {
                (a[3 + c][j], b[3 + c][j]) = (qa.to_array()[c], qb.to_array()[c]);
            }
            for c in 0..3 {
                (a[c][j], b[c][j]) = (lcg(&mut rng), lcg(&mut rng));
            }
            pairs.push((qa, qb));
        }
        modes[spans::span(&a[3..], &b[3..]).1 as usize] += 1;
        let s = 0.5 * (lcg(&mut rng) + 1.0);
        let x = kernels(&a, &b, s, &HOLD);
        for (j, (qa, qb)) in pairs.iter().enumerate() {
            let want = crate::slerp_quat(*qa, *qb, s).to_array();
            let got = [0, 1, 2, 3].map(|c| x[3 + c][j]);
            let d = max_diff(&got, &want);
            assert!(d <= TOL, "round {round} lane {j}: off by {d}");
            let v = Vec3::new(a[0][j], a[1][j], a[2][j]);
            let w = Vec3::new(b[0][j], b[1][j], b[2][j]);
            let want = if HOLD[j] != 0 { v } else { v.lerp(w, s) };
            assert_eq!([x[0][j], x[1][j], x[2][j]], want.to_array());
        }
        assert_eq!(
            [0, 1, 2, 3].map(|c| x[3 + c][7]),
            [0, 1, 2, 3].map(|c| a[3 + c][7])
        );
        #[cfg(target_arch = "x86_64")]
        if simd::avx2() {
            // SAFETY: AVX2 checked just above.
            let y = unsafe { kernels_avx2(&a, &b, s, &HOLD) };
            assert_eq!(x[..3], y[..3]);
            for c in 3..7 {
                assert!(max_diff(&x[c], &y[c]) <= TOL);
            }
        }
    }
    // every mode taken: all close, mixed, off unit length
    assert!(modes.iter().all(|&n| n >= 40), "{modes:?}");
}
