//! Baking a clip of a rig: resampling it at every frame (through the runtime's sampler, the
//! same path the preview plays it through) and halfway between frames, so it can be reduced
//! and written back. The last frame sits at the clip's exact end, so a clip whose length is
//! not a whole number of frames keeps its duration.

use super::{frame_count, BakedTake, Grid, TakeMeta};
use crate::anim::time::step_time;
use crate::anim::{Clip, SamplingCache, Skeleton};

/// Bakes `clip` at `fps` from time 0 to its end (glTF time: a clip whose keys start late holds
/// its first key until then). `progress(done, total)` is called after every frame.
pub fn bake_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    fps: f32,
    progress: &mut dyn FnMut(usize, usize),
) -> BakedTake {
    let frames = frame_count(clip.end, fps);
    let mut grid = Grid::new(fps, frames);
    // the last frame is the clip's end unless that is (within float noise) its frame time
    let end = (frames > 1 && (grid.end - clip.end).abs() > 1e-6)
        .then_some(clip.end.max(step_time(frames as u64 - 2, fps) + 1e-6));
    if let Some(e) = end {
        grid.end = e;
    }
    let mut cache = SamplingCache::new();
    let rest = skeleton.rest_pose();
    let mut sample = |time: f32| {
        let mut pose = rest.to_vec();
        clip.sample(time, rest, &mut cache, &mut pose);
        pose
    };
    let mut out = Vec::with_capacity(frames);
    for i in 0..frames {
        out.push(sample(grid.time(i)));
        progress(i + 1, frames);
    }
    let halves = (0..frames.saturating_sub(1))
        .map(|i| sample(grid.half(i)))
        .collect();
    let mut animated = vec![[false; 3]; skeleton.len()];
    for t in &clip.tracks {
        if let Some(a) = animated.get_mut(t.joint as usize) {
            *a = [
                t.translation.is_some(),
                t.rotation.is_some(),
                t.scale.is_some(),
            ];
        }
    }
    BakedTake {
        name: clip.name.clone(),
        fps,
        frames: out,
        halves,
        end,
        animated,
        meta: TakeMeta::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Interpolation, JointTracks, Track, Transform};
    use glam::{Mat4, Vec3};

    /// A two-key translation clip bakes to the interpolated value at each frame, held past the end.
    #[test]
    fn bakes_linear_clip() {
        let s = Skeleton::new(
            vec!["root".into()],
            vec![None],
            vec![Transform::IDENTITY],
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton;
        let mut jt = JointTracks::new(0);
        jt.translation = Some(Track {
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0)],
        });
        let clip = Clip::new("slide", vec![jt]);
        let take = bake_clip(&s, &clip, 4.0, &mut |_, _| {});
        assert_eq!(take.frames.len(), 5);
        assert_eq!(take.frames[2][0].translation, Vec3::new(1.5, 0.0, 0.0));
        assert_eq!(take.frames[4][0].translation, Vec3::new(3.0, 0.0, 0.0));
        assert_eq!(take.name, "slide");
    }
}
