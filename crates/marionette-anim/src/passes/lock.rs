//! Foot locking over a whole take: the contacts are found on the frames as walked (the same
//! rule as `check` and the live lock: [`crate::motion::contacts`]), and each contact's foot is
//! held at its mean ground position over the contact, its height following the animation, by
//! the live lock's two-bone IK (reach clamped, the knee in its plane, the foot's orientation
//! kept). Knowing the future, the hold eases in over `blend` seconds *before* the contact and
//! out after it (smootherstep), so the foot glides onto the point instead of snapping.
//! Contacts less than two `blend`s apart are one contact (a planted foot that moves a little
//! fast for a frame is not lifted).

use glam::Vec3;

use super::Frames;
use crate::graph::foot_lock::{keep_orientation, knee_pole, reach, smootherstep};
use crate::ik::{model_transform, two_bone};
use crate::motion::contacts::detect;
use crate::motion::{Contact, ContactRule, Motion};
use crate::{JointIndex, Skeleton};

pub(super) fn run(
    skeleton: &Skeleton,
    frames: &mut Frames,
    feet: &[(JointIndex, ContactRule)],
    blend: f32,
) -> Vec<String> {
    let n = frames.count();
    let mut motion = Motion::new(skeleton, frames.fps);
    for f in 0..n {
        motion.push(skeleton, frames.frame(f));
    }
    let ease = (blend * frames.fps).round() as usize;
    let parents = skeleton.parents();
    let to_model = skeleton.armature().inverse();
    let mut held = 0;
    for &(foot, rule) in feet {
        let tip = foot as usize;
        if tip >= skeleton.len() {
            continue;
        }
        let contacts = merged(detect(&motion, tip, &rule), 2 * ease + 1);
        held += contacts.len();
        // per frame: the point held (world) and the hold's weight; the nearest contact wins
        let mut hold: Vec<Option<(Vec3, f32)>> = vec![None; n];
        for c in &contacts {
            let sum: Vec3 = (c.start..=c.end).map(|f| motion.position(f, tip)).sum();
            let point = sum / (c.end - c.start + 1) as f32;
            let from = c.start.saturating_sub(ease);
            let to = (c.end + ease).min(n - 1);
            for (f, slot) in hold.iter_mut().enumerate().take(to + 1).skip(from) {
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
        for (f, h) in hold.iter().enumerate() {
            let Some((point, weight)) = *h else {
                continue;
            };
            let world = motion.position(f, tip);
            let target = to_model.transform_point3(Vec3::new(point.x, world.y, point.z));
            let pose = frames.frame_mut(f);
            let animated = model_transform(parents, pose, foot).rotation;
            let Some(pole) = knee_pole(parents, pose, foot) else {
                continue;
            };
            let target = reach(parents, pose, foot, target);
            two_bone(parents, pose, foot, target, pole, weight);
            keep_orientation(parents, pose, foot, animated, weight);
        }
    }
    vec![format!(
        "foot_lock: {held} contact(s) held on {} foot/feet",
        feet.len()
    )]
}

/// Contacts closer than `gap` frames joined into one: a foot that stays low but moves a little
/// fast for a frame or two is one contact held at one point, not two points it jumps between.
fn merged(contacts: Vec<Contact>, gap: usize) -> Vec<Contact> {
    let mut out: Vec<Contact> = Vec::with_capacity(contacts.len());
    for c in contacts {
        match out.last_mut() {
            Some(last) if c.start <= last.end + gap => last.end = c.end,
            _ => out.push(c),
        }
    }
    out
}
