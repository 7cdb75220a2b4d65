//! Finishing a reduction: keeping the take's full duration and summarising measured errors.

use super::fitted::Fitted;
use super::reduced::ReducedJoint;
use marionette_anim::{Interpolation, Transform};

/// Makes sure some track has a key at the last frame, so the glTF animation lasts as long as the
/// take (only STEP tracks can end early, and holding their last value one key longer is exact).
pub(super) fn keep_duration(joints: &mut Vec<ReducedJoint>, n: usize, rest: &[Transform]) {
    if n < 2 {
        return;
    }
    let last = (n - 1) as u32;
    let ends = |j: &ReducedJoint| {
        [
            j.translation
                .as_ref()
                .and_then(|f| f.frames.last().copied()),
            j.rotation.as_ref().and_then(|f| f.frames.last().copied()),
            j.scale.as_ref().and_then(|f| f.frames.last().copied()),
        ]
        .into_iter()
        .flatten()
        .max()
    };
    if joints.iter().filter_map(ends).max() == Some(last) {
        return;
    }
    fn extend<T: Copy>(f: &mut Fitted<T>, last: u32) -> bool {
        if f.interpolation != Interpolation::Step {
            return false;
        }
        if let Some(&v) = f.values.last() {
            f.frames.push(last);
            f.values.push(v);
            return true;
        }
        false
    }
    for j in joints.iter_mut() {
        if let Some(f) = &mut j.translation {
            if extend(f, last) {
                return;
            }
        }
        if let Some(f) = &mut j.rotation {
            if extend(f, last) {
                return;
            }
        }
        if let Some(f) = &mut j.scale {
            if extend(f, last) {
                return;
            }
        }
    }
    // nothing moves: hold the first joint's rest rotation for the whole take
    if let Some(r) = rest.first() {
        let track = Fitted {
            interpolation: Interpolation::Step,
            frames: vec![0, last],
            values: vec![r.rotation; 2],
        };
        match joints.first_mut() {
            Some(j0) if j0.joint == 0 => j0.rotation = Some(track),
            _ => joints.insert(
                0,
                ReducedJoint {
                    joint: 0,
                    translation: None,
                    rotation: Some(track),
                    scale: None,
                },
            ),
        }
    }
}

/// Maximum and 99th percentile (nearest rank) of the errors (reordered).
pub(super) fn stats(errors: &mut [f64]) -> (f64, f64) {
    if errors.is_empty() {
        return (0.0, 0.0);
    }
    // the value at the rank as a sort would place it, without sorting (a long take on a big
    // rig measures tens of millions of errors)
    let rank = ((errors.len() as f64 * 0.99).ceil() as usize).clamp(1, errors.len());
    let (_, p99, above) = errors.select_nth_unstable_by(rank - 1, f64::total_cmp);
    let p99 = *p99;
    let max = above
        .iter()
        .copied()
        .fold(p99, |a, b| match a.total_cmp(&b) {
            std::cmp::Ordering::Less => b,
            _ => a,
        });
    (max, p99)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Max and nearest-rank 99th percentile of 1..=200 mm are 200 and 198.
    #[test]
    fn percentile() {
        let mut e: Vec<f64> = (1..=200).rev().map(|x| x as f64).collect();
        assert_eq!(stats(&mut e), (200.0, 198.0));
        assert_eq!(stats(&mut []), (0.0, 0.0));
        // as a sort finds them, on values in no order with repeats
        let mut e: Vec<f64> = (0..1000u64)
            .map(|i| ((i * 7919) % 613) as f64 * 0.5)
            .collect();
        let mut sorted = e.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(stats(&mut e), (sorted[999], sorted[989]));
    }
}
