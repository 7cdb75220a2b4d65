use glam::{Mat4, Quat, Vec3};

use super::*;
use crate::{mannequin, Clip, SamplingCache, Skeleton, Transform};

/// Samples `clip` at `t` on `skeleton`.
fn sample(skeleton: &Skeleton, clip: &Clip, t: f32) -> Vec<Transform> {
    let mut out = skeleton.rest_pose().to_vec();
    clip.sample(
        clip.start + t,
        skeleton.rest_pose(),
        &mut SamplingCache::default(),
        &mut out,
    );
    out
}

fn model(skeleton: &Skeleton, local: &[Transform]) -> Vec<Transform> {
    let mut m = local.to_vec();
    reference::model_pose(skeleton, local, &mut m);
    m
}

fn world(skeleton: &Skeleton, local: &[Transform]) -> Vec<Vec3> {
    let a = skeleton.armature();
    model(skeleton, local)
        .iter()
        .map(|t| a.transform_point3(t.translation))
        .collect()
}

fn retarget(
    target: &Skeleton,
    source: &Skeleton,
    options: &RetargetOptions,
) -> (Retargeter, RetargetScratch) {
    let auto = JointMap::auto(target, source);
    let r = Retargeter::new(target, source, &auto.map, options);
    let x = r.scratch();
    (r, x)
}

fn run(
    r: &Retargeter,
    x: &mut RetargetScratch,
    target: &Skeleton,
    pose: &[Transform],
) -> Vec<Transform> {
    let mut out = target.rest_pose().to_vec();
    let mut morphs = target.morphs().defaults().to_vec();
    r.apply(pose, &[], &mut out, &mut morphs, x);
    out
}

fn max_distance(a: &[Vec3], b: &[Vec3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f32::max)
}

/// The mannequin re-expressed: its armature turned Z-up and scaled 100x (the root joint
/// compensating), and a bone roll of 90 degrees on the left thigh and right forearm (their
/// children compensating). Every joint stands where it stood in the world.
fn disguised(m: &Skeleton) -> (Skeleton, impl Fn(&[Transform]) -> Vec<Transform>) {
    let armature = Mat4::from_scale_rotation_translation(
        Vec3::splat(100.0),
        Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
        Vec3::new(0.5, 0.0, -0.25),
    );
    let inv = Transform::from_matrix(&armature.inverse());
    let roll = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_x(0.3);
    let rolled: Vec<usize> = ["L_thigh", "R_forearm"]
        .iter()
        .map(|n| m.find(n).unwrap() as usize)
        .collect();
    let parents: Vec<Option<u16>> = m.parents().to_vec();
    let convert = move |pose: &[Transform]| {
        let mut out = pose.to_vec();
        for (j, p) in parents.iter().enumerate() {
            if p.is_none() {
                out[j] = inv.mul_transform(&pose[j]);
            }
            if rolled.contains(&j) {
                out[j].rotation = pose[j].rotation * roll;
            }
            if let Some(p) = p.filter(|p| rolled.contains(&(*p as usize))) {
                let _ = p;
                out[j].translation = roll.conjugate() * pose[j].translation;
                out[j].rotation = roll.conjugate() * pose[j].rotation;
            }
        }
        out
    };
    let rest = convert(m.rest_pose());
    let names = m.names().to_vec();
    let parents = m.parents().iter().map(|p| p.map(usize::from)).collect();
    let s = Skeleton::new(names, parents, rest, armature)
        .unwrap()
        .skeleton;
    (s, convert)
}

#[test]
fn a_rig_onto_itself_is_unchanged() {
    let model = mannequin::build();
    let m = &model.skeleton;
    let (r, mut x) = retarget(m, m, &RetargetOptions::default());
    assert_eq!(r.scale(), Vec3::ONE);
    for clip in &model.clips {
        for i in 0..10 {
            let t = clip.duration() * i as f32 / 10.0;
            let pose = sample(m, clip, t);
            let out = run(&r, &mut x, m, &pose);
            let d = max_distance(&world(m, &out), &world(m, &pose));
            assert!(d < 1e-4, "{} at {t}: {d} m", clip.name);
        }
    }
}

#[test]
fn armatures_and_bone_rolls_cancel_out() {
    let model = mannequin::build();
    let m = &model.skeleton;
    let (d, convert) = disguised(m);
    // the disguise holds: same world positions at rest
    assert!(max_distance(&world(&d, d.rest_pose()), &world(m, m.rest_pose())) < 1e-4);
    let (from_disguise, mut x1) = retarget(m, &d, &RetargetOptions::default());
    let (onto_disguise, mut x2) = retarget(&d, m, &RetargetOptions::default());
    assert!((from_disguise.scale() - Vec3::ONE).abs().max_element() < 1e-4);
    let walk = &model.clips[model.find_clip("walk").unwrap()];
    for i in 0..12 {
        let t = walk.duration() * i as f32 / 12.0;
        let pose = sample(m, walk, t);
        let out = run(&from_disguise, &mut x1, m, &convert(&pose));
        let e = max_distance(&world(m, &out), &world(m, &pose));
        assert!(e < 1e-3, "from the disguised rig at {t}: {e} m");
        let out = run(&onto_disguise, &mut x2, &d, &pose);
        let e = max_distance(&world(&d, &out), &world(m, &pose));
        assert!(e < 1e-3, "onto the disguised rig at {t}: {e} m");
    }
}

#[test]
fn a_chain_spreads_over_a_longer_one() {
    let model = mannequin::build();
    let m = &model.skeleton;
    let j = |n: &str| m.find(n).unwrap();
    let mut pairs: Vec<(u16, u16)> = (0..m.len() as u16)
        .filter(|&k| !["spine_01", "spine_02", "chest"].contains(&m.name(k)))
        .map(|k| (k, k))
        .collect();
    pairs.sort_unstable();
    let chain = ChainMap {
        target: vec![j("spine_01"), j("spine_02"), j("chest")],
        source: vec![j("spine_01"), j("chest")],
    };
    let map = JointMap::new(pairs, vec![chain], m, m).unwrap();
    let r = Retargeter::new(m, m, &map, &RetargetOptions::default());
    let mut x = r.scratch();
    let mut pose = m.rest_pose().to_vec();
    for name in ["spine_01", "chest"] {
        let k = j(name) as usize;
        pose[k].rotation = Quat::from_rotation_x(0.35) * pose[k].rotation;
    }
    let out = run(&r, &mut x, m, &pose);
    assert!(out.iter().all(Transform::is_finite));
    // the chain's top turns in the world as the source's top does
    let (a, b) = (
        model_rot(m, &out, j("chest")),
        model_rot(m, &pose, j("chest")),
    );
    assert!(a.angle_between(b) < 1e-3, "{}", a.angle_between(b));
    // the middle joint takes part of the bend
    let mid = model_rot(m, &out, j("spine_02"));
    let rest = model_rot(m, m.rest_pose(), j("spine_02"));
    let bend = mid.angle_between(rest);
    assert!(bend > 0.2 && bend < 0.6, "{bend}");
}

#[test]
fn a_chain_onto_a_shorter_one_stays_finite_and_ends_right() {
    let model = mannequin::build();
    let m = &model.skeleton;
    let j = |n: &str| m.find(n).unwrap();
    let mut pairs: Vec<(u16, u16)> = (0..m.len() as u16)
        .filter(|&k| !["spine_01", "spine_02", "chest"].contains(&m.name(k)))
        .map(|k| (k, k))
        .collect();
    pairs.sort_unstable();
    // two target joints driven by three source joints (spine_02 left at its rest)
    let chain = ChainMap {
        target: vec![j("spine_01"), j("chest")],
        source: vec![j("spine_01"), j("spine_02"), j("chest")],
    };
    let map = JointMap::new(pairs, vec![chain], m, m).unwrap();
    let r = Retargeter::new(m, m, &map, &RetargetOptions::default());
    let mut x = r.scratch();
    let walk = &model.clips[model.find_clip("walk").unwrap()];
    for i in 0..20 {
        let pose = sample(m, walk, walk.duration() * i as f32 / 20.0);
        let out = run(&r, &mut x, m, &pose);
        assert!(out.iter().all(Transform::is_finite));
        let (a, b) = (
            model_rot(m, &out, j("chest")),
            model_rot(m, &pose, j("chest")),
        );
        assert!(
            a.angle_between(b) < 1e-3,
            "the chain's top turns as the source's"
        );
    }
}

fn model_rot(s: &Skeleton, local: &[Transform], j: u16) -> Quat {
    model(s, local)[j as usize].rotation
}

#[test]
fn zero_length_bones_give_finite_poses() {
    let model = mannequin::build();
    let m = &model.skeleton;
    let mut rest = m.rest_pose().to_vec();
    for t in rest.iter_mut().skip(1) {
        t.translation = Vec3::ZERO;
    }
    let names = m.names().to_vec();
    let parents = m.parents().iter().map(|p| p.map(usize::from)).collect();
    let flat = Skeleton::new(names, parents, rest, Mat4::IDENTITY)
        .unwrap()
        .skeleton;
    for (t, s) in [(&flat, m), (m, &flat)] {
        for reference in [ReferencePose::Rest, ReferencePose::TPose] {
            let options = RetargetOptions {
                reference,
                ..Default::default()
            };
            let (r, mut x) = retarget(t, s, &options);
            for clip in &model.clips {
                let pose = sample(s, clip, clip.duration() * 0.37);
                let out = run(&r, &mut x, t, &pose);
                assert!(out.iter().all(Transform::is_finite), "{}", clip.name);
            }
        }
    }
}

#[test]
fn tpose_reference_straightens_arms_and_legs() {
    let model = mannequin::build();
    let m = &model.skeleton;
    let body = Humanoid::find(m);
    let r = reference::RigReference::new(m, &body, ReferencePose::TPose);
    let arm = body.arms[0].as_ref().unwrap();
    let at = |j: u16| r.model[j as usize].translation;
    let dir = (at(arm.lower) - at(arm.upper)).normalize();
    assert!(dir.dot(Vec3::X) > 0.999, "{dir}");
    let leg = body.legs[1].as_ref().unwrap();
    let dir = (at(leg.end.unwrap()) - at(leg.lower)).normalize();
    assert!(dir.dot(-Vec3::Y) > 0.999, "{dir}");
    // a rig onto itself through the T-pose is still unchanged
    let (t, mut x) = retarget(
        m,
        m,
        &RetargetOptions {
            reference: ReferencePose::TPose,
            ..Default::default()
        },
    );
    let walk = &model.clips[model.find_clip("walk").unwrap()];
    let pose = sample(m, walk, 0.3);
    let out = run(&t, &mut x, m, &pose);
    let (a, b) = (world(m, &out), world(m, &pose));
    for k in 0..a.len() {
        if a[k].distance(b[k]) > 1e-4 {
            eprintln!("{} {} {}", m.name(k as u16), a[k], b[k]);
        }
    }
    assert!(max_distance(&a, &b) < 1e-4);
}

#[test]
fn root_motion_deltas_follow_the_frames_and_scale() {
    let model = mannequin::build();
    let m = &model.skeleton;
    let (d, _) = disguised(m);
    let (r, _) = retarget(
        &d,
        m,
        &RetargetOptions {
            scale: Some(Vec3::splat(2.0)),
            ..Default::default()
        },
    );
    // one metre forward in the mannequin is two metres forward in the disguised rig's world
    let step = Transform::from_translation(Vec3::Z);
    let moved = r.motion_delta(&step);
    let space = crate::root_motion::RootSpace::of(&d);
    let w = space.to_world(&moved);
    assert!(
        (w.translation - Vec3::Z * 2.0).length() < 1e-4,
        "{}",
        w.translation
    );
}

#[test]
fn the_puppet_lifts_the_same_leg_on_the_mannequin() {
    let puppet = mannequin::puppet::build();
    let model = mannequin::build();
    let (p, m) = (&puppet.skeleton, &model.skeleton);
    let march = &puppet.clips[puppet.find_clip("March").unwrap()];
    // a quarter into the march the left knee is up
    let pose = sample(p, march, 0.3);
    let pw = world(p, &pose);
    let pl = pw[p.find("mixamorig:LeftFoot").unwrap() as usize];
    let pr = pw[p.find("mixamorig:RightFoot").unwrap() as usize];
    assert!(
        pl.y > pr.y + 0.1,
        "the puppet lifts its left foot: {pl} {pr}"
    );
    assert!(pl.x > 0.0, "the puppet's left is +X: {pl}");
    for reference in [ReferencePose::Rest, ReferencePose::TPose] {
        let (r, mut x) = retarget(
            m,
            p,
            &RetargetOptions {
                reference,
                ..Default::default()
            },
        );
        let out = run(&r, &mut x, m, &pose);
        let mw = world(m, &out);
        let ml = mw[m.find("L_foot").unwrap() as usize];
        let mr = mw[m.find("R_foot").unwrap() as usize];
        assert!(
            ml.y > mr.y + 0.05,
            "{reference:?}: the mannequin lifts its left foot: {ml} {mr}"
        );
    }
}
