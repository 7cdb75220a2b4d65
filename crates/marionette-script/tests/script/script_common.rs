//! Shared helpers for the script tests: a small rig and temp script folders.
#![allow(dead_code)]

use glam::{Mat4, Quat, Vec3};
use marionette_anim::{
    Clip, Interpolation, JointTracks, MorphSet, Morphs, Skeleton, Track, Transform,
};
use marionette_script::{HostOptions, Rig};
pub use marionette_testkit::TempDir;

/// A 9-joint rig (root, pelvis, spine, head, L_/R_ upperarm and hand, L_thigh) with clips idle, walk,
/// run (pelvis yaw there and back), wave (left upper arm yaw) and jump (root up and down), and a
/// `face` with morph targets `smile` and `blink` following the head.
pub fn small_rig() -> Rig {
    let names = [
        "root",
        "pelvis",
        "spine",
        "head",
        "L_upperarm",
        "L_hand",
        "R_upperarm",
        "R_hand",
        "L_thigh",
    ];
    let parents = vec![
        None,
        Some(0),
        Some(1),
        Some(2),
        Some(2),
        Some(4),
        Some(2),
        Some(6),
        Some(1),
    ];
    let rest = vec![
        Transform::IDENTITY,
        Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
        Transform::from_translation(Vec3::new(0.0, 0.3, 0.0)),
        Transform::from_translation(Vec3::new(0.0, 0.4, 0.0)),
        Transform::from_translation(Vec3::new(0.2, 0.3, 0.0)),
        Transform::from_translation(Vec3::new(0.5, 0.0, 0.0)),
        Transform::from_translation(Vec3::new(-0.2, 0.3, 0.0)),
        Transform::from_translation(Vec3::new(-0.5, 0.0, 0.0)),
        Transform::from_translation(Vec3::new(0.1, -0.1, 0.0)),
    ];
    let built = Skeleton::new(
        names.iter().map(|s| s.to_string()).collect(),
        parents,
        rest,
        Mat4::IDENTITY,
    )
    .expect("valid test skeleton");
    let rot = |joint: u16, dur: f32, angle: f32| {
        let mut jt = JointTracks::new(joint);
        jt.rotation = Some(Track {
            interpolation: Interpolation::Linear,
            times: vec![0.0, dur * 0.5, dur],
            values: vec![Quat::IDENTITY, Quat::from_rotation_y(angle), Quat::IDENTITY],
        });
        jt
    };
    let mut jump = JointTracks::new(0);
    jump.translation = Some(Track {
        interpolation: Interpolation::Linear,
        times: vec![0.0, 0.4, 0.8],
        values: vec![Vec3::ZERO, Vec3::new(0.0, 0.5, 0.0), Vec3::ZERO],
    });
    let clips = vec![
        Clip::new("idle", vec![rot(1, 2.0, 0.05)]),
        Clip::new("walk", vec![rot(1, 1.0, 0.3)]),
        Clip::new("run", vec![rot(1, 0.6, 0.6)]),
        Clip::new("wave", vec![rot(4, 1.0, 1.0)]),
        Clip::new("jump", vec![jump]),
    ];
    let face = MorphSet {
        name: "face".into(),
        targets: vec!["smile".into(), "blink".into()],
        defaults: vec![0.0, 0.0],
        joint: Some(3),
        node: None,
    };
    let skeleton = built.skeleton.with_morphs(Morphs::new(vec![face]));
    Rig::new("small test rig", skeleton, clips)
}

/// Host options over [`small_rig`].
/// Host options over [`small_rig`], whose loader also has one other rig, `source.glb` (a copy of
/// the small rig: another rig for `retarget`); any other file is refused as by a fixed-rig host.
pub fn options() -> HostOptions {
    let character = std::rc::Rc::new(small_rig());
    let mut other = small_rig();
    other.source = "source.glb".into();
    let other = std::rc::Rc::new(other);
    HostOptions::new(marionette_script::rigs_from_fn(
        move |name: Option<&str>| match name {
            None => Ok(character.clone()),
            Some("source.glb") => Ok(other.clone()),
            Some(n) => Err(format!(
                "this host has a fixed rig ({}); marionette.rig(\"{n}\") is not available",
                character.source
            )),
        },
    ))
}

/// A minimal valid script body ending in `return graph { ... }`.
pub const MINIMAL: &str = "local rig = marionette.rig()\nreturn graph { root = rig.idle }\n";
