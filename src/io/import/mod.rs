//! Pieces of the glTF importer (entry points in `gltf_import.rs`): the schema-validated JSON
//! over the document layer's GLB chunks and buffers ([`crate::io::document`]), a bounds-checked
//! accessor reader, the node hierarchy, skeleton and skins, meshes and materials, and
//! animations.

pub(crate) mod accessor;
pub(crate) mod animations;
pub(crate) mod container;
pub(crate) mod material;
pub(crate) mod meshes;
pub(crate) mod nodes;
pub(crate) mod skeleton;

#[cfg(test)]
mod accessor_tests;
