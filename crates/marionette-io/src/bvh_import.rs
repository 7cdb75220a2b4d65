//! The BVH entry point: bytes to a [`Model`], errors as `file:line: message`.

use std::path::Path;

use super::bvh::{model, parse};
use super::units::ImportOptions;
use super::GltfError;
use marionette_anim::Model;

/// Reads BVH bytes; `label` names the file in errors and notes, `path` gives the clip its name
/// (the file's stem).
pub fn import_bvh_slice(
    bytes: &[u8],
    path: &Path,
    label: &str,
    options: &ImportOptions,
) -> Result<Model, GltfError> {
    let text = String::from_utf8_lossy(bytes);
    let file = parse::parse(&text).map_err(|f| GltfError::Bvh {
        file: label.to_string(),
        line: f.line,
        message: f.message,
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "motion".to_string());
    model::to_model(file, label, &stem, options).map_err(|message| GltfError::Bvh {
        file: label.to_string(),
        line: 0,
        message,
    })
}
