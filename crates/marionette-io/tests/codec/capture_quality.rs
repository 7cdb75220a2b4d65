//! Retargeting quality on real motion: the Blender-made captures of `tests/fixtures/mocap/` (a
//! body of other proportions, resting with its hips at the origin, its legs splayed 20 degrees
//! and its arms in an A-pose; a walk and a run at 120 fps with a capture's noise) onto the
//! mannequin and the Robot, with the options a script gets by default (`rest = "auto"`, IK on
//! the feet, the source's floor from its clips), sampled at 60 Hz:
//!
//! - **bends**: every mapped joint whose nearest mapped ancestor maps to its source joint's,
//!   and which IK does not move, turns relative to that ancestor, from the first frame, by the
//!   angle its source joint does, within 2 degrees (a reference-free measure: it holds whatever
//!   pose the rigs are aligned in);
//! - **floor**: the lowest foot over the clip is at the character's standing height (its rest
//!   foot height) within 1 cm, and over the source's contacts (its foot within 1 cm of where it
//!   plants) each foot is within 1 cm of the source's height above its planted height, scaled;
//! - **no crossed limbs**: each foot stays on its own side of the body's midplane (through the
//!   hips, across the thighs) in every frame where the source's foot is more than 1 cm on its
//!   side;
//! - **stride** over leg length within 10% of the source's;
//! - between contacts each foot's height above its standing height follows the source's,
//!   scaled (reported: "swing height"), and no joint flips (turns more than 90 degrees between
//!   two frames; the largest turn is reported: "worst step").
//!
//! The same with `rest = "rest"` forced shows what the automatic alignment prevents (the legs
//! crossing). The figures print as a table (`-- --nocapture`); the retargeting chapter quotes
//! them.

use crate::common;
use crate::retarget_quality::{angle, bend_pairs};

use glam::Vec3;
use marionette_anim::retarget::ground::planted_height;
use marionette_anim::retarget::{Humanoid, JointMap, ReferencePose, RetargetOptions, Retargeter};
use marionette_anim::{Clip, SamplingCache, Skeleton, Transform};

fn model(s: &Skeleton, local: &[Transform]) -> Vec<Transform> {
    let mut out = local.to_vec();
    for (j, p) in s.parents().iter().enumerate() {
        if let Some(p) = p {
            out[j] = out[*p as usize].mul_transform(&local[j]);
        }
    }
    let a = s.armature();
    let (_, ar, _) = a.to_scale_rotation_translation();
    out.iter()
        .map(|t| Transform::new(a.transform_point3(t.translation), ar * t.rotation, t.scale))
        .collect()
}

#[derive(Default)]
struct Figures {
    bend: f32,
    bend_joints: usize,
    lowest: f32,
    contacts: usize,
    contact_height: f32,
    crossed: usize,
    sided: usize,
    stride: (f32, f32),
    /// Between contacts: the largest distance of a foot's height from the source's, scaled.
    swing: f32,
    /// The largest turn of any joint between two frames (degrees), and where (frame, joint).
    step: f32,
    step_at: (usize, String),
}

fn measure(
    target: &Skeleton,
    source: &Skeleton,
    clip: &Clip,
    all: &[&Clip],
    rest: ReferencePose,
) -> Figures {
    let auto = JointMap::auto(target, source);
    // as a script's retarget over the clip: its floor from the clips, its start from its first key
    let mut start = source.rest_pose().to_vec();
    clip.sample(
        clip.start,
        source.rest_pose(),
        &mut SamplingCache::default(),
        &mut start,
    );
    let options = RetargetOptions {
        reference: rest,
        source_ground: planted_height(source, all, Vec3::Y),
        source_start: Some(start),
        ..Default::default()
    };
    let r = Retargeter::new(target, source, &auto.map, &options);
    let n = (clip.duration() * 60.0).round() as usize;
    let mut cache = SamplingCache::default();
    let mut x = r.scratch();
    let (mut src, mut out) = (Vec::new(), Vec::new());
    for i in 0..=n {
        let mut s = source.rest_pose().to_vec();
        clip.sample(
            clip.start + clip.duration() * i as f32 / n as f32,
            source.rest_pose(),
            &mut cache,
            &mut s,
        );
        let mut o = target.rest_pose().to_vec();
        let mut w = target.morphs().defaults().to_vec();
        r.apply(&s, source.morphs().defaults(), &mut o, &mut w, &mut x);
        assert!(o.iter().all(Transform::is_finite), "NaN");
        src.push(model(source, &s));
        out.push(model(target, &o));
    }
    let (bt, bs) = (Humanoid::find(target), Humanoid::find(source));
    let mut f = Figures::default();
    // bends from the first frame, relative to the nearest mapped ancestors
    let ik: Vec<u16> = bt
        .legs
        .iter()
        .flatten()
        .flat_map(|l| [Some(l.upper), Some(l.lower), l.end, l.toe])
        .flatten()
        .collect();
    let checked: Vec<(u16, u16, u16, u16)> = bend_pairs(&auto.map, target, source)
        .into_iter()
        .filter(|(t, ..)| !ik.contains(t))
        .collect();
    f.bend_joints = checked.len();
    let rel = |m: &[Transform], j: u16, a: u16| {
        m[a as usize].rotation.conjugate() * m[j as usize].rotation
    };
    for k in 0..src.len() {
        for &(t, s, at, as_) in &checked {
            let ds = angle(rel(&src[k], s, as_) * rel(&src[0], s, as_).conjugate());
            let dt = angle(rel(&out[k], t, at) * rel(&out[0], t, at).conjugate());
            f.bend = f.bend.max((ds - dt).abs().to_degrees());
        }
    }
    // the floor and the sides
    let tw0 = model(target, target.rest_pose());
    let scale = r.scale().y;
    let ends =
        |b: &Humanoid| [0, 1].map(|k| b.legs[k].as_ref().and_then(|l| l.end).unwrap() as usize);
    let thighs = |b: &Humanoid| [0, 1].map(|k| b.legs[k].as_ref().unwrap().upper as usize);
    let (te, se, tt, st) = (ends(&bt), ends(&bs), thighs(&bt), thighs(&bs));
    let stand = te.map(|e| tw0[e].translation.y);
    let planted = options.source_ground.unwrap();
    f.lowest = f32::INFINITY;
    let mut reach = ([f32::MAX, f32::MIN], [f32::MAX, f32::MIN]);
    for k in 0..src.len() {
        let (s, t) = (&src[k], &out[k]);
        for side in 0..2 {
            let h_t = t[te[side]].translation.y - stand[side];
            f.lowest = f.lowest.min(h_t);
            let h_s = s[se[side]].translation.y - planted;
            if h_s < 0.01 {
                f.contacts += 1;
                f.contact_height = f.contact_height.max((h_t - h_s * scale).abs());
            } else {
                f.swing = f.swing.max((h_t - h_s * scale).abs());
            }
            let mid = |w: &[Transform], th: [usize; 2], e: usize| {
                let left = (w[th[0]].translation - w[th[1]].translation).normalize();
                let centre = (w[th[0]].translation + w[th[1]].translation) * 0.5;
                (w[e].translation - centre).dot(left)
            };
            let (ss_, ts_) = (mid(s, st, se[side]), mid(t, tt, te[side]));
            let want = if side == 0 { 1.0 } else { -1.0 };
            if ss_ * want > 0.01 {
                f.sided += 1;
                if ts_ * want <= 0.0 {
                    f.crossed += 1;
                }
            }
            let fwd = |w: &[Transform], e: usize, th: [usize; 2]| {
                (w[e].translation - (w[th[0]].translation + w[th[1]].translation) * 0.5).z
            };
            let (a, b) = (fwd(s, se[side], st), fwd(t, te[side], tt));
            reach.0 = [reach.0[0].min(a), reach.0[1].max(a)];
            reach.1 = [reach.1[0].min(b), reach.1[1].max(b)];
        }
    }
    for (k, w) in out.windows(2).enumerate() {
        for (j, (a, b)) in w[0].iter().zip(&w[1]).enumerate() {
            let d = angle(a.rotation.conjugate() * b.rotation).to_degrees();
            if d > f.step {
                f.step = d;
                f.step_at = (k, target.names()[j].clone());
            }
        }
    }
    let leg = |w: &[Transform], b: &Humanoid| {
        let l = b.legs[0].as_ref().unwrap();
        w[l.upper as usize]
            .translation
            .distance(w[l.lower as usize].translation)
            + w[l.lower as usize]
                .translation
                .distance(w[l.end.unwrap() as usize].translation)
    };
    let (ls, lt) = (leg(&model(source, source.rest_pose()), &bs), leg(&tw0, &bt));
    f.stride = (
        (reach.0[1] - reach.0[0]) / ls,
        (reach.1[1] - reach.1[0]) / lt,
    );
    f
}

#[test]
fn captures_land_on_the_mannequin_and_the_robot() {
    let dir = common::repo_path("tests/fixtures/mocap");
    let unit = marionette_io::ImportOptions {
        unit: Some(marionette_io::Unit::Cm),
    };
    let walk = marionette_io::import_with(&dir.join("capture_walk.bvh"), &unit).unwrap();
    let run =
        marionette_io::import_with(&dir.join("capture_run.bvh"), &Default::default()).unwrap();
    let mut targets = vec![("mannequin", marionette_anim::mannequin::build().skeleton)];
    if let Some(robot) = common::testdata_file("RobotExpressive.glb") {
        targets.push(("robot", marionette_io::import(&robot).unwrap().skeleton));
    }
    println!("| capture | onto | rest | bend | joints | lowest foot | contact frames | contact height | swing height | crossed frames | stride/leg, source | target | worst step |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for (name, m) in [("walk", &walk), ("run", &run)] {
        let clip = &m.clips[0];
        for (onto, t) in &targets {
            for rest in [ReferencePose::Auto, ReferencePose::Rest] {
                let f = measure(t, &m.skeleton, clip, &[clip], rest);
                println!(
                    "| {name} | {onto} | {} | {:.2}° | {} | {:+.1} mm | {} | {:.1} mm | {:.1} mm | {} of {} | {:.3} | {:.3} | {:.1}° ({}) |",
                    rest.name(), f.bend, f.bend_joints, f.lowest * 1e3, f.contacts, f.contact_height * 1e3,
                    f.swing * 1e3, f.crossed, f.sided, f.stride.0, f.stride.1, f.step, f.step_at.1
                );
                if rest != ReferencePose::Auto {
                    continue;
                }
                let what = format!("{name} onto {onto}");
                if f.bend > 2.0 {
                    failures.push(format!("{what}: bends differ by {:.2}°", f.bend));
                }
                if f.lowest.abs() > 0.01 || f.contact_height > 0.01 {
                    failures.push(format!(
                        "{what}: lowest foot {:+.1} mm from standing, contacts off by {:.1} mm",
                        f.lowest * 1e3,
                        f.contact_height * 1e3
                    ));
                }
                if f.crossed > 0 {
                    failures.push(format!(
                        "{what}: feet on the wrong side in {} frames",
                        f.crossed
                    ));
                }
                if f.step > 90.0 {
                    failures.push(format!("{what}: a joint turns {:.1}° in one frame", f.step));
                }
                if (f.stride.1 / f.stride.0 - 1.0).abs() > 0.10 {
                    failures.push(format!(
                        "{what}: stride/leg {:.3} against {:.3}",
                        f.stride.1, f.stride.0
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
