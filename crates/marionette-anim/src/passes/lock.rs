//! Foot locking over a whole take: the contacts are found on the frames as walked (the same
//! rule as `check` and the live lock: [`crate::motion::contacts`]), and each contact's foot is
//! held at its mean ground position over the contact, its height following the animation, by
//! the live lock's two-bone IK (reach clamped, the knee in its plane, the foot's orientation
//! kept). Knowing the future, the hold eases in over `blend` seconds *before* the contact and
//! out after it (smootherstep), so the foot glides onto the point instead of snapping. Where a
//! held foot is out of reach (a capture's straight stance leg) the hips are lowered just enough
//! first, the drop smoothed over the ease, and the feet not held keep their animated place
//! meanwhile (a swinging foot is not pushed into the ground).
//! A contact lasts while the foot stays low and under twice the planted speed (as the live
//! lock lets go), and contacts less than two `blend`s apart are one contact (their eases would
//! overlap: a foot that stays low between them is not lifted). The contacts measured
//! on the result (`check`'s) then join the hold, so no measured contact ends in an ease.

use glam::Vec3;

use super::frames::Frames;
use crate::graph::foot_lock::{keep_orientation, knee_pole, reach, smootherstep};
use crate::graph::Curve;
use crate::ik::{add_translation, model_transform, two_bone, Space};
use crate::motion::contacts::{detect, detect_held};
use crate::motion::{Contact, ContactRule, Motion};
use crate::{JointIndex, Skeleton};

pub(super) fn run(
    skeleton: &Skeleton,
    frames: &mut Frames,
    feet: &[(JointIndex, ContactRule)],
    blend: f32,
) -> Vec<String> {
    let raw = frames.clone();
    let animated = raw.motion(skeleton);
    let ease = (blend * frames.fps).round() as usize;
    // (a height not given is the default found on these frames)
    let feet: Vec<(usize, ContactRule)> = feet
        .iter()
        .filter(|&&(j, _)| (j as usize) < skeleton.len())
        .map(|&(j, rule)| (j as usize, rule.completed(&animated, j as usize)))
        .collect();
    let mut spans: Vec<Vec<Contact>> = feet
        .iter()
        .map(|&(tip, rule)| merged(detect_held(&animated, tip, &rule, 2.0), 2 * ease))
        .collect();
    // Held, a foot is slow over the ease frames too, so the contacts measured on the result
    // can start earlier or end later than those held: those frames join the hold (a few
    // rounds at most; each only grows the spans).
    for _ in 0..32 {
        *frames = raw.clone();
        hold_feet(skeleton, frames, &animated, &feet, &spans, ease);
        let result = frames.motion(skeleton);
        let mut grown = false;
        for (&(tip, rule), held) in feet.iter().zip(spans.iter_mut()) {
            for c in detect(&result, tip, &rule) {
                let inside = held.iter().any(|h| h.start <= c.start && c.end <= h.end);
                if !inside {
                    held.push(c);
                    grown = true;
                }
            }
            let sorted = std::mem::take(held);
            *held = merged(sorted, 2 * ease);
        }
        if !grown {
            break;
        }
    }
    let count: usize = spans.iter().map(Vec::len).sum();
    vec![format!(
        "foot_lock: {count} contact(s) held on {} foot/feet",
        feet.len()
    )]
}

/// Per frame, the point a foot is held at (world) and the hold's weight: each of `held`
/// (inclusive frame spans) at its mean animated ground position, eased in over `ease` frames
/// before and out after; the nearest contact wins.
fn holds(animated: &Motion, tip: usize, held: &[Contact], ease: usize) -> Vec<Option<(Vec3, f32)>> {
    let n = animated.frames();
    let mut weights: Vec<Option<(Vec3, f32)>> = vec![None; n];
    for c in held {
        let sum: Vec3 = (c.start..=c.end).map(|f| animated.position(f, tip)).sum();
        let point = sum / (c.end - c.start + 1) as f32;
        let from = c.start.saturating_sub(ease);
        let to = (c.end + ease).min(n - 1);
        for (f, slot) in weights.iter_mut().enumerate().take(to + 1).skip(from) {
            let w = if f < c.start {
                smootherstep(1.0 - (c.start - f) as f32 / (ease + 1) as f32)
            } else if f > c.end {
                smootherstep(1.0 - (f - c.end) as f32 / (ease + 1) as f32)
            } else {
                1.0
            };
            if slot.is_none_or(|(_, old)| w > old) {
                *slot = Some((point, w));
            }
        }
    }
    weights
}

/// Holds every foot over its spans (`held[k]` for `feet[k]`). Where a held foot is out of its
/// leg's reach (a capture's straight stance leg), the hips (the joint above each leg) are
/// first lowered just enough, the drop smoothed over the ease so the body does not bob.
fn hold_feet(
    skeleton: &Skeleton,
    frames: &mut Frames,
    animated: &Motion,
    feet: &[(usize, ContactRule)],
    held: &[Vec<Contact>],
    ease: usize,
) {
    let n = frames.count();
    let parents = skeleton.parents();
    let to_model = skeleton.armature().inverse();
    let up = to_model.transform_vector3(Vec3::Y).normalize_or(Vec3::Y);
    let points: Vec<Vec<Option<(Vec3, f32)>>> = feet
        .iter()
        .zip(held)
        .map(|(&(tip, _), spans)| holds(animated, tip, spans, ease))
        .collect();
    let target = |f: usize, k: usize| -> Option<(Vec3, f32)> {
        let (point, w) = points[k][f]?;
        let world = animated.position(f, feet[k].0);
        Some((
            to_model.transform_point3(Vec3::new(point.x, world.y, point.z)),
            w,
        ))
    };
    // the hips' drop per frame, for each joint carrying legs
    let hips: Vec<Option<usize>> = feet
        .iter()
        .map(|&(tip, _)| {
            let mid = parents[tip]?;
            let root = parents[mid as usize]?;
            parents[root as usize].map(usize::from)
        })
        .collect();
    let mut drops: Vec<(usize, Vec<f32>)> = Vec::new();
    for (k, hip) in hips.iter().enumerate() {
        let Some(hip) = *hip else {
            continue;
        };
        let at = match drops.iter().position(|(j, _)| *j == hip) {
            Some(i) => i,
            None => {
                drops.push((hip, vec![0.0; n]));
                drops.len() - 1
            }
        };
        let tip = feet[k].0 as JointIndex;
        for f in 0..n {
            let Some((goal, w)) = target(f, k) else {
                continue;
            };
            let need = w * drop_to_reach(parents, frames.frame(f), tip, goal, up);
            let d = &mut drops[at].1[f];
            *d = d.max(need);
        }
    }
    // how much each frame's hips were lowered, metres (the largest over the hip joints)
    let mut lowered = vec![0.0f32; n];
    for (hip, d) in &drops {
        let smooth = widen(d, ease);
        for (f, &h) in smooth.iter().enumerate() {
            if h > 0.0 {
                lowered[f] = lowered[f].max(h);
                add_translation(
                    parents,
                    frames.frame_mut(f),
                    *hip as JointIndex,
                    -up * h,
                    Space::Model,
                    1.0,
                );
            }
        }
    }
    for (k, &(tip, _)) in feet.iter().enumerate() {
        let foot = tip as JointIndex;
        for (f, &low) in lowered.iter().enumerate() {
            // where the hips were lowered, a foot not held stays where the animation has it
            // (a swinging foot is not pushed into the ground), and a held one starts from there;
            // the keeping fades in over the first 2 cm of the drop, so it starts smoothly
            let keep = Curve::SmoothStep.eval(low / 0.02);
            let animated = to_model.transform_point3(animated.position(f, tip));
            let (goal, weight) = match target(f, k) {
                Some((goal, weight)) if keep > 0.0 => {
                    let w = weight + (1.0 - weight) * keep;
                    (animated.lerp(goal, weight / w), w)
                }
                Some(held) => held,
                None if keep > 0.0 => (animated, keep),
                None => continue,
            };
            let pose = frames.frame_mut(f);
            let rotation = model_transform(parents, pose, foot).rotation;
            let Some(pole) = knee_pole(parents, pose, foot) else {
                continue;
            };
            let goal = reach(parents, pose, foot, goal);
            two_bone(parents, pose, foot, goal, pole, weight);
            keep_orientation(parents, pose, foot, rotation, weight);
        }
    }
}

/// How far (metres, along model `up`, downwards) the leg above `tip` must be lowered for `tip`
/// to reach `goal` with the knee still bent (99.5 % of the leg's length, inside the IK's 99.9 %
/// clamp, so the solve is exact; 0 when it reaches; at most 0.25 m).
fn drop_to_reach(
    parents: &[Option<JointIndex>],
    pose: &[crate::Transform],
    tip: JointIndex,
    goal: Vec3,
    up: Vec3,
) -> f32 {
    let Some(mid) = parents[tip as usize] else {
        return 0.0;
    };
    let Some(root) = parents[mid as usize] else {
        return 0.0;
    };
    let hip = model_transform(parents, pose, root).translation;
    let length =
        0.995 * (pose[mid as usize].translation.length() + pose[tip as usize].translation.length());
    let d = goal - hip;
    if d.length() <= length {
        return 0.0;
    }
    // |d + h up| = length, the smaller root: h = -a - sqrt(a^2 - |d|^2 + length^2)
    let a = d.dot(up);
    let disc = a * a - d.length_squared() + length * length;
    let h = if disc >= 0.0 { -a - disc.sqrt() } else { -a };
    h.clamp(0.0, 0.25)
}

/// A drop curve widened so it is never below the need: a running maximum over `r` frames each
/// side, then a triangle average over the same, which starts and ends the drop smoothly.
fn widen(need: &[f32], r: usize) -> Vec<f32> {
    let n = need.len();
    let r = r.max(1);
    let max: Vec<f32> = (0..n)
        .map(|f| {
            need[f.saturating_sub(r)..(f + r + 1).min(n)]
                .iter()
                .copied()
                .fold(0.0, f32::max)
        })
        .collect();
    (0..n)
        .map(|f| {
            let from = f.saturating_sub(r);
            let (mut sum, mut total) = (0.0, 0.0);
            for (k, m) in max.iter().enumerate().take((f + r + 1).min(n)).skip(from) {
                let w = (r + 1 - k.abs_diff(f)) as f32;
                sum += m * w;
                total += w;
            }
            sum / total
        })
        .collect()
}

/// Contacts closer than `gap` frames joined into one: a foot that stays low but moves a little
/// fast for a frame or two is one contact held at one point, not two points it jumps between.
fn merged(mut contacts: Vec<Contact>, gap: usize) -> Vec<Contact> {
    contacts.sort_by_key(|c| c.start);
    let mut out: Vec<Contact> = Vec::with_capacity(contacts.len());
    for c in contacts {
        match out.last_mut() {
            Some(last) if c.start <= last.end + gap => last.end = last.end.max(c.end),
            _ => out.push(c),
        }
    }
    out
}
