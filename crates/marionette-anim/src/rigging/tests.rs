//! The rigging maths against numbers: aims within 0.1 degree, chains within 0.1 mm and at their
//! limits, springs settling, hanging and swinging as the analytic pendulum says, agreeing at 30
//! and 60 fps and never crossing a collider.

use glam::{Quat, Vec3};

use super::aim::{aim, multi_aim, AimSettings, Up};
use super::chain_ik::{solve, spline, ChainSettings, Solver};
use super::copy::{copy, Channels, CopySettings, Damped, DampedState, Mix, RestPair};
use super::spring::{Collider, Shape, SpringChain, SpringSettings, SpringState, SUBSTEP_HZ};
use super::twist::{twist, Limit, LimitState};
use super::{chain, swing_twist, twist_angle};
use crate::ik::model_transform;
use crate::{JointIndex, Transform};

/// A straight chain of `n` joints along +Y, `len` apart, below a root at the origin (joint 0).
fn straight(n: usize, len: f32) -> (Vec<Option<JointIndex>>, Vec<Transform>) {
    let mut parents = vec![None];
    let mut pose = vec![Transform::IDENTITY];
    for k in 1..=n {
        parents.push(Some(k as JointIndex - 1));
        pose.push(Transform::from_translation(Vec3::Y * len));
    }
    (parents, pose)
}

fn pos(parents: &[Option<JointIndex>], pose: &[Transform], j: usize) -> Vec3 {
    model_transform(parents, pose, j as JointIndex).translation
}

fn angle_deg(a: Vec3, b: Vec3) -> f32 {
    a.normalize()
        .dot(b.normalize())
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
}

#[test]
fn aim_points_within_a_tenth_of_a_degree() {
    let (parents, mut pose) = straight(3, 0.3);
    pose[1].rotation = Quat::from_rotation_z(0.4);
    for target in [
        Vec3::new(2.0, 0.5, 1.0),
        Vec3::new(-1.0, 3.0, -2.0),
        Vec3::new(0.1, -2.0, 0.3),
    ] {
        let mut p = pose.clone();
        let s = AimSettings {
            axis: Vec3::Y,
            up_axis: Vec3::Z,
            up: Up::Direction(Vec3::Z),
            ..Default::default()
        };
        aim(&parents, &mut p, 2, target, &s, 1.0);
        let m = model_transform(&parents, &p, 2);
        let err = angle_deg(m.rotation * Vec3::Y, target - m.translation);
        assert!(err < 0.1, "{target}: {err} degrees off");
    }
}

#[test]
fn aim_limits_hold() {
    let (parents, pose) = straight(2, 0.3);
    let target = Vec3::new(3.0, 0.3, 0.0);
    let mut p = pose.clone();
    // (up along +Z: the aim needs no twist, the whole turn is the swing)
    let s = AimSettings {
        axis: Vec3::Y,
        up_axis: Vec3::Z,
        up: Up::Direction(Vec3::Z),
        limit: 30f32.to_radians(),
        ..Default::default()
    };
    aim(&parents, &mut p, 1, target, &s, 1.0);
    let a = angle_deg(p[1].rotation * Vec3::Y, Vec3::Y);
    assert!((a - 30.0).abs() < 0.05, "{a}");
    // per axis: the turn about Z (which swings +Y towards +X) limited to 20 degrees
    let mut p = pose.clone();
    let lim = super::AxisLimits([
        [-1.0, 1.0],
        [-1.0, 1.0],
        [-20f32.to_radians(), 20f32.to_radians()],
    ]);
    let s = AimSettings {
        axis: Vec3::Y,
        up_axis: Vec3::Z,
        up: Up::Direction(Vec3::Z),
        axis_limits: Some(lim),
        ..Default::default()
    };
    aim(&parents, &mut p, 1, target, &s, 1.0);
    let a = angle_deg(p[1].rotation * Vec3::Y, Vec3::Y);
    assert!((a - 20.0).abs() < 0.05, "{a}");
}

#[test]
fn multi_aim_weights_between_its_targets() {
    let (parents, pose) = straight(2, 0.3);
    let base = pos(&parents, &pose, 1);
    let a = base + Vec3::X;
    let b = base + Vec3::Z;
    let s = AimSettings {
        axis: Vec3::Y,
        up_axis: Vec3::Z,
        ..Default::default()
    };
    let mut p = pose.clone();
    multi_aim(&parents, &mut p, 1, &[(a, 1.0), (b, 1.0)], &s, 1.0);
    let dir = p[1].rotation * Vec3::Y;
    // halfway between +X and +Z
    assert!(angle_deg(dir, Vec3::new(1.0, 0.0, 1.0)) < 0.5, "{dir}");
    let mut p = pose.clone();
    multi_aim(&parents, &mut p, 1, &[(a, 1.0), (b, 0.0)], &s, 1.0);
    assert!(angle_deg(p[1].rotation * Vec3::Y, Vec3::X) < 0.1);
}

#[test]
fn chains_reach_within_a_tenth_of_a_millimetre_and_stop_early() {
    let (parents, pose) = straight(10, 0.1);
    let joints = chain(&parents, 1, 10).expect("chain");
    let targets = [
        Vec3::new(0.4, 0.6, 0.2),
        Vec3::new(-0.3, 0.2, 0.5),
        Vec3::new(0.1, 0.9, -0.2),
    ];
    // (CCD stalls 0.24 mm short of the last one, where the straightened chain would have to
    // fold, and needs 449 sweeps for the second: FABRIK, the default, is the solver that
    // reaches; the guide says so)
    for (solver, targets) in [(Solver::Fabrik, &targets[..]), (Solver::Ccd, &targets[..1])] {
        for &target in targets {
            let mut p = pose.clone();
            let s = ChainSettings {
                solver,
                ..Default::default()
            };
            let r = solve(&parents, &mut p, &joints, target, &s, 1.0);
            let tip = pos(&parents, &p, 10);
            assert!(
                tip.distance(target) < 1e-4,
                "{solver:?} {target}: {} mm after {} iterations",
                tip.distance(target) * 1000.0,
                r.iterations
            );
            assert!(
                r.iterations < s.max_iterations(),
                "{solver:?}: no early stop"
            );
            eprintln!("{solver:?} to {target}: {} iterations", r.iterations);
            // bone lengths kept
            for k in 2..=10 {
                let l = pos(&parents, &p, k).distance(pos(&parents, &p, k - 1));
                assert!((l - 0.1).abs() < 1e-5, "{l}");
            }
        }
    }
}

/// Near full extension (where plain FABRIK crawls: about 700 iterations at 99.8% of the reach)
/// it still gets there in a few, starting from the arc of the chain's length.
#[test]
fn fabrik_reaches_near_full_extension() {
    let (parents, mut pose) = straight(10, 0.1);
    for t in &mut pose[2..] {
        t.rotation = Quat::from_rotation_z(0.05);
    }
    let joints = chain(&parents, 1, 10).expect("chain");
    let root = pos(&parents, &pose, 1);
    for share in [0.9f32, 0.98, 0.998, 0.9995] {
        let target = root + Vec3::new(0.6, 0.5, 0.3).normalize() * 0.9 * share;
        let mut p = pose.clone();
        let r = solve(
            &parents,
            &mut p,
            &joints,
            target,
            &ChainSettings::default(),
            1.0,
        );
        let tip = pos(&parents, &p, 10);
        assert!(
            tip.distance(target) < 1e-4,
            "{share}: {} mm after {} iterations",
            tip.distance(target) * 1000.0,
            r.iterations
        );
        println!("{share} of the reach: {} iterations", r.iterations);
        assert!(r.iterations <= 60, "{share}: {} iterations", r.iterations);
    }
}

#[test]
fn unreachable_targets_straighten_and_stretch_only_when_asked() {
    let (parents, pose) = straight(4, 0.25);
    let joints = chain(&parents, 1, 4).expect("chain");
    let target = Vec3::new(2.0, 0.25, 0.0);
    let mut p = pose.clone();
    solve(
        &parents,
        &mut p,
        &joints,
        target,
        &ChainSettings::default(),
        1.0,
    );
    let tip = pos(&parents, &p, 4);
    let root = pos(&parents, &p, 1);
    assert!(
        (tip.distance(root) - 0.75).abs() < 1e-5,
        "stretched without asking"
    );
    assert!(angle_deg(tip - root, target - root) < 0.01);
    let mut p = pose.clone();
    let s = ChainSettings {
        stretch: true,
        ..Default::default()
    };
    solve(&parents, &mut p, &joints, target, &s, 1.0);
    assert!(pos(&parents, &p, 4).distance(target) < 1e-4);
}

#[test]
fn chain_limits_hold() {
    let (parents, pose) = straight(6, 0.1);
    let joints = chain(&parents, 1, 6).expect("chain");
    let target = Vec3::new(0.4, 0.1, 0.0);
    for solver in [Solver::Fabrik, Solver::Ccd] {
        let mut p = pose.clone();
        let s = ChainSettings {
            solver,
            limits: vec![10f32.to_radians(); 6],
            ..Default::default()
        };
        solve(&parents, &mut p, &joints, target, &s, 1.0);
        for &j in &joints[..5] {
            let a = angle_deg(p[j as usize].rotation * Vec3::Y, Vec3::Y);
            assert!(a <= 10.0 + 1e-3, "{solver:?}: joint {j} turned {a} degrees");
        }
        // (the limits stop it short)
        assert!(pos(&parents, &p, 6).distance(target) > 0.01);
    }
}

#[test]
fn a_pole_bends_the_chain_towards_it() {
    let (parents, pose) = straight(5, 0.1);
    let joints = chain(&parents, 1, 5).expect("chain");
    let target = Vec3::new(0.0, 0.35, 0.0);
    for side in [Vec3::X, Vec3::NEG_X, Vec3::Z] {
        let mut p = pose.clone();
        let s = ChainSettings {
            pole: Some(Vec3::Y * 0.2 + side),
            ..Default::default()
        };
        solve(&parents, &mut p, &joints, target, &s, 1.0);
        assert!(pos(&parents, &p, 5).distance(target) < 1e-4);
        let mid = pos(&parents, &p, 3);
        assert!(mid.dot(side) > 0.02, "{side}: middle at {mid}");
    }
}

/// A pole never takes a joint past its limit (it used to turn the root freely).
#[test]
fn a_pole_keeps_the_limits() {
    let (parents, pose) = straight(6, 0.1);
    let joints = chain(&parents, 1, 6).expect("chain");
    for solver in [Solver::Fabrik, Solver::Ccd] {
        for target in [Vec3::new(0.4, 0.1, 0.0), Vec3::new(0.1, 0.45, 0.1)] {
            let mut p = pose.clone();
            let s = ChainSettings {
                solver,
                limits: vec![10f32.to_radians(); 6],
                pole: Some(Vec3::new(0.0, 0.3, 1.0)),
                ..Default::default()
            };
            solve(&parents, &mut p, &joints, target, &s, 1.0);
            for &j in &joints[..5] {
                let a = angle_deg(p[j as usize].rotation * Vec3::Y, Vec3::Y);
                assert!(
                    a <= 10.0 + 1e-3,
                    "{solver:?} {target}: joint {j} turned {a} degrees"
                );
            }
        }
    }
}

#[test]
fn spline_lays_the_chain_on_the_curve() {
    let (parents, pose) = straight(8, 0.1);
    let joints = chain(&parents, 1, 8).expect("chain");
    let root = pos(&parents, &pose, 1);
    // a quarter circle of radius 0.7/(π/2) from the root, bending towards +X
    let r = 0.7 / std::f32::consts::FRAC_PI_2;
    let arc = |a: f32| root + Vec3::new(r - r * a.cos(), r * a.sin(), 0.0);
    let points: Vec<Vec3> = (1..=6)
        .map(|k| arc(std::f32::consts::FRAC_PI_2 * k as f32 / 6.0))
        .collect();
    let mut p = pose.clone();
    spline(&parents, &mut p, &joints, &points, 1.0);
    // every joint lies on the circle (within 2 mm: the chords of 10 cm bones)
    for k in 1..=8 {
        let x = pos(&parents, &p, k);
        let d = (x - (root + Vec3::X * r)).length();
        assert!(
            (d - r).abs() < 2e-3,
            "joint {k}: {} mm off",
            (d - r).abs() * 1000.0
        );
    }
    let tip = pos(&parents, &p, 8);
    assert!(
        tip.distance(arc(std::f32::consts::FRAC_PI_2)) < 0.01,
        "{tip}"
    );
}

#[test]
fn copy_replaces_and_adds() {
    // root, a, b (both children of the root, apart)
    let parents = vec![None, Some(0), Some(0)];
    let mut pose = vec![
        Transform::IDENTITY,
        Transform::from_translation(Vec3::X),
        Transform::from_translation(-Vec3::X),
    ];
    let rest = RestPair::new(&parents, &pose, 2, 1);
    pose[1].rotation = Quat::from_rotation_y(0.7);
    pose[1].translation = Vec3::new(1.0, 0.5, 0.0);
    let rot = Channels {
        rotation: true,
        ..Default::default()
    };
    for model in [true, false] {
        let mut p = pose.clone();
        let s = CopySettings {
            channels: rot,
            model,
            offset: false,
            mix: Mix::Replace,
        };
        copy(&parents, &mut p, 2, 1, &rest, &s, 1.0);
        assert!(p[2].rotation.angle_between(p[1].rotation) < 1e-5);
    }
    // position with the rest offset kept: b stays 2 m from a along a's frame
    let mut p = pose.clone();
    let s = CopySettings {
        channels: Channels {
            position: true,
            ..Default::default()
        },
        model: true,
        offset: true,
        mix: Mix::Replace,
    };
    copy(&parents, &mut p, 2, 1, &rest, &s, 1.0);
    let want = pose[1].transform_point(Vec3::new(-2.0, 0.0, 0.0));
    assert!(
        p[2].translation.distance(want) < 1e-5,
        "{}",
        p[2].translation
    );
    // add: b moves by a's move from rest
    let mut p = pose.clone();
    let s = CopySettings {
        mix: Mix::Add,
        offset: false,
        ..s
    };
    copy(&parents, &mut p, 2, 1, &rest, &s, 1.0);
    assert!(p[2].translation.distance(Vec3::new(-1.0, 0.5, 0.0)) < 1e-5);
}

#[test]
fn damped_lags_then_arrives_at_any_frame_rate() {
    let (parents, pose) = straight(2, 0.3);
    let rest = RestPair::new(&parents, &pose, 2, 1);
    let d = Damped {
        joint: 2,
        source: 1,
        rest,
        rotation_lag: 0.1,
        position_lag: None,
    };
    // the source turns 90 degrees at 0.1 s (a step), or keeps swinging (smooth)
    let run = |fps: f64, step: bool| {
        let mut st = DampedState::default();
        let mut out = Vec::new();
        for f in 0..=(fps as usize) {
            let t = f as f64 / fps;
            let mut p = pose.clone();
            p[1].rotation = if step {
                Quat::from_rotation_z(if t >= 0.1 {
                    std::f32::consts::FRAC_PI_2
                } else {
                    0.0
                })
            } else {
                Quat::from_rotation_z((t * 6.0).sin() as f32)
            };
            d.apply(&parents, &mut p, &Transform::IDENTITY, t, 1.0, &mut st);
            out.push((t, model_transform(&parents, &p, 2).rotation));
        }
        out
    };
    let at = |v: &[(f64, Quat)], t: f64| v.iter().find(|(x, _)| (x - t).abs() < 1e-9).map(|x| x.1);
    let b = run(60.0, true);
    let want = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    // a time constant after the turn: the lag's exponential, the turn seen as a ramp over the
    // frame before it (the driven place is interpolated between frames)
    let q = at(&b, 0.2).expect("0.2 s");
    let gone = q.angle_between(Quat::IDENTITY) / want.angle_between(Quat::IDENTITY);
    let (h, tau) = (1.0f32 / 60.0, 0.1f32);
    let ramp = 1.0 - tau / h * (1.0 - (-h / tau).exp());
    let expected = 1.0 - (1.0 - ramp) * (-1.0f32).exp();
    assert!(
        (gone - expected).abs() < 0.01,
        "{gone} of the way, not {expected}"
    );
    assert!(at(&b, 1.0).expect("1 s").angle_between(want).to_degrees() < 0.01);
    // following a smooth swing, 30 and 60 fps agree within a degree
    let (x, y) = (run(30.0, false), run(60.0, false));
    for (t, q) in &x {
        let other = at(&y, *t).expect("60 fps has the frame");
        assert!(q.angle_between(other).to_degrees() < 1.0, "{t}");
    }
}

#[test]
fn twist_spreads_over_the_twist_bones() {
    // elbow(0) -> twist1(1), twist2(2), hand(3) all children of the elbow, bone axis +X
    let mut pose = vec![Transform::IDENTITY; 4];
    let turn = 90f32.to_radians();
    pose[3].rotation = Quat::from_rotation_x(turn) * Quat::from_rotation_y(0.3);
    twist(
        &mut pose,
        3,
        Quat::IDENTITY,
        Vec3::X,
        &[1, 2],
        &[1.0 / 3.0, 2.0 / 3.0],
        false,
        1.0,
    );
    let (_, t1) = swing_twist(pose[1].rotation, Vec3::X);
    let (_, t2) = swing_twist(pose[2].rotation, Vec3::X);
    let (_, th) = swing_twist(pose[3].rotation, Vec3::X);
    let hand = twist_angle(th, Vec3::X);
    assert!((twist_angle(t1, Vec3::X) - hand / 3.0).abs() < 1e-4);
    assert!((twist_angle(t2, Vec3::X) - hand * 2.0 / 3.0).abs() < 1e-4);
}

#[test]
fn limits_clamp_cone_twist_and_speed() {
    let l = Limit {
        joint: 1,
        rest: Quat::IDENTITY,
        axis: Vec3::Y,
        cone: Some(30f32.to_radians()),
        twist: Some([-10f32.to_radians(), 20f32.to_radians()]),
        speed: None,
    };
    let q = Quat::from_rotation_z(80f32.to_radians()) * Quat::from_rotation_y(50f32.to_radians());
    let c = l.clamp(q);
    let (swing, tw) = swing_twist(c, Vec3::Y);
    assert!((swing.angle_between(Quat::IDENTITY).to_degrees() - 30.0).abs() < 0.01);
    assert!((twist_angle(tw, Vec3::Y).to_degrees() - 20.0).abs() < 0.01);
    // speed: 90 degrees per second, a 90 degree jump takes a second
    let l = Limit {
        cone: None,
        twist: None,
        speed: Some(90f32.to_radians()),
        ..l
    };
    let mut st = LimitState::default();
    let mut shown = Vec::new();
    for f in 0..=60 {
        let mut pose = vec![Transform::IDENTITY; 2];
        if f > 0 {
            pose[1].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        }
        l.apply(&mut pose, f as f64 / 60.0, 1.0, &mut st);
        shown.push(pose[1].rotation.angle_between(Quat::IDENTITY).to_degrees());
    }
    assert!((shown[30] - 45.0).abs() < 0.01, "{}", shown[30]);
    assert!((shown[60] - 90.0).abs() < 0.01);
}

/// A one- or more-joint spring below an anchor (joint 1 under the root 0), bones along
/// `dir`, `len` long.
fn spring_rig(
    n: usize,
    len: f32,
    dir: Vec3,
) -> (Vec<Option<JointIndex>>, Vec<Transform>, SpringChain) {
    let mut parents = vec![None, Some(0)];
    let mut pose = vec![Transform::IDENTITY, Transform::IDENTITY];
    let mut joints = Vec::new();
    for k in 0..n {
        parents.push(Some(k as JointIndex + 1));
        pose.push(Transform::from_translation(if k == 0 {
            Vec3::ZERO
        } else {
            dir * len
        }));
        joints.push(k as JointIndex + 2);
    }
    let tails = vec![dir * len; n];
    (
        parents,
        pose,
        SpringChain {
            joints,
            tails,
            colliders: Vec::new(),
            per_joint: Vec::new(),
        },
    )
}

/// Runs a spring at `fps` for `seconds`, the anchor placed by `anchor(t)`; the tip particle's
/// world position at each frame.
fn run_spring(
    parents: &[Option<JointIndex>],
    pose: &[Transform],
    chain: &SpringChain,
    s: &SpringSettings,
    fps: f64,
    seconds: f64,
    anchor: impl Fn(f64) -> Transform,
) -> Vec<(f64, Vec<Vec3>)> {
    let mut st = SpringState::default();
    let frames = (seconds * fps).round() as usize;
    (0..=frames)
        .map(|f| {
            let t = f as f64 / fps;
            let mut p = pose.to_vec();
            p[1] = anchor(t);
            chain.apply(parents, &mut p, &Transform::IDENTITY, t, s, 1.0, &mut st);
            let tips = chain
                .joints
                .iter()
                .zip(&chain.tails)
                .map(|(&j, &tail)| model_transform(parents, &p, j).transform_point(tail))
                .collect();
            (t, tips)
        })
        .collect()
}

#[test]
fn a_spring_without_gravity_settles_on_the_animation() {
    let (parents, pose, chain) = spring_rig(4, 0.1, Vec3::X);
    let s = SpringSettings {
        stiffness: 3.0,
        damping: 0.7,
        drag: 0.0,
        gravity: Vec3::ZERO,
        radius: 0.0,
    };
    // the anchor shakes for a second, then stops
    let anchor = |t: f64| {
        let x = if t < 1.0 {
            (t * 12.0).sin() as f32 * 0.3
        } else {
            (12f64).sin() as f32 * 0.3
        };
        Transform::from_translation(Vec3::new(0.0, x, x * 0.5))
    };
    let out = run_spring(&parents, &pose, &chain, &s, 60.0, 4.0, anchor);
    // it moved while shaken
    let still = Vec3::new(0.0, 0.0, 0.0);
    let moved = out
        .iter()
        .filter(|(t, _)| *t < 1.0)
        .map(|(t, tips)| {
            let a = anchor(*t).translation;
            tips[3].distance(a + still + Vec3::X * 0.4)
        })
        .fold(0.0f32, f32::max);
    assert!(moved > 0.01, "never swung: {moved}");
    // 3 s after the drive stops every tail is on the animated pose within 1 mm
    let (_, last) = out.last().expect("frames");
    let a = anchor(4.0).translation;
    for (k, tip) in last.iter().enumerate() {
        let want = a + Vec3::X * 0.1 * (k + 1) as f32;
        assert!(
            tip.distance(want) < 1e-3,
            "tail {k}: {} mm",
            tip.distance(want) * 1000.0
        );
    }
}

#[test]
fn under_gravity_a_spring_hangs_and_swings_as_the_pendulum_says() {
    // a 0.5 m bone, animated horizontal: at rest it hangs at tan(θ) = g / (ω² L)
    let (parents, pose, chain) = spring_rig(1, 0.5, Vec3::X);
    let g = 9.81;
    for hz in [0.5f32, 1.0, 2.0] {
        let s = SpringSettings {
            stiffness: hz,
            damping: 1.0,
            drag: 0.0,
            gravity: Vec3::new(0.0, -g, 0.0),
            radius: 0.0,
        };
        let out = run_spring(&parents, &pose, &chain, &s, 60.0, 20.0, |_| {
            Transform::IDENTITY
        });
        let tip = out.last().expect("frames").1[0];
        let theta = (-tip.y).atan2(tip.x);
        let omega = std::f32::consts::TAU * hz;
        let want = (g / (omega * omega * 0.5)).atan();
        assert!(
            (theta - want).abs().to_degrees() < 0.5,
            "{hz} Hz: hangs at {} degrees, the pendulum says {}",
            theta.to_degrees(),
            want.to_degrees()
        );
    }
    // no spring, no damping: a free pendulum released 5 degrees from the vertical swings with
    // the period 2π √(L/g)
    let (parents, mut pose, chain) = spring_rig(1, 0.5, Vec3::NEG_Y);
    let s = SpringSettings {
        stiffness: 0.0,
        damping: 0.0,
        drag: 0.0,
        gravity: Vec3::new(0.0, -g, 0.0),
        radius: 0.0,
    };
    pose[2].rotation = Quat::from_rotation_z(5f32.to_radians());
    let out = run_spring(&parents, &pose, &chain, &s, 240.0, 6.0, |_| {
        Transform::IDENTITY
    });
    // the times the tip crosses x = 0 going the same way
    let xs: Vec<(f64, f32)> = out.iter().map(|(t, tips)| (*t, tips[0].x)).collect();
    let mut ups = Vec::new();
    for w in xs.windows(2) {
        if w[0].1 < 0.0 && w[1].1 >= 0.0 {
            let f = w[0].1 / (w[0].1 - w[1].1);
            ups.push(w[0].0 + f as f64 * (w[1].0 - w[0].0));
        }
    }
    assert!(ups.len() >= 3, "{ups:?}");
    let period = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64;
    let want = std::f64::consts::TAU * (0.5f64 / g as f64).sqrt();
    // (5 degrees makes the real period 0.05% longer than the small-angle one)
    assert!(
        ((period - want) / want).abs() < 0.01,
        "period {period:.4} s, the pendulum says {want:.4} s"
    );
}

#[test]
fn thirty_and_sixty_fps_agree_within_five_millimetres() {
    let (parents, pose, chain) = spring_rig(5, 0.1, Vec3::X);
    let s = SpringSettings {
        stiffness: 2.0,
        damping: 0.4,
        drag: 0.0,
        gravity: Vec3::new(0.0, -9.81, 0.0),
        radius: 0.0,
    };
    let anchor = |t: f64| {
        Transform::from_rotation(Quat::from_rotation_y((t * 5.0).sin() as f32)).mul_transform(
            &Transform::from_translation(Vec3::new(0.0, (t * 3.0).sin() as f32 * 0.2, 0.0)),
        )
    };
    let a = run_spring(&parents, &pose, &chain, &s, 30.0, 3.0, anchor);
    let b = run_spring(&parents, &pose, &chain, &s, 60.0, 3.0, anchor);
    let mut worst = 0.0f32;
    for (t, tips) in &a {
        let (_, other) = b
            .iter()
            .find(|(u, _)| (u - t).abs() < 1e-9)
            .expect("same time");
        for (x, y) in tips.iter().zip(other) {
            worst = worst.max(x.distance(*y));
        }
    }
    assert!(
        worst < 5e-3,
        "30 and 60 fps differ by {} mm",
        worst * 1000.0
    );
}

#[test]
fn a_chain_swept_at_ten_metres_a_second_never_crosses_a_collider() {
    // a chain hanging 0.4 m, its anchor swept along +X at 10 m/s past a thin capsule across Z
    // at x = 0.5, 0.2 m below the anchor: the tails below it must never get past it underneath
    let (mut parents, mut pose, mut chain) = spring_rig(4, 0.1, Vec3::NEG_Y);
    parents.push(Some(0));
    pose.push(Transform::from_translation(Vec3::new(0.5, 0.8, 0.0)));
    let fence = (parents.len() - 1) as JointIndex;
    chain.colliders.push(Collider {
        joint: fence,
        shape: Shape::Capsule {
            offset: Vec3::new(0.0, 0.0, -1.0),
            tail: Vec3::new(0.0, 0.0, 1.0),
            radius: 0.01,
        },
    });
    let s = SpringSettings {
        stiffness: 1.0,
        damping: 0.5,
        drag: 0.0,
        gravity: Vec3::new(0.0, -9.81, 0.0),
        radius: 0.01,
    };
    let anchor = |t: f64| Transform::from_translation(Vec3::new(-0.5 + 10.0 * t as f32, 1.0, 0.0));
    let core = 0.02 - 1e-4;
    for fps in [60.0, SUBSTEP_HZ] {
        let out = run_spring(&parents, &pose, &chain, &s, fps, 0.15, anchor);
        for (t, tips) in &out {
            for (k, tip) in tips.iter().enumerate() {
                let off = Vec3::new(tip.x - 0.5, tip.y - 0.8, 0.0);
                assert!(
                    off.length() >= core,
                    "{fps} fps, {t:.3} s: tail {k} inside the capsule"
                );
                assert!(
                    !(tip.x > 0.5 && tip.y < 0.8 - 0.02),
                    "{fps} fps, {t:.3} s: tail {k} passed under the capsule to {tip}"
                );
            }
        }
        // (the anchor really went past it)
        assert!(anchor(0.15).translation.x > 0.9);
    }
}
