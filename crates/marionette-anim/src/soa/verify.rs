//! The SoA path checked against the scalar one on a whole model: every clip at 60 fps through
//! both samplers and both local-to-model passes, and the fused palette against
//! [`Skin::palette`](crate::Skin::palette). Public so a check on a real file (the Fox, in the
//! workspace's integration tests) uses the same measure as the unit tests.

use glam::Mat4;

use super::{local_to_model, local_to_model_palette, PalettePlan, SoaClip, SoaCursor, SoaPose};
use crate::{SamplingCache, Transform};

/// The components of a pose.
pub(crate) fn components(pose: &[Transform]) -> Vec<f32> {
    pose.iter()
        .flat_map(|t| {
            let mut v = t.translation.to_array().to_vec();
            v.extend(t.rotation.to_array());
            v.extend(t.scale.to_array());
            v
        })
        .collect()
}

/// The largest component difference of two equally long lists (NaN against NaN, and equal
/// infinities, count as 0; NaN against a number as infinite).
pub(crate) fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            if x == y || (x.is_nan() && y.is_nan()) {
                0.0
            } else if x.is_nan() || y.is_nan() {
                f32::INFINITY
            } else {
                (x - y).abs()
            }
        })
        .fold(0.0, f32::max)
}

/// Plays every clip of `model` at 60 fps, frame after frame, with both paths and returns the
/// largest local (TRS component) and model-space (matrix entry, relative to the largest
/// model-space translation, at least 1) differences; model space through each path's own
/// local-to-model; and, from the scalar path's pose, the fused local-to-model + palette of
/// every skin (none for a model without skins) against [`crate::local_to_model`] and [`crate::Skin::palette`].
pub fn playback_difference(model: &crate::Model) -> (f32, f32) {
    let skeleton = &model.skeleton;
    let rest = skeleton.rest_pose();
    let n = skeleton.len();
    let (mut local, mut world) = (0.0f32, 0.0f32);
    for clip in &model.clips {
        let soa = SoaClip::new(clip, skeleton);
        let (mut cache, mut cursor) = (SamplingCache::new(), SoaCursor::new());
        let (mut want, mut got) = (rest.to_vec(), rest.to_vec());
        let mut pose = SoaPose::new(n);
        let (mut mw, mut mg) = (vec![Mat4::IDENTITY; n], vec![Mat4::IDENTITY; n]);
        let mut mf = vec![Mat4::IDENTITY; n];
        let plans: Vec<PalettePlan> = model
            .skins
            .iter()
            .map(|s| PalettePlan::new(s, skeleton))
            .collect();
        let slots = plans.iter().map(PalettePlan::len).max().unwrap_or(0);
        let (mut got_palette, mut want_palette) =
            (vec![Mat4::ZERO; slots], vec![Mat4::ZERO; slots]);
        let frames = ((clip.end - clip.start) * 60.0).ceil() as usize + 1;
        for f in 0..frames {
            let t = (clip.start + f as f32 / 60.0).min(clip.end);
            clip.sample(t, rest, &mut cache, &mut want);
            soa.sample(t, &mut cursor, &mut pose);
            pose.to_transforms(&mut got);
            local = local.max(max_diff(&components(&got), &components(&want)));
            crate::local_to_model(skeleton, &want, 0..n, &mut mw);
            local_to_model(skeleton, &pose, &mut mg);
            let scale = mw
                .iter()
                .map(|m| m.w_axis.truncate().abs().max_element())
                .fold(1.0f32, f32::max);
            let flat =
                |m: &[Mat4]| -> Vec<f32> { m.iter().flat_map(|m| m.to_cols_array()).collect() };
            world = world.max(max_diff(&flat(&mg), &flat(&mw)) / scale);
            // the fused pass from the scalar path's pose: its own error, not sampling's
            let scalar_pose = SoaPose::from_transforms(&want);
            for (skin, plan) in model.skins.iter().zip(&plans) {
                local_to_model_palette(skeleton, &scalar_pose, plan, &mut mf, &mut got_palette);
                skin.palette(&mw, skeleton.armature(), &mut want_palette);
                let (got, want) = (&got_palette[..plan.len()], &want_palette[..plan.len()]);
                world = world
                    .max(max_diff(&flat(&mf), &flat(&mw)) / scale)
                    .max(max_diff(&flat(got), &flat(want)) / scale);
            }
        }
    }
    (local, world)
}
