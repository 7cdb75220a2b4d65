//! A capture's glitches: a joint turning faster between two keys than a body does (a hips flip
//! of about 100 degrees within two frames of a 120 fps capture is a marker swap, not motion).
//! `inspect` and `bake` report them with the time and the joint ([`fast_turns`]) rather than
//! baking them silently.

use crate::{Clip, Interpolation, JointIndex, Skeleton};

/// The default limit, in degrees per second: faster than a fast punch or a spin kick.
pub const DEFAULT_TURN_LIMIT: f32 = 1500.0;

/// A run of keys over which one joint turns faster than the limit.
#[derive(Clone, Debug, PartialEq)]
pub struct FastTurn {
    /// The joint.
    pub joint: JointIndex,
    /// When the run starts (its first fast key interval's start), in the clip's time.
    pub time: f32,
    /// How long it lasts (seconds).
    pub duration: f32,
    /// The fastest turn in it, degrees per second.
    pub degrees_per_second: f32,
    /// How far the joint turns over the run, degrees.
    pub degrees: f32,
}

impl FastTurn {
    /// One line: `clip 'walk' at 1.233 s: joint 'Hips' turns 98 degrees in 0.017 s (up to 6012
    /// degrees/s)`.
    pub fn describe(&self, clip: &str, joint: &str) -> String {
        format!(
            "clip '{clip}' at {:.3} s: joint '{joint}' turns {:.0} degrees in {:.3} s (up to {:.0} degrees/s)",
            self.time, self.degrees, self.duration, self.degrees_per_second
        )
    }
}

/// A line per fast turn in `clips` over `limit` (see [`FastTurn::describe`]), the joints named
/// from `skeleton`: what a bake says of its source's glitches.
pub fn describe_fast_turns(clips: &[Clip], skeleton: &Skeleton, limit: f32) -> Vec<String> {
    clips
        .iter()
        .flat_map(|c| {
            fast_turns(c, limit).into_iter().map(move |f| {
                let joint = skeleton
                    .names()
                    .get(f.joint as usize)
                    .map_or("", String::as_str);
                f.describe(&c.name, joint)
            })
        })
        .collect()
}

/// Every run of key intervals where a joint's rotation turns faster than `limit` degrees per
/// second, in time order (joints in index order at one time).
pub fn fast_turns(clip: &Clip, limit: f32) -> Vec<FastTurn> {
    let mut out = Vec::new();
    for tracks in &clip.tracks {
        let Some(track) = &tracks.rotation else {
            continue;
        };
        let stride = if track.interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        let value = |k: usize| track.values.get(k * stride + stride / 2).copied();
        let mut run: Option<FastTurn> = None;
        for k in 1..track.times.len() {
            let (Some(a), Some(b)) = (value(k - 1), value(k)) else {
                break;
            };
            let dt = track.times[k] - track.times[k - 1];
            let degrees = crate::motion::joints::angle_deg(a, b);
            let rate = degrees / dt.max(f32::MIN_POSITIVE);
            if rate.is_finite() && rate > limit {
                let r = run.get_or_insert(FastTurn {
                    joint: tracks.joint,
                    time: track.times[k - 1],
                    duration: 0.0,
                    degrees_per_second: 0.0,
                    degrees: 0.0,
                });
                r.duration = track.times[k] - r.time;
                r.degrees_per_second = r.degrees_per_second.max(rate);
                r.degrees += degrees;
            } else if let Some(r) = run.take() {
                out.push(r);
            }
        }
        out.extend(run);
    }
    out.sort_by(|a, b| a.time.total_cmp(&b.time).then(a.joint.cmp(&b.joint)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JointTracks, Track};
    use glam::Quat;

    fn clip(angles: &[f32], fps: f32) -> Clip {
        let mut t = JointTracks::new(3);
        t.rotation = Some(Track {
            interpolation: Interpolation::Linear,
            times: (0..angles.len()).map(|i| i as f32 / fps).collect(),
            values: angles
                .iter()
                .map(|a| Quat::from_rotation_y(a.to_radians()))
                .collect(),
        });
        Clip::new("capture", vec![t])
    }

    /// A 100 degree flip within two frames at 120 fps is found, with its time and size, and so
    /// is the flip back; a brisk 10 degrees a frame at 120 fps (1200 degrees a second) is
    /// motion.
    #[test]
    fn a_marker_swap_is_found_and_brisk_motion_is_not() {
        let mut angles: Vec<f32> = (0..12).map(|i| i as f32 * 10.0).collect();
        assert!(fast_turns(&clip(&angles, 120.0), DEFAULT_TURN_LIMIT).is_empty());
        angles[6] += 50.0;
        angles[7] += 100.0;
        angles[8] += 100.0;
        angles[9] += 100.0;
        let found = fast_turns(&clip(&angles, 120.0), DEFAULT_TURN_LIMIT);
        assert_eq!(found.len(), 2, "the flip and the flip back: {found:?}");
        assert!((found[1].time - 9.0 / 120.0).abs() < 1e-6, "{found:?}");
        let f = &found[0];
        assert_eq!(f.joint, 3);
        assert!((f.time - 5.0 / 120.0).abs() < 1e-6, "{f:?}");
        assert!(f.degrees_per_second > 6000.0, "{f:?}");
        assert!(fast_turns(&clip(&angles, 120.0), 1e9).is_empty());
    }
}
