//! The unreduced form of a bake: every channel of every joint (and every morph set's weights)
//! keyed at every frame (LINEAR), as a naive exporter writes it. Used as the input of other reducers in comparisons.

use super::reduced::{ReduceStats, ReducedJoint, ReducedTake};
use super::{BakeTakeError, BakedTake, Fitted, ReducedMorph};
use marionette_anim::{continuous_rotations, Interpolation, JointIndex, Skeleton};

/// Keys every channel of every joint at every frame (rotations hemisphere-continuous).
pub fn unreduced(skeleton: &Skeleton, take: &BakedTake) -> Result<ReducedTake, BakeTakeError> {
    take.check(skeleton)?;
    let n = take.frames.len();
    let frames: Vec<u32> = (0..n as u32).collect();
    let track = |values| Fitted {
        interpolation: Interpolation::Linear,
        frames: frames.clone(),
        values,
    };
    let joints = (0..skeleton.len())
        .map(|j| {
            let rot = continuous_rotations(take.frames.iter().map(|f| f[j].rotation.normalize()));
            ReducedJoint {
                joint: j as JointIndex,
                translation: Some(track(
                    take.frames.iter().map(|f| f[j].translation).collect(),
                )),
                rotation: Some(Fitted {
                    interpolation: Interpolation::Linear,
                    frames: frames.clone(),
                    values: rot,
                }),
                scale: Some(track(take.frames.iter().map(|f| f[j].scale).collect())),
            }
        })
        .collect();
    let keys = n * skeleton.len() * 3;
    let morph_layout = skeleton.morphs();
    let morphs: Vec<ReducedMorph> = if take.morphs.frames.is_empty() {
        Vec::new()
    } else {
        (0..morph_layout.sets().len())
            .map(|s| {
                let r = morph_layout.range(s);
                ReducedMorph {
                    // (exact: the layout came from a rig whose sets a u16 indexes)
                    set: s as u16,
                    interpolation: Interpolation::Linear,
                    frames: frames.clone(),
                    values: take
                        .morphs
                        .frames
                        .iter()
                        .flat_map(|f| f[r.clone()].to_vec())
                        .collect(),
                }
            })
            .collect()
    };
    let morph_stats = super::MorphStats {
        channels: morphs.len(),
        keys: morphs.len() * n,
        raw_keys: morphs.len() * n,
        ..super::MorphStats::default()
    };
    Ok(ReducedTake {
        name: take.name.clone(),
        grid: take.grid.clone(),
        source_times: take.exact_between,
        tolerance: 0.0,
        curves: super::Curves::Linear,
        quantized: false,
        joints,
        morphs,
        meta: take.meta.clone(),
        report: ReduceStats {
            take: take.name.clone(),
            frames: n,
            raw_keys: keys,
            keys,
            channels: skeleton.len() * 3,
            max_error: 0.0,
            p99_error: 0.0,
            worst: None,
            shells: super::ShellRule::Floor,
            against_source: None,
            passes: 0,
            morphs: morph_stats,
        },
    })
}
