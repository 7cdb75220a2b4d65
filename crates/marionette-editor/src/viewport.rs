//! The 3D viewport: the existing renderer ([`Scene`]) draws into our own MSAA + depth
//! attachments resolved into a texture that egui shows as an image
//! (`register_native_texture`). The frame is submitted while the UI is built, so it is on the
//! queue before egui's own submission; the window, `--screenshot` and kittest snapshots all
//! see it. Mouse: LMB drag orbits, MMB or Shift+LMB drag pans, the wheel zooms, a click picks
//! the nearest joint (or bone) on screen.

use std::sync::Arc;

use egui::mutex::RwLock;
use egui::{Pos2, Rect, Sense, Vec2};
use glam::{Mat4, Vec3};

use marionette_anim::Model;
use marionette_anim::Transform;
use marionette_render::{
    add_posed_bounds, Attachments, Bounds, GpuContext, OrbitCamera, Poser, RenderError, Scene,
    Shot, ViewOptions, OFFSCREEN_FORMAT,
};

/// The previous script's ghost (A/B): purple, translucent.
const COMPARE_TINT: [f32; 4] = [0.8, 0.45, 1.0, 0.4];

/// Pick radius in points around a projected joint or bone.
const PICK_RADIUS: f32 = 8.0;

/// What the viewport shows besides the character (toggled in its toolbar).
#[derive(Clone, Debug, PartialEq)]
pub struct Overlays {
    /// Ground grid.
    pub grid: bool,
    /// Bones and joints.
    pub skeleton: bool,
    /// Joint axes.
    pub axes: bool,
    /// Skin-weight heatmap of the selected joint.
    pub heatmap: bool,
    /// Onion-skin ghosts (take mode).
    pub ghosts: bool,
    /// The camera follows the character when root motion moves it.
    pub follow_root: bool,
    /// The skeletons of the rigs retarget nodes read, beside the character.
    pub sources: bool,
    /// The post operations' targets, chains and colliders.
    pub rig: bool,
    /// Each bone coloured by what last changed it (layer, node or post op), with a legend.
    pub drivers: bool,
    /// The previous script's pose stays as a ghost after a reload (else it shows for a few
    /// seconds).
    pub compare: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            grid: true,
            skeleton: true,
            axes: false,
            heatmap: false,
            ghosts: false,
            follow_root: true,
            sources: true,
            rig: true,
            drivers: false,
            compare: false,
        }
    }
}

/// One onion-skin ghost: a pose around the playhead.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ghost {
    /// Local pose, parent-first.
    pub local: Vec<Transform>,
    /// Its morph weights.
    pub morphs: Vec<f32>,
    /// Where the character stands.
    pub world: Mat4,
}

/// A pose to draw: local joint transforms and a placement.
pub struct PoseFrame<'a> {
    /// Local TRS per joint, parent-first.
    pub local: &'a [Transform],
    /// Morph weights (one per morph target of the model; empty: the defaults).
    pub morphs: &'a [f32],
    /// Where the character stands.
    pub world: Mat4,
}

/// What the viewport draws this frame: the character, its pose, the ghosts around it and the
/// selected joint.
pub struct ViewportScene<'a> {
    /// The character.
    pub model: &'a Model,
    /// Its pose at the playhead.
    pub pose: PoseFrame<'a>,
    /// Ghost poses, the earlier half first (empty: none).
    pub ghosts: &'a [Ghost],
    /// The joint highlighted (and heat-mapped).
    pub selected: Option<u16>,
    /// Other rigs' skeletons to draw beside the character: joint world matrices and parents
    /// (empty: none).
    pub sources: &'a [SourceSkeleton],
    /// The post operations' gizmos in model space, placed like the pose (empty: none).
    pub gizmos: &'a [marionette_anim::graph::Gizmo],
    /// A colour per joint for the skeleton (empty: the usual ones); the skeleton is drawn
    /// when there are some.
    pub joint_colors: &'a [[f32; 4]],
    /// What the colours mean, drawn in the viewport's corner (empty: nothing).
    pub legend: &'a [(String, [f32; 4])],
    /// The previous script's pose (A/B after a reload), drawn as a purple ghost.
    pub compare: Option<&'a Ghost>,
}

/// Another rig's skeleton, posed and placed, drawn as lines (a retarget's source).
#[derive(Clone, Debug, Default)]
pub struct SourceSkeleton {
    /// World matrix of each joint.
    pub joint_world: Vec<Mat4>,
    /// Parent of each joint.
    pub parents: Vec<Option<u16>>,
}

/// The colour of a retarget source's skeleton.
pub const SOURCE_COLOR: [f32; 4] = [0.55, 1.0, 0.45, 0.9];

/// The texture the scene renders into, for one size.
struct Target {
    size: [u32; 2],
    attachments: Attachments,
    _texture: wgpu::Texture,
    view: wgpu::TextureView,
    id: egui::TextureId,
}

/// The viewport's renderer, camera and overlays. See the module docs.
pub struct Viewport {
    scene: Scene,
    samples: u32,
    target: Option<Target>,
    /// The camera.
    pub camera: OrbitCamera,
    /// Overlay toggles.
    pub overlays: Overlays,
    framed: bool,
    last_root: Option<Vec3>,
    grid_bounds: Bounds,
    joints: Vec<Pos2>,
    bones: Vec<(usize, usize)>,
    /// Ask to frame the character on the next frame (the F key).
    pub frame_request: bool,
}

/// What happened in the viewport this frame.
#[derive(Default)]
pub struct ViewportResponse {
    /// A click picked this joint (or `Some(None)`: a click on nothing).
    pub picked: Option<Option<u16>>,
    /// The camera moved (orbit, pan, zoom or framing).
    pub camera_moved: bool,
}

impl Viewport {
    /// Uploads `model`; `msaa` asks for 4x multisampling where the adapter has it.
    pub fn new(gpu: &GpuContext, model: &Model, msaa: bool) -> Result<Viewport, RenderError> {
        let samples = if msaa {
            gpu.sample_count(OFFSCREEN_FORMAT)
        } else {
            1
        };
        let scene = Scene::new(gpu, model, OFFSCREEN_FORMAT, samples)?;
        let bones = model
            .skeleton
            .parents()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (p as usize, i)))
            .collect();
        Ok(Viewport {
            scene,
            samples,
            target: None,
            camera: OrbitCamera::default(),
            overlays: Overlays::default(),
            framed: false,
            last_root: None,
            grid_bounds: Bounds::EMPTY,
            joints: Vec::new(),
            bones,
            frame_request: false,
        })
    }

    /// True when the scene is drawn with several samples per pixel.
    pub fn multisampled(&self) -> bool {
        self.samples > 1
    }

    /// Marks the camera as already placed (a camera restored from the sidecar).
    pub fn set_framed(&mut self) {
        self.framed = true;
    }

    fn ensure_target(
        &mut self,
        gpu: &GpuContext,
        egui_renderer: &RwLock<egui_wgpu::Renderer>,
        size: [u32; 2],
    ) -> Result<(), RenderError> {
        if self.target.as_ref().is_some_and(|t| t.size == size) {
            return Ok(());
        }
        let attachments = Attachments::new(gpu, OFFSCREEN_FORMAT, size[0], size[1], self.samples)?;
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("editor viewport"),
            size: wgpu::Extent3d {
                width: size[0],
                height: size[1],
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: OFFSCREEN_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[wgpu::TextureFormat::Rgba8Unorm],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        // egui samples gamma-encoded bytes: the same texels viewed as plain Rgba8Unorm.
        let raw = texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(wgpu::TextureFormat::Rgba8Unorm),
            ..Default::default()
        });
        let mut r = egui_renderer.write();
        let id = match self.target.take() {
            Some(old) => {
                r.update_egui_texture_from_wgpu_texture(
                    &gpu.device,
                    &raw,
                    wgpu::FilterMode::Linear,
                    old.id,
                );
                old.id
            }
            None => r.register_native_texture(&gpu.device, &raw, wgpu::FilterMode::Linear),
        };
        self.target = Some(Target {
            size,
            attachments,
            _texture: texture,
            view,
            id,
        });
        Ok(())
    }

    /// Draws `scene` into the available space and handles camera input.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        gpu: &GpuContext,
        egui_renderer: &Arc<RwLock<egui_wgpu::Renderer>>,
        scene: &ViewportScene<'_>,
    ) -> ViewportResponse {
        let ViewportScene {
            model,
            pose,
            ghosts,
            selected,
            sources,
            gizmos,
            joint_colors,
            legend,
            compare,
        } = scene;
        let (model, ghosts, selected, compare) = (*model, *ghosts, *selected, *compare);
        let mut out = ViewportResponse::default();
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        let ppp = ui.ctx().pixels_per_point();
        let size = [
            ((rect.width() * ppp).round() as u32).max(1),
            ((rect.height() * ppp).round() as u32).max(1),
        ];
        let aspect = size[0] as f32 / size[1] as f32;
        out.camera_moved = self.handle_input(ui, &response, rect);
        let root = pose.world.w_axis.truncate();
        if !self.framed || self.frame_request {
            self.frame(model, pose, aspect);
            out.camera_moved = true;
        } else if self.overlays.follow_root {
            if let Some(last) = self.last_root {
                self.camera.target += root - last;
            }
        }
        self.last_root = Some(root);
        if let Err(e) = self.ensure_target(gpu, egui_renderer, size) {
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                format!("viewport: {e}"),
                egui::FontId::proportional(14.0),
                egui::Color32::LIGHT_RED,
            );
            return out;
        }
        let view = ViewOptions {
            grid: self.overlays.grid,
            skeleton: self.overlays.skeleton || !joint_colors.is_empty(),
            axes: self.overlays.axes,
            selected_joint: selected,
            joint_colors: joint_colors.to_vec(),
            heatmap_joint: if self.overlays.heatmap {
                selected
            } else {
                None
            },
            ghosts: if self.overlays.ghosts {
                (ghosts.len() / 2) as u32
            } else {
                0
            },
            ghost_step: 1.0 / 6.0,
            compare: compare.map(|_| COMPARE_TINT),
        };
        // The grid stays put under a travelling character, snapped to whole cells.
        let step = marionette_render::grid_step(self.grid_bounds.radius().max(0.01));
        let snap = Vec3::new(
            (root.x / step).round() * step,
            0.0,
            (root.z / step).round() * step,
        );
        let shot = Shot {
            camera: self.camera,
            bounds: Bounds {
                min: self.grid_bounds.min + snap,
                max: self.grid_bounds.max + snap,
            },
        };
        let n = ghosts.len() as i32 / 2;
        let mut pose_fn = |poser: &mut Poser, _i: usize, k: i32| {
            if k == marionette_render::COMPARE_GHOST {
                let g = compare?;
                poser.pose_local(model, &g.local);
                poser.set_morphs(model, &g.morphs);
                return Some(g.world);
            }
            if k == 0 {
                poser.pose_local(model, pose.local);
                poser.set_morphs(model, pose.morphs);
                return Some(pose.world);
            }
            let index = if k < 0 { k + n } else { k + n - 1 };
            let g = ghosts.get(usize::try_from(index).ok()?)?;
            poser.pose_local(model, &g.local);
            poser.set_morphs(model, &g.morphs);
            Some(g.world)
        };
        self.scene.extra_overlay.clear();
        if self.overlays.sources {
            let size = self.grid_bounds.radius().max(0.01) * 0.015;
            for s in sources.iter() {
                marionette_render::lines::skeleton_tinted(
                    &s.joint_world,
                    &s.parents,
                    SOURCE_COLOR,
                    size,
                    &mut self.scene.extra_overlay,
                );
            }
        }
        if self.overlays.rig && !gizmos.is_empty() {
            let size = self.grid_bounds.radius().max(0.01) * 0.02;
            marionette_render::lines::gizmos(
                pose.world,
                gizmos,
                size,
                &mut self.scene.extra_overlay,
            );
        }
        self.scene
            .prepare_with(gpu, model, 1, &mut pose_fn, &view, &shot, aspect);
        let Some(target) = &self.target else {
            return out;
        };
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("editor viewport"),
            });
        {
            let mut pass = target.attachments.begin_pass(&mut encoder, &target.view);
            self.scene.renderer.draw(&mut pass, &self.scene.gpu);
        }
        gpu.queue.submit([encoder.finish()]);
        let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
        ui.painter()
            .image(target.id, rect, uv, egui::Color32::WHITE);
        self.project_joints(pose.world, rect, aspect);
        draw_legend(ui, rect, legend);
        if response.clicked() {
            if let Some(p) = response.interact_pointer_pos() {
                out.picked = Some(self.pick(p));
            }
        }
        out
    }

    /// Orbit, pan and zoom from the pointer; true when the camera moved.
    fn handle_input(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect) -> bool {
        let mut moved = false;
        let delta = response.drag_delta();
        let shift = ui.input(|i| i.modifiers.shift);
        let scale = 1.0 / rect.height().max(1.0);
        if delta != Vec2::ZERO {
            if response.dragged_by(egui::PointerButton::Middle)
                || (response.dragged_by(egui::PointerButton::Primary) && shift)
            {
                self.camera.pan(-delta.x * scale, delta.y * scale);
                moved = true;
            } else if response.dragged_by(egui::PointerButton::Primary) {
                self.camera.orbit(-delta.x * 0.01, delta.y * 0.01);
                moved = true;
            }
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.camera.zoom((-scroll * 0.002).exp());
                moved = true;
            }
        }
        moved
    }

    /// Frames the posed character (and sizes the grid to it).
    fn frame(&mut self, model: &Model, pose: &PoseFrame<'_>, aspect: f32) {
        let mut poser = Poser::new(model);
        poser.pose_local(model, pose.local);
        let mut bounds = Bounds::EMPTY;
        let mut scratch = Vec::new();
        add_posed_bounds(model, &poser, pose.world, &mut bounds, &mut scratch);
        if bounds.is_empty() {
            return;
        }
        if !self.framed {
            self.camera = marionette_render::framed_camera(&bounds, aspect);
            let root = pose.world.w_axis.truncate();
            self.grid_bounds = Bounds {
                min: bounds.min - Vec3::new(root.x, 0.0, root.z),
                max: bounds.max - Vec3::new(root.x, 0.0, root.z),
            };
        } else {
            self.camera.frame(&bounds, aspect);
        }
        self.framed = true;
        self.frame_request = false;
    }

    /// Sizes the ground grid without moving the camera (a restored camera keeps its place).
    pub fn size_grid(&mut self, model: &Model, local: &[Transform]) {
        let mut poser = Poser::new(model);
        poser.pose_local(model, local);
        let mut bounds = Bounds::EMPTY;
        add_posed_bounds(model, &poser, Mat4::IDENTITY, &mut bounds, &mut Vec::new());
        self.grid_bounds = bounds;
    }

    /// Screen positions (points) of the last drawn joints.
    fn project_joints(&mut self, world: Mat4, rect: Rect, aspect: f32) {
        let vp = self.camera.view_proj(aspect);
        self.joints.clear();
        for m in &self.scene.poser().joint_world {
            let p = (world * *m).w_axis.truncate();
            let clip = vp * p.extend(1.0);
            if clip.w <= 1e-6 {
                self.joints.push(Pos2::new(f32::NAN, f32::NAN));
                continue;
            }
            let ndc = clip.truncate() / clip.w;
            self.joints.push(Pos2::new(
                rect.left() + (ndc.x * 0.5 + 0.5) * rect.width(),
                rect.top() + (0.5 - ndc.y * 0.5) * rect.height(),
            ));
        }
    }

    /// Screen position (points) of a joint in the last frame.
    pub fn joint_on_screen(&self, joint: u16) -> Option<Pos2> {
        self.joints
            .get(joint as usize)
            .copied()
            .filter(|p| p.x.is_finite())
    }

    /// The joint nearest to `p` within [`PICK_RADIUS`], else the child joint of the nearest
    /// bone segment within it.
    pub fn pick(&self, p: Pos2) -> Option<u16> {
        let near = self
            .joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.x.is_finite())
            .map(|(i, j)| (i, j.distance(p)))
            .filter(|&(_, d)| d <= PICK_RADIUS)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, _)) = near {
            return u16::try_from(i).ok();
        }
        self.bones
            .iter()
            .filter_map(|&(a, b)| {
                let (pa, pb) = (*self.joints.get(a)?, *self.joints.get(b)?);
                if !pa.x.is_finite() || !pb.x.is_finite() {
                    return None;
                }
                let ab = pb - pa;
                let t = ((p - pa).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
                let d = (pa + ab * t).distance(p);
                (d <= PICK_RADIUS).then_some((b, d))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .and_then(|(b, _)| u16::try_from(b).ok())
    }
}

/// The meaning of the joint colours, in the viewport's bottom-left corner.
fn draw_legend(ui: &egui::Ui, rect: Rect, legend: &[(String, [f32; 4])]) {
    if legend.is_empty() {
        return;
    }
    let painter = ui.painter().with_clip_rect(rect);
    let font = egui::FontId::proportional(12.0);
    let line = 16.0;
    let width = legend
        .iter()
        .map(|(text, _)| {
            painter
                .layout_no_wrap(text.clone(), font.clone(), egui::Color32::WHITE)
                .size()
                .x
        })
        .fold(0.0f32, f32::max)
        + 30.0;
    let height = line * legend.len() as f32 + 8.0;
    let bg = Rect::from_min_size(
        Pos2::new(rect.min.x + 8.0, rect.max.y - height - 8.0),
        Vec2::new(width, height),
    );
    painter.rect_filled(bg, 4.0, egui::Color32::from_black_alpha(170));
    for (k, (text, c)) in legend.iter().enumerate() {
        let y = bg.min.y + 4.0 + line * k as f32;
        let swatch = Rect::from_min_size(Pos2::new(bg.min.x + 6.0, y + 3.0), Vec2::splat(10.0));
        let color = egui::Rgba::from_rgba_unmultiplied(c[0], c[1], c[2], c[3]);
        painter.rect_filled(swatch, 2.0, color);
        painter.text(
            Pos2::new(bg.min.x + 22.0, y),
            egui::Align2::LEFT_TOP,
            text,
            font.clone(),
            egui::Color32::WHITE,
        );
    }
}
