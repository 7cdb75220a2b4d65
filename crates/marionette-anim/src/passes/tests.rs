use glam::{Quat, Vec3};

use super::*;
use crate::mannequin;
use crate::motion::contacts::detect;
use crate::motion::joints::angle_deg;
use crate::motion::slide::foot_slide;
use crate::motion::Motion;

fn joint(skeleton: &Skeleton, name: &str) -> usize {
    skeleton.names().iter().position(|n| n == name).unwrap()
}

/// The mannequin's `walk` clip sampled at 60 fps for `seconds`, its root travelling forward at
/// `speed` m/s (the clip's own travel is 1.4 m/s: faster makes planted feet slide).
fn walk_at(seconds: f32, speed: f32) -> (Skeleton, Frames) {
    let model = mannequin::build();
    let clip = &model.clips[model.find_clip("walk").unwrap()];
    let skeleton = model.skeleton.clone();
    let mut frames = Frames::new(skeleton.len(), 60.0);
    let mut cache = crate::SamplingCache::default();
    let mut pose = skeleton.rest_pose().to_vec();
    for f in 0..=(seconds * 60.0) as usize {
        let t = f as f32 / 60.0;
        clip.sample(t % clip.end, skeleton.rest_pose(), &mut cache, &mut pose);
        pose[0].translation.z = speed * t;
        frames.push(&pose);
    }
    (skeleton, frames)
}

fn walk(seconds: f32) -> (Skeleton, Frames) {
    walk_at(seconds, 1.4)
}

/// The loop seam: after `loop_close` every joint's last frame equals its first (the root's
/// ground travel kept), the frames before the span are untouched, and nothing jumps.
#[test]
fn loop_close_makes_the_seam_meet() {
    // 0.8 s of a 1.1 s walk cycle: the end is far from the start
    let (skeleton, mut frames) = walk(0.8);
    let before = frames.clone();
    let n = frames.count();
    let thigh = joint(&skeleton, "L_thigh");
    let gap = angle_deg(
        before.frame(0)[thigh].rotation,
        before.frame(n - 1)[thigh].rotation,
    );
    assert!(gap > 10.0, "the test needs an open loop: {gap}");
    let notes = Pass::LoopClose { blend: 0.2 }.run(&skeleton, &mut frames);
    assert!(notes[0].starts_with("loop_close: "), "{notes:?}");
    for j in 1..skeleton.len() {
        let (a, b) = (frames.frame(0)[j], frames.frame(n - 1)[j]);
        assert!(angle_deg(a.rotation, b.rotation) < 1e-2, "{j}");
        assert!(a.translation.distance(b.translation) < 1e-5, "{j}");
    }
    // the root keeps its travel (48 cm forward) and closes its height
    let (r0, r1) = (frames.frame(0)[0], frames.frame(n - 1)[0]);
    let was = before.frame(n - 1)[0].translation;
    assert!((r1.translation.z - was.z).abs() < 1e-4, "{r1:?} {was}");
    assert!((r1.translation.y - r0.translation.y).abs() < 1e-5);
    // untouched before the span (12 frames)
    for f in 0..n - 12 {
        assert_eq!(frames.frame(f), before.frame(f), "frame {f}");
    }
    // the correction is spread: no frame-to-frame turn of the thigh grows by more than the gap
    // spread over the span
    let m = frames.motion(&skeleton);
    let raw = before.motion(&skeleton);
    for f in 1..n {
        let (now, was) = (
            crate::motion::joints::turn_speed(&m, f, thigh),
            crate::motion::joints::turn_speed(&raw, f, thigh),
        );
        assert!(now <= was + 2.0 * gap / 0.2, "frame {f}: {now} vs {was}");
    }
}

/// `root_extract` moves the pelvis' travel onto the root, the body staying where it was in the
/// world; `drop` then keeps the take in place.
#[test]
fn root_extract_moves_travel_to_the_root_and_drop_removes_it() {
    let (skeleton, raw) = walk(1.0);
    let pelvis = joint(&skeleton, "pelvis");
    // put the travel on the pelvis instead of the root
    let mut frames = raw.clone();
    for f in 0..frames.count() {
        let t = frames.time(f);
        let pose = frames.frame_mut(f);
        pose[0].translation.z -= 1.4 * t;
        pose[pelvis].translation.z += 1.4 * t;
    }
    let before = frames.motion(&skeleton);
    let notes = Pass::RootExtract {
        from: Some(pelvis as JointIndex),
        drop: false,
    }
    .run(&skeleton, &mut frames);
    assert_eq!(
        notes,
        ["root_extract: the travel of 'pelvis' moved onto 'root'"]
    );
    let after = frames.motion(&skeleton);
    let last = frames.count() - 1;
    // (the root itself now travels: everything under it stays where it was)
    for f in [0, 30, last] {
        for j in 1..skeleton.len() {
            let d = before.position(f, j).distance(after.position(f, j));
            assert!(d < 1e-4, "frame {f} joint {j}: {d}");
        }
    }
    // the root travelled 1.4 m; the pelvis' own forward offset barely moves
    let root_z = frames.frame(last)[0].translation.z - frames.frame(0)[0].translation.z;
    assert!((root_z - 1.4).abs() < 0.05, "{root_z}");
    let pelvis_z = frames.frame(last)[pelvis].translation.z - frames.frame(0)[pelvis].translation.z;
    assert!(pelvis_z.abs() < 0.05, "{pelvis_z}");
    Pass::RootExtract {
        from: None,
        drop: true,
    }
    .run(&skeleton, &mut frames);
    let dropped = frames.motion(&skeleton);
    let moved = dropped.position(last, pelvis) - dropped.position(0, pelvis);
    assert!(Vec3::new(moved.x, 0.0, moved.z).length() < 0.05, "{moved}");
    // travel already on the root (the clip as it is) is not counted twice: the body stays
    // where it walked, the root follows the pelvis, and `drop` keeps it in place, not walking
    // backwards
    let mut frames = raw.clone();
    Pass::RootExtract {
        from: Some(pelvis as JointIndex),
        drop: false,
    }
    .run(&skeleton, &mut frames);
    let (was, now) = (raw.motion(&skeleton), frames.motion(&skeleton));
    for j in 1..skeleton.len() {
        assert!(
            was.position(last, j).distance(now.position(last, j)) < 1e-4,
            "{j}"
        );
    }
    let root_z = frames.frame(last)[0].translation.z;
    assert!(
        (root_z - 1.4).abs() < 0.05,
        "the root travels {root_z}, not 1.4 m"
    );
    Pass::RootExtract {
        from: Some(pelvis as JointIndex),
        drop: true,
    }
    .run(&skeleton, &mut frames);
    let kept = frames.motion(&skeleton);
    let moved = kept.position(last, pelvis) - kept.position(0, pelvis);
    assert!(Vec3::new(moved.x, 0.0, moved.z).length() < 0.05, "{moved}");
}

/// `smooth` reduces frame-to-frame noise and keeps the end frames.
#[test]
fn smooth_removes_jitter_and_keeps_the_ends() {
    let (skeleton, mut frames) = walk(1.0);
    let head = joint(&skeleton, "head");
    let mut seed = 7u32;
    for f in 0..frames.count() {
        let n = crate::test_lcg(&mut seed) * 0.05;
        let t = &mut frames.frame_mut(f)[head];
        t.rotation = (Quat::from_rotation_x(n) * t.rotation).normalize();
    }
    let before = frames.clone();
    let jitter = |fr: &Frames| -> f32 {
        (1..fr.count())
            .map(|f| angle_deg(fr.frame(f - 1)[head].rotation, fr.frame(f)[head].rotation))
            .sum()
    };
    Pass::Smooth {
        joints: vec![head as JointIndex],
        window: 0.1,
        channels: Channels::Rotation,
    }
    .run(&skeleton, &mut frames);
    assert!(
        jitter(&frames) < 0.5 * jitter(&before),
        "{} vs {}",
        jitter(&frames),
        jitter(&before)
    );
    let last = frames.count() - 1;
    assert_eq!(frames.frame(0), before.frame(0));
    assert_eq!(frames.frame(last), before.frame(last));
    // only the head changed
    let thigh = joint(&skeleton, "L_thigh");
    assert_eq!(frames.frame(20)[thigh], before.frame(20)[thigh]);
}

/// `despike` repairs a two-frame flip exactly (slerp between its neighbours), lists it, and
/// keeps a fast turn that does not come back.
#[test]
fn despike_repairs_flips_and_keeps_real_turns() {
    let (skeleton, mut frames) = walk(1.0);
    let forearm = joint(&skeleton, "L_forearm");
    let spine = joint(&skeleton, "spine_01");
    let flip = Quat::from_rotation_y(100f32.to_radians());
    for f in [30, 31] {
        let t = &mut frames.frame_mut(f)[forearm];
        t.rotation = flip * t.rotation;
    }
    // a real fast turn from frame 40 on (it stays)
    for f in 40..frames.count() {
        let t = &mut frames.frame_mut(f)[spine];
        t.rotation = Quat::from_rotation_y(60f32.to_radians()) * t.rotation;
    }
    let before = frames.clone();
    let notes = Pass::Despike {
        joints: vec![],
        max_speed: 1500.0,
        frames: 4,
    }
    .run(&skeleton, &mut frames);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("despike: 'L_forearm' frames 30-31 (0.500-0.517 s) turned at"),
        "{notes:?}"
    );
    let (a, b) = (
        frames.frame(29)[forearm].rotation,
        frames.frame(32)[forearm].rotation,
    );
    for (k, f) in [30, 31].into_iter().enumerate() {
        let want = a.slerp(b, (k + 1) as f32 / 3.0);
        assert!(angle_deg(frames.frame(f)[forearm].rotation, want) < 1e-3);
    }
    assert_eq!(frames.frame(45)[spine], before.frame(45)[spine]);
}

/// `foot_lock` brings a sliding planted foot's slide (36 mm) under 0.5 mm (0.17 today).
#[test]
fn foot_lock_pass_holds_contacts() {
    // 10 % faster than the clip's stride: planted feet slide 14 cm/s
    let (skeleton, mut frames) = walk_at(2.2, 1.54);
    let foot = joint(&skeleton, "L_foot");
    let m = frames.motion(&skeleton);
    let rule = ContactRule {
        height: m.rest_position(foot).y + 0.06,
        speed: ContactRule::SPEED,
    };
    let slide = |m: &Motion| foot_slide(m, &detect(m, foot, &rule)).map(|s| s.worst_mm);
    let raw = slide(&m).expect("the walk plants its foot");
    assert!(raw > 5.0, "{raw}");
    Pass::FootLock {
        feet: vec![(foot as JointIndex, rule)],
        blend: 0.1,
    }
    .run(&skeleton, &mut frames);
    let locked = frames.motion(&skeleton);
    let after = slide(&locked).expect("still planted");
    eprintln!("foot_lock pass: worst slide {raw:.1} mm -> {after:.2} mm");
    assert!(after < 0.5, "{raw} mm -> {after} mm");
}
