//! A model's clips as a [`PoseSource`]: the adapter that lets the renderer draw authored clips
//! the same way it draws a script's graph. The renderer itself only draws poses; sampling a clip
//! happens here, with the runtime's [`Clip::sample`] and a pooled [`SamplingCache`].

use glam::Mat4;

use super::RenderError;
use marionette_anim::Model;
use marionette_anim::PoseSource;
use marionette_anim::{Clip, Morphs, SamplingCache, Skeleton, Transform};

/// One clip of a skeleton (or its rest pose) posed at any time, standing at the origin.
///
/// The range is the clip's key range `[start, end]` (glTF key times: outside the keys the first
/// or last key holds); the rest pose has the empty range `(0, 0)`.
#[derive(Clone, Debug)]
pub struct ClipPoses<'m> {
    clip: Option<&'m Clip>,
    rest: &'m [Transform],
    morph_layout: &'m Morphs,
    /// The morph weights of the last pose.
    morphs: Vec<f32>,
    cache: SamplingCache,
}

impl<'m> ClipPoses<'m> {
    /// Clip `clip` of `model` (`None`: the rest pose); fails when the index is out of range.
    pub fn new(model: &'m Model, clip: Option<usize>) -> Result<Self, RenderError> {
        let clip = match clip {
            Some(i) => Some(model.clips.get(i).ok_or_else(|| {
                RenderError::NotFound(format!("clip {i} (the model has {})", model.clips.len()))
            })?),
            None => None,
        };
        Ok(Self::of(&model.skeleton, clip))
    }

    /// `clip` played on `skeleton` (`None`: the rest pose).
    pub fn of(skeleton: &'m Skeleton, clip: Option<&'m Clip>) -> Self {
        Self {
            clip,
            rest: skeleton.rest_pose(),
            morph_layout: skeleton.morphs(),
            morphs: skeleton.morphs().defaults().to_vec(),
            cache: SamplingCache::new(),
        }
    }

    /// The rest pose of `model`.
    pub fn rest(model: &'m Model) -> Self {
        Self::of(&model.skeleton, None)
    }

    /// The clip played (`None`: the rest pose).
    pub fn clip(&self) -> Option<&'m Clip> {
        self.clip
    }
}

impl PoseSource for ClipPoses<'_> {
    fn range(&self) -> (f32, f32) {
        self.clip.map_or((0.0, 0.0), |c| (c.start, c.end))
    }

    /// The clip sampled at `time` (one transform per skeleton joint, and its morph weights);
    /// always at the origin.
    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4 {
        local.clear();
        local.extend_from_slice(self.rest);
        self.morphs.copy_from_slice(self.morph_layout.defaults());
        if let Some(clip) = self.clip {
            clip.sample(time, self.rest, &mut self.cache, local);
            let layout = self.morph_layout;
            clip.sample_morphs(time, layout, &mut self.cache, &mut self.morphs);
        }
        Mat4::IDENTITY
    }

    fn morphs(&self) -> &[f32] {
        &self.morphs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rest source has an empty range and gives the rest pose; a clip source gives the
    /// clip's key range and its sampled pose.
    #[test]
    fn rest_and_clip() {
        let model = marionette_anim::mannequin::build();
        let mut rest = ClipPoses::rest(&model);
        let mut local = Vec::new();
        assert_eq!(rest.range(), (0.0, 0.0));
        assert_eq!(rest.pose_at(0.3, &mut local), Mat4::IDENTITY);
        assert_eq!(local.as_slice(), model.skeleton.rest_pose());

        let mut walk = ClipPoses::new(&model, Some(1)).unwrap();
        let clip = &model.clips[1];
        assert_eq!(walk.range(), (clip.start, clip.end));
        walk.pose_at(0.3, &mut local);
        let mut expected = model.skeleton.rest_pose().to_vec();
        clip.sample(
            0.3,
            model.skeleton.rest_pose(),
            &mut SamplingCache::new(),
            &mut expected,
        );
        assert_eq!(local, expected);
        assert!(ClipPoses::new(&model, Some(model.clips.len())).is_err());
    }
}
