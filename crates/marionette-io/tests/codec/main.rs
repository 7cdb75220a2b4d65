//! The glTF codec: the mannequin written and read back, morph targets, the public test models
//! (retargeting quality, the SoA runtime on the Fox) and the Khronos validator's own suite.
//!
//! One test binary: each module was a file of its own (see the testing chapter of the guide).

pub(crate) use marionette_testkit as common;
mod capture_quality;
mod conformance;

mod gltf_conformance;
mod mannequin;
mod morph_import;
mod retarget_quality;
mod soa_fox;
mod springs;
mod unread_data;
