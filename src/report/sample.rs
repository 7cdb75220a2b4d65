//! The pose of a model at a time, per joint: local TRS and the world matrix of the joint's node
//! in the glTF scene, and the morph weights of each mesh with morph targets, for comparison
//! with any glTF viewer.
//!
//! Sampling follows glTF semantics (no trimming; before the first key a track holds its first
//! value, after the last key its last value). World matrices are accumulated in f64 from the
//! f32 sampled locals ([`local_to_model_f64`] with the armature as root), so large models stay
//! within 1e-4 of three.js.

use glam::DMat4;
use serde::Serialize;

use crate::anim::{world_matrices, SamplingCache, Transform};
use crate::model::ClipLookupError;
use crate::Model;

/// Pose of a model at one time (`marionette sample --json` prints exactly this).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleReport {
    /// Clip sampled (`None`: the rest pose).
    pub clip: Option<String>,
    /// Time sampled, seconds.
    pub time: f32,
    /// The joints reported.
    pub joints: Vec<JointSample>,
    /// The morph weights of each mesh instance with morph targets (absent when the model has
    /// none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub morphs: Vec<MorphSample>,
}

/// The morph weights of one mesh instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MorphSample {
    /// The mesh's name.
    pub mesh: String,
    /// The glTF node carrying it (`None` for a model built in memory).
    pub node: Option<usize>,
    /// Target names.
    pub targets: Vec<String>,
    /// One weight per target.
    pub weights: Vec<f32>,
}

/// The weights `weights` (one per morph target of `morphs`), set by set.
pub fn morph_samples(morphs: &crate::anim::Morphs, weights: &[f32]) -> Vec<MorphSample> {
    morphs
        .sets()
        .iter()
        .enumerate()
        .map(|(s, set)| MorphSample {
            mesh: set.name.clone(),
            node: set.node,
            targets: set.targets.clone(),
            weights: weights.get(morphs.range(s)).unwrap_or(&[]).to_vec(),
        })
        .collect()
}

/// One joint's pose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointSample {
    /// Joint name.
    pub name: String,
    /// glTF node index.
    pub node: usize,
    /// glTF node index of the parent joint (`None` for roots).
    pub parent: Option<usize>,
    /// Local translation.
    pub translation: [f32; 3],
    /// Local rotation `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Local scale.
    pub scale: [f32; 3],
    /// World matrix of the node in the glTF scene (16 floats, column-major).
    pub world: [f64; 16],
}

/// Why a sample could not be taken.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SampleError {
    /// No clip by that name or index.
    #[error(transparent)]
    Clip(#[from] ClipLookupError),
    /// A skin index past the end.
    #[error("skin index {index} is out of range (the model has {count} skins)")]
    SkinOutOfRange {
        /// The index asked for.
        index: usize,
        /// Number of skins.
        count: usize,
    },
    /// The time is NaN or infinite.
    #[error("time {0} is not a finite number of seconds")]
    BadTime(f32),
}

/// A sampled pose: every joint's local transform and f64 world matrix, and the morph weights.
struct Sampled {
    local: Vec<Transform>,
    world: Vec<DMat4>,
    weights: Vec<f32>,
}

/// The model's pose at `time` of `clip` (`None`: the rest pose).
fn pose(model: &Model, clip: Option<usize>, time: f32) -> Result<Sampled, SampleError> {
    if !time.is_finite() {
        return Err(SampleError::BadTime(time));
    }
    let sk = &model.skeleton;
    let rest = sk.rest_pose();
    let mut local = rest.to_vec();
    let mut weights = sk.morphs().defaults().to_vec();
    if let Some(c) = clip {
        let clip = model.clips.get(c).ok_or(ClipLookupError::ClipOutOfRange {
            index: c,
            count: model.clips.len(),
        })?;
        let mut cache = SamplingCache::new();
        clip.sample(time, rest, &mut cache, &mut local);
        clip.sample_morphs(time, sk.morphs(), &mut cache, &mut weights);
    }
    let mut world = Vec::new();
    world_matrices(sk, &local, &mut world);
    Ok(Sampled {
        local,
        world,
        weights,
    })
}

fn report(
    model: &Model,
    clip: Option<usize>,
    time: f32,
    joints: impl Iterator<Item = usize>,
) -> Result<SampleReport, SampleError> {
    let Sampled {
        local,
        world,
        weights,
    } = pose(model, clip, time)?;
    let sk = &model.skeleton;
    let node = |j: usize| model.joint_nodes.get(j).copied().unwrap_or(j);
    let joints = joints
        .filter(|&j| j < local.len())
        .map(|j| JointSample {
            name: sk.names()[j].clone(),
            node: node(j),
            parent: sk.parents()[j].map(|p| node(p as usize)),
            translation: local[j].translation.to_array(),
            rotation: local[j].rotation.to_array(),
            scale: local[j].scale.to_array(),
            world: world[j].to_cols_array(),
        })
        .collect();
    Ok(SampleReport {
        clip: clip
            .and_then(|c| model.clips.get(c))
            .map(|c| c.name.clone()),
        time,
        joints,
        morphs: morph_samples(sk.morphs(), &weights),
    })
}

/// Samples every skeleton joint (parent-first order) at `time` of clip `clip` (`None`: the
/// rest pose).
pub fn sample_model(
    model: &Model,
    clip: Option<usize>,
    time: f32,
) -> Result<SampleReport, SampleError> {
    report(model, clip, time, 0..model.skeleton.len())
}

/// Samples the joints of skin `skin`, in the skin's joint order.
pub fn sample_skin(
    model: &Model,
    clip: Option<usize>,
    time: f32,
    skin: usize,
) -> Result<SampleReport, SampleError> {
    let s = model.skins.get(skin).ok_or(SampleError::SkinOutOfRange {
        index: skin,
        count: model.skins.len(),
    })?;
    report(model, clip, time, s.joints.iter().map(|&j| j as usize))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Clip, Interpolation, JointTracks, Skeleton, Track};
    use glam::{Mat4, Vec3};

    /// A two-joint chain under a scaled armature: the child's world matrix is armature * root *
    /// child, sampled halfway along a LINEAR translation, and past the end holds the last key.
    #[test]
    fn world_matrices_and_clip_selection() {
        let built = Skeleton::new(
            vec!["root".into(), "tip".into()],
            vec![None, Some(0)],
            vec![
                Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
                Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            ],
            Mat4::from_scale(Vec3::splat(2.0)),
        )
        .expect("valid skeleton");
        let mut tracks = JointTracks::new(1);
        tracks.translation = Some(Track {
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![Vec3::new(0.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.0)],
        });
        let model = Model {
            skeleton: built.skeleton,
            joint_nodes: vec![5, 7],
            clips: vec![Clip::new("slide", vec![tracks])],
            ..Default::default()
        };
        let r = sample_model(&model, Some(0), 0.5).expect("sample");
        assert_eq!(r.clip.as_deref(), Some("slide"));
        assert_eq!(r.joints[1].node, 7);
        assert_eq!(r.joints[1].parent, Some(5));
        // armature (x2) * (0,1,0) * (1,1,0) => translation (2, 4, 0)
        assert_eq!(&r.joints[1].world[12..15], &[2.0, 4.0, 0.0]);
        let end = sample_model(&model, Some(0), 9.0).expect("sample");
        assert_eq!(end.joints[1].translation, [2.0, 1.0, 0.0]);
        let rest = sample_model(&model, None, 0.5).expect("sample");
        assert_eq!(rest.clip, None);
        assert_eq!(rest.joints[1].translation, [0.0, 1.0, 0.0]);
        assert_eq!(model.find_clip("slide"), Ok(0));
        assert_eq!(model.find_clip("0"), Ok(0));
        assert!(matches!(
            model.find_clip("3"),
            Err(ClipLookupError::ClipOutOfRange { index: 3, count: 1 })
        ));
        assert!(matches!(
            model.find_clip("walk"),
            Err(ClipLookupError::NoSuchClip { .. })
        ));
        assert!(sample_model(&model, None, f32::NAN).is_err());
    }
}
