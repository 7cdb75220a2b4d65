//! File formats: glTF 2.0 import and export.

mod model;

pub use model::{Image, Model};
mod error;
mod gltf_import;
mod import;
pub use error::ImportError;
pub use gltf_import::{import, import_slice};
pub mod gltf_export;
pub use gltf_export::{to_glb, to_gltf, ExportError};
