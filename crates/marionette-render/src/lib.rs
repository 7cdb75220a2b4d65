//! # marionette-render
//!
//! **Owns** drawing: wgpu pipelines, GPU skinning, cameras, debug views and offscreen pictures
//! of poses from any [`PoseSource`](marionette_anim::PoseSource).
//!
//! **Must not know** Lua, bakes or UI toolkits: it depends on anim (poses, models) and io (only
//! to write a picture through [`files`](marionette_io::files)); a script becomes something it
//! can draw through `marionette_script::preview`, in a crate above both.
//!
//! wgpu renderer: skinned, instanced characters with debug views, on a window surface or
//! headless (offscreen to PNG).
//!
//! - [`GpuContext`]: adapter choice (hardware first, lavapipe as fallback, `MARIONETTE_ADAPTER`
//!   forces one by name), device, captured validation errors.
//! - [`Renderer`]: pipelines plus the per-frame buffers. All characters' joint palettes share one
//!   storage buffer; each instance stores its palette base, so a mesh is drawn for every
//!   character in one instanced draw.
//! - [`GpuModel`]: a model's vertices, indices, materials and textures, uploaded once.
//! - [`SkinCapture`]: runs the render path's WGSL skinning function in a compute pass and reads
//!   the result back (tests compare it with the CPU reference).
//! - [`OffscreenTarget`]: MSAA colour + depth, resolved and read back as an RGBA image.
//! - [`OrbitCamera`], [`lines`]: camera and debug line geometry.
//! - [`PoseSource`]: where poses come from. The renderer only draws poses; [`ClipPoses`] adapts
//!   a model's clips, a script's graph implements it in `marionette_script::preview`.
//!   [`render_source`] is the one frame / contact-sheet loop; [`render_model`] feeds it a clip.
//!
//! Used by the editor (the viewport) and the CLI (`render`); nothing below them depends on it.
//!
//! Headless, one call:
//! ```no_run
//! use marionette_render::{render_model, GpuContext, RenderRequest, ViewOptions};
//! let model = marionette_anim::mannequin::build();
//! let ctx = GpuContext::headless()?;
//! let req = RenderRequest {
//!     clip: Some(1),
//!     time: 0.3,
//!     view: ViewOptions { skeleton: true, ..Default::default() },
//!     ..Default::default()
//! };
//! render_model(&ctx, &model, &req)?.save("walk.png")?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! In a window: [`GpuContext::with_surface`], a [`Scene`] for the surface format, then per frame
//! [`Scene::prepare`], [`SurfaceTarget::acquire`], [`Attachments::begin_pass`] on the
//! swap-chain view, [`Renderer::draw`], submit and `queue.present(frame)`.

mod camera;
mod capture;
mod clip_poses;
mod context;
mod gpu_model;
#[cfg(test)]
mod gpu_model_tests;
mod image_file;
mod label;
pub mod lines;
mod offscreen;
mod pipelines;
mod pose;
mod raw;
mod renderer;
mod scene;
mod source;
mod target;

pub use camera::{Bounds, OrbitCamera};
pub use capture::SkinCapture;
pub use clip_poses::ClipPoses;
pub use context::{choose_adapter, GpuContext, SurfaceTarget, ADAPTER_ENV};
pub use gpu_model::{
    build_mesh_data, decode_image, fit_texture, GpuModel, MeshData, MeshRange, PaletteLayout,
};
pub use image_file::save_image;
pub use marionette_anim::PoseSource;
pub use offscreen::{sheet_times, RenderRequest};
pub use pipelines::{Pipelines, CAPTURE_WGSL, LINES_WGSL, MESH_WGSL};
pub use pose::{add_posed_bounds, Poser};
pub use raw::{
    CaptureParamsRaw, FrameRaw, InstanceRaw, LineVertexRaw, MaterialRaw, VertexRaw, NO_JOINT,
};
pub use renderer::{FrameInput, Renderer};
pub use scene::{
    framed_camera, ghost_time, grid_step, Cast, Character, Scene, Shot, ViewOptions, COMPARE_GHOST,
};
pub use source::{render_model, render_source, source_bounds};
pub use target::{Attachments, OffscreenTarget, CLEAR_COLOR, OFFSCREEN_FORMAT};

/// Depth buffer format.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Errors from the renderer.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No usable adapter.
    #[error("{0}")]
    NoAdapter(String),
    /// Device creation or polling failed.
    #[error("wgpu device: {0}")]
    Device(String),
    /// Surface creation or configuration failed.
    #[error("window surface: {0}")]
    Surface(String),
    /// A mesh cannot be drawn.
    #[error("{mesh}: {what}")]
    BadMesh {
        /// Which mesh (`meshes[i] 'name'`).
        mesh: String,
        /// What is wrong.
        what: String,
    },
    /// A texture image cannot be decoded.
    #[error("images[{image}]: {what}")]
    Texture {
        /// Image index.
        image: usize,
        /// Decoder message.
        what: String,
    },
    /// Requested image size unsupported.
    #[error("image size {width}x{height} is not supported (1..={max} per side)")]
    Size {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
        /// Device limit.
        max: u32,
    },
    /// The image is too large to read back from this device in one buffer.
    #[error("image size {width}x{height} is too large for this device: reading it back needs {mib} MiB, at most {max_mib} MiB ({fits}x{fits} fits)")]
    ReadbackSize {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
        /// The read-back buffer it needs, in MiB.
        mib: u64,
        /// The device's largest buffer, in MiB.
        max_mib: u64,
        /// The side of the largest square image that fits.
        fits: u32,
    },
    /// Reading results back from the GPU failed.
    #[error("GPU read-back: {0}")]
    Readback(String),
    /// wgpu reported validation errors.
    #[error("wgpu validation: {0}")]
    Validation(String),
    /// A clip or joint named on the command line does not exist.
    #[error("{0}")]
    NotFound(String),
    /// An image could not be encoded for saving.
    #[error("cannot encode {path}: {error}")]
    Encode {
        /// The output path as given.
        path: String,
        /// The encoder's error.
        error: image::ImageError,
    },
    /// An image could not be written (names the target).
    #[error(transparent)]
    Write(#[from] marionette_io::GltfError),
}
