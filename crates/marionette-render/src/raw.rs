//! GPU data layouts: `#[repr(C)]` Pod structs (`*Raw`) matching the WGSL structs in `shaders/`.

use bytemuck::{Pod, Zeroable};

/// Marker for "no joint" in [`FrameRaw::params`] and unused vertex influences.
pub const NO_JOINT: u32 = u32::MAX;

/// Marker for "no morph set" in [`MaterialRaw::morph`] (`NO_MORPH` in the shaders).
pub const NO_MORPH: u32 = u32::MAX;

/// One mesh vertex (80 bytes). The capture compute pass reads the same buffer as `array<f32>`
/// with a stride of 20 words, so the field order is part of the shader contract.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct VertexRaw {
    /// Bind-pose position (model space for skinned meshes, joint space for rigid ones).
    pub position: [f32; 3],
    /// Bind-pose normal.
    pub normal: [f32; 3],
    /// Texture coordinate set 0.
    pub uv: [f32; 2],
    /// Palette entries relative to the instance's palette base.
    pub joints: [u32; 4],
    /// Influence weights (sum 1; rigid meshes use `[1, 0, 0, 0]`).
    pub weights: [f32; 4],
    /// Skeleton joint of each influence (for the weight heatmap), [`NO_JOINT`] when unused.
    pub skeleton_joints: [u32; 4],
}

impl VertexRaw {
    /// Size of one vertex in 32-bit words (the capture shader's stride).
    pub const WORDS: usize = 20;

    /// The vertex buffer layout for the skinned pipeline (locations 0..=5).
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        const ATTRS: [wgpu::VertexAttribute; 6] = wgpu::vertex_attr_array![
            0 => Float32x3, 1 => Float32x3, 2 => Float32x2,
            3 => Uint32x4, 4 => Float32x4, 5 => Uint32x4
        ];
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<VertexRaw>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRS,
        }
    }
}

/// Per-frame uniforms: camera, lights, debug view selection.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct FrameRaw {
    /// World to clip space.
    pub view_proj: [[f32; 4]; 4],
    /// Camera position (w = 1).
    pub eye: [f32; 4],
    /// Unit direction towards the key light (w unused).
    pub key_dir: [f32; 4],
    /// x: heatmap joint ([`NO_JOINT`] = off), y: viewport height in pixels, z, w: unused.
    pub params: [u32; 4],
}

/// One character instance: placement, tint, and where its palette starts.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct InstanceRaw {
    /// Character space to world.
    pub world: [[f32; 4]; 4],
    /// Colour multiplier; alpha < 1 draws translucent (onion-skin ghosts).
    pub tint: [f32; 4],
    /// Index of this instance's first palette matrix in the shared palette buffer.
    pub palette_base: u32,
    /// Index of this instance's morph set headers in the morph table (see `skinning.wgsl`).
    pub morph_base: u32,
    /// Padding to a 16-byte multiple.
    pub _pad: [u32; 2],
}

/// Material uniforms (and the mesh's morph data, which the vertex stage reads).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct MaterialRaw {
    /// Base colour factor (linear RGBA), multiplied with the texture (white when none).
    pub base_color: [f32; 4],
    /// The mesh's morph set ([`NO_MORPH`]: none), vertex count, first vertex in the shared
    /// vertex buffer and first delta in the morph delta buffer.
    pub morph: [u32; 4],
}

/// A debug line vertex (grid, bones, joint crosses, axes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct LineVertexRaw {
    /// World position.
    pub position: [f32; 3],
    /// Linear RGBA colour.
    pub color: [f32; 4],
}

impl LineVertexRaw {
    /// The vertex buffer layout for the line pipeline.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        const ATTRS: [wgpu::VertexAttribute; 2] =
            wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<LineVertexRaw>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRS,
        }
    }
}

/// Parameters of the skinning capture compute pass.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct CaptureParamsRaw {
    /// Palette base of the character being captured.
    pub palette_base: u32,
    /// First vertex to skin.
    pub first_vertex: u32,
    /// Number of vertices.
    pub vertex_count: u32,
    /// Morph base of the character being captured.
    pub morph_base: u32,
    /// The mesh's morph data, as [`MaterialRaw::morph`].
    pub morph: [u32; 4],
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes match the WGSL layouts (std430 / uniform rules) the shaders assume.
    #[test]
    fn sizes_match_shaders() {
        assert_eq!(std::mem::size_of::<VertexRaw>(), VertexRaw::WORDS * 4);
        assert_eq!(std::mem::size_of::<FrameRaw>(), 112);
        assert_eq!(std::mem::size_of::<InstanceRaw>(), 96);
        assert_eq!(std::mem::size_of::<MaterialRaw>(), 32);
        assert_eq!(std::mem::size_of::<LineVertexRaw>(), 28);
        assert_eq!(std::mem::size_of::<CaptureParamsRaw>(), 32);
    }
}
