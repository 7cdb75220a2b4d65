//! Debug capture of GPU morphing and skinning: a compute pass that runs the render pipeline's
//! `morph_vertex` and `skin_vertex` (same WGSL file) over a model's vertex buffer, morph deltas,
//! the frame's palette and morph table, read back for comparison with the CPU reference.

use glam::Vec3;

use super::gpu_model::GpuModel;
use super::pipelines::{storage, uniform, CAPTURE_WGSL};
use super::raw::{CaptureParamsRaw, InstanceRaw};
use super::renderer::Renderer;
use super::{GpuContext, RenderError};

/// The capture compute pipeline.
pub struct SkinCapture {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl SkinCapture {
    /// Compiles the capture pipeline.
    pub fn new(device: &wgpu::Device) -> Self {
        let cs = wgpu::ShaderStages::COMPUTE;
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: cs,
            ty,
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("skin capture bind group layout"),
            entries: &[
                entry(0, uniform()),
                entry(1, storage(true)),
                entry(2, storage(true)),
                entry(3, storage(true)),
                entry(4, storage(true)),
                entry(5, storage(false)),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("skin capture pipeline layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("skin capture shader"),
            source: wgpu::ShaderSource::Wgsl(CAPTURE_WGSL.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("skin capture pipeline"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("cs_main"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { layout, pipeline }
    }

    /// Morphs and skins the vertices of mesh `mesh` of `model` as `instance` (one of the
    /// last frame `renderer` prepared: its palette and morph bases) draws them, and returns
    /// (position, normal) pairs in character space.
    pub fn run(
        &self,
        ctx: &GpuContext,
        model: &GpuModel,
        renderer: &Renderer,
        instance: &InstanceRaw,
        mesh: usize,
    ) -> Result<Vec<(Vec3, Vec3)>, RenderError> {
        use wgpu::util::DeviceExt;
        let (Some(range), Some(&morph)) = (model.ranges.get(mesh), model.morphs.get(mesh)) else {
            return Err(RenderError::BadMesh {
                mesh: format!("meshes[{mesh}]"),
                what: "no such mesh in the uploaded model".into(),
            });
        };
        let (first, count) = (range.base_vertex as u32, range.vertex_count);
        if count == 0 {
            return Ok(Vec::new());
        }
        let d = &ctx.device;
        let params = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("skin capture params"),
            contents: bytemuck::bytes_of(&CaptureParamsRaw {
                palette_base: instance.palette_base,
                first_vertex: first,
                vertex_count: count,
                morph_base: instance.morph_base,
                morph,
            }),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let size = count as u64 * 32;
        let out = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("skin capture output"),
            size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("skin capture read-back"),
            size,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let bind_group = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("skin capture bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: renderer.palette_buffer().as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: model.vertex_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: model.morph_deltas.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: renderer.morph_table_buffer().as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: out.as_entire_binding(),
                },
            ],
        });
        let mut encoder = d.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("skin capture encoder"),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("skin capture pass"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(count.div_ceil(64), 1, 1);
        }
        encoder.copy_buffer_to_buffer(&out, 0, &readback, 0, size);
        ctx.queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        ctx.wait_idle()?;
        let view = slice
            .get_mapped_range()
            .map_err(|e| RenderError::Readback(format!("{e:?}")))?;
        let floats: &[[f32; 4]] = bytemuck::cast_slice(&view);
        Ok(floats
            .chunks_exact(2)
            .map(|c| {
                (
                    Vec3::new(c[0][0], c[0][1], c[0][2]),
                    Vec3::new(c[1][0], c[1][1], c[1][2]),
                )
            })
            .collect())
    }
}
