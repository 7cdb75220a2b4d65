//! How Marionette touches files, in one place: which files a command may read ([`confine`]: an
//! input's URIs, a script's `require`, `io.open` and rig file, the editor's sidecar), and how it
//! replaces one ([`atomic`]: a temporary file flushed and renamed into place, so a crash leaves
//! the old file or the new one, whole). Every crate that reads or writes a user's file goes
//! through here; the glTF writer's all-or-nothing replace of several files
//! ([`write_document`](crate::write_document)) is built on [`atomic`].

pub mod atomic;
pub mod confine;

pub use crate::document::write_file;
pub use atomic::write_atomic;
