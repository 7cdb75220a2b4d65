//! The live editor window's parts (egui): for now the timeline widget.

pub mod timeline;
