//! BVH (Biovision hierarchy) import: a skeleton and one clip, to a [`marionette_anim::Model`].
//! `parse` reads the grammar (every error with its line), `model` converts it to glTF's
//! conventions.

pub(crate) mod model;
pub(crate) mod parse;

#[cfg(test)]
mod tests;
