//! Which reader a file goes to, and the one entry point every command and script uses to read a
//! character or its motion: [`import`] / [`import_with`].
//!
//! `.glb` / `.gltf` go to the glTF importer, `.bvh` to the BVH reader, `.fbx` to the FBX reader;
//! a file with any other extension is recognised by its first bytes (`HIERARCHY`, an FBX
//! header) and read as glTF otherwise.

use std::path::Path;

use super::units::ImportOptions;
use super::GltfError;
use marionette_anim::Model;

/// The formats Marionette reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    /// glTF 2.0, `.gltf` or `.glb`.
    Gltf,
    /// Biovision hierarchy, `.bvh`.
    Bvh,
    /// Autodesk FBX (binary or ASCII), `.fbx`.
    Fbx,
}

impl SourceFormat {
    /// The format `path`'s extension names, if it names one.
    pub fn from_extension(path: &Path) -> Option<SourceFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "gltf" | "glb" => Some(SourceFormat::Gltf),
            "bvh" => Some(SourceFormat::Bvh),
            "fbx" => Some(SourceFormat::Fbx),
            _ => None,
        }
    }

    /// The format of a file's first bytes: BVH (`HIERARCHY`), FBX (its binary header or an ASCII
    /// FBX's `; FBX` comment), else glTF.
    pub fn sniff(bytes: &[u8]) -> SourceFormat {
        let head = &bytes[..bytes.len().min(64)];
        let text = String::from_utf8_lossy(head);
        let text = text.trim_start_matches('\u{feff}').trim_start();
        if text.len() >= 9 && text[..9].eq_ignore_ascii_case("HIERARCHY") {
            SourceFormat::Bvh
        } else if head.starts_with(b"Kaydara FBX Binary") || text.starts_with("; FBX") {
            SourceFormat::Fbx
        } else {
            SourceFormat::Gltf
        }
    }

    /// Whether the file is glTF (bakes copy a glTF source; other formats are converted).
    pub fn of_file(path: &Path) -> SourceFormat {
        SourceFormat::from_extension(path).unwrap_or(SourceFormat::Gltf)
    }
}

/// Imports a character or motion file with the command line's options
/// ([`ImportOptions::command_line`]; see [`import_with`]).
pub fn import(path: &Path) -> Result<Model, GltfError> {
    import_with(path, &ImportOptions::command_line())
}

/// Imports a `.glb`, `.gltf`, `.bvh` or `.fbx` file. A glTF's external files are looked up next
/// to it, under the rule of [`crate::files::confine`] (inside its folder, regular files only).
/// Errors name the file as given.
pub fn import_with(path: &Path, options: &ImportOptions) -> Result<Model, GltfError> {
    let label = path.display().to_string();
    let bytes =
        crate::files::confine::read_regular(path, &label, None).map_err(|error| GltfError::Io {
            file: label.clone(),
            error,
        })?;
    let format = SourceFormat::from_extension(path).unwrap_or_else(|| SourceFormat::sniff(&bytes));
    let mut model = match format {
        SourceFormat::Gltf => crate::import_slice(&bytes, path.parent(), &label)?,
        SourceFormat::Bvh => crate::import_bvh_slice(&bytes, path, &label, options)?,
        SourceFormat::Fbx => crate::import_fbx_slice(&bytes, path, &label, options)?,
    };
    model.source = path.to_path_buf();
    Ok(model)
}
