//! # marionette-io
//!
//! **Owns** the edge: the glTF 2.0 codec (a file to a [`Model`](marionette_anim::Model) and
//! back, a bake's animations appended to a document) and [`files`], the rules for which files a
//! command may read ([`files::confine`]) and the one atomic, durable way to replace one
//! ([`files::atomic`]).
//!
//! **Must not know** Lua, GPUs, UI, bakes or scripts: it depends on the anim crate only. Every
//! crate that reads a user's file (the Lua host's `require`, `io.open` and rig, the editor's
//! sidecar) or writes one (bakes, images, sidecars) goes through [`files`].
//!
//! - [`files`]: `confine` (what may be read) and `atomic` (the one durable, atomic file write:
//!   temporary file flushed, renamed, folder flushed) used by every writer, the editor's
//!   sidecar included.
//! - [`document`]: the one document layer: GLB chunks, buffers and images by URI, the
//!   [`Document`] (JSON + one buffer) every writer fills, and [`write_document`] (temporary
//!   file + rename; `.glb`, or `.gltf` + `.bin`).
//! - import ([`import`], [`import_slice`]): a file to a [`Model`](marionette_anim::Model). The JSON is
//!   read by the importer's own schema (`import/schema.rs`), not the `gltf` crate's: that crate
//!   treats optional fields as required (an accessor without `bufferView`, a channel without
//!   `target.node`) and speaks serde's words; the Khronos validator's suite
//!   (`crates/marionette-io/tests/codec/gltf_conformance.rs`) holds the importer to the spec. The `gltf` crate stays as the
//!   independent reference importer of `tests/bake/reference_poses.rs`.
//! - [`export`]: a [`Model`](marionette_anim::Model) to a document ([`to_glb`], [`to_gltf`]), and
//!   animations appended to a document ([`append_animations`], how `bake` writes its takes).
//!
//! One error type, [`GltfError`], names the file and the glTF JSON path when reading, and the
//! part of the model at fault when writing.

mod bvh;
mod bvh_import;
pub mod document;
mod error;
pub mod export;
mod fbx;
mod fbx_import;
pub mod files;
mod formats;
mod gltf_import;
mod import;
pub mod units;

pub use bvh_import::import_bvh_slice;
pub use document::{write_document, write_file, Document, Format};
pub use error::GltfError;
pub use export::{
    append_animations, converted_document, skeleton_document, to_document, to_glb, to_gltf,
};
pub use fbx_import::import_fbx_slice;
pub use formats::{import, import_with, SourceFormat};
pub use gltf_import::import_slice;
pub use units::{ImportOptions, Unit};
