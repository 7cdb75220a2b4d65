use super::*;
use crate::misfit::angle;
use glam::{Quat, Vec3};
use marionette_anim::time::step_time;

fn dist(a: Vec3, b: Vec3) -> f32 {
    (a - b).length()
}

/// A track that never moves collapses to one key.
#[test]
fn constant_is_one_key() {
    let s = vec![Vec3::new(1.0, 2.0, 3.0); 10];
    let f = fit(&s, 30.0, 1e-4, &dist);
    assert_eq!(f.frames, vec![0]);
    assert_eq!(f.values, vec![Vec3::new(1.0, 2.0, 3.0)]);
}

/// A straight ramp needs only its two end keys, LINEAR.
#[test]
fn ramp_is_two_linear_keys() {
    let s: Vec<Vec3> = (0..31).map(|i| Vec3::X * i as f32 * 0.1).collect();
    let f = fit(&s, 30.0, 1e-4, &dist);
    assert_eq!(f.interpolation, Interpolation::Linear);
    assert_eq!(f.frames, vec![0, 30]);
    let d = f.dense(31, 30.0);
    assert!(dist(d[15], Vec3::X * 1.5) < 1e-5, "{:?}", d[15]);
}

/// Held values switching twice become three STEP keys at the switches.
#[test]
fn held_values_use_step() {
    let s: Vec<Vec3> = (0..30)
        .map(|i| {
            Vec3::Y
                * if i < 10 {
                    0.0
                } else if i < 20 {
                    1.0
                } else {
                    2.0
                }
        })
        .collect();
    let f = fit(&s, 30.0, 1e-4, &dist);
    assert_eq!(f.interpolation, Interpolation::Step);
    assert_eq!(f.frames, vec![0, 10, 20]);
    assert_eq!(f.dense(30, 30.0), s);
}

/// A smooth sine is fitted with fewer CUBICSPLINE keys than LINEAR, within tolerance.
#[test]
fn smooth_motion_uses_cubic() {
    let s: Vec<Vec3> = (0..121)
        .map(|i| Vec3::new((i as f32 / 30.0 * 2.0).sin() * 0.3, 0.0, 0.0))
        .collect();
    let tol = 1e-4;
    let f = fit(&s, 30.0, tol, &dist);
    let frames_only = Samples {
        frames: &s,
        inner: None,
        inner_exact: false,
        keys: None,
    };
    let lin = fit_linear(&frames_only, &Grid::new(30.0, s.len()), false, tol, &dist);
    assert_eq!(f.interpolation, Interpolation::CubicSpline);
    assert!(f.len() < lin.len(), "{} vs {}", f.len(), lin.len());
    assert_eq!(f.values.len(), 3 * f.len());
    for (a, b) in f.dense(121, 30.0).iter().zip(&s) {
        assert!(dist(*a, *b) <= tol);
    }
}

/// Rotations are slerped: a half-turn about Y in 60 frames needs two keys.
#[test]
fn rotation_slerp_two_keys() {
    let s: Vec<Quat> = (0..61)
        .map(|i| Quat::from_rotation_y(i as f32 / 60.0 * 3.0))
        .collect();
    let f = fit(&s, 30.0, 1e-5, &angle);
    assert_eq!(f.frames, vec![0, 60]);
    let d = f.dense(61, 30.0);
    assert!(angle(d[30], Quat::from_rotation_y(1.5)) < 1e-5);
}

/// Key times are frame indices over fps, computed in f32.
#[test]
fn frame_times() {
    assert_eq!(step_time(3, 30.0), 0.1);
    assert_eq!(step_time(60, 24.0), 2.5);
}

/// A long constant-speed slide is keyed at most every 256 frames (bounded fitting cost).
#[test]
fn long_segments_are_capped() {
    let s: Vec<Vec3> = (0..1001).map(|i| Vec3::X * i as f32 * 1e-3).collect();
    let f = fit(&s, 30.0, 1e-4, &dist);
    assert_eq!(f.interpolation, Interpolation::Linear);
    assert_eq!(f.frames, vec![0, 256, 512, 768, 1000]);
}
