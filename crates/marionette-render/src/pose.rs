//! Evaluating a model's pose for drawing: local pose (from a [`PoseSource`] or given) ->
//! local-to-model -> skin palettes, the per-character palette layout of [`PaletteLayout`], the
//! morph weights and the active targets the shaders read ([`Poser::append_morph_table`]), and
//! the skinned bounds of a posed character (for auto-framing).

use glam::{Mat4, Vec3};

use super::camera::Bounds;
use super::gpu_model::PaletteLayout;
use marionette_anim::Model;
use marionette_anim::PoseSource;
use marionette_anim::{local_to_model, skin_vertices, Transform};

/// Pooled buffers for evaluating one model's pose (no allocation per frame after the first).
#[derive(Clone, Debug, Default)]
pub struct Poser {
    local: Vec<Transform>,
    model_space: Vec<Mat4>,
    /// World matrix (armature x model-space matrix) of each joint of the last pose.
    pub joint_world: Vec<Mat4>,
    skin_palettes: Vec<Vec<Mat4>>,
    /// Morph weights of the last pose (the model's morph targets, in order).
    morphs: Vec<f32>,
}

impl Poser {
    /// Buffers sized for `model`.
    pub fn new(model: &Model) -> Self {
        let n = model.skeleton.len();
        Self {
            local: vec![Transform::IDENTITY; n],
            model_space: vec![Mat4::IDENTITY; n],
            joint_world: vec![Mat4::IDENTITY; n],
            skin_palettes: model
                .skins
                .iter()
                .map(|s| vec![Mat4::IDENTITY; s.joints.len()])
                .collect(),
            morphs: model.skeleton.morphs().defaults().to_vec(),
        }
    }

    /// Sets the morph weights of the current pose (one per morph target of `model`; missing
    /// ones take their defaults, NaN counts as 0).
    pub fn set_morphs(&mut self, model: &Model, weights: &[f32]) {
        let defaults = model.skeleton.morphs().defaults();
        self.morphs.clear();
        self.morphs
            .extend(defaults.iter().enumerate().map(|(k, d)| {
                let w = weights.get(k).copied().unwrap_or(*d);
                if w.is_nan() {
                    0.0
                } else {
                    w
                }
            }));
    }

    /// The morph weights of the current pose.
    pub fn morphs(&self) -> &[f32] {
        &self.morphs
    }

    /// Appends the current pose's morph table (see `skinning.wgsl`: one header per morph set,
    /// then an entry per target whose weight is not zero) to `table` and returns its base
    /// (what the instance's `morph_base` is). Nothing for a model without morph targets.
    pub fn append_morph_table(&self, model: &Model, table: &mut Vec<[u32; 2]>) -> u32 {
        let morphs = model.skeleton.morphs();
        let base = table.len();
        let sets = morphs.sets().len();
        if sets == 0 {
            return 0;
        }
        table.resize(base + sets, [0, 0]);
        for s in 0..sets {
            let first = table.len();
            for (t, k) in morphs.range(s).enumerate() {
                let w = self.morphs.get(k).copied().unwrap_or(0.0);
                if w != 0.0 {
                    table.push([t as u32, w.to_bits()]);
                }
            }
            table[base + s] = [first as u32, (table.len() - first) as u32];
        }
        base as u32
    }

    /// Poses the model in its rest pose.
    pub fn pose_rest(&mut self, model: &Model) {
        self.local.copy_from_slice(model.skeleton.rest_pose());
        self.set_morphs(model, &[]);
        self.finish(model);
    }

    /// Poses the model with `source`'s pose at `time` and returns the placement the source
    /// gives. Missing trailing joints keep their rest transform; extra ones are ignored.
    pub fn pose_source(&mut self, model: &Model, source: &mut dyn PoseSource, time: f32) -> Mat4 {
        let world = source.pose_at(time, &mut self.local);
        let rest = model.skeleton.rest_pose();
        let n = self.local.len().min(rest.len());
        self.local.truncate(n);
        self.local.extend_from_slice(&rest[n..]);
        self.set_morphs(model, source.morphs());
        self.finish(model);
        world
    }

    /// Poses the model with given local joint transforms (e.g. a blend graph's output; one
    /// per joint, parent-first), morph weights at their defaults ([`Poser::set_morphs`] sets
    /// them). Missing trailing joints keep their rest transform.
    pub fn pose_local(&mut self, model: &Model, local: &[Transform]) {
        let rest = model.skeleton.rest_pose();
        let n = local.len().min(self.local.len());
        self.local[..n].copy_from_slice(&local[..n]);
        self.local[n..].copy_from_slice(&rest[n..]);
        self.set_morphs(model, &[]);
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

    /// Palettes of each skin of the last pose.
    pub fn skin_palettes(&self) -> &[Vec<Mat4>] {
        &self.skin_palettes
    }
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

    /// Posing with the rest pose's local transforms equals posing at rest.
    #[test]
    fn pose_local_rest_matches_rest() {
        let model = marionette_anim::mannequin::build();
        let (mut a, mut b) = (Poser::new(&model), Poser::new(&model));
        a.pose_rest(&model);
        b.pose_local(&model, model.skeleton.rest_pose());
        assert_eq!(a.joint_world, b.joint_world);
        assert_eq!(a.skin_palettes(), b.skin_palettes());
    }

    /// A placement 3 m along +X moves the posed bounds by exactly 3 m.
    #[test]
    fn posed_bounds_follow_placement() {
        let model = marionette_anim::mannequin::build();
        let mut poser = Poser::new(&model);
        poser.pose_rest(&model);
        let (mut here, mut there) = (Bounds::EMPTY, Bounds::EMPTY);
        let mut scratch = Vec::new();
        add_posed_bounds(&model, &poser, Mat4::IDENTITY, &mut here, &mut scratch);
        let moved = Mat4::from_translation(Vec3::new(3.0, 0.0, 0.0));
        add_posed_bounds(&model, &poser, moved, &mut there, &mut scratch);
        assert!((there.min - here.min - Vec3::X * 3.0).length() < 1e-5);
        assert!((there.max - here.max - Vec3::X * 3.0).length() < 1e-5);
    }

    /// A source that gives only the first joints is padded with the rest pose, and its
    /// placement is returned.
    #[test]
    fn pose_source_pads_with_rest() {
        struct Root(Mat4);
        impl PoseSource for Root {
            fn range(&self) -> (f32, f32) {
                (0.0, 1.0)
            }
            fn pose_at(&mut self, _: f32, local: &mut Vec<Transform>) -> Mat4 {
                local.clear();
                local.push(Transform::IDENTITY);
                self.0
            }
        }
        let model = marionette_anim::mannequin::build();
        let mut rest = model.skeleton.rest_pose().to_vec();
        rest[0] = Transform::IDENTITY;
        let (mut a, mut b) = (Poser::new(&model), Poser::new(&model));
        let place = Mat4::from_translation(Vec3::Y);
        assert_eq!(a.pose_source(&model, &mut Root(place), 0.5), place);
        b.pose_local(&model, &rest);
        assert_eq!(a.joint_world, b.joint_world);
    }
}
