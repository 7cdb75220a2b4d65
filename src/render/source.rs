//! Rendering poses that come from elsewhere (a blend graph, a script): a [`PoseSource`] gives
//! local joint transforms and a placement per time; [`render_source`] renders one frame or a
//! contact sheet of them with the usual debug views. The renderer knows nothing of where the
//! poses come from (scripts implement the trait outside this module).

use glam::{Mat4, Vec3};

use super::camera::Bounds;
use super::offscreen::{sheet_times, RenderRequest};
use super::pose::{add_posed_bounds, Poser};
use super::scene::{framed_camera, Scene, Shot};
use super::target::{OffscreenTarget, OFFSCREEN_FORMAT};
use super::{GpuContext, RenderError};
use crate::anim::Transform;
use crate::Model;

/// Poses over a time range: local joint transforms (parent-first, one per joint of the model
/// being drawn) and where the character stands.
pub trait PoseSource {
    /// The time range (start, end) in seconds that sheets, ghosts and framing cover.
    fn range(&self) -> (f32, f32);
    /// Writes the local pose at `time` into `local` and returns the character's world
    /// placement (identity when it stays in place).
    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4;
}

/// Renders `model` posed by `source`: one frame at `req.time`, or with `req.sheet` a contact
/// sheet whose frames spread evenly over [`PoseSource::range`]. Ghosts are poses
/// `req.view.ghost_step` apart, clamped to the range. `req.clip` is ignored. The camera frames
/// the character over the whole range (so a sheet keeps one camera and a moving character
/// stays in view). Fails on wgpu validation errors.
pub fn render_source(
    ctx: &GpuContext,
    model: &Model,
    source: &mut dyn PoseSource,
    req: &RenderRequest,
) -> Result<image::RgbaImage, RenderError> {
    let (cols, rows) = req.sheet.unwrap_or((1, 1));
    if cols == 0 || rows == 0 {
        return Err(RenderError::NotFound(
            "a contact sheet needs at least 1x1 cells".into(),
        ));
    }
    let (start, end) = source.range();
    let (cw, ch) = (req.width / cols, req.height / rows);
    let sample_count = ctx.sample_count(OFFSCREEN_FORMAT);
    let target = OffscreenTarget::new(ctx, cw, ch, sample_count)?;
    let mut scene = Scene::new(ctx, model, OFFSCREEN_FORMAT, sample_count)?;
    let mut local = Vec::new();
    let mut poser = Poser::new(model);
    let mut bounds = Bounds::EMPTY;
    let mut scratch: Vec<Vec3> = Vec::new();
    for t in sheet_times(start, end, 24) {
        let world = source.pose_at(t, &mut local);
        poser.pose_local(model, &local);
        add_posed_bounds(model, &poser, world, &mut bounds, &mut scratch);
    }
    let shot = Shot {
        camera: framed_camera(&bounds, cw as f32 / ch as f32),
        bounds,
    };
    let times = match req.sheet {
        Some(_) => sheet_times(start, end, cols * rows),
        None => vec![req.time],
    };
    let view = &req.view;
    let mut sheet = image::RgbaImage::new(cw * cols, ch * rows);
    for (i, &t) in times.iter().enumerate() {
        let mut pose = |poser: &mut Poser, _: usize, k: i32| {
            let tk = if k == 0 {
                t
            } else {
                (t + k as f32 * view.ghost_step).clamp(start, end)
            };
            let world = source.pose_at(tk, &mut local);
            poser.pose_local(model, &local);
            Some(world)
        };
        let aspect = target.width as f32 / target.height as f32;
        scene.prepare_with(ctx, model, 1, &mut pose, view, &shot, aspect);
        scene.submit_offscreen(ctx, &target);
        let img = target.read(ctx)?;
        let (x, y) = ((i as u32 % cols) * cw, (i as u32 / cols) * ch);
        image::imageops::replace(&mut sheet, &img, x as i64, y as i64);
    }
    let errors = ctx.take_errors();
    if !errors.is_empty() {
        return Err(RenderError::Validation(errors.join("; ")));
    }
    Ok(sheet)
}
