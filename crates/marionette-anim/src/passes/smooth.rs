//! Smoothing over time: each frame replaced by a triangle-weighted average of the frames
//! around it (`window` seconds wide, centred). Near the ends the window shrinks symmetrically,
//! so the first and last frames are kept (a loop's seam and a take's hand-off stay put).
//! Rotations are averaged as quaternions turned to one hemisphere and normalised (exact enough
//! for the small spread a window covers).

use glam::{Quat, Vec3, Vec4};

use super::frames::{selected, Channels, Frames};
use crate::{JointIndex, Skeleton};

pub(super) fn run(
    skeleton: &Skeleton,
    frames: &mut Frames,
    joints: &[JointIndex],
    window: f32,
    channels: Channels,
) -> Vec<String> {
    let n = frames.count();
    let half = ((window * frames.fps * 0.5).round() as usize).max(1);
    let joints = selected(joints, skeleton.len());
    let mut rotations = vec![Quat::IDENTITY; n];
    let mut translations = vec![Vec3::ZERO; n];
    for &j in &joints {
        for f in 0..n {
            let Some(t) = frames.get(f, j) else {
                continue;
            };
            rotations[f] = t.rotation;
            translations[f] = t.translation;
        }
        for f in 0..n {
            let h = half.min(f).min(n - 1 - f);
            if h == 0 {
                continue;
            }
            let centre = rotations[f];
            let (mut q, mut p, mut total) = (Vec4::ZERO, Vec3::ZERO, 0.0);
            for k in f - h..=f + h {
                let w = (h + 1 - k.abs_diff(f)) as f32;
                let r = rotations[k];
                let r = if r.dot(centre) < 0.0 { -r } else { r };
                q += Vec4::from(r) * w;
                p += translations[k] * w;
                total += w;
            }
            let Some(t) = frames.get_mut(f, j) else {
                continue;
            };
            if channels.rotation() {
                if let Some(r) = q.try_normalize() {
                    t.rotation = Quat::from_vec4(r);
                }
            }
            if channels.translation() {
                t.translation = p / total;
            }
        }
    }
    let what = match channels {
        Channels::Rotation => "rotations",
        Channels::Translation => "translations",
        Channels::Both => "rotations and translations",
    };
    vec![format!(
        "smooth: {what} of {} joint(s) over {:.3} s ({} frames each side)",
        joints.len(),
        window,
        half
    )]
}
