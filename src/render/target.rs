//! Offscreen render target (MSAA colour + resolve + depth) and read-back to an RGBA image.

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

/// Textures for rendering offscreen at a fixed size, plus a read-back buffer.
pub struct OffscreenTarget {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// MSAA sample count of `color` and `depth`.
    pub sample_count: u32,
    color: wgpu::TextureView,
    resolve: Option<(wgpu::Texture, wgpu::TextureView)>,
    color_texture: wgpu::Texture,
    depth: wgpu::TextureView,
    readback: wgpu::Buffer,
    padded_row: u32,
}

fn texture(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    sample_count: u32,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
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
    })
}

impl OffscreenTarget {
    /// Creates a `width` x `height` target with `sample_count` samples (1 or 4).
    pub fn new(
        ctx: &GpuContext,
        width: u32,
        height: u32,
        sample_count: u32,
    ) -> Result<Self, RenderError> {
        let max = ctx.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(RenderError::Size { width, height, max });
        }
        let d = &ctx.device;
        let size = (width, height);
        let att = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let src = wgpu::TextureUsages::COPY_SRC;
        let color_texture = texture(
            d,
            "offscreen colour",
            size,
            sample_count,
            OFFSCREEN_FORMAT,
            att | if sample_count == 1 { src } else { att },
        );
        let color = color_texture.create_view(&Default::default());
        let resolve = (sample_count > 1).then(|| {
            let t = texture(d, "offscreen resolve", size, 1, OFFSCREEN_FORMAT, att | src);
            let v = t.create_view(&Default::default());
            (t, v)
        });
        let depth = texture(d, "offscreen depth", size, sample_count, DEPTH_FORMAT, att)
            .create_view(&Default::default());
        let padded_row = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen read-back"),
            size: padded_row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Ok(Self {
            width,
            height,
            sample_count,
            color,
            resolve,
            color_texture,
            depth,
            readback,
            padded_row,
        })
    }

    /// Begins a render pass that clears colour and depth.
    pub fn begin_pass<'e>(&self, encoder: &'e mut wgpu::CommandEncoder) -> wgpu::RenderPass<'e> {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("offscreen pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.color,
                depth_slice: None,
                resolve_target: self.resolve.as_ref().map(|(_, v)| v),
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

    /// Records the copy of the (resolved) colour into the read-back buffer.
    pub fn copy_out(&self, encoder: &mut wgpu::CommandEncoder) {
        let texture = self
            .resolve
            .as_ref()
            .map_or(&self.color_texture, |(t, _)| t);
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture,
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
