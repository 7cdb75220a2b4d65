//! A model ready to draw with its debug views: poses one or many characters from their
//! [`PoseSource`]s (it never samples clips itself), builds instances, ghosts and debug lines,
//! and renders offscreen to an image.

use glam::{Mat4, Vec3};

use super::camera::{Bounds, OrbitCamera};
use super::gpu_model::GpuModel;
use super::lines;
use super::pose::Poser;
use super::raw::{InstanceRaw, LineVertexRaw};
use super::renderer::{FrameInput, Renderer};
use super::target::OffscreenTarget;
use super::{GpuContext, RenderError};
use marionette_anim::Model;
use marionette_anim::PoseSource;

/// What to show besides the lit characters.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewOptions {
    /// Ground grid.
    pub grid: bool,
    /// Skeleton overlay: bones and joints.
    pub skeleton: bool,
    /// Joint local axes (RGB = XYZ).
    pub axes: bool,
    /// Joint highlighted in the skeleton overlay.
    pub selected_joint: Option<u16>,
    /// A colour per joint for the skeleton overlay (empty: the usual bone and joint colours),
    /// see [`lines::skeleton_colored`].
    pub joint_colors: Vec<[f32; 4]>,
    /// Joint whose skin weights replace the material as a heatmap (warm = 1, cold = 0).
    pub heatmap_joint: Option<u16>,
    /// Onion-skin ghosts: this many past and this many future frames, translucent.
    pub ghosts: u32,
    /// Seconds between ghosts.
    pub ghost_step: f32,
    /// One more translucent ghost of the first character in this tint (the editor's A/B: the
    /// previous script's pose), posed by the pose callback with `k` = [`COMPARE_GHOST`].
    pub compare: Option<[f32; 4]>,
}

/// The `k` a pose callback gets for the comparison ghost ([`ViewOptions::compare`]).
pub const COMPARE_GHOST: i32 = i32::MIN;

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            grid: true,
            skeleton: false,
            axes: false,
            selected_joint: None,
            joint_colors: Vec::new(),
            heatmap_joint: None,
            ghosts: 0,
            ghost_step: 1.0 / 6.0,
            compare: None,
        }
    }
}

/// One character to draw: where it stands, which pose source poses it and at what time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Character {
    /// Placement in the world (applied on top of the placement its source gives).
    pub world: Mat4,
    /// Index of its pose source in the sources given to [`Scene::prepare`] (e.g. one
    /// [`ClipPoses`](super::ClipPoses) per clip shared by many characters).
    pub source: usize,
    /// Time in the source, seconds.
    pub time: f32,
}

/// The characters to draw and the pose sources they index ([`Character::source`]).
pub struct Cast<'a, S> {
    /// The pose sources.
    pub sources: &'a mut [S],
    /// The characters, each posed by one of `sources`.
    pub characters: &'a [Character],
}

/// The time of onion-skin ghost `k` (frames away, `k != 0`) of a character shown at `time`:
/// `ghost_step` seconds apart, clamped to `range`; `None` for a still pose (empty range).
pub fn ghost_time(range: (f32, f32), time: f32, k: i32, ghost_step: f32) -> Option<f32> {
    let (start, end) = range;
    (start < end).then(|| (time + k as f32 * ghost_step).clamp(start, end))
}

/// Where the camera is and what the ground grid covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    /// The camera.
    pub camera: OrbitCamera,
    /// Bounds the grid is laid under (its centre and lowest point) and sized to.
    pub bounds: Bounds,
}

/// Everything needed to draw one model repeatedly: GPU resources and pooled CPU buffers.
pub struct Scene {
    /// The renderer (pipelines and per-frame buffers).
    pub renderer: Renderer,
    /// The uploaded model.
    pub gpu: GpuModel,
    poser: Poser,
    palettes: Vec<Mat4>,
    morph_table: Vec<[u32; 2]>,
    instances: Vec<InstanceRaw>,
    ghosts: Vec<InstanceRaw>,
    grid: Vec<LineVertexRaw>,
    overlay: Vec<LineVertexRaw>,
    overlay_world: Vec<Mat4>,
    /// Lines drawn over the next frames as well (another rig's skeleton beside the
    /// character, see [`lines::skeleton_tinted`]); the caller keeps it current.
    pub extra_overlay: Vec<LineVertexRaw>,
}

fn instance(world: Mat4, tint: [f32; 4], (palette_base, morph_base): (u32, u32)) -> InstanceRaw {
    InstanceRaw {
        world: world.to_cols_array_2d(),
        tint,
        palette_base,
        morph_base,
        _pad: [0; 2],
    }
}

impl Scene {
    /// Uploads `model` and creates a renderer for `format` with `sample_count` samples.
    pub fn new(
        ctx: &GpuContext,
        model: &Model,
        format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Result<Self, RenderError> {
        let mut renderer = Renderer::new(&ctx.device, format, sample_count);
        let gpu = GpuModel::new(
            &ctx.device,
            &ctx.queue,
            &renderer.pipelines.material_layout,
            model,
        )?;
        renderer.use_model(&ctx.device, &gpu);
        Ok(Self {
            renderer,
            gpu,
            poser: Poser::new(model),
            palettes: Vec::new(),
            morph_table: Vec::new(),
            instances: Vec::new(),
            ghosts: Vec::new(),
            grid: Vec::new(),
            overlay: Vec::new(),
            overlay_world: Vec::new(),
            extra_overlay: Vec::new(),
        })
    }

    /// Poses every character from its source, builds ghosts (poses `view.ghost_step` apart,
    /// clamped to the source's range) and debug lines (overlays follow the first character) and
    /// uploads the frame. A character whose source index is out of range draws in the rest pose
    /// at the origin. Returns the bytes uploaded.
    pub fn prepare<S: PoseSource>(
        &mut self,
        ctx: &GpuContext,
        model: &Model,
        cast: Cast<'_, S>,
        view: &ViewOptions,
        shot: &Shot,
        aspect: f32,
    ) -> u64 {
        let Cast {
            sources,
            characters,
        } = cast;
        let mut pose = |poser: &mut Poser, i: usize, k: i32| {
            let c = characters.get(i)?;
            let source = sources.get_mut(c.source)?;
            let time = match k {
                0 => c.time,
                k => ghost_time(source.range(), c.time, k, view.ghost_step)?,
            };
            Some(c.world * poser.pose_source(model, source, time))
        };
        self.prepare_with(ctx, model, characters.len(), &mut pose, view, shot, aspect)
    }

    /// Like [`Self::prepare`] with poses from a callback: `pose(poser, i, k)` poses character
    /// `i` (`k == 0`) or its ghost `k` frames away (`-ghosts..=ghosts`, first character only)
    /// with [`Poser::pose_source`] / [`Poser::pose_local`] and returns its world placement, or `None`
    /// to skip it (a skipped character draws in the rest pose at the origin).
    // Allowed: the editor's viewport calls this every frame with its own pose callback (and
    // `count` with it); each of the other inputs is a separate thing the caller already holds
    // (GPU context, model, view options, shot, aspect), and grouping them would only rename
    // the call. The character-list entry points take a `Cast` instead.
    #[allow(clippy::too_many_arguments)]
    pub fn prepare_with(
        &mut self,
        ctx: &GpuContext,
        model: &Model,
        count: usize,
        pose: &mut dyn FnMut(&mut Poser, usize, i32) -> Option<Mat4>,
        view: &ViewOptions,
        shot: &Shot,
        aspect: f32,
    ) -> u64 {
        let (camera, grid_bounds) = (&shot.camera, &shot.bounds);
        self.palettes.clear();
        self.morph_table.clear();
        self.instances.clear();
        self.ghosts.clear();
        self.grid.clear();
        self.overlay.clear();
        let len = self.gpu.layout.len;
        for i in 0..count {
            if view.ghosts > 0 && i == 0 {
                let n = view.ghosts as i32;
                for k in (-n..=n).filter(|&k| k != 0) {
                    let Some(world) = pose(&mut self.poser, i, k) else {
                        continue;
                    };
                    let base = self.palettes.len() as u32;
                    self.poser
                        .append_palette(model, &self.gpu.layout, &mut self.palettes);
                    let morph_base = self.poser.append_morph_table(model, &mut self.morph_table);
                    let fade = 1.0 - (k.unsigned_abs() as f32 - 1.0) / n as f32 * 0.6;
                    let tint = if k < 0 {
                        [0.45, 0.65, 1.0, 0.32 * fade]
                    } else {
                        [1.0, 0.6, 0.35, 0.32 * fade]
                    };
                    self.ghosts.push(instance(world, tint, (base, morph_base)));
                }
            }
            if let (Some(tint), 0) = (view.compare, i) {
                if let Some(world) = pose(&mut self.poser, i, COMPARE_GHOST) {
                    let base = self.palettes.len() as u32;
                    self.poser
                        .append_palette(model, &self.gpu.layout, &mut self.palettes);
                    let morph_base = self.poser.append_morph_table(model, &mut self.morph_table);
                    self.ghosts.push(instance(world, tint, (base, morph_base)));
                }
            }
            let world = match pose(&mut self.poser, i, 0) {
                Some(w) => w,
                None => {
                    self.poser.pose_rest(model);
                    Mat4::IDENTITY
                }
            };
            let base = self.palettes.len() as u32;
            debug_assert_eq!(base % len.max(1), 0);
            self.poser
                .append_palette(model, &self.gpu.layout, &mut self.palettes);
            let morph_base = self.poser.append_morph_table(model, &mut self.morph_table);
            self.instances
                .push(instance(world, [1.0; 4], (base, morph_base)));
            if i == 0 {
                self.overlay_world.clear();
                let w = &mut self.overlay_world;
                w.extend(self.poser.joint_world.iter().map(|m| world * *m));
                let size = grid_bounds.radius().max(0.01) * 0.02;
                if view.skeleton && !view.joint_colors.is_empty() {
                    lines::skeleton_colored(
                        w,
                        model.skeleton.parents(),
                        &view.joint_colors,
                        view.selected_joint,
                        size,
                        &mut self.overlay,
                    );
                } else if view.skeleton {
                    lines::skeleton(
                        w,
                        model.skeleton.parents(),
                        view.selected_joint,
                        size,
                        &mut self.overlay,
                    );
                }
                if view.axes {
                    lines::axes(w, size * 4.0, &mut self.overlay);
                }
            }
        }
        self.overlay.extend_from_slice(&self.extra_overlay);
        if view.grid && !grid_bounds.is_empty() {
            let r = grid_bounds.radius().max(0.01);
            let step = grid_step(r);
            let cells = ((r * 2.0 / step).ceil() as i32).clamp(4, 10);
            lines::grid(
                grid_bounds.center(),
                grid_bounds.min.y,
                step,
                cells,
                &mut self.grid,
            );
        }
        let input = FrameInput {
            view_proj: camera.view_proj(aspect),
            eye: camera.eye(),
            palettes: &self.palettes,
            instances: &self.instances,
            ghosts: &self.ghosts,
            morph_table: &self.morph_table,
            grid: &self.grid,
            overlay: &self.overlay,
            heatmap_joint: view.heatmap_joint,
        };
        self.renderer.prepare(&ctx.device, &ctx.queue, &input)
    }

    /// Records the prepared frame into `encoder` targeting `target` and submits it.
    pub fn submit_offscreen(&self, ctx: &GpuContext, target: &OffscreenTarget) {
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("offscreen frame encoder"),
            });
        {
            let mut pass = target.begin_pass(&mut encoder);
            self.renderer.draw(&mut pass, &self.gpu);
        }
        target.copy_out(&mut encoder);
        ctx.queue.submit([encoder.finish()]);
    }

    /// Renders characters (see [`Self::prepare`]) offscreen and reads the image back.
    pub fn render_image<S: PoseSource>(
        &mut self,
        ctx: &GpuContext,
        target: &OffscreenTarget,
        model: &Model,
        cast: Cast<'_, S>,
        view: &ViewOptions,
        shot: &Shot,
    ) -> Result<image::RgbaImage, RenderError> {
        let aspect = target.width as f32 / target.height as f32;
        self.prepare(ctx, model, cast, view, shot, aspect);
        self.submit_offscreen(ctx, target);
        target.read(ctx)
    }

    /// The pose evaluator (joint world matrices of the last posed character).
    pub fn poser(&self) -> &Poser {
        &self.poser
    }

    /// The palettes uploaded by the last [`Self::prepare`].
    pub fn palettes(&self) -> &[Mat4] {
        &self.palettes
    }

    /// The opaque instances of the last [`Self::prepare`] (each character's palette and morph
    /// bases, for the capture pass).
    pub fn instances(&self) -> &[InstanceRaw] {
        &self.instances
    }
}

/// Grid spacing for a model of bounding radius `r`: the smallest 1-2-5 step that is at least
/// a third of the radius (0.5 m for a 1.8 m character).
pub fn grid_step(r: f32) -> f32 {
    let target = (r / 3.0).max(1e-6);
    let decade = 10f32.powf(target.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&s| s >= target * 0.999)
        .unwrap_or(10.0 * decade)
}

/// A camera looking at `bounds` from the front-right, slightly above.
pub fn framed_camera(bounds: &Bounds, aspect: f32) -> OrbitCamera {
    let mut c = OrbitCamera {
        target: Vec3::ZERO,
        yaw: 0.6,
        pitch: 0.22,
        distance: 1.0,
        fov_y: 35f32.to_radians(),
    };
    c.frame(bounds, aspect);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Grid steps follow 1-2-5 and are at least a third of the radius.
    #[test]
    fn grid_steps() {
        assert_eq!(grid_step(1.2), 0.5);
        assert_eq!(grid_step(80.0), 50.0);
        assert_eq!(grid_step(4.0), 2.0);
        assert_eq!(grid_step(3.0), 1.0);
    }
}
