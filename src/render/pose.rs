//! Evaluating a model's pose for drawing: clip sampling -> local-to-model -> skin palettes, the
//! per-character palette layout of [`PaletteLayout`], and skinned bounds over a clip (for
//! auto-framing).

use glam::{Mat4, Vec3};

use super::camera::Bounds;
use super::gpu_model::PaletteLayout;
use crate::anim::{local_to_model, skin_vertices, Clip, SamplingCache, Transform};
use crate::Model;

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
        self.finish(model);
    }

    /// Poses the model with given local joint transforms (e.g. a blend graph's output; one
    /// per joint, parent-first). Missing trailing joints keep their rest transform.
    pub fn pose_local(&mut self, model: &Model, local: &[Transform]) {
        let rest = model.skeleton.rest_pose();
        let n = local.len().min(self.local.len());
        self.local[..n].copy_from_slice(&local[..n]);
        self.local[n..].copy_from_slice(&rest[n..]);
        self.finish(model);
    }

    /// Local -> model space, joint world matrices and skin palettes from `self.local`.
    fn finish(&mut self, model: &Model) {
        let skeleton = &model.skeleton;
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
        add_posed_bounds(model, &poser, Mat4::IDENTITY, &mut bounds, &mut pos);
    }
    bounds
}

/// Adds the joints and skinned vertices of `poser`'s last pose, placed at `world`, to
/// `bounds` (`scratch` is reused for skinned positions).
pub fn add_posed_bounds(
    model: &Model,
    poser: &Poser,
    world: Mat4,
    bounds: &mut Bounds,
    scratch: &mut Vec<Vec3>,
) {
    let pos = scratch;
    let mut no_normals = Vec::new();
    {
        for m in &poser.joint_world {
            bounds.add(world.transform_point3(m.w_axis.truncate()));
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
                        pos,
                        &mut no_normals,
                    );
                    pos.iter()
                        .for_each(|p| bounds.add(world.transform_point3(*p)));
                }
                None => {
                    let m = mesh
                        .node_joint
                        .and_then(|j| poser.joint_world.get(j as usize).copied())
                        .unwrap_or(model.skeleton.armature());
                    mesh.positions
                        .iter()
                        .for_each(|p| bounds.add((world * m).transform_point3(*p)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Posing with the rest pose's local transforms equals posing without a clip.
    #[test]
    fn pose_local_rest_matches_rest() {
        let model = crate::mannequin::build();
        let (mut a, mut b) = (Poser::new(&model), Poser::new(&model));
        a.pose(&model, None, 0.0);
        b.pose_local(&model, model.skeleton.rest_pose());
        assert_eq!(a.joint_world, b.joint_world);
        assert_eq!(a.skin_palettes(), b.skin_palettes());
    }

    /// A placement 3 m along +X moves the posed bounds by exactly 3 m.
    #[test]
    fn posed_bounds_follow_placement() {
        let model = crate::mannequin::build();
        let mut poser = Poser::new(&model);
        poser.pose(&model, None, 0.0);
        let (mut here, mut there) = (Bounds::EMPTY, Bounds::EMPTY);
        let mut scratch = Vec::new();
        add_posed_bounds(&model, &poser, Mat4::IDENTITY, &mut here, &mut scratch);
        let moved = Mat4::from_translation(Vec3::new(3.0, 0.0, 0.0));
        add_posed_bounds(&model, &poser, moved, &mut there, &mut scratch);
        assert!((there.min - here.min - Vec3::X * 3.0).length() < 1e-5);
        assert!((there.max - here.max - Vec3::X * 3.0).length() < 1e-5);
    }
}
