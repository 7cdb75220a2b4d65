//! Rendering poses that come from elsewhere (a clip, a blend graph, a script): a [`PoseSource`]
//! gives local joint transforms and a placement per time; [`render_source`] renders one frame or
//! a contact sheet of them with the usual debug views. The renderer knows nothing of where the
//! poses come from: clips are adapted by [`ClipPoses`] ([`render_model`]: one-call headless
//! rendering of a model's clip), scripts implement the trait outside this module.

use glam::{Mat4, Vec3};

use super::camera::Bounds;
use super::clip_poses::ClipPoses;
use super::offscreen::{sheet_times, RenderRequest};
use super::pose::{add_posed_bounds, Poser};
use super::scene::{framed_camera, Cast, Character, Scene, Shot};
use super::target::{OffscreenTarget, OFFSCREEN_FORMAT};
use super::{GpuContext, RenderError};
use marionette_anim::Model;
use marionette_anim::PoseSource;

/// World-space bounds of the skinned meshes (and joints) of `model` posed by `source` at
/// `samples` evenly spaced times of its range (once for a still pose), each at the placement
/// the source gives.
pub fn source_bounds(model: &Model, source: &mut dyn PoseSource, samples: u32) -> Bounds {
    sampled_bounds(model, source, samples, false)
}

/// The same over the ground under the character: each pose's horizontal placement taken away,
/// so a character that travels is framed at its own size (a contact sheet's cells then follow
/// it, [`ground_offset`]).
fn follow_bounds(model: &Model, source: &mut dyn PoseSource, samples: u32) -> Bounds {
    sampled_bounds(model, source, samples, true)
}

/// Where a placement stands on the ground (its translation without height).
fn ground_offset(world: Mat4) -> Vec3 {
    let t = world.w_axis.truncate();
    Vec3::new(t.x, 0.0, t.z)
}

fn sampled_bounds(
    model: &Model,
    source: &mut dyn PoseSource,
    samples: u32,
    follow: bool,
) -> Bounds {
    let (start, end) = source.range();
    let times = if start < end {
        sheet_times(start, end, samples.max(2))
    } else {
        vec![start]
    };
    let mut poser = Poser::new(model);
    let mut bounds = Bounds::EMPTY;
    let mut scratch: Vec<Vec3> = Vec::new();
    for t in times {
        let mut world = poser.pose_source(model, source, t);
        if follow {
            world = Mat4::from_translation(-ground_offset(world)) * world;
        }
        add_posed_bounds(model, &poser, world, &mut bounds, &mut scratch);
    }
    bounds
}

/// Renders `model` posed by `source`: one frame at `req.time`, or with `req.sheet` a contact
/// sheet whose frames spread evenly over [`PoseSource::range`], each cell's time written under
/// it. Ghosts are poses `req.view.ghost_step` apart, clamped to the range. `req.clip` is
/// ignored. A frame's camera frames the character over the whole range (a moving character
/// stays in view); a sheet's frames the character's own size over the range and follows it
/// over the ground from cell to cell, so a character that travels fills every cell. Fails on
/// wgpu validation errors.
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
    let sheet_mode = req.sheet.is_some();
    let bounds = if sheet_mode {
        follow_bounds(model, source, 24)
    } else {
        source_bounds(model, source, 24)
    };
    let shot = Shot {
        camera: framed_camera(&bounds, cw as f32 / ch as f32),
        bounds,
    };
    let mut poser = Poser::new(model);
    let times = match req.sheet {
        Some(_) => sheet_times(start, end, cols * rows),
        None => vec![req.time],
    };
    let mut sources = [source];
    let mut sheet = image::RgbaImage::new(cw * cols, ch * rows);
    for (i, &time) in times.iter().enumerate() {
        let character = Character {
            world: Mat4::IDENTITY,
            source: 0,
            time,
        };
        // a sheet's cell: the camera and grid over the ground where the character is
        let cell = if sheet_mode {
            let at = ground_offset(poser.pose_source(model, &mut *sources[0], time));
            let mut s = shot;
            s.camera.target += at;
            s.bounds = Bounds {
                min: s.bounds.min + at,
                max: s.bounds.max + at,
            };
            s
        } else {
            shot
        };
        let cast = Cast {
            sources: &mut sources,
            characters: &[character],
        };
        let mut img = scene.render_image(ctx, &target, model, cast, &req.view, &cell)?;
        if sheet_mode {
            let text = format!("{time:.2} s");
            let scale = if ch >= 200 { 2 } else { 1 };
            let y = img.height().saturating_sub(11 * scale);
            super::label::stamp(&mut img, 2 * scale, y, &text, scale);
            super::label::border(&mut img);
        }
        let (x, y) = ((i as u32 % cols) * cw, (i as u32 / cols) * ch);
        image::imageops::replace(&mut sheet, &img, x as i64, y as i64);
    }
    let errors = ctx.take_errors();
    if !errors.is_empty() {
        return Err(RenderError::Validation(errors.join("; ")));
    }
    Ok(sheet)
}

/// Renders `model` as requested: clip `req.clip` (the rest pose when `None`) through
/// [`ClipPoses`] and [`render_source`]. Fails on a clip index out of range and on wgpu
/// validation errors.
pub fn render_model(
    ctx: &GpuContext,
    model: &Model,
    req: &RenderRequest,
) -> Result<image::RgbaImage, RenderError> {
    let mut poses = ClipPoses::new(model, req.clip)?;
    render_source(ctx, model, &mut poses, req)
}
