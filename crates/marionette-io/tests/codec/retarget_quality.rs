//! Retargeting quality between the mannequin and `RobotExpressive.glb`, both ways, on every
//! clip both have (walk/Walking, run/Running, idle/Idle, jump/Jump, wave/Wave), sampled at 60 Hz:
//!
//! - **bends**: with the IK pass off, every mapped joint whose parent is mapped to its source
//!   joint's parent turns away from its rest by the angle its source joint does, within 5
//!   degrees at every frame (what a rest-relative transfer preserves, whatever the bone rolls
//!   and proportions); with IK on, the same holds for every joint the IK pass does not touch;
//! - **feet**: while a source foot is in contact (low, and still relative to the ground the
//!   clip walks on: a walk in place moves its ground backwards at a constant speed), the
//!   retargeted foot moves less than 1 cm over that ground (scaled), and its height above its
//!   rest height stays within 1 cm of the source's, scaled;
//! - **stride**: the feet's reach forward and back over leg length equals the source's within
//!   5%;
//! - nothing is NaN and no joint flips (turns more than 90 degrees between two frames).
//!
//! The figures print as a table (`cargo test --test retarget_quality -- --nocapture`); the
//! guide's retargeting chapter quotes them.

use crate::common;

use glam::{Quat, Vec3};
use marionette_anim::retarget::{Humanoid, JointMap, ReferencePose, RetargetOptions, Retargeter};
use marionette_anim::{Clip, SamplingCache, Skeleton, Transform};

const PAIRS: [(&str, &str); 5] = [
    ("walk", "Walking"),
    ("run", "Running"),
    ("idle", "Idle"),
    ("jump", "Jump"),
    ("wave", "Wave"),
];

struct Rig {
    name: &'static str,
    skeleton: Skeleton,
    clips: Vec<Clip>,
}

impl Rig {
    fn clip(&self, name: &str) -> &Clip {
        self.clips
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{} has no clip {name}", self.name))
    }
}

fn rigs() -> Option<(Rig, Rig)> {
    let robot = common::testdata_file("RobotExpressive.glb")?;
    let r = marionette_io::import(&robot).expect("import the robot");
    let m = marionette_anim::mannequin::build();
    Some((
        Rig {
            name: "mannequin",
            skeleton: m.skeleton,
            clips: m.clips,
        },
        Rig {
            name: "robot",
            skeleton: r.skeleton,
            clips: r.clips,
        },
    ))
}

fn model(s: &Skeleton, local: &[Transform]) -> Vec<Transform> {
    let mut out = local.to_vec();
    for (j, p) in s.parents().iter().enumerate() {
        if let Some(p) = p {
            out[j] = out[*p as usize].mul_transform(&local[j]);
        }
    }
    out
}

fn world(s: &Skeleton, local: &[Transform]) -> Vec<Vec3> {
    let a = s.armature();
    model(s, local)
        .iter()
        .map(|t| a.transform_point3(t.translation))
        .collect()
}

fn frames(s: &Skeleton, clip: &Clip) -> Vec<Vec<Transform>> {
    let n = (clip.duration() * 60.0).round().max(1.0) as usize;
    let mut cache = SamplingCache::default();
    (0..=n)
        .map(|i| {
            let mut out = s.rest_pose().to_vec();
            let t = clip.start + clip.duration() * i as f32 / n as f32;
            clip.sample(t, s.rest_pose(), &mut cache, &mut out);
            out
        })
        .collect()
}

/// The pairs `(target, source, target ancestor, source ancestor)` of `map` whose nearest mapped
/// ancestors are a pair too: the joints whose bend relative to that ancestor a retarget keeps.
pub(crate) fn bend_pairs(
    map: &JointMap,
    target: &Skeleton,
    source: &Skeleton,
) -> Vec<(u16, u16, u16, u16)> {
    let sources: Vec<u16> = map.pairs.iter().map(|p| p.1).collect();
    let nearest = |sk: &Skeleton, j: u16, mapped: &dyn Fn(u16) -> bool| {
        let mut k = sk.parent(j);
        while let Some(a) = k {
            if mapped(a) {
                return Some(a);
            }
            k = sk.parent(a);
        }
        None
    };
    map.pairs
        .iter()
        .filter_map(|&(t, s)| {
            let at = nearest(target, t, &|a| map.source_of(a).is_some())?;
            let as_ = nearest(source, s, &|a| sources.contains(&a))?;
            (map.source_of(at) == Some(as_)).then_some((t, s, at, as_))
        })
        .collect()
}

/// The angle of a rotation, radians.
pub(crate) fn angle(q: Quat) -> f32 {
    let w = q.normalize().w.abs().min(1.0);
    2.0 * w.acos()
}

/// Figures for one clip retargeted one way.
#[derive(Default, Debug)]
struct Figures {
    /// Largest bend difference (degrees) over the joints checked, IK off and on.
    bend_off: f32,
    bend_on: f32,
    bend_joints: usize,
    /// Contact frames, and the largest distance between the retargeted foot's path over a
    /// contact and the source's, scaled (m).
    contacts: usize,
    path: f32,
    /// Contact frames where the source's foot is beyond its own leg's reach.
    overreach: usize,
    /// Frames where the source foot stands still, and the largest distance the retargeted
    /// foot moves over such a run (m).
    still: usize,
    drift: f32,
    /// Largest foot height difference during contacts (m).
    height: f32,
    /// Stride over leg length, source and target.
    stride: Option<(f32, f32)>,
    /// Largest change of any joint's local rotation between frames (degrees).
    jump: f32,
}

fn measure(target: &Rig, source: &Rig, t_clip: &str, s_clip: &str) -> Figures {
    let _ = t_clip;
    let (ts, ss) = (&target.skeleton, &source.skeleton);
    let auto = JointMap::auto(ts, ss);
    // bends are measured relative to each rig's rest: the rigs aligned in their rests (the
    // default, "auto", would align these two in a T-pose: their arms' rests differ by 20
    // degrees), IK on both feet and hands
    let on = Retargeter::new(
        ts,
        ss,
        &auto.map,
        &RetargetOptions {
            reference: ReferencePose::Rest,
            ik_hands: true,
            ..Default::default()
        },
    );
    let off = Retargeter::new(
        ts,
        ss,
        &auto.map,
        &RetargetOptions {
            reference: ReferencePose::Rest,
            ik_feet: false,
            ik_hands: false,
            ..Default::default()
        },
    );
    let src = frames(ss, source.clip(s_clip));
    let run = |r: &Retargeter| -> Vec<Vec<Transform>> {
        let mut x = r.scratch();
        src.iter()
            .map(|p| {
                let mut out = ts.rest_pose().to_vec();
                let mut w = ts.morphs().defaults().to_vec();
                r.apply(p, ss.morphs().defaults(), &mut out, &mut w, &mut x);
                out
            })
            .collect()
    };
    let (with_ik, without) = (run(&on), run(&off));
    let mut f = Figures::default();
    for pose in with_ik.iter().chain(&without) {
        assert!(pose.iter().all(Transform::is_finite), "NaN in {s_clip}");
    }
    // bends: pairs whose parents are a pair too
    let (bt, bs) = (Humanoid::find(ts), Humanoid::find(ss));
    let ik_touched: Vec<u16> = bt
        .legs
        .iter()
        .chain(&bt.arms)
        .flatten()
        .flat_map(|l| [Some(l.upper), Some(l.lower), l.end, l.toe])
        .flatten()
        .collect();
    // each pair whose nearest mapped ancestors are a pair too, bent relative to them (for a
    // parent, the local rotation)
    let checked = bend_pairs(&auto.map, ts, ss);
    f.bend_joints = checked.len();
    let rel = |m: &[Transform], j: u16, a: u16| {
        m[a as usize].rotation.conjugate() * m[j as usize].rotation
    };
    let bend = |m: &[Transform], r: &[Transform], j: u16, a: u16| {
        angle(rel(r, j, a).conjugate() * rel(m, j, a))
    };
    let (rs, rt) = (model(ss, ss.rest_pose()), model(ts, ts.rest_pose()));
    for (k, sp) in src.iter().enumerate() {
        let (ms, m_off, m_on) = (
            model(ss, sp),
            model(ts, &without[k]),
            model(ts, &with_ik[k]),
        );
        for &(t, s, at, as_) in &checked {
            let want = bend(&ms, &rs, s, as_);
            let off_d = (bend(&m_off, &rt, t, at) - want).abs();
            f.bend_off = f.bend_off.max(off_d.to_degrees());
            if !ik_touched.contains(&t) {
                let on_d = (bend(&m_on, &rt, t, at) - want).abs();
                f.bend_on = f.bend_on.max(on_d.to_degrees());
            }
        }
    }
    for w in with_ik.windows(2) {
        for (a, b) in w[0].iter().zip(&w[1]) {
            f.jump = f
                .jump
                .max(angle(a.rotation.conjugate() * b.rotation).to_degrees());
        }
    }
    // feet
    let up = Vec3::Y;
    let scale = on.scale().y;
    let leg_len = |s: &Skeleton, b: &Humanoid| {
        let w = world(s, s.rest_pose());
        let l = b.legs[0].as_ref().unwrap();
        w[l.upper as usize].distance(w[l.lower as usize])
            + w[l.lower as usize].distance(w[l.end.unwrap() as usize])
    };
    let (lt, ls) = (leg_len(ts, &bt), leg_len(ss, &bs));
    let mut strides = (Vec::new(), Vec::new());
    for side in 0..2 {
        let (Some(tl), Some(sl)) = (&bt.legs[side], &bs.legs[side]) else {
            continue;
        };
        let (te, se) = (tl.end.unwrap() as usize, sl.end.unwrap() as usize);
        let (ta, sa) = (bt.anchor.unwrap() as usize, bs.anchor.unwrap() as usize);
        let sw: Vec<Vec<Vec3>> = src.iter().map(|p| world(ss, p)).collect();
        let tw: Vec<Vec<Vec3>> = with_ik.iter().map(|p| world(ts, p)).collect();
        let s_rest = world(ss, ss.rest_pose())[se].y;
        let t_rest = world(ts, ts.rest_pose())[te].y;
        let low = sw.iter().map(|w| w[se].y).fold(f32::INFINITY, f32::min);
        // contact: within 2% of the leg's length of the lowest the foot gets
        let contact: Vec<bool> = sw.iter().map(|w| w[se].y - low < 0.02 * ls).collect();
        let flat = |v: Vec3| v - up * v.dot(up);
        let mut k = 0;
        while k < contact.len() {
            if !contact[k] {
                k += 1;
                continue;
            }
            let a = k;
            while k < contact.len() && contact[k] {
                k += 1;
            }
            // over the contact the retargeted foot goes where the source's goes, scaled
            // (nowhere, for a planted foot; a walk in place slides its feet backwards)
            for i in a..k {
                // a source foot further from its hip than its leg is long (the robot's feet
                // are bones of their own, and its walk stretches them at toe-off): the target
                // reaches it by lowering its hips
                if sw[i][se].distance(sw[i][sl.upper as usize]) > ls {
                    f.overreach += 1;
                }
                let path = flat(tw[i][te] - tw[a][te]) - flat(sw[i][se] - sw[a][se]) * scale;
                f.path = f.path.max(path.length());
                let h_s = (sw[i][se].y - s_rest) * scale;
                let h_t = tw[i][te].y - t_rest;
                f.height = f.height.max((h_s - h_t).abs());
                f.contacts += 1;
            }
            // where the source's foot stands still (under 1 mm a frame), so does the target's
            let mut i = a;
            while i < k {
                let b = i;
                while i + 1 < k && flat(sw[i + 1][se] - sw[i][se]).length() < 1e-3 {
                    i += 1;
                }
                for j in b..=i {
                    f.drift = f.drift.max(flat(tw[j][te] - tw[b][te]).length());
                    f.still += usize::from(j > b);
                }
                i += 1;
            }
        }
        let fwd = |w: &Vec<Vec3>, e: usize, a: usize| (w[e] - w[a]).z;
        let reach = |ws: &[Vec<Vec3>], e: usize, a: usize| {
            let zs: Vec<f32> = ws.iter().map(|w| fwd(w, e, a)).collect();
            zs.iter().copied().fold(f32::MIN, f32::max)
                - zs.iter().copied().fold(f32::MAX, f32::min)
        };
        strides.0.push(reach(&sw, se, sa) / ls);
        strides.1.push(reach(&tw, te, ta) / lt);
    }
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
    let (s, t) = (mean(&strides.0), mean(&strides.1));
    if s > 0.1 {
        f.stride = Some((s, t));
    }
    f
}

#[test]
fn mannequin_and_robot_both_ways() {
    let Some((mannequin, robot)) = rigs() else {
        return;
    };
    println!("| clip | direction | bend, IK off | bend, IK on | joints | contact frames | foot path | foot height | beyond reach | still frames | foot drift | stride/leg, source | target | worst step |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for (m, r) in PAIRS {
        for (target, source, tc, sc) in [(&mannequin, &robot, m, r), (&robot, &mannequin, r, m)] {
            let f = measure(target, source, tc, sc);
            let dir = format!("{} -> {}", source.name, target.name);
            let stride = f
                .stride
                .map_or("-".to_string(), |(s, t)| format!("{s:.3} | {t:.3}"));
            let stride = if f.stride.is_none() {
                "- | -".to_string()
            } else {
                stride
            };
            println!(
                "| {sc} | {dir} | {:.2}° | {:.2}° | {} | {} | {:.1} mm | {:.1} mm | {} | {} | {:.1} mm | {stride} | {:.1}° |",
                f.bend_off, f.bend_on, f.bend_joints, f.contacts, f.path * 1e3, f.height * 1e3, f.overreach, f.still, f.drift * 1e3, f.jump
            );
            let what = format!("{sc}, {dir}");
            if f.bend_off > 5.0 || f.bend_on > 5.0 {
                failures.push(format!(
                    "{what}: bends differ by {:.2}° / {:.2}°",
                    f.bend_off, f.bend_on
                ));
            }
            if f.path > 0.01 || f.height > 0.01 || f.drift > 0.01 {
                failures.push(format!(
                    "{what}: feet off the source's path by {:.1} mm, height by {:.1} mm, drift {:.1} mm",
                    f.path * 1e3, f.height * 1e3, f.drift * 1e3
                ));
            }
            if let Some((s, t)) = f.stride {
                if (t / s - 1.0).abs() > 0.05 {
                    failures.push(format!("{what}: stride/leg {t:.3} against {s:.3}"));
                }
            }
            if f.jump > 90.0 {
                failures.push(format!("{what}: a joint turns {:.1}° in one frame", f.jump));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
