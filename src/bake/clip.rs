//! Baking a clip of a rig: resampling it at every frame (through the runtime's sampler, the
//! same path the preview plays it through) so it can be reduced and written back.

use super::{bake_frames, frame_count, BakedTake};
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
    let mut cache = SamplingCache::new();
    let rest = skeleton.rest_pose();
    let result = bake_frames(
        skeleton,
        &clip.name,
        fps,
        frames,
        |_, time, pose| {
            clip.sample(time, rest, &mut cache, pose);
            Ok::<(), std::convert::Infallible>(())
        },
        progress,
    );
    match result {
        Ok(t) => t,
        Err(never) => match never {},
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
