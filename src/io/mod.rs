//! File formats: glTF 2.0 import and export.

mod model;

pub use model::{Image, Model};
pub mod bake;
