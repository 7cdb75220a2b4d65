//! Where a rig's floor is in its clips: the height its feet have when planted
//! ([`planted_height`]), what a retarget needs to land a capture on the character's floor.
//!
//! A capture's rest pose says nothing about its floor: many exports (Blender's BVH import, most
//! mocap files) rest with the hips at the origin and the feet below it, while the motion holds
//! the hips a leg's length above the floor. The feet say where the floor is: in every frame of
//! walking, standing or running one foot is on it (but in a run's flight), so the lowest foot
//! of a frame, at a low percentile over the clips' frames, is a planted foot's height. Measured
//! on the leg ends' joints, whatever they are (an ankle, a marker on a shoe): the retarget puts
//! the character's own foot at its own standing height when the source's is at this height.

use glam::Vec3;

use super::humanoid::Humanoid;
use super::reference::model_pose;
use crate::{Clip, SamplingCache, Skeleton, Transform};

/// The most poses sampled per clip (evenly over its keys' range).
const SAMPLES_PER_CLIP: usize = 240;

/// The fraction of frames below the measure: the lowest foot's 10th percentile, so a glitch
/// that dips a foot in a few frames does not set the floor.
const PERCENTILE: f32 = 0.10;

/// The height, along `up` in the rig's model space, of the lowest of its leg ends when planted
/// over `clips`; `None` without legs with ends, or without clips.
pub fn planted_height(skeleton: &Skeleton, clips: &[&Clip], up: Vec3) -> Option<f32> {
    let body = Humanoid::find(skeleton);
    let ends: Vec<usize> = body
        .legs
        .iter()
        .flatten()
        .filter_map(|l| l.end.map(usize::from))
        .collect();
    if ends.is_empty() {
        return None;
    }
    let rest = skeleton.rest_pose();
    let mut local = rest.to_vec();
    let mut model = vec![Transform::IDENTITY; rest.len()];
    let mut cache = SamplingCache::default();
    let mut lowest = Vec::new();
    for clip in clips {
        let n = SAMPLES_PER_CLIP;
        for i in 0..n {
            let t = clip.start + (clip.end - clip.start) * i as f32 / (n - 1) as f32;
            clip.sample(t, rest, &mut cache, &mut local);
            model_pose(skeleton, &local, &mut model);
            let low = ends
                .iter()
                .map(|&e| model[e].translation.dot(up))
                .fold(f32::INFINITY, f32::min);
            if low.is_finite() {
                lowest.push(low);
            }
            if clip.end <= clip.start {
                break;
            }
        }
    }
    if lowest.is_empty() {
        return None;
    }
    lowest.sort_by(f32::total_cmp);
    let k = ((lowest.len() - 1) as f32 * PERCENTILE).round() as usize;
    Some(lowest[k])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mannequin;

    /// The mannequin's clips plant its feet at its rest's ankle height; lifted a metre (a
    /// capture whose rest hangs below its motion), the floor moves with it.
    #[test]
    fn the_floor_is_where_the_feet_are_planted() {
        let m = mannequin::build();
        let clips: Vec<&Clip> = m.clips.iter().collect();
        let h = planted_height(&m.skeleton, &clips, Vec3::Y).unwrap();
        let ankle = m
            .skeleton
            .find("L_foot")
            .map(|j| {
                let mut w = vec![Transform::IDENTITY; m.skeleton.len()];
                model_pose(&m.skeleton, m.skeleton.rest_pose(), &mut w);
                w[j as usize].translation.y
            })
            .unwrap();
        assert!(
            (h - ankle).abs() < 0.03,
            "planted {h} vs rest ankle {ankle}"
        );
        let mut lifted: Vec<Clip> = m.clips.clone();
        let root_rest = m.skeleton.rest_pose()[0].translation;
        for c in &mut lifted {
            if !c.tracks.iter().any(|t| t.joint == 0) {
                c.tracks.insert(0, crate::JointTracks::new(0));
            }
            let t = c.tracks.iter_mut().find(|t| t.joint == 0).unwrap();
            let tr = t.translation.get_or_insert_with(|| crate::Track {
                interpolation: crate::Interpolation::Linear,
                times: vec![0.0],
                values: vec![root_rest],
            });
            for v in &mut tr.values {
                v.y += 1.0;
            }
        }
        let refs: Vec<&Clip> = lifted.iter().collect();
        let lifted_h = planted_height(&m.skeleton, &refs, Vec3::Y).unwrap();
        assert!((lifted_h - h - 1.0).abs() < 1e-3, "{lifted_h} vs {h}");
        assert_eq!(planted_height(&m.skeleton, &[], Vec3::Y), None);
    }
}
