//! Render targets: the MSAA colour + depth attachments a frame draws into (for a window surface
//! or offscreen), and an offscreen target that resolves and reads back to an RGBA image.

use super::{GpuContext, RenderError, DEPTH_FORMAT};

/// Colour format of offscreen targets (and of written PNGs): 8-bit sRGB.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Background colour (linear).
pub const CLEAR_COLOR: wgpu::Color = wgpu::Color {
    r: 0.08,
    g: 0.09,
    b: 0.11,
    a: 1.0,
};

fn texture(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    sample_count: u32,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> (wgpu::Texture, wgpu::TextureView) {
    let t = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    });
    let v = t.create_view(&wgpu::TextureViewDescriptor {
        label: Some(label),
        ..Default::default()
    });
    (t, v)
}

/// The attachments of a frame: a multisampled colour buffer (when `sample_count > 1`) that
/// resolves into the output view, and a depth buffer. Used for window surfaces (output = the
/// swap-chain texture) and by [`OffscreenTarget`].
pub struct Attachments {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// MSAA sample count of colour and depth.
    pub sample_count: u32,
    msaa: Option<wgpu::TextureView>,
    depth: wgpu::TextureView,
}

impl Attachments {
    /// Creates attachments for `format` at `width` x `height` with `sample_count` samples.
    pub fn new(
        ctx: &GpuContext,
        format: wgpu::TextureFormat,
        width: u32,
        height: u32,
        sample_count: u32,
    ) -> Result<Self, RenderError> {
        let max = ctx.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(RenderError::Size { width, height, max });
        }
        let att = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let size = (width, height);
        let msaa = (sample_count > 1)
            .then(|| texture(&ctx.device, "msaa colour", size, sample_count, format, att).1);
        let depth = texture(&ctx.device, "depth", size, sample_count, DEPTH_FORMAT, att).1;
        Ok(Self {
            width,
            height,
            sample_count,
            msaa,
            depth,
        })
    }

    /// Begins a render pass that clears colour and depth and ends up in `output` (resolved from
    /// the MSAA buffer when multisampling).
    pub fn begin_pass<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        output: &wgpu::TextureView,
    ) -> wgpu::RenderPass<'e> {
        let (view, resolve_target) = match &self.msaa {
            Some(m) => (m, Some(output)),
            None => (output, None),
        };
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("frame pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(CLEAR_COLOR),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }
}

/// An offscreen frame: [`Attachments`], a single-sample output texture and a read-back buffer.
pub struct OffscreenTarget {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// MSAA sample count.
    pub sample_count: u32,
    attachments: Attachments,
    output: wgpu::Texture,
    output_view: wgpu::TextureView,
    readback: wgpu::Buffer,
    padded_row: u32,
}

impl OffscreenTarget {
    /// Creates a `width` x `height` target with `sample_count` samples (1 or 4).
    pub fn new(
        ctx: &GpuContext,
        width: u32,
        height: u32,
        sample_count: u32,
    ) -> Result<Self, RenderError> {
        ctx.check_image_size(width, height)?;
        let attachments = Attachments::new(ctx, OFFSCREEN_FORMAT, width, height, sample_count)?;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let (output, output_view) = texture(
            &ctx.device,
            "offscreen output",
            (width, height),
            1,
            OFFSCREEN_FORMAT,
            usage,
        );
        let padded_row = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen read-back"),
            size: padded_row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Ok(Self {
            width,
            height,
            sample_count,
            attachments,
            output,
            output_view,
            readback,
            padded_row,
        })
    }

    /// Begins a render pass that clears colour and depth.
    pub fn begin_pass<'e>(&self, encoder: &'e mut wgpu::CommandEncoder) -> wgpu::RenderPass<'e> {
        self.attachments.begin_pass(encoder, &self.output_view)
    }

    /// Records the copy of the (resolved) colour into the read-back buffer.
    pub fn copy_out(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.output,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
        );
    }

    /// Waits for the GPU and reads the copied image (call after submitting [`Self::copy_out`]).
    pub fn read(&self, ctx: &GpuContext) -> Result<image::RgbaImage, RenderError> {
        let slice = self.readback.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        ctx.wait_idle()?;
        let mut pixels = Vec::with_capacity((self.width * self.height * 4) as usize);
        {
            let view = slice
                .get_mapped_range()
                .map_err(|e| RenderError::Readback(format!("{e:?}")))?;
            for row in view.chunks(self.padded_row as usize) {
                pixels.extend_from_slice(&row[..(self.width * 4) as usize]);
            }
        }
        self.readback.unmap();
        image::RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| RenderError::Readback("image size mismatch".into()))
    }
}
