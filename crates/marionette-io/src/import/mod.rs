//! Pieces of the glTF importer (entry points in `gltf_import.rs`): the typed JSON (`schema`,
//! read by `schema_read` with `json_obj`, references checked by `schema_refs`, version and required extensions
//! by `asset`) over the document layer's GLB chunks and buffers ([`crate::document`]), a
//! bounds-checked accessor reader (`accessor`, `component`), the node hierarchy, skeleton and
//! skins, meshes and materials, and animations.

pub(crate) mod accessor;
pub(crate) mod animations;
pub(crate) mod asset;
pub(crate) mod component;
pub(crate) mod container;
pub(crate) mod json_obj;
pub(crate) mod material;
pub(crate) mod meshes;
pub(crate) mod morphs;

pub(crate) mod nodes;
pub(crate) mod schema;
pub(crate) mod schema_read;
pub(crate) mod schema_refs;
pub(crate) mod skeleton;
pub(crate) mod springs;
pub(crate) mod unread;

#[cfg(test)]
mod accessor_tests;
