//! Per-frame GPU state: the shared palette, instance and morph table storage buffers, the frame
//! uniform and debug line vertices (and the model's morph deltas, bound beside them). Buffers are created once (and grown only when a frame needs more room);
//! each frame uploads only its data and counts the bytes.

use glam::{Mat4, Vec3};

use super::gpu_model::GpuModel;
use super::pipelines::Pipelines;
use super::raw::{FrameRaw, InstanceRaw, LineVertexRaw, NO_JOINT};

/// Smallest size of a per-frame buffer in bytes (wgpu rejects empty bindings; a few hundred
/// bytes cost nothing).
const MIN_BUFFER_BYTES: u64 = 256;

/// Characters whose palettes fit the initial palette buffer before it grows (at
/// [`INITIAL_JOINTS_PER_CHARACTER`] matrices each).
const INITIAL_PALETTE_CHARACTERS: u64 = 64;

/// Palette matrices per character the initial palette buffer assumes (the mannequin has fewer).
const INITIAL_JOINTS_PER_CHARACTER: u64 = 64;

/// Instances (characters plus ghosts) the initial instance buffer holds before it grows.
const INITIAL_INSTANCES: u64 = 64;

/// Debug line vertices (grid, skeleton, axes) the initial line buffer holds before it grows.
const INITIAL_LINE_VERTICES: u64 = 4096;

/// Direction towards the key light, world space (normalised in the frame uniform): from the
/// front-right, above.
const KEY_LIGHT_DIRECTION: Vec3 = Vec3::new(0.4, 0.8, 0.45);

/// Bytes of `n` values of `T`.
const fn bytes_of<T>(n: u64) -> u64 {
    n * std::mem::size_of::<T>() as u64
}

/// What one frame draws.
#[derive(Clone, Copy, Debug)]
pub struct FrameInput<'a> {
    /// World to clip.
    pub view_proj: Mat4,
    /// Camera position.
    pub eye: Vec3,
    /// Palettes of all characters, back to back (instances index into this).
    pub palettes: &'a [Mat4],
    /// Opaque instances.
    pub instances: &'a [InstanceRaw],
    /// Translucent instances (onion-skin ghosts), drawn after the opaque ones.
    pub ghosts: &'a [InstanceRaw],
    /// The morph table of all characters (see `skinning.wgsl`; instances index into it with
    /// their `morph_base`); empty for a model without morph targets.
    pub morph_table: &'a [[u32; 2]],
    /// Depth-tested lines (ground grid).
    pub grid: &'a [LineVertexRaw],
    /// Lines drawn on top (skeleton, axes).
    pub overlay: &'a [LineVertexRaw],
    /// Skeleton joint whose weights are shown as a heatmap instead of the material.
    pub heatmap_joint: Option<u16>,
}

/// A growable GPU buffer that is written with `queue.write_buffer` each frame.
struct DynBuffer {
    buffer: wgpu::Buffer,
    capacity: u64,
    usage: wgpu::BufferUsages,
    label: &'static str,
}

impl DynBuffer {
    fn new(
        device: &wgpu::Device,
        label: &'static str,
        usage: wgpu::BufferUsages,
        capacity: u64,
    ) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let capacity = capacity.max(MIN_BUFFER_BYTES);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: capacity,
            usage,
            mapped_at_creation: false,
        });
        Self {
            buffer,
            capacity,
            usage,
            label,
        }
    }

    /// Ensures room for `size` bytes (growing to the next power of two); returns true when the
    /// buffer was recreated.
    fn reserve(&mut self, device: &wgpu::Device, size: u64) -> bool {
        if size <= self.capacity {
            return false;
        }
        *self = Self::new(device, self.label, self.usage, size.next_power_of_two());
        true
    }
}

/// The renderer: pipelines plus the per-frame buffers.
pub struct Renderer {
    /// Pipelines and layouts.
    pub pipelines: Pipelines,
    frame: wgpu::Buffer,
    palette: DynBuffer,
    instances: DynBuffer,
    morph_table: DynBuffer,
    /// The drawn model's morph deltas ([`Renderer::use_model`]; a zero entry until then).
    morph_deltas: wgpu::Buffer,
    lines: DynBuffer,
    bind_group: wgpu::BindGroup,
    opaque_count: u32,
    ghost_count: u32,
    grid_count: u32,
    overlay_count: u32,
    bytes_uploaded: u64,
}

/// The frame bind group over `buffers`: frame uniform, palette, instances, morph deltas,
/// morph table (bindings 0 to 4).
fn frame_bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    buffers: [&wgpu::Buffer; 5],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
        .iter()
        .enumerate()
        .map(|(binding, b)| wgpu::BindGroupEntry {
            binding: binding as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("frame bind group"),
        layout,
        entries: &entries,
    })
}

impl Renderer {
    /// Creates pipelines for `format` / `sample_count` and initial buffers.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let pipelines = Pipelines::new(device, format, sample_count);
        let frame = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame uniform"),
            size: std::mem::size_of::<FrameRaw>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let storage = wgpu::BufferUsages::STORAGE;
        let palette_bytes =
            bytes_of::<Mat4>(INITIAL_PALETTE_CHARACTERS * INITIAL_JOINTS_PER_CHARACTER);
        let palette = DynBuffer::new(device, "palette storage", storage, palette_bytes);
        let instance_bytes = bytes_of::<InstanceRaw>(INITIAL_INSTANCES);
        let instances = DynBuffer::new(device, "instance storage", storage, instance_bytes);
        let morph_table = DynBuffer::new(device, "morph table storage", storage, MIN_BUFFER_BYTES);
        let morph_deltas = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("no morph deltas"),
            size: 16,
            usage: storage,
            mapped_at_creation: false,
        });
        let lines = DynBuffer::new(
            device,
            "debug line vertices",
            wgpu::BufferUsages::VERTEX,
            bytes_of::<LineVertexRaw>(INITIAL_LINE_VERTICES),
        );
        let bind_group = frame_bind_group(
            device,
            &pipelines.frame_layout,
            [
                &frame,
                &palette.buffer,
                &instances.buffer,
                &morph_deltas,
                &morph_table.buffer,
            ],
        );
        Self {
            pipelines,
            frame,
            palette,
            instances,
            morph_table,
            morph_deltas,
            lines,
            bind_group,
            opaque_count: 0,
            ghost_count: 0,
            grid_count: 0,
            overlay_count: 0,
            bytes_uploaded: 0,
        }
    }

    /// Draws `model` from now on: binds its morph deltas (what [`Renderer::draw`] is given
    /// must be that model).
    pub fn use_model(&mut self, device: &wgpu::Device, model: &GpuModel) {
        self.morph_deltas = model.morph_deltas.clone();
        self.rebind(device);
    }

    fn rebind(&mut self, device: &wgpu::Device) {
        self.bind_group = frame_bind_group(
            device,
            &self.pipelines.frame_layout,
            [
                &self.frame,
                &self.palette.buffer,
                &self.instances.buffer,
                &self.morph_deltas,
                &self.morph_table.buffer,
            ],
        );
    }

    /// Uploads one frame's data; returns the bytes written to GPU buffers.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        input: &FrameInput<'_>,
    ) -> u64 {
        let palette_bytes: &[u8] = bytemuck::cast_slice(input.palettes);
        let mut grown = self.palette.reserve(device, palette_bytes.len() as u64);
        let n_inst = input.instances.len() + input.ghosts.len();
        grown |= self
            .instances
            .reserve(device, bytes_of::<InstanceRaw>(n_inst as u64));
        let table: &[u8] = bytemuck::cast_slice(input.morph_table);
        grown |= self.morph_table.reserve(device, table.len() as u64);
        let n_lines = input.grid.len() + input.overlay.len();
        self.lines
            .reserve(device, bytes_of::<LineVertexRaw>(n_lines as u64));
        if grown {
            self.rebind(device);
        }
        let frame = FrameRaw {
            view_proj: input.view_proj.to_cols_array_2d(),
            eye: input.eye.extend(1.0).to_array(),
            key_dir: KEY_LIGHT_DIRECTION.normalize().extend(0.0).to_array(),
            params: [input.heatmap_joint.map_or(NO_JOINT, u32::from), 0, 0, 0],
        };
        let mut bytes = 0u64;
        let mut write = |buffer: &wgpu::Buffer, offset: u64, data: &[u8]| {
            if !data.is_empty() {
                queue.write_buffer(buffer, offset, data);
                bytes += data.len() as u64;
            }
        };
        write(&self.frame, 0, bytemuck::bytes_of(&frame));
        write(&self.palette.buffer, 0, palette_bytes);
        write(&self.morph_table.buffer, 0, table);
        let opaque: &[u8] = bytemuck::cast_slice(input.instances);
        write(&self.instances.buffer, 0, opaque);
        write(
            &self.instances.buffer,
            opaque.len() as u64,
            bytemuck::cast_slice(input.ghosts),
        );
        let grid: &[u8] = bytemuck::cast_slice(input.grid);
        write(&self.lines.buffer, 0, grid);
        write(
            &self.lines.buffer,
            grid.len() as u64,
            bytemuck::cast_slice(input.overlay),
        );
        self.opaque_count = input.instances.len() as u32;
        self.ghost_count = input.ghosts.len() as u32;
        self.grid_count = input.grid.len() as u32;
        self.overlay_count = input.overlay.len() as u32;
        self.bytes_uploaded = bytes;
        bytes
    }

    /// Bytes uploaded by the last [`Self::prepare`].
    pub fn bytes_uploaded(&self) -> u64 {
        self.bytes_uploaded
    }

    /// The shared palette storage buffer (bound by the capture pass too).
    pub fn palette_buffer(&self) -> &wgpu::Buffer {
        &self.palette.buffer
    }

    /// The morph table storage buffer (bound by the capture pass too).
    pub fn morph_table_buffer(&self) -> &wgpu::Buffer {
        &self.morph_table.buffer
    }

    /// Records the prepared frame: grid, opaque instances (one instanced draw per mesh), ghosts,
    /// then overlay lines.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, model: &GpuModel) {
        pass.set_bind_group(0, &self.bind_group, &[]);
        if self.grid_count > 0 {
            pass.set_pipeline(&self.pipelines.lines_depth);
            pass.set_vertex_buffer(0, self.lines.buffer.slice(..));
            pass.draw(0..self.grid_count, 0..1);
        }
        let draws = [
            (&self.pipelines.mesh, 0, self.opaque_count),
            (
                &self.pipelines.ghost,
                self.opaque_count,
                self.opaque_count + self.ghost_count,
            ),
        ];
        for (pipeline, first, last) in draws {
            if first == last {
                continue;
            }
            pass.set_pipeline(pipeline);
            pass.set_vertex_buffer(0, model.vertex_buffer.slice(..));
            pass.set_index_buffer(model.index_buffer.slice(..), wgpu::IndexFormat::Uint32);
            for (range, material) in model.ranges.iter().zip(&model.materials) {
                if range.index_count == 0 {
                    continue;
                }
                pass.set_bind_group(1, material, &[]);
                pass.draw_indexed(
                    range.first_index..range.first_index + range.index_count,
                    range.base_vertex,
                    first..last,
                );
            }
        }
        if self.overlay_count > 0 {
            pass.set_pipeline(&self.pipelines.lines_overlay);
            pass.set_vertex_buffer(
                0,
                self.lines
                    .buffer
                    .slice(bytes_of::<LineVertexRaw>(self.grid_count as u64)..),
            );
            pass.draw(0..self.overlay_count, 0..1);
        }
    }
}
