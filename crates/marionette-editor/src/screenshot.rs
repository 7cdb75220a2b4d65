//! Painting one egui frame (the whole window: panels and the viewport image) with egui's wgpu
//! renderer, into the window's swap-chain view or into a texture that is read back as an RGBA
//! image (`--screenshot`, with or without a window).

use std::sync::Arc;

use egui::mutex::RwLock;
use egui_wgpu::ScreenDescriptor;

use marionette_render::{GpuContext, RenderError};

/// Background behind the panels (egui paints every panel; this shows only at the edges).
const CLEAR: wgpu::Color = wgpu::Color {
    r: 0.03,
    g: 0.03,
    b: 0.035,
    a: 1.0,
};

/// One tessellated frame ready to draw (its textures uploaded).
pub struct FramePaint {
    jobs: Vec<egui::ClippedPrimitive>,
    screen: ScreenDescriptor,
    free: Vec<egui::TextureId>,
}

/// Tessellates `output` and uploads its new textures, for a `size_px` target.
pub fn begin(
    gpu: &GpuContext,
    renderer: &Arc<RwLock<egui_wgpu::Renderer>>,
    ctx: &egui::Context,
    mut output: egui::FullOutput,
    size_px: [u32; 2],
) -> FramePaint {
    let shapes = std::mem::take(&mut output.shapes);
    let jobs = ctx.tessellate(shapes, output.pixels_per_point);
    let mut r = renderer.write();
    for (id, deltas) in output.textures_delta.set.drain() {
        for delta in &deltas {
            r.update_texture(&gpu.device, &gpu.queue, id, delta);
        }
    }
    FramePaint {
        jobs,
        screen: ScreenDescriptor {
            size_in_pixels: size_px,
            pixels_per_point: output.pixels_per_point,
        },
        free: output.textures_delta.free.drain().collect(),
    }
}

/// Draws the frame into `view` (cleared first) and submits.
pub fn draw(
    gpu: &GpuContext,
    renderer: &Arc<RwLock<egui_wgpu::Renderer>>,
    frame: &FramePaint,
    view: &wgpu::TextureView,
) {
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("egui frame"),
        });
    let mut r = renderer.write();
    let extra = r.update_buffers(
        &gpu.device,
        &gpu.queue,
        &mut encoder,
        &frame.jobs,
        &frame.screen,
    );
    {
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(CLEAR),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        r.render(&mut pass.forget_lifetime(), &frame.jobs, &frame.screen);
    }
    gpu.queue
        .submit(extra.into_iter().chain([encoder.finish()]));
}

/// Frees the textures the frame released.
pub fn end(renderer: &Arc<RwLock<egui_wgpu::Renderer>>, frame: FramePaint) {
    let mut r = renderer.write();
    for id in &frame.free {
        r.free_texture(id);
    }
}

/// Draws the frame into a texture of `format` and reads it back as RGBA.
pub fn capture(
    gpu: &GpuContext,
    renderer: &Arc<RwLock<egui_wgpu::Renderer>>,
    frame: &FramePaint,
    format: wgpu::TextureFormat,
) -> Result<image::RgbaImage, RenderError> {
    let [width, height] = frame.screen.size_in_pixels;
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("screenshot"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    draw(gpu, renderer, frame, &view);
    let padded = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
        * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("screenshot read-back"),
        size: u64::from(padded) * u64::from(height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("screenshot copy"),
        });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    gpu.queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    slice.map_async(wgpu::MapMode::Read, |_| {});
    gpu.wait_idle()?;
    let bgra = matches!(
        format,
        wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
    );
    // (in usize: a 32768-pixel square window overflowed the u32 product)
    let mut pixels = Vec::with_capacity(width as usize * height as usize * 4);
    {
        let data = slice
            .get_mapped_range()
            .map_err(|e| RenderError::Readback(format!("{e:?}")))?;
        // (in range: the buffer is `height` rows of `padded >= width * 4` bytes)
        for row in data.chunks(padded as usize) {
            for px in row[..(width * 4) as usize].chunks_exact(4) {
                if bgra {
                    pixels.extend_from_slice(&[px[2], px[1], px[0], 255]);
                } else {
                    pixels.extend_from_slice(&[px[0], px[1], px[2], 255]);
                }
            }
        }
    }
    buffer.unmap();
    image::RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| RenderError::Readback("screenshot size mismatch".into()))
}

/// Runs `frames` frames of `run_ui` headlessly (no window) at `size` points and returns the
/// last one as an image: `--screenshot` where no display exists.
pub fn headless(
    gpu: &GpuContext,
    renderer: &Arc<RwLock<egui_wgpu::Renderer>>,
    ctx: &egui::Context,
    size: [u32; 2],
    frames: u32,
    dt: f32,
    run_ui: &mut dyn FnMut(&mut egui::Ui),
) -> Result<image::RgbaImage, RenderError> {
    let mut image = None;
    for i in 0..frames.max(1) {
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(size[0] as f32, size[1] as f32),
            )),
            time: Some(f64::from(i) * f64::from(dt)),
            predicted_dt: dt,
            ..Default::default()
        };
        let output = ctx.run_ui(raw, |ui| run_ui(ui));
        let frame = begin(gpu, renderer, ctx, output, size);
        if i + 1 == frames.max(1) {
            image = Some(capture(
                gpu,
                renderer,
                &frame,
                wgpu::TextureFormat::Rgba8Unorm,
            )?);
        }
        end(renderer, frame);
    }
    image.ok_or_else(|| RenderError::Readback("no frame rendered".into()))
}
