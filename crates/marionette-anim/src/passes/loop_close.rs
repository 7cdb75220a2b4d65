//! Closing a loop: every joint's last frame is made equal to its first, the difference spread
//! over the last `blend` seconds with a smoothstep, so the seam has neither a jump nor a kink.
//! A root joint keeps its ground-plane travel and turning (the motion root motion would
//! extract): only the rest of it (height, tilt) is closed, so a walk loop still walks.

use glam::Quat;

use super::frames::Frames;
use crate::graph::Curve;
use crate::root_motion::{Reference, RootMotionMode, RootSpace};
use crate::{Skeleton, Transform};

pub(super) fn run(skeleton: &Skeleton, frames: &mut Frames, blend: f32) -> Vec<String> {
    let n = frames.count();
    if n < 2 {
        return Vec::new();
    }
    let span = ((blend * frames.fps).round() as usize).clamp(1, n - 1);
    let space = RootSpace::of(skeleton);
    let parents = skeleton.parents();
    let mut closed = 0usize;
    for (j, parent) in parents.iter().enumerate() {
        let is_root = parent.is_none();
        // a root joint splits into (ground motion, the rest); the rest is closed
        let split = |t: &Transform| {
            if is_root {
                Reference::ORIGIN.split(RootMotionMode::Ground, &space, t)
            } else {
                (Transform::IDENTITY, *t)
            }
        };
        let (Some(a), Some(b)) = (frames.get(0, j), frames.get(n - 1, j)) else {
            continue;
        };
        let (a, b) = (split(a).1, split(b).1);
        let mut target = a.rotation;
        if target.dot(b.rotation) < 0.0 {
            target = -target;
        }
        let turn = (target * b.rotation.inverse()).normalize();
        let shift = a.translation - b.translation;
        let grow = a.scale - b.scale;
        if turn.abs_diff_eq(Quat::IDENTITY, 1e-7) && shift.length() < 1e-7 && grow.length() < 1e-7 {
            continue;
        }
        closed += 1;
        let first = n - 1 - span;
        for f in first + 1..n {
            let w = Curve::SmoothStep.eval((f - first) as f32 / span as f32);
            let Some(t) = frames.get_mut(f, j) else {
                continue;
            };
            let (motion, mut rest) = split(t);
            let r = (Quat::IDENTITY.slerp(turn, w) * rest.rotation).normalize();
            // (the sign the frame had, so rotation keys stay continuous)
            rest.rotation = if r.dot(rest.rotation) < 0.0 { -r } else { r };
            rest.translation += shift * w;
            rest.scale += grow * w;
            *t = if is_root {
                let mut whole = motion.mul_transform(&rest);
                if whole.rotation.dot(t.rotation) < 0.0 {
                    whole.rotation = -whole.rotation;
                }
                whole
            } else {
                rest
            };
        }
    }
    let seconds = span as f32 / frames.fps;
    vec![format!(
        "loop_close: {closed} joint(s) closed over the last {seconds:.3} s ({span} frames)"
    )]
}
