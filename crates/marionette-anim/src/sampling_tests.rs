//! Unit tests for [`super`]: known values for every interpolation mode, wrap mode and cursor path.

use super::*;
use crate::keys::slerp_shortest;
use crate::JointTracks;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

fn track<T>(interpolation: Interpolation, times: &[f32], values: &[T]) -> Track<T>
where
    T: Copy,
{
    Track {
        interpolation,
        times: times.to_vec(),
        values: values.to_vec(),
    }
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn at(tr: &Track<Vec3>, t: f32) -> Vec3 {
    sample_vec3(tr, t, &mut 0)
}

/// STEP holds the previous key, switching exactly at key times; outside the range it clamps.
#[test]
fn step_holds_previous_key() {
    let tr = track(
        Interpolation::Step,
        &[0.0, 1.0, 2.0],
        &[v(1.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(3.0, 0.0, 0.0)],
    );
    assert_eq!(at(&tr, 0.5).x, 1.0);
    assert_eq!(at(&tr, 1.0).x, 2.0);
    assert_eq!(at(&tr, 1.99).x, 2.0);
    assert_eq!(at(&tr, 5.0).x, 3.0);
    assert_eq!(at(&tr, -1.0).x, 1.0);
}

/// LINEAR vectors lerp; before the first key gives the first value, after the last the last.
#[test]
fn linear_vec3_and_edges() {
    let tr = track(
        Interpolation::Linear,
        &[1.0, 3.0],
        &[v(0.0, 0.0, 0.0), v(2.0, 4.0, -6.0)],
    );
    assert!(at(&tr, 1.5).abs_diff_eq(v(0.5, 1.0, -1.5), 1e-6));
    assert_eq!(at(&tr, 0.0), v(0.0, 0.0, 0.0));
    assert_eq!(at(&tr, 3.0), v(2.0, 4.0, -6.0));
    assert_eq!(at(&tr, 9.0), v(2.0, 4.0, -6.0));
}

/// LINEAR rotations slerp: halfway through a quarter turn is an eighth turn (nlerp would agree
/// at 0.5, so also check 0.25, where nlerp is off by ~1e-2 rad).
#[test]
fn linear_quat_is_slerp() {
    let tr = track(
        Interpolation::Linear,
        &[0.0, 1.0],
        &[Quat::IDENTITY, Quat::from_rotation_y(PI * 0.9)],
    );
    let q = sample_quat(&tr, 0.5, &mut 0);
    assert!(
        q.abs_diff_eq(Quat::from_rotation_y(PI * 0.45), 1e-6),
        "{q:?}"
    );
    let q = sample_quat(&tr, 0.25, &mut 0);
    assert!(
        q.abs_diff_eq(Quat::from_rotation_y(PI * 0.225), 1e-6),
        "{q:?}"
    );
}

/// A key stored with the opposite sign is still reached the short way (0.2 -> 1.0 rad about z).
#[test]
fn linear_quat_sign_flip_takes_shortest_path() {
    let tr = track(
        Interpolation::Linear,
        &[0.0, 1.0],
        &[Quat::from_rotation_z(0.2), -Quat::from_rotation_z(1.0)],
    );
    let q = sample_quat(&tr, 0.5, &mut 0);
    assert!(q.abs_diff_eq(Quat::from_rotation_z(0.6), 1e-6), "{q:?}");
    let q = sample_quat(&tr, 0.25, &mut 0);
    assert!(q.abs_diff_eq(Quat::from_rotation_z(0.4), 1e-6), "{q:?}");
}

/// three.js r187's `Quaternion.slerpFlat` in double precision from `f32` keys (the golden
/// files' maths): shortest path, `acos` slerp, normalised lerp from a key dot product of 0.9995.
fn slerp_f64(q0: Quat, q1: Quat, t: f32) -> glam::DVec4 {
    let (a, mut b, t) = (
        Vec4::from(q0).as_dvec4(),
        Vec4::from(q1).as_dvec4(),
        t as f64,
    );
    if a == b {
        return a;
    }
    let mut dot = a.dot(b);
    if dot < 0.0 {
        b = -b;
        dot = -dot;
    }
    if dot < 0.9995 {
        let theta = dot.acos();
        let sin = theta.sin();
        a * (((1.0 - t) * theta).sin() / sin) + b * ((t * theta).sin() / sin)
    } else {
        (a * (1.0 - t) + b * t).normalize()
    }
}

/// Largest component difference between [`slerp_shortest`] and [`slerp_f64`] over key pairs
/// `q0`, `q0 * rot(axis, angle)` (also with `q1` negated) and 101 values of `t`.
fn worst_slerp_error(angles: impl Iterator<Item = f32>) -> (f64, f32) {
    let axes = [v(0.3, 0.8, -0.2), v(1.0, 0.0, 0.0), v(-0.5, 0.1, 0.9)];
    let starts = [
        Quat::from_rotation_x(0.3),
        Quat::IDENTITY,
        Quat::from_euler(glam::EulerRot::XYZ, 2.0, -1.0, 0.7),
    ];
    let mut worst = (0.0f64, 0.0f32);
    for angle in angles {
        for (axis, q0) in axes.iter().zip(starts) {
            let q1 = q0 * Quat::from_axis_angle(axis.normalize(), angle);
            for q1 in [q1, -q1] {
                for s in 0..=100 {
                    let t = s as f32 / 100.0;
                    let got = Vec4::from(slerp_shortest(q0, q1, t)).as_dvec4();
                    let want = slerp_f64(q0, q1, t);
                    // rotations up to sign (the f64 reference keeps q0's hemisphere too)
                    let err = (got - want).abs().max_element();
                    if err > worst.0 {
                        worst = (err, angle);
                    }
                }
            }
        }
    }
    worst
}

/// LINEAR slerp agrees with three.js's double-precision slerp to within the final rounding to
/// f32 (6e-8, half an ulp of 1.0; measured 3.8e-8) at every rotation angle up to a full turn and
/// for nearly equal keys (the normalised-lerp side of three.js's threshold), with keys of either
/// sign. (The former polynomial slerp was off by 1e-6, an all-f32 trigonometric one by 2.7e-7.)
#[test]
fn slerp_matches_double_precision() {
    let wide = (0..=720).map(|a| a as f32 / 720.0 * 2.0 * PI * 0.9999);
    let (err, angle) = worst_slerp_error(wide);
    println!("slerp: worst error {err:e} at {angle} rad");
    assert!(err < 6e-8, "worst error {err:e} at {angle} rad");
    let tiny = (0..=60).map(|e| 10f32.powf(-(e as f32) / 10.0));
    let (err, angle) = worst_slerp_error(tiny);
    println!("slerp small angles: worst error {err:e} at {angle} rad");
    assert!(err < 6e-8, "worst error {err:e} at {angle} rad");
}

/// Keys that are not quite unit length (files store rounded values) are slerped as three.js
/// does: the angle from `acos` of their dot product, the result not renormalised. (An angle from
/// the keys' geometry, `atan2(|a - b|, |a + b|)`, is off by 1.6e-5 on SimpleSkin.gltf.)
#[test]
fn slerp_of_non_unit_keys_matches_three() {
    let q0 = Quat::from_xyzw(0.0, 0.0, 0.0, 1.0);
    // SimpleSkin.gltf-like keys: four or five decimals
    for q1 in [
        Quat::from_xyzw(0.0, 0.0, 0.3826, 0.9238),
        Quat::from_xyzw(0.0, 0.0, 0.7072, 0.7069),
        Quat::from_xyzw(0.0, 0.0, 0.0254, 0.9997),
    ] {
        for s in 0..=20 {
            let t = s as f32 / 20.0;
            let got = Vec4::from(slerp_shortest(q0, q1, t)).as_dvec4();
            let want = slerp_f64(q0, q1, t);
            let err = (got - want).abs().max_element();
            assert!(err < 6e-8, "{q1:?} t={t}: {got} vs {want}");
        }
    }
    // a held (repeated) key comes back exactly as stored, not renormalised
    let held = Quat::from_xyzw(0.0, 0.0, 0.3826, 0.9238);
    assert_eq!(slerp_shortest(held, held, 0.3), held);
}

/// CUBICSPLINE scales tangents by the key interval (2 s here): x = p0 1, out-tangent 1/s,
/// p1 3, in-tangent 0; y has only an in-tangent of 1/s on the second key.
#[test]
fn cubic_vec3_scales_tangents_by_interval() {
    let values = [
        v(9.0, 9.0, 9.0), // in-tangent of key 0 (unused)
        v(1.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0), // out-tangent of key 0
        v(0.0, 1.0, 0.0), // in-tangent of key 1
        v(3.0, 0.0, 0.0),
        v(9.0, 9.0, 9.0), // out-tangent of key 1 (unused)
    ];
    let tr = track(Interpolation::CubicSpline, &[0.0, 2.0], &values);
    // s = 0.5: h00 = h01 = 0.5, h10 = 0.125, h11 = -0.125; m0 = (2,0,0), m1 = (0,2,0)
    assert!(
        at(&tr, 1.0).abs_diff_eq(v(2.25, -0.25, 0.0), 1e-6),
        "{}",
        at(&tr, 1.0)
    );
    // s = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875
    assert!(
        at(&tr, 0.5).abs_diff_eq(v(1.59375, -0.09375, 0.0), 1e-6),
        "{}",
        at(&tr, 0.5)
    );
    // outside the range: the middle (value) entries, never tangents
    assert_eq!(at(&tr, -1.0), v(1.0, 0.0, 0.0));
    assert_eq!(at(&tr, 3.0), v(3.0, 0.0, 0.0));
}

/// CUBICSPLINE rotations: tangents scaled by the interval (0.5 s), result normalised.
#[test]
fn cubic_quat_scaled_and_normalised() {
    let z = Quat::from_xyzw(0.0, 0.0, 1.0, 0.0);
    let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let tr = track(
        Interpolation::CubicSpline,
        &[0.0, 0.5],
        &[zero, Quat::IDENTITY, z, zero, Quat::IDENTITY, zero],
    );
    // s = 0.5: (0,0,0.125 * 0.5,1) normalised
    let q = sample_quat(&tr, 0.25, &mut 0);
    let want = Quat::from_xyzw(0.0, 0.0, 0.0625, 1.0).normalize();
    assert!(q.abs_diff_eq(want, 1e-6), "{q:?}");
    // zero tangents: halfway between 0 and 1 rad is 0.5 rad once normalised
    let tr = track(
        Interpolation::CubicSpline,
        &[0.0, 0.5],
        &[
            zero,
            Quat::IDENTITY,
            zero,
            zero,
            Quat::from_rotation_z(1.0),
            zero,
        ],
    );
    let q = sample_quat(&tr, 0.25, &mut 0);
    assert!(q.abs_diff_eq(Quat::from_rotation_z(0.5), 1e-6), "{q:?}");
    assert!((q.length() - 1.0).abs() < 1e-6);
}

/// A single key holds its value at every time, for every interpolation.
#[test]
fn single_key_holds() {
    for interp in [Interpolation::Step, Interpolation::Linear] {
        let tr = track(interp, &[0.7], &[v(1.0, 2.0, 3.0)]);
        for t in [-1.0, 0.0, 0.7, 5.0] {
            assert_eq!(at(&tr, t), v(1.0, 2.0, 3.0));
        }
    }
    let tr = track(
        Interpolation::CubicSpline,
        &[0.7],
        &[v(5.0, 5.0, 5.0), v(1.0, 2.0, 3.0), v(5.0, 5.0, 5.0)],
    );
    assert_eq!(at(&tr, 2.0), v(1.0, 2.0, 3.0));
}

/// A track whose values do not match its times (malformed) falls back instead of panicking.
#[test]
fn malformed_track_does_not_panic() {
    let tr = track(Interpolation::CubicSpline, &[0.0, 1.0], &[v(1.0, 1.0, 1.0)]);
    assert_eq!(at(&tr, 0.5), Vec3::ZERO);
    let empty: Track<Quat> = track(Interpolation::Linear, &[], &[]);
    assert_eq!(sample_quat(&empty, 0.5, &mut 3), Quat::IDENTITY);
}

fn clip_1_to_3() -> Clip {
    let mut jt = JointTracks::new(0);
    jt.translation = Some(track(
        Interpolation::Linear,
        &[1.0, 3.0],
        &[v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0)],
    ));
    Clip::new("c", vec![jt])
}

/// Every wrap mode on a clip spanning [1, 3] s.
#[test]
fn wrap_modes() {
    let c = clip_1_to_3();
    let w = |t, m| c.wrap_time(t, m);
    assert_eq!(w(4.0, WrapMode::Once), 3.0);
    assert_eq!(w(0.0, WrapMode::Once), 1.0);
    assert_eq!(w(2.0, WrapMode::Once), 2.0);
    assert_eq!(w(4.0, WrapMode::Loop), 2.0);
    assert_eq!(w(3.5, WrapMode::Loop), 1.5);
    assert_eq!(w(-0.5, WrapMode::Loop), 1.5);
    assert_eq!(w(3.5, WrapMode::PingPong), 2.5);
    assert_eq!(w(5.5, WrapMode::PingPong), 1.5);
    assert_eq!(w(2.5, WrapMode::PingPong), 2.5);
    assert_eq!(w(3.5, WrapMode::ClampToFirst), 1.0);
    assert_eq!(w(2.5, WrapMode::ClampToFirst), 2.5);
    assert_eq!(w(f32::NAN, WrapMode::Loop), 1.0);
}

/// Trimming shifts keys to start at 0 and samples the same pose 1 s earlier.
#[test]
fn trimmed_shifts_keys() {
    let c = clip_1_to_3();
    let t = c.trimmed();
    assert_eq!((t.start, t.end), (0.0, 2.0));
    let times = &t.tracks[0].translation.as_ref().map(|tr| tr.times.clone());
    assert_eq!(times.as_deref(), Some(&[0.0, 2.0][..]));
    let rest = [Transform::IDENTITY];
    let (mut a, mut b) = ([Transform::IDENTITY], [Transform::IDENTITY]);
    c.sample(2.5, &rest, &mut SamplingCache::new(), &mut a);
    t.sample(1.5, &rest, &mut SamplingCache::new(), &mut b);
    assert_eq!(a, b);
    assert_eq!(a[0].translation, v(1.5, 0.0, 0.0));
}

/// Joints and channels without tracks get the rest pose; animated channels are sampled.
#[test]
fn clip_sample_uses_rest_for_missing() {
    let rest = [
        Transform::from_translation(v(1.0, 0.0, 0.0)),
        Transform::new(
            v(0.0, 1.0, 0.0),
            Quat::from_rotation_x(0.5),
            Vec3::splat(2.0),
        ),
        Transform::from_translation(v(0.0, 0.0, 1.0)),
    ];
    let mut jt = JointTracks::new(1);
    jt.rotation = Some(track(
        Interpolation::Linear,
        &[0.0, 1.0],
        &[Quat::IDENTITY, Quat::from_rotation_y(FRAC_PI_2)],
    ));
    let clip = Clip::new("c", vec![jt]);
    let mut out = [Transform::default(); 3];
    clip.sample(0.5, &rest, &mut SamplingCache::default(), &mut out);
    assert_eq!(out[0], rest[0]);
    assert_eq!(out[2], rest[2]);
    assert_eq!(out[1].translation, rest[1].translation);
    assert_eq!(out[1].scale, rest[1].scale);
    assert!(out[1]
        .rotation
        .abs_diff_eq(Quat::from_rotation_y(FRAC_PI_4), 1e-6));
}

/// Keys at t_k = k/10 with x = t_k^2, linear between: the exact value at any t.
fn squares() -> (Track<Vec3>, impl Fn(f32) -> f32) {
    let times: Vec<f32> = (0..100).map(|k| k as f32 / 10.0).collect();
    let values: Vec<Vec3> = times.iter().map(|t| v(t * t, 0.0, 0.0)).collect();
    let exact = |t: f32| {
        let k = ((t * 10.0).floor() as usize).min(98);
        let (t0, t1) = (k as f32 / 10.0, (k + 1) as f32 / 10.0);
        let s = (t - t0) / (t1 - t0);
        t0 * t0 * (1.0 - s) + t1 * t1 * s
    };
    (track(Interpolation::Linear, &times, &values), exact)
}

/// A cursor carried through forward playback, backwards jumps and random access gives the same
/// values as a fresh search every time.
#[test]
fn cursor_matches_fresh_search() {
    let (tr, exact) = squares();
    let mut cursor = 0;
    let mut t = 0.0;
    while t < 9.9 {
        let got = sample_vec3(&tr, t, &mut cursor).x;
        assert_eq!(got, sample_vec3(&tr, t, &mut 0).x, "t={t}");
        assert!((got - exact(t)).abs() < 1e-3, "t={t}");
        t += 0.013;
    }
    // backwards jumps and random access (LCG times, including big forward jumps)
    let mut seed = 12345u32;
    for _ in 0..2000 {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        let t = (seed >> 8) as f32 / (1u32 << 24) as f32 * 11.0 - 0.5;
        let got = sample_vec3(&tr, t, &mut cursor);
        assert_eq!(got, sample_vec3(&tr, t, &mut 0), "t={t}");
        assert_eq!(got, sample_vec3(&tr, t, &mut 97), "t={t}");
    }
}

/// A clip cache reused across times (and across clips) gives the same pose as a fresh cache.
#[test]
fn clip_cache_matches_fresh_cache() {
    let (tr, _) = squares();
    let mut jt0 = JointTracks::new(0);
    jt0.translation = Some(tr.clone());
    jt0.scale = Some(tr.clone());
    let mut jt2 = JointTracks::new(2);
    jt2.translation = Some(tr);
    let clip = Clip::new("a", vec![jt0, jt2]);
    let other = clip.trimmed();
    let rest = [Transform::IDENTITY; 3];
    let mut cache = SamplingCache::new();
    let (mut a, mut b) = ([Transform::IDENTITY; 3], [Transform::IDENTITY; 3]);
    for (i, t) in [0.3, 0.35, 4.0, 9.5, 1.2, -1.0, 20.0, 5.55]
        .into_iter()
        .enumerate()
    {
        let c = if i % 3 == 2 { &other } else { &clip };
        c.sample(t, &rest, &mut cache, &mut a);
        c.sample(t, &rest, &mut SamplingCache::new(), &mut b);
        assert_eq!(a, b, "t={t}");
    }
    cache.reset();
    assert!(cache.cursors.iter().all(|&c| c == 0));
}
