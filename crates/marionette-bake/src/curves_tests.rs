//! Tests of the LINEAR profile, STEP gating and the key-time grid.

use glam::{Quat, Vec3, Vec4};

use super::*;
use crate::fit_samples;
use crate::fitted::{nlerp4, FitValue, Fitted};
use crate::misfit::angle;
use marionette_anim::Interpolation;

fn dist(a: Vec3, b: Vec3) -> f32 {
    (a - b).length()
}

/// A half turn about Y in 60 frames: LINEAR keys hold under slerp and under Blender's
/// normalised lerp at every frame and half frame; cubic keeps its two slerp keys.
#[test]
fn linear_rotation_holds_under_slerp_and_nlerp() {
    let q = |f: f32| Quat::from_rotation_y(f / 60.0 * 3.0);
    let frames: Vec<Quat> = (0..61).map(|i| q(i as f32)).collect();
    let halves: Vec<Quat> = (0..60).map(|i| q(i as f32 + 0.5)).collect();
    let s = Samples {
        frames: &frames,
        inner: Some(&halves),
        inner_exact: false,
        keys: None,
    };
    let grid = Grid::new(30.0, 61);
    let tol = 1e-4;
    let f = fit_samples(&s, &grid, Curves::Linear, tol, &angle);
    assert_eq!(f.interpolation, Interpolation::Linear);
    assert!(f.len() > 2, "{:?}", f.frames);
    let mut worst = 0.0f32;
    for (k, w) in f.frames.windows(2).enumerate() {
        let (a, b) = (w[0] as usize, w[1] as usize);
        let (t0, t1) = (grid.time(a), grid.time(b));
        for x in (2 * a..=2 * b).map(|h| h as f32 * 0.5) {
            let t = x / 30.0;
            let u = (t - t0) / (t1 - t0);
            let (va, vb) = (f.values[k], f.values[k + 1]);
            worst = worst
                .max(angle(q(x), Quat::nlerp(va, vb, u)))
                .max(angle(q(x), f.value_at(&grid, t)));
        }
    }
    assert!(worst <= tol * 1.01, "worst {worst}");
    let cubic = fit_samples(&s, &grid, Curves::Cubic, 1e-5, &angle);
    assert_eq!(cubic.frames, vec![0, 60]);
}

/// Values held at frames but moving between them (the Fox Walk spine) are never STEP.
#[test]
fn continuous_motion_is_not_step() {
    let frames: Vec<Vec3> = (0..20).map(|i| Vec3::X * (i / 4) as f32).collect();
    let halves: Vec<Vec3> = (0..19).map(|i| (frames[i] + frames[i + 1]) * 0.5).collect();
    let grid = Grid::new(30.0, 20);
    for curves in [Curves::Linear, Curves::Cubic] {
        let s = Samples {
            frames: &frames,
            inner: Some(&halves),
            inner_exact: false,
            keys: None,
        };
        let f = fit_samples(&s, &grid, curves, 1e-4, &dist);
        assert_ne!(f.interpolation, Interpolation::Step, "{curves:?}");
        for (i, h) in halves.iter().enumerate() {
            let v = f.value_at(&grid, grid.inner_time(i, 0));
            assert!(dist(v, *h) <= 1e-4, "{curves:?} half {i}: {v}");
        }
    }
}

/// A source that is stepped (holds between frames, then jumps) keeps STEP keys.
#[test]
fn stepped_source_is_step() {
    let frames: Vec<Vec3> = (0..20).map(|i| Vec3::X * (i / 5) as f32).collect();
    let halves: Vec<Vec3> = frames[..19].to_vec();
    let s = Samples {
        frames: &frames,
        inner: Some(&halves),
        inner_exact: false,
        keys: None,
    };
    let f = fit_samples(&s, &Grid::new(30.0, 20), Curves::Linear, 1e-4, &dist);
    assert_eq!(f.interpolation, Interpolation::Step);
    assert_eq!(f.frames, vec![0, 5, 10, 15]);
}

/// The last frame of a grid sits at its end, and a track's last key is read there.
#[test]
fn grid_ends_at_the_clip_end() {
    let grid = Grid::new(30.0, 23);
    assert_eq!(grid.time(21), 0.7);
    assert_eq!(grid.end(), step_time(22, 30.0));
    let grid = grid.ending_at(17.0 / 24.0);
    assert_eq!(grid.time(22), 17.0 / 24.0);
    assert_eq!(grid.inner_time(21, 0), 0.5 * (0.7 + 17.0 / 24.0));
    let f = Fitted {
        interpolation: Interpolation::Linear,
        frames: vec![0, 22],
        values: vec![Vec3::ZERO, Vec3::X],
    };
    assert_eq!(f.value_at(&grid, grid.end()), Vec3::X);
    assert!(dist(f.value_at(&grid, grid.end() * 0.5), Vec3::X * 0.5) < 1e-6);
}

/// Blender's reading of LINEAR rotations: per-component lerp, normalised, no hemisphere flip.
#[test]
fn nlerp_is_component_lerp() {
    let a = Quat::IDENTITY;
    let b = Quat::from_rotation_z(1.0);
    let m = Quat::nlerp(a, b, 0.5);
    assert!(angle(m, Quat::from_rotation_z(0.5)) < 1e-6);
    let v = nlerp4(
        Vec4::new(1.0, 0.0, 0.0, 0.0),
        Vec4::new(-1.0, 0.0, 0.0, 0.0),
        0.5,
    );
    assert_eq!(v, Vec4::ZERO);
}
