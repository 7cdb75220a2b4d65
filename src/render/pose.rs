//! Evaluating a model's pose for drawing: clip sampling -> local-to-model -> skin palettes, the
//! per-character palette layout of [`PaletteLayout`], and skinned bounds over a clip (for
//! auto-framing).

use glam::{Mat4, Vec3};

use super::camera::Bounds;
use super::gpu_model::PaletteLayout;
use crate::anim::{local_to_model, skin_vertices, Clip, SamplingCache, Transform};
use crate::io::Model;

/// Pooled buffers for evaluating one model's pose (no allocation per frame after the first).
#[derive(Clone, Debug, Default)]
pub struct Poser {
    cache: SamplingCache,
    local: Vec<Transform>,
    model_space: Vec<Mat4>,
    /// World matrix (armature x model-space matrix) of each joint after [`Self::pose`].
    pub joint_world: Vec<Mat4>,
    skin_palettes: Vec<Vec<Mat4>>,
}

impl Poser {
    /// Buffers sized for `model`.
    pub fn new(model: &Model) -> Self {
        let n = model.skeleton.len();
        Self {
            cache: SamplingCache::new(),
            local: vec![Transform::IDENTITY; n],
            model_space: vec![Mat4::IDENTITY; n],
            joint_world: vec![Mat4::IDENTITY; n],
            skin_palettes: model
                .skins
                .iter()
                .map(|s| vec![Mat4::IDENTITY; s.joints.len()])
                .collect(),
        }
    }

    /// Poses the model at `time` seconds of `clip` (glTF key time; outside the keys the first or
    /// last key holds), or at rest when `clip` is `None`.
    pub fn pose(&mut self, model: &Model, clip: Option<&Clip>, time: f32) {
        let skeleton = &model.skeleton;
        let rest = skeleton.rest_pose();
        match clip {
            Some(c) => c.sample(time, rest, &mut self.cache, &mut self.local),
            None => self.local.copy_from_slice(rest),
        }
        local_to_model(
            skeleton,
            &self.local,
            0..skeleton.len(),
            &mut self.model_space,
        );
        let armature = skeleton.armature();
        for (w, m) in self.joint_world.iter_mut().zip(&self.model_space) {
            *w = armature * *m;
        }
        for (skin, out) in model.skins.iter().zip(self.skin_palettes.iter_mut()) {
            skin.palette(&self.model_space, armature, out);
        }
    }

    /// Appends the posed character's palette (see [`PaletteLayout`]) to `out`.
    pub fn append_palette(&self, model: &Model, layout: &PaletteLayout, out: &mut Vec<Mat4>) {
        layout.fill(
            model.skeleton.armature(),
            &self.skin_palettes,
            &self.joint_world,
            out,
        );
    }

    /// Palettes of each skin after [`Self::pose`].
    pub fn skin_palettes(&self) -> &[Vec<Mat4>] {
        &self.skin_palettes
    }
}

/// World-space bounds of the skinned meshes (and joints) at `samples` evenly spaced times of
/// `clip` (the rest pose when `None`).
pub fn skinned_bounds(model: &Model, clip: Option<&Clip>, samples: usize) -> Bounds {
    let mut poser = Poser::new(model);
    let mut bounds = Bounds::EMPTY;
    let mut pos = Vec::new();
    let mut no_normals = Vec::new();
    let times: Vec<Option<f32>> = match clip {
        Some(c) => {
            let n = samples.max(2);
            (0..n)
                .map(|i| Some(c.start + (c.end - c.start) * i as f32 / (n - 1) as f32))
                .collect()
        }
        None => vec![None],
    };
    for t in times {
        poser.pose(model, clip, t.unwrap_or(0.0));
        for m in &poser.joint_world {
            bounds.add(m.w_axis.truncate());
        }
        for mesh in &model.meshes {
            match mesh.skin.and_then(|s| poser.skin_palettes.get(s)) {
                Some(palette) => {
                    pos.resize(mesh.positions.len(), Vec3::ZERO);
                    skin_vertices(
                        palette,
                        &mesh.joints,
                        &mesh.weights,
                        &mesh.positions,
                        &[],
                        &mut pos,
                        &mut no_normals,
                    );
                    pos.iter().for_each(|p| bounds.add(*p));
                }
                None => {
                    let m = mesh
                        .node_joint
                        .and_then(|j| poser.joint_world.get(j as usize).copied())
                        .unwrap_or(model.skeleton.armature());
                    mesh.positions
                        .iter()
                        .for_each(|p| bounds.add(m.transform_point3(*p)));
                }
            }
        }
    }
    bounds
}
