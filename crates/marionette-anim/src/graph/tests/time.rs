//! Fixed steps, root motion, takes and deterministic scrubbing.

use glam::{Quat, Vec3};

use super::{close, skel, slide, turn};
use crate::graph::*;
use crate::root_motion::RootMotionMode;
use crate::{Clip, Interpolation, JointTracks, Track, Transform};

/// A 1 s clip: the root walks +2 m in X, turns 0.5 rad about Y and bobs in height.
fn walk() -> Clip {
    let mut jt = JointTracks::new(0);
    let times: Vec<f32> = (0..=4).map(|k| k as f32 * 0.25).collect();
    jt.translation = Some(Track {
        interpolation: Interpolation::Linear,
        times: times.clone(),
        values: times
            .iter()
            .map(|&t| Vec3::new(2.0 * t, 1.0 + 0.1 * (t * 6.0).sin(), 0.3 * t))
            .collect(),
    });
    jt.rotation = Some(Track {
        interpolation: Interpolation::Linear,
        times: times.clone(),
        values: times
            .iter()
            .map(|&t| Quat::from_rotation_y(0.5 * t))
            .collect(),
    });
    Clip::new("walk", vec![jt])
}

/// Root motion: accumulated motion times the in-place pose equals the clip's root path, every step.
#[test]
fn root_motion_keeps_world_path() {
    for mode in [RootMotionMode::Ground, RootMotionMode::Whole] {
        let mut b = GraphBuilder::new(skel());
        let clip = b.add(ClipNode::new(walk()).once());
        b.root_motion("root", mode);
        let mut g = b.build(clip).unwrap();
        let mut b = GraphBuilder::new(skel());
        let clip = b.add(ClipNode::new(walk()).once());
        let mut reference = b.build(clip).unwrap();
        for _ in 0..70 {
            g.advance(1.0 / 60.0);
            reference.advance(1.0 / 60.0);
            let world = g.root_motion_world().mul_transform(&g.evaluate()[0]);
            let expected = reference.evaluate()[0];
            assert!(
                world.abs_diff_eq(&expected, 1e-4),
                "{mode:?}: {world:?} vs {expected:?}"
            );
            let mut placed = [Transform::IDENTITY; 3];
            g.pose_with_root_motion(&mut placed);
            assert!(placed[0].abs_diff_eq(&expected, 1e-4));
        }
        // the pose itself stays in place (ground keeps the height)
        let local = g.evaluate()[0];
        assert!(local.translation.x.abs() < 1e-5 && local.translation.z.abs() < 1e-5);
    }
}

/// Looping root motion continues across the wrap: after 1.5 loops the character is 3 m along X.
#[test]
fn root_motion_across_loops() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.clip(slide("a", 0, 1.0, 0.0, 2.0));
    b.root_motion("root", RootMotionMode::Ground);
    let mut g = b.build(clip).unwrap();
    let mut last = Transform::IDENTITY;
    for _ in 0..90 {
        g.advance(1.0 / 60.0);
        last = g.root_motion_delta();
    }
    close(g.root_motion_world().translation.x, 3.0);
    close(last.translation.x, 2.0 / 60.0);
    close(g.evaluate()[0].translation.x, 0.0);
}

fn locomotion() -> Graph {
    let mut b = GraphBuilder::new(skel());
    let speed = b.float("speed", 0.0, 0.0, 4.0).unwrap();
    let jump = b.trigger("jump").unwrap();
    let idle = b.clip(slide("idle", 1, 2.0, 0.0, 0.3));
    let walk = b.clip(slide("walk", 0, 1.0, 0.0, 1.4));
    let run = b.clip(slide("run", 0, 0.7, 0.0, 2.8));
    let space = b.add(
        BlendSpace1D::new(speed)
            .sample(0.0, idle)
            .sample(1.4, walk)
            .sample(4.0, run)
            .sync(true),
    );
    let hop = b.add(ClipNode::new(slide("jump", 2, 0.8, 0.0, 1.0)).once());
    let mut sm = StateMachine::new();
    let (m, j) = (sm.state("move", space), sm.state("jump", hop));
    sm.transition(
        Transition::new(m, j)
            .on(jump)
            .blend(0.15, Curve::SmoothStep),
    );
    sm.transition(Transition::new(j, m).at_end().blend(0.25, Curve::EaseInOut));
    let root = b.add(sm);
    b.root_motion("root", RootMotionMode::Ground);
    b.build(root).unwrap()
}

fn take() -> Take {
    Take::new("walk_to_run", 4.0)
        .floats("speed", &[(0.0, 0.0), (1.0, 1.4), (3.0, 4.0)])
        .trigger("jump", 2.0)
}

fn bits(pose: &[Transform]) -> Vec<u32> {
    pose.iter()
        .flat_map(|t| {
            t.translation
                .to_array()
                .into_iter()
                .chain(t.rotation.to_array())
                .chain(t.scale.to_array())
        })
        .map(f32::to_bits)
        .collect()
}

/// Two fresh simulations agree bit for bit, and the take does what it says (jump at 2 s).
#[test]
fn simulation_is_deterministic() {
    let mut a = Simulation::new(locomotion(), &take()).unwrap();
    let mut b = Simulation::new(locomotion(), &take()).unwrap();
    for t in [0.0, 0.5, 1.7, 2.1, 3.9] {
        assert_eq!(bits(a.pose_at(t)), bits(b.pose_at(t)), "t = {t}");
    }
    let mut s = Simulation::new(locomotion(), &take()).unwrap();
    s.pose_at(2.05);
    assert_eq!(s.graph().state_machines().next().unwrap().current, "jump");
    s.pose_at(1.9);
    assert_eq!(s.graph().state_machines().next().unwrap().current, "move");
}

/// Evaluating into a buffer (the buffers traded, no copy) gives the pose `pose_at` gives, frame
/// after frame, whatever the buffer held before.
#[test]
fn pose_into_equals_pose_at() {
    let mut a = Simulation::new(locomotion(), &take()).unwrap();
    let mut b = Simulation::new(locomotion(), &take()).unwrap();
    let mut out = vec![Transform::IDENTITY; 3];
    for t in [0.0, 0.5, 1.7, 2.1, 3.9, 1.0] {
        b.pose_at_into(t, &mut out);
        assert_eq!(bits(a.pose_at(t)), bits(&out), "t = {t}");
    }
}

/// Scrubbing backwards restores a snapshot and re-simulates: equal to a fresh run, bit for bit,
/// including the accumulated root motion.
#[test]
fn scrubbing_back_equals_fresh() {
    scrubs_equal_fresh(3.5, &[2.6, 2.02, 1.0, 0.01, 3.99]);
}

/// Plays the take to `first` with a snapshot every 7 steps, then scrubs to each of `times`:
/// every pose and the accumulated root motion equal a fresh run's, bit for bit.
fn scrubs_equal_fresh(first: f32, times: &[f32]) {
    let mut s = Simulation::new(locomotion(), &take())
        .unwrap()
        .with_snapshot_interval(7);
    s.pose_at(first);
    for &t in times {
        let scrubbed = bits(s.pose_at(t));
        let world = s.graph().root_motion_world();
        let mut fresh = Simulation::new(locomotion(), &take()).unwrap();
        assert_eq!(scrubbed, bits(fresh.pose_at(t)), "t = {t}");
        assert_eq!(
            bits(&[world]),
            bits(&[fresh.graph().root_motion_world()]),
            "t = {t}"
        );
    }
}

/// A take naming an unknown parameter is an error naming the take and the parameter.
#[test]
fn take_errors() {
    let bad = Take::new("t", 1.0).floats("sped", &[(0.0, 1.0)]);
    let err = Simulation::new(locomotion(), &bad).err().unwrap();
    assert_eq!(err.to_string(), "take 't': unknown parameter 'sped'");
}

/// A mirrored clip walking +X with a left turn walks -X with a right turn.
#[test]
fn mirrored_root_motion() {
    let mut b = GraphBuilder::new(skel());
    let clip = b.add(ClipNode::new(walk()).once());
    let m = b.add(MirrorNode { input: clip });
    b.root_motion("root", RootMotionMode::Ground);
    let mut g = b.build(m).unwrap();
    g.advance(0.5);
    let world = g.root_motion_world();
    // the clip at 0.5 s: x = 1.0, z = 0.15, yaw 0.25 -> mirrored x = -1.0, yaw -0.25
    assert!(
        world
            .translation
            .abs_diff_eq(Vec3::new(-1.0, 0.0, 0.15), 1e-4),
        "{world:?}"
    );
    assert!(world
        .rotation
        .abs_diff_eq(Quat::from_rotation_y(-0.25), 1e-4));
    // and the in-place pose composes back to the mirrored clip root
    let expected = crate::mirror::reflect_x(&Transform::new(
        Vec3::new(1.0, 1.0 + 0.1 * 3f32.sin(), 0.15),
        Quat::from_rotation_y(0.25),
        Vec3::ONE,
    ));
    let root = world.mul_transform(&g.evaluate()[0]);
    assert!(
        root.abs_diff_eq(&expected, 1e-4),
        "{root:?} vs {expected:?}"
    );
}

/// Under a Z-up armature (rotated -90° about X), ground root motion is the world's ground plane:
/// a clip walking along local +Y (world -Z) travels, its local Z (world height) stays in the
/// pose, and the world placement times the armature times the in-place pose is the clip's path.
#[test]
fn root_motion_under_z_up_armature() {
    let armature = glam::Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let skel = crate::Skeleton::new(
        vec!["root".into()],
        vec![None],
        vec![Transform::IDENTITY],
        armature,
    )
    .unwrap()
    .skeleton;
    let mut jt = JointTracks::new(0);
    jt.translation = Some(Track {
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: vec![Vec3::new(0.0, 0.0, 0.9), Vec3::new(0.5, 2.0, 1.0)],
    });
    let clip = Clip::new("walk_z_up", vec![jt]);
    let mut b = GraphBuilder::new(skel.clone());
    let node = b.add(ClipNode::new(clip.clone()).once());
    b.root_motion("root", RootMotionMode::Ground);
    let mut g = b.build(node).unwrap();
    for _ in 0..45 {
        g.advance(1.0 / 60.0);
    }
    let local = g.evaluate()[0];
    // 0.75 s: local (0.375, 1.5, 0.975) is world (0.375, 0.975, -1.5)
    let world = g.root_motion_world();
    assert!(
        world
            .translation
            .abs_diff_eq(Vec3::new(0.375, 0.0, -1.5), 1e-4),
        "{world:?}"
    );
    // the in-place root keeps the height (local Z) and nothing of the travel
    assert!(
        local
            .translation
            .abs_diff_eq(Vec3::new(0.0, 0.0, 0.975), 1e-4),
        "{local:?}"
    );
    let placed = world.to_matrix() * armature * local.to_matrix();
    let mut reference = [Transform::IDENTITY];
    let mut cache = crate::SamplingCache::new();
    clip.sample(0.75, &[Transform::IDENTITY], &mut cache, &mut reference);
    let expected = armature * reference[0].to_matrix();
    assert!(placed.abs_diff_eq(expected, 1e-4), "{placed} vs {expected}");
    let mut with_motion = [Transform::IDENTITY];
    g.pose_with_root_motion(&mut with_motion);
    assert!(with_motion[0].abs_diff_eq(&reference[0], 1e-4));
}

/// A root resting off the origin, turned a quarter turn and tilted (like the
/// RobotExpressive's, 0.195 m off it), with a child: rest pose and skeleton.
fn off_origin_skeleton(armature: glam::Mat4, rest: Transform) -> std::sync::Arc<crate::Skeleton> {
    std::sync::Arc::new(
        crate::Skeleton::new(
            vec!["root".into(), "child".into()],
            vec![None, Some(0)],
            vec![rest, Transform::from_translation(Vec3::new(0.0, 0.5, 0.0))],
            armature,
        )
        .unwrap()
        .skeleton,
    )
}

/// A 1 s clip of the root from `rest` along `step` (local units per second), turning `turn`
/// radians about `up` (local), in 5 keys.
fn walk_from(rest: Transform, step: Vec3, up: Vec3, turn: f32) -> Clip {
    let mut jt = JointTracks::new(0);
    let times: Vec<f32> = (0..=4).map(|k| k as f32 * 0.25).collect();
    jt.translation = Some(Track {
        interpolation: Interpolation::Linear,
        times: times.clone(),
        values: times.iter().map(|&t| rest.translation + step * t).collect(),
    });
    jt.rotation = Some(Track {
        interpolation: Interpolation::Linear,
        times: times.clone(),
        values: times
            .iter()
            .map(|&t| Quat::from_axis_angle(up, turn * t) * rest.rotation)
            .collect(),
    });
    Clip::new("walk_from_rest", vec![jt])
}

/// Root motion is measured from the graph's first frame, not from the origin: on a root
/// resting 0.195 m off the origin and turned, an in-place clip (no root keys) has no motion
/// at all and its in-place pose is the rest; a walk has none at its first frame, its in-place
/// pose stands where that frame stands, and its motion is what it walked since. In both modes,
/// the accumulated motion times the in-place pose is the clip, and the frames' deltas
/// accumulate to the motion.
#[test]
fn root_motion_is_measured_from_the_first_frame() {
    let rest = Transform::new(
        Vec3::new(-0.003, 0.9, -0.195),
        Quat::from_rotation_y(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_x(0.1),
        Vec3::ONE,
    );
    let skel = off_origin_skeleton(glam::Mat4::IDENTITY, rest);
    for mode in [RootMotionMode::Ground, RootMotionMode::Whole] {
        // an in-place clip: the child waves, the root keeps its rest
        let mut b = GraphBuilder::new(skel.clone());
        let idle = b.clip(turn("idle", 1, 0.4));
        b.root_motion("root", mode);
        let mut g = b.build(idle).unwrap();
        assert_eq!(g.root_motion_world(), Transform::IDENTITY, "{mode:?}");
        assert!(g.evaluate()[0].abs_diff_eq(&rest, 1e-6), "{mode:?}");
        for _ in 0..40 {
            g.advance(1.0 / 60.0);
            let world = g.root_motion_world();
            assert!(
                world.abs_diff_eq(&Transform::IDENTITY, 1e-6),
                "{mode:?}: {world:?}"
            );
            let local = g.evaluate()[0];
            assert!(local.abs_diff_eq(&rest, 1e-6), "{mode:?}: {local:?}");
        }
        // a walk from the rest: 1 m/s along the root's heading (world +X), turning 0.5 rad
        let clip = walk_from(rest, Vec3::X, Vec3::Y, 0.5);
        let mut b = GraphBuilder::new(skel.clone());
        let node = b.add(ClipNode::new(clip.clone()).once());
        b.root_motion("root", mode);
        let mut g = b.build(node).unwrap();
        assert_eq!(g.root_motion_world(), Transform::IDENTITY, "{mode:?}");
        assert!(g.evaluate()[0].abs_diff_eq(&rest, 1e-6), "{mode:?}");
        let mut accumulated = Transform::IDENTITY;
        let mut cache = crate::SamplingCache::new();
        for step in 1..=30 {
            g.advance(1.0 / 60.0);
            accumulated = accumulated.mul_transform(&g.root_motion_delta());
            let world = g.root_motion_world();
            assert!(world.abs_diff_eq(&accumulated, 1e-5), "{mode:?} {step}");
            let mut source = [rest, Transform::IDENTITY];
            let t = step as f32 / 60.0;
            clip.sample(t, &skel.rest_pose()[..1], &mut cache, &mut source[..1]);
            let local = g.evaluate()[0];
            assert!(
                world.mul_transform(&local).abs_diff_eq(&source[0], 1e-5),
                "{mode:?} {step}: {world:?} * {local:?} vs {:?}",
                source[0]
            );
        }
        // half a second: 0.5 m walked along world +X, turned 0.25 rad, about the root
        let world = g.root_motion_world();
        let start = Vec3::new(rest.translation.x, 0.0, rest.translation.z);
        let expected = start + Vec3::X * 0.5;
        let moved = world.transform_point(start);
        assert!(
            (moved.x - expected.x).abs() < 1e-5 && (moved.z - expected.z).abs() < 1e-5,
            "{mode:?}: {world:?}"
        );
        let (axis, angle) = world.rotation.to_axis_angle();
        assert!(
            (angle - 0.25).abs() < 1e-4 && axis.y > 0.999,
            "{mode:?}: {world:?}"
        );
        // the in-place root stands where the walk started, with its heading
        let local = g.evaluate()[0];
        assert!(
            (local.translation.x - rest.translation.x).abs() < 1e-5
                && (local.translation.z - rest.translation.z).abs() < 1e-5,
            "{mode:?}: {local:?}"
        );
        assert!(
            local.rotation.abs_diff_eq(rest.rotation, 1e-5),
            "{mode:?}: {local:?}"
        );
    }
}

/// The same under a Z-up armature (rotated -90° about X): a root resting off the origin has
/// no motion at the first frame, a walk along local +Y (world -Z) is measured from there, and
/// the in-place root stands where the walk started.
#[test]
fn root_motion_from_the_first_frame_under_z_up_armature() {
    let armature = glam::Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    // local (-0.003, 0.195, 0.9) is world (-0.003, 0.9, -0.195); local Z turns are world yaw
    let rest = Transform::new(
        Vec3::new(-0.003, 0.195, 0.9),
        Quat::from_rotation_z(0.7),
        Vec3::ONE,
    );
    let skel = off_origin_skeleton(armature, rest);
    let clip = walk_from(rest, Vec3::Y, Vec3::Z, 0.0);
    let mut b = GraphBuilder::new(skel.clone());
    let node = b.add(ClipNode::new(clip.clone()).once());
    b.root_motion("root", RootMotionMode::Ground);
    let mut g = b.build(node).unwrap();
    assert_eq!(g.root_motion_world(), Transform::IDENTITY);
    assert!(g.evaluate()[0].abs_diff_eq(&rest, 1e-6));
    for _ in 0..45 {
        g.advance(1.0 / 60.0);
    }
    let world = g.root_motion_world();
    assert!(
        world
            .translation
            .abs_diff_eq(Vec3::new(0.0, 0.0, -0.75), 1e-4),
        "{world:?}"
    );
    assert!(
        world.rotation.abs_diff_eq(Quat::IDENTITY, 1e-5),
        "{world:?}"
    );
    let local = g.evaluate()[0];
    assert!(local.abs_diff_eq(&rest, 1e-4), "{local:?}");
    let mut with_motion = [Transform::IDENTITY; 2];
    g.pose_with_root_motion(&mut with_motion);
    let expected = Transform::new(rest.translation + Vec3::Y * 0.75, rest.rotation, Vec3::ONE);
    assert!(
        with_motion[0].abs_diff_eq(&expected, 1e-4),
        "{with_motion:?}"
    );
}

/// Scrubbing forwards past a snapshot already taken restores it (and replays from there): the
/// same bits as a fresh run, root motion included, in any order of seeks.
#[test]
fn scrubbing_forward_past_snapshots_equals_fresh() {
    scrubs_equal_fresh(3.9, &[0.2, 3.5, 0.05, 2.04, 3.99, 1.0, 2.6]);
}
