//! Bind group layouts and pipelines, created once per target format and sample count.

use super::raw::{LineVertexRaw, VertexRaw};
use super::DEPTH_FORMAT;

/// WGSL source of the mesh pipeline: the shared skinning function followed by `mesh.wgsl`.
pub const MESH_WGSL: &str = concat!(
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/mesh.wgsl")
);
/// WGSL source of the capture pass: the shared skinning function followed by `skin_capture.wgsl`.
pub const CAPTURE_WGSL: &str = concat!(
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/skin_capture.wgsl")
);
/// WGSL source of the debug line pipeline.
pub const LINES_WGSL: &str = include_str!("../../../shaders/lines.wgsl");

/// All pipelines and layouts of the renderer.
pub struct Pipelines {
    /// Group 0: frame uniform, palette storage, instance storage, morph deltas, morph table.
    pub frame_layout: wgpu::BindGroupLayout,
    /// Group 1: material uniform (its morph data read by the vertex stage), base colour
    /// texture, sampler.
    pub material_layout: wgpu::BindGroupLayout,
    /// Opaque skinned meshes.
    pub mesh: wgpu::RenderPipeline,
    /// Translucent skinned meshes (onion-skin ghosts): alpha blended, no depth writes.
    pub ghost: wgpu::RenderPipeline,
    /// Lines tested against depth (grid).
    pub lines_depth: wgpu::RenderPipeline,
    /// Lines drawn on top of everything (skeleton, axes).
    pub lines_overlay: wgpu::RenderPipeline,
    /// Colour format the pipelines render to.
    pub format: wgpu::TextureFormat,
    /// MSAA sample count.
    pub sample_count: u32,
}

fn entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    ty: wgpu::BindingType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty,
        count: None,
    }
}

/// A uniform buffer binding type.
pub fn uniform() -> wgpu::BindingType {
    wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Uniform,
        has_dynamic_offset: false,
        min_binding_size: None,
    }
}

/// A storage buffer binding type.
pub fn storage(read_only: bool) -> wgpu::BindingType {
    wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Storage { read_only },
        has_dynamic_offset: false,
        min_binding_size: None,
    }
}

impl Pipelines {
    /// Builds the layouts and pipelines for `format` with `sample_count` samples.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let vf = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("frame bind group layout"),
            entries: &[
                entry(0, vf, uniform()),
                entry(1, wgpu::ShaderStages::VERTEX, storage(true)),
                entry(2, wgpu::ShaderStages::VERTEX, storage(true)),
                entry(3, wgpu::ShaderStages::VERTEX, storage(true)),
                entry(4, wgpu::ShaderStages::VERTEX, storage(true)),
            ],
        });
        let material_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("material bind group layout"),
            entries: &[
                entry(0, vf, uniform()),
                entry(
                    1,
                    wgpu::ShaderStages::FRAGMENT,
                    wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                entry(
                    2,
                    wgpu::ShaderStages::FRAGMENT,
                    wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                ),
            ],
        });
        let mesh_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("mesh pipeline layout"),
            bind_group_layouts: &[Some(&frame_layout), Some(&material_layout)],
            immediate_size: 0,
        });
        let mesh_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("mesh shader"),
            source: wgpu::ShaderSource::Wgsl(MESH_WGSL.into()),
        });
        let mesh_pipeline = |label: &str, blend: Option<wgpu::BlendState>, depth_write: bool| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&mesh_layout),
                vertex: wgpu::VertexState {
                    module: &mesh_module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(VertexRaw::layout())],
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    // glTF meshes are often double-sided or inconsistently wound: no culling.
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(depth_write),
                    depth_compare: Some(wgpu::CompareFunction::LessEqual),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: sample_count,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &mesh_module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format,
                        blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let mesh = mesh_pipeline("mesh pipeline", None, true);
        let ghost = mesh_pipeline(
            "ghost mesh pipeline",
            Some(wgpu::BlendState::ALPHA_BLENDING),
            false,
        );
        let lines_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("lines pipeline layout"),
            bind_group_layouts: &[Some(&frame_layout)],
            immediate_size: 0,
        });
        let lines_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("lines shader"),
            source: wgpu::ShaderSource::Wgsl(LINES_WGSL.into()),
        });
        let lines_pipeline = |label: &str, compare: wgpu::CompareFunction| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&lines_layout),
                vertex: wgpu::VertexState {
                    module: &lines_module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(LineVertexRaw::layout())],
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::LineList,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(compare),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: sample_count,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &lines_module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format,
                        blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let lines_depth = lines_pipeline("grid lines pipeline", wgpu::CompareFunction::LessEqual);
        let lines_overlay = lines_pipeline("overlay lines pipeline", wgpu::CompareFunction::Always);
        Self {
            frame_layout,
            material_layout,
            mesh,
            ghost,
            lines_depth,
            lines_overlay,
            format,
            sample_count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::naga;

    /// Every shader (with the shared skinning prefix) parses and validates, without a GPU.
    #[test]
    fn shaders_validate() {
        for (name, src) in [
            ("mesh", MESH_WGSL),
            ("capture", CAPTURE_WGSL),
            ("lines", LINES_WGSL),
        ] {
            let module = naga::front::wgsl::parse_str(src)
                .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(src)));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::empty(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        }
    }
}
