//! One-call headless rendering of a model to an image: a single frame or a contact sheet.

use glam::Mat4;

use super::camera::Bounds;
use super::pose::skinned_bounds;
use super::scene::{framed_camera, Character, Scene, Shot, ViewOptions};
use super::target::{OffscreenTarget, OFFSCREEN_FORMAT};
use super::{GpuContext, RenderError};
use crate::Model;

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderRequest {
    /// Image width in pixels (the whole sheet for contact sheets).
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Clip index (`None` = rest pose).
    pub clip: Option<usize>,
    /// Time in the clip, seconds (ignored for sheets).
    pub time: f32,
    /// Debug views.
    pub view: ViewOptions,
    /// Contact sheet: columns x rows of frames spread evenly over the clip.
    pub sheet: Option<(u32, u32)>,
}

impl Default for RenderRequest {
    fn default() -> Self {
        Self {
            width: 256,
            height: 256,
            clip: None,
            time: 0.0,
            view: ViewOptions::default(),
            sheet: None,
        }
    }
}

/// Times of a `count`-frame contact sheet: evenly spaced from the clip's start to its end
/// (both included); the single time `time` when there is no clip.
pub fn sheet_times(start: f32, end: f32, count: u32) -> Vec<f32> {
    match count {
        0 => Vec::new(),
        1 => vec![start],
        n => (0..n)
            .map(|i| start + (end - start) * i as f32 / (n - 1) as f32)
            .collect(),
    }
}

/// Renders `model` as requested. Fails on wgpu validation errors.
pub fn render_model(
    ctx: &GpuContext,
    model: &Model,
    req: &RenderRequest,
) -> Result<image::RgbaImage, RenderError> {
    let clip = match req.clip {
        Some(i) => Some(model.clips.get(i).ok_or_else(|| {
            RenderError::NotFound(format!("clip {i} (the model has {})", model.clips.len()))
        })?),
        None => None,
    };
    let (cols, rows) = req.sheet.unwrap_or((1, 1));
    if cols == 0 || rows == 0 {
        return Err(RenderError::NotFound(
            "a contact sheet needs at least 1x1 cells".into(),
        ));
    }
    let (cw, ch) = (req.width / cols, req.height / rows);
    let sample_count = ctx.sample_count(OFFSCREEN_FORMAT);
    let target = OffscreenTarget::new(ctx, cw, ch, sample_count)?;
    let mut scene = Scene::new(ctx, model, OFFSCREEN_FORMAT, sample_count)?;
    // Frame the character over the whole clip (so a sheet keeps one camera), or the rest pose.
    let bounds: Bounds = skinned_bounds(model, clip, 24);
    let aspect = cw as f32 / ch as f32;
    let shot = Shot {
        camera: framed_camera(&bounds, aspect),
        bounds,
    };
    let times = match (req.sheet, clip) {
        (Some(_), Some(c)) => sheet_times(c.start, c.end, cols * rows),
        (Some(_), None) => vec![req.time; (cols * rows) as usize],
        (None, _) => vec![req.time],
    };
    let mut sheet = image::RgbaImage::new(cw * cols, ch * rows);
    for (i, t) in times.iter().enumerate() {
        let character = Character {
            world: Mat4::IDENTITY,
            clip: req.clip,
            time: *t,
        };
        let img = scene.render_image(ctx, &target, model, &[character], &req.view, &shot)?;
        let (x, y) = ((i as u32 % cols) * cw, (i as u32 / cols) * ch);
        image::imageops::replace(&mut sheet, &img, x as i64, y as i64);
    }
    let errors = ctx.take_errors();
    if !errors.is_empty() {
        return Err(RenderError::Validation(errors.join("; ")));
    }
    Ok(sheet)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sheet times include both ends and are evenly spaced.
    #[test]
    fn sheet_times_even() {
        assert_eq!(sheet_times(0.0, 1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(sheet_times(2.0, 3.0, 1), vec![2.0]);
        assert!(sheet_times(0.0, 1.0, 0).is_empty());
    }
}
