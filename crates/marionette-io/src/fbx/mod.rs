//! FBX import through `ufbx` (the loader Godot uses): the scene converted to glTF's conventions
//! by ufbx (Y up, metres, right-handed; pre/post rotations, pivots and scale inheritance folded
//! into each node's transform), then read into a [`marionette_anim::Model`]: `joints` (which
//! nodes are joints, their rest pose), `meshes` (skinned and rigid meshes, blend shapes as
//! morph targets), `clips` (every animation stack sampled at the scene's frame rate).

pub(crate) mod clips;
pub(crate) mod joints;
pub(crate) mod meshes;
pub(crate) mod values;
