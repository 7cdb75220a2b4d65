//! A capture's spikes: a joint that turns faster than a limit into a pose and, within a few
//! frames, turns back (a marker swap, a solver flip) is replaced over those frames by the
//! rotation its neighbours imply (slerp from the frame before the spike to the frame after).
//! A single fast turn that does not come back is motion, not a spike: it is kept. Each repair
//! is listed.

use super::frames::{selected, Frames};
use crate::motion::joints::angle_deg;
use crate::{JointIndex, Skeleton};

pub(super) fn run(
    skeleton: &Skeleton,
    frames: &mut Frames,
    joints: &[JointIndex],
    max_speed: f32,
    longest: usize,
) -> Vec<String> {
    let n = frames.count();
    let fps = frames.fps;
    let mut notes = Vec::new();
    let rotation = |frames: &Frames, f: usize, j: usize| frames.get(f, j).map(|t| t.rotation);
    for j in selected(joints, skeleton.len()) {
        let mut f = 1;
        while f < n {
            let (Some(a), Some(b)) = (rotation(frames, f - 1, j), rotation(frames, f, j)) else {
                break;
            };
            let speed = angle_deg(a, b) * fps;
            if speed <= max_speed {
                f += 1;
                continue;
            }
            // the spike's end: within reach, a frame the joint turns fast *into* again (it
            // comes back) and that the frame before the spike reaches at under the limit
            let end = (f + 1..=(f + longest).min(n - 1)).find(|&e| {
                let back = match (rotation(frames, e - 1, j), rotation(frames, e, j)) {
                    (Some(p), Some(r)) => angle_deg(p, r) * fps > max_speed,
                    _ => false,
                };
                back && rotation(frames, e, j)
                    .is_some_and(|r| angle_deg(a, r) * fps / (e - f + 1) as f32 <= max_speed)
            });
            let Some(end) = end else {
                f += 1;
                continue;
            };
            let Some(after) = rotation(frames, end, j) else {
                break;
            };
            let after = if after.dot(a) < 0.0 { -after } else { after };
            let span = (end - (f - 1)) as f32;
            for k in f..end {
                let w = (k - (f - 1)) as f32 / span;
                if let Some(t) = frames.get_mut(k, j) {
                    let r = a.slerp(after, w).normalize();
                    t.rotation = if r.dot(t.rotation) < 0.0 { -r } else { r };
                }
            }
            let name = skeleton.names().get(j).map_or("?", String::as_str);
            let last = end - 1;
            notes.push(format!(
                "despike: '{name}' frames {f}-{last} ({:.3}-{:.3} s) turned at {speed:.0} degrees/s > {max_speed:.0}; replaced by its neighbours' slerp",
                frames.time(f),
                frames.time(last)
            ));
            f = end + 1;
        }
    }
    if notes.is_empty() {
        notes.push(format!(
            "despike: no spike (a joint turning faster than {max_speed:.0} degrees/s and back within {longest} frames)"
        ));
    }
    notes
}
