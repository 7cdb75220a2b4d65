use super::*;
use crate::shell_error;
use crate::{joint_error, FitValue, Fitted, TakeMeta};
use glam::Mat4;
use marionette_anim::time::step_time;
use marionette_anim::world_matrices;
use marionette_anim::{Interpolate, Interpolation};

/// A chain of `n` joints, each 0.3 m above its parent.
fn chain(n: usize) -> Skeleton {
    let names = (0..n).map(|i| format!("j{i}")).collect();
    let parents = (0..n).map(|i| i.checked_sub(1)).collect();
    let rest = (0..n)
        .map(|i| Transform::from_translation(Vec3::Y * if i == 0 { 0.0 } else { 0.3 }))
        .collect();
    Skeleton::new(names, parents, rest, Mat4::IDENTITY)
        .unwrap()
        .skeleton
}

fn take(s: &Skeleton, frames: usize, pose: impl Fn(usize, usize, &mut Transform)) -> BakedTake {
    let frames: Vec<Vec<Transform>> = (0..frames)
        .map(|f| {
            let mut p = s.rest_pose().to_vec();
            for (j, t) in p.iter_mut().enumerate() {
                pose(f, j, t);
            }
            p
        })
        .collect();
    let n = frames.len();
    BakedTake {
        name: "t".into(),
        grid: Grid::new(30.0, n),
        frames,
        inner: Vec::new(),
        exact_between: false,
        animated: Vec::new(),
        meta: TakeMeta::default(),
        morphs: Default::default(),
    }
}

/// Independent check: rebuild every frame from the written keys and measure it (each joint at
/// the 10 cm floor, as [`reduce`] measures a rig without a mesh).
fn measured_max(s: &Skeleton, take: &BakedTake, red: &ReducedTake) -> f64 {
    let shells = Shells::floor(s);
    let n = take.frames.len();
    let mut poses: Vec<Vec<Transform>> = vec![s.rest_pose().to_vec(); n];
    for j in &red.joints {
        let ji = j.joint as usize;
        if let Some(f) = &j.translation {
            for (p, v) in poses.iter_mut().zip(f.dense_on(&take.grid, false)) {
                p[ji].translation = v;
            }
        }
        if let Some(f) = &j.rotation {
            for (p, v) in poses.iter_mut().zip(f.dense_on(&take.grid, false)) {
                p[ji].rotation = v;
            }
        }
        if let Some(f) = &j.scale {
            for (p, v) in poses.iter_mut().zip(f.dense_on(&take.grid, false)) {
                p[ji].scale = v;
            }
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut worst = 0.0f64;
    for (raw, red) in take.frames.iter().zip(&poses) {
        world_matrices(s, raw, &mut a);
        world_matrices(s, red, &mut b);
        for (j, (x, y)) in a.iter().zip(&b).enumerate() {
            worst = worst.max(shell_error(x, y, shells.radius(j)));
        }
    }
    worst
}

/// A waving chain (6 joints, 121 frames) baked by `f(frame, joint, pose)`.
fn waving(s: &Skeleton) -> BakedTake {
    take(s, 121, |f, j, tr| {
        let time = f as f32 / 30.0;
        tr.rotation = Quat::from_rotation_z((time * 2.0 + j as f32).sin() * 0.4)
            * Quat::from_rotation_x((time * 3.1).cos() * 0.2);
    })
}

/// With cubic curves a waving chain is reduced within 0.1 mm everywhere, with far fewer keys
/// than raw.
#[test]
fn waving_chain_within_budget() {
    let s = chain(6);
    let t = waving(&s);
    let cubic = ReduceOptions {
        curves: Curves::Cubic,
        ..Default::default()
    };
    let red = reduce(&s, &t, &cubic).unwrap();
    let r = &red.report;
    assert_eq!(r.frames, 121);
    assert_eq!(r.raw_keys, 121 * 6 * 3);
    assert!(r.max_error <= 1e-4, "{r:?}");
    assert!(r.p99_error <= r.max_error);
    assert!(r.keys * 4 < r.raw_keys, "{r:?}");
    let m = measured_max(&s, &t, &red);
    assert!((m - r.max_error).abs() < 1e-9, "{m} vs {r:?}");
    // translations stay at rest: only rotation channels are written
    assert!(red
        .joints
        .iter()
        .all(|j| j.translation.is_none() && j.scale.is_none()));
}

/// A joint at rest is dropped; a joint held away from rest is one key.
#[test]
fn rest_dropped_constant_one_key() {
    let s = chain(3);
    let t = take(&s, 31, |f, j, tr| match j {
        1 => tr.rotation = Quat::from_rotation_x(0.5),
        2 => tr.translation = Vec3::new(0.0, 0.3 + f as f32 * 0.01, 0.0),
        _ => {}
    });
    let red = reduce(&s, &t, &ReduceOptions::default()).unwrap();
    assert!(red.joints.iter().all(|j| j.joint != 0));
    let j1 = red.joints.iter().find(|j| j.joint == 1).unwrap();
    assert_eq!(j1.rotation.as_ref().unwrap().frames, vec![0]);
    assert!(j1.translation.is_none());
    let j2 = red.joints.iter().find(|j| j.joint == 2).unwrap();
    assert_eq!(j2.translation.as_ref().unwrap().frames, vec![0, 30]);
    assert_eq!(red.report.keys, 3);
    assert_eq!(red.report.max_error, measured_max(&s, &t, &red));
}

/// A take at rest throughout still lasts its full duration (one STEP track to the last frame).
#[test]
fn static_take_keeps_duration() {
    let s = chain(2);
    let t = take(&s, 61, |_, _, _| {});
    let red = reduce(&s, &t, &ReduceOptions::default()).unwrap();
    let clip = red.to_clip();
    assert_eq!(clip.end, step_time(60, 30.0));
    assert_eq!(red.report.keys, 2);
    assert_eq!(red.report.max_error, 0.0);
}

/// A long, jittery chain forces tightening; the measured error still meets a tight budget
/// (float keys: compact output keys such a chain at every frame, within budget at once).
#[test]
fn long_chain_tightens_until_within_budget() {
    let s = chain(16);
    let t = take(&s, 90, |f, j, tr| {
        let x = (f * 7 + j * 13) as f32;
        tr.rotation = Quat::from_rotation_z((x * 0.37).sin() * 0.05 + (f as f32 * 0.1).sin() * 0.3);
        tr.scale = Vec3::splat(1.0 + (x * 0.11).sin() * 0.01);
    });
    let opts = ReduceOptions {
        tolerance: 5e-5,
        curves: Curves::Cubic,
        quantize: false,
        ..Default::default()
    };
    let red = reduce(&s, &t, &opts).unwrap();
    assert!(red.report.max_error <= 5e-5, "{:?}", red.report);
    assert!(red.report.passes > 1, "{:?}", red.report);
    let compact = reduce(
        &s,
        &t,
        &ReduceOptions {
            quantize: true,
            ..opts
        },
    )
    .unwrap();
    assert!(compact.report.max_error <= 5e-5, "{:?}", compact.report);
    assert_eq!(compact.report.max_error, measured_max(&s, &t, &compact));
    assert_eq!(red.report.max_error, measured_max(&s, &t, &red));
}

/// Quaternion keys are normalised (16-bit ones within a few steps of unit length) and never
/// flip hemisphere between neighbours.
#[test]
fn hemisphere_continuity() {
    let s = chain(1);
    let t = take(&s, 40, |f, _, tr| {
        let q = Quat::from_rotation_y(f as f32 * 0.2);
        tr.rotation = if f % 2 == 0 { q } else { -q };
    });
    let red = reduce(&s, &t, &ReduceOptions::default()).unwrap();
    let f = red.joints[0].rotation.as_ref().unwrap();
    let stride = if f.interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    let vals: Vec<Quat> = f
        .values
        .iter()
        .skip(stride / 2)
        .step_by(stride)
        .copied()
        .collect();
    for w in vals.windows(2) {
        assert!(w[0].dot(w[1]) >= 0.0);
        assert!((w[1].length() - 1.0).abs() < 4.0 / 32767.0);
    }
}

/// A bad frame rate and a short pose are errors naming the take.
#[test]
fn bad_input_is_an_error() {
    let s = chain(2);
    let mut t = take(&s, 3, |_, _, _| {});
    t.grid = Grid::new(0.0, 3);
    assert!(matches!(
        reduce(&s, &t, &ReduceOptions::default()),
        Err(BakeTakeError::BadTimes { .. })
    ));
    t.grid = Grid::new(30.0, 3);
    t.frames[1].pop();
    assert!(matches!(
        reduce(&s, &t, &ReduceOptions::default()),
        Err(BakeTakeError::PoseLength { frame: 1, .. })
    ));
}

/// The pose of `red` at time `t`, rotations read as slerp (`blender == false`) or as Blender's
/// normalised component lerp.
fn pose_at(s: &Skeleton, red: &ReducedTake, t: f32, blender: bool) -> Vec<Transform> {
    let grid = &red.grid;
    let mut pose = s.rest_pose().to_vec();
    for j in &red.joints {
        let p = &mut pose[j.joint as usize];
        if let Some(f) = &j.translation {
            p.translation = f.value_at(grid, t);
        }
        if let Some(f) = &j.scale {
            p.scale = f.value_at(grid, t);
        }
        if let Some(f) = &j.rotation {
            p.rotation = f.value_at(grid, t);
            let k = f.frames.partition_point(|&x| grid.time(x as usize) <= t);
            if blender && f.interpolation == Interpolation::Linear && k > 0 && k < f.len() {
                let (t0, t1) = (
                    grid.time(f.frames[k - 1] as usize),
                    grid.time(f.frames[k] as usize),
                );
                let u = (t - t0) / (t1 - t0);
                p.rotation = FitValue::nlerp(f.values[k - 1], f.values[k], u);
            }
        }
    }
    pose
}

/// Default (LINEAR) curves: a waving chain holds 0.1 mm at every frame and half frame under
/// slerp and under normalised lerp, with LINEAR or STEP keys only and fewer keys than raw.
#[test]
fn linear_waving_chain_holds_between_frames_in_both_readings() {
    let s = chain(6);
    let t = waving(&s);
    let red = reduce(&s, &t, &ReduceOptions::default()).unwrap();
    assert_eq!(red.curves, Curves::Linear);
    assert!(red.report.max_error <= 1e-4, "{:?}", red.report);
    assert!(red.report.keys < red.report.raw_keys, "{:?}", red.report);
    for j in &red.joints {
        for i in [
            j.rotation.as_ref().map(|f| f.interpolation),
            j.translation.as_ref().map(|f| f.interpolation),
        ]
        .into_iter()
        .flatten()
        {
            assert_ne!(i, Interpolation::CubicSpline);
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut worst = 0.0f64;
    for x in 0..2 * 120 + 1usize {
        let time = x as f32 / 60.0;
        let (f0, f1) = (x / 2, x.div_ceil(2));
        let raw: Vec<Transform> = (0..s.len())
            .map(|j| {
                let (p, q) = (t.frames[f0][j], t.frames[f1][j]);
                Transform::new(
                    p.translation.lerp(q.translation, 0.5),
                    Interpolate::linear(p.rotation, q.rotation, 0.5),
                    p.scale,
                )
            })
            .collect();
        world_matrices(&s, &raw, &mut a);
        for blender in [false, true] {
            world_matrices(&s, &pose_at(&s, &red, time, blender), &mut b);
            for (x, y) in a.iter().zip(&b) {
                worst = worst.max(joint_error(x, y));
            }
        }
    }
    assert!(worst <= 1.05e-4, "worst {worst} ({:?})", red.report);
}

/// A long take whose root jumps back every second (a looping clip's root channel, as a synced
/// blend plays it in place): the half frames are measured where a client reads them, at the
/// f32 half-frame time, so even 200 s in the jumps leave LINEAR keys within the budget (the
/// reference at exactly halfway was 0.14 mm off at 20 s and 1.3 mm at 200 s).
#[test]
fn long_take_with_jumps_stays_within_budget() {
    let s = chain(2);
    let t = take(&s, 200 * 30 + 1, |f, j, tr| {
        if j == 0 {
            tr.translation = Vec3::new((f % 30) as f32 * 0.1, 0.0, 0.0);
        }
    });
    let red = reduce(&s, &t, &ReduceOptions::default()).unwrap();
    assert!(red.report.max_error <= 1e-4, "{:?}", red.report);
}

/// Compact output: with the default `quantize`, rotation channels whose reach allows it are
/// keyed as exact 16-bit values (measured as clients decode them, within budget), and the rest
/// stay floats; `quantize: false` keys nothing as 16-bit. A tight budget quantizes nothing.
#[test]
fn quantized_rotations_are_16_bit_within_budget() {
    let s = chain(6);
    let t = waving(&s);
    let is_16_bit = |f: &Fitted<Quat>| {
        f.values
            .iter()
            .all(|&q| marionette_anim::rotation_codes(q).is_some())
    };
    let count = |red: &ReducedTake| {
        red.joints
            .iter()
            .filter_map(|j| j.rotation.as_ref())
            .filter(|f| is_16_bit(f))
            .count()
    };
    let on = reduce(&s, &t, &ReduceOptions::default()).unwrap();
    assert!(on.quantized);
    // the tip (10 cm shell) is 16-bit; the root, whose error moves the tip 1.6 m out, is not
    let rot = |red: &ReducedTake, j: u16| {
        let joint = red.joints.iter().find(|x| x.joint == j).unwrap();
        joint.rotation.clone().unwrap()
    };
    assert!(is_16_bit(&rot(&on, 5)));
    assert!(!is_16_bit(&rot(&on, 0)));
    assert!(on.report.max_error <= 1e-4, "{:?}", on.report);
    // the independent check reads frames only; the report measured between them too
    assert!(measured_max(&s, &t, &on) <= on.report.max_error);
    let off = ReduceOptions {
        quantize: false,
        ..Default::default()
    };
    let off = reduce(&s, &t, &off).unwrap();
    assert!(!off.quantized);
    assert_eq!(count(&off), 0);
    // 1 µm: a step of 1/32767 at 10 cm is 3 µm, too far for any channel
    let tight = ReduceOptions {
        tolerance: 1e-6,
        ..Default::default()
    };
    let tight = reduce(&s, &t, &tight).unwrap();
    assert_eq!(count(&tight), 0);
    assert!(tight.report.max_error <= 1e-6, "{:?}", tight.report);
}

/// Compact output keys a jittery channel at every frame (no times of its own) where fewer keys
/// would cost more bytes; float output keeps the fewest keys.
#[test]
fn jittery_channels_are_keyed_at_every_frame() {
    let s = chain(3);
    let t = take(&s, 91, |f, j, tr| {
        if j == 1 {
            // a slow swing with a shake of up to a degree, over the first 80 frames
            let sign = if f % 2 == 0 { 1.0 } else { -0.75 };
            let shake = if f < 80 {
                0.02 * sign * ((f % 7) as f32 / 7.0)
            } else {
                0.0
            };
            tr.rotation = Quat::from_rotation_z(f as f32 * 0.01 + shake);
        }
    });
    let on = reduce(&s, &t, &ReduceOptions::default()).unwrap();
    let j1 = on.joints.iter().find(|j| j.joint == 1).unwrap();
    let f = j1.rotation.as_ref().unwrap();
    assert_eq!(f.frames, (0..91).collect::<Vec<u32>>());
    assert!(on.report.max_error <= 1e-4, "{:?}", on.report);
    let off = ReduceOptions {
        quantize: false,
        ..Default::default()
    };
    let off = reduce(&s, &t, &off).unwrap();
    let j1 = off.joints.iter().find(|j| j.joint == 1).unwrap();
    assert!(j1.rotation.as_ref().unwrap().len() < 91);
}
