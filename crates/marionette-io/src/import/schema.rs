//! The part of the glTF JSON Marionette reads, typed: buffers, buffer views, accessors, nodes,
//! skins, meshes and animations, read by [`super::schema_read`] (each part with its JSON path in
//! glTF words). What glTF leaves optional is optional here (an accessor without `bufferView` is
//! zeros, a channel without `target.node` is ignored); enums that later glTF versions may extend
//! (accessor `type`, `componentType`, sampler `interpolation`, primitive `mode`) are kept as
//! written and checked where they are used. Everything else (materials, textures, images,
//! scenes, cameras, extensions) stays in [`Root::json`]: materials are read leniently
//! elsewhere, the rest is never read.

use serde_json::Value;

/// The typed glTF document.
pub(crate) struct Root {
    /// `accessors`.
    pub accessors: Vec<Accessor>,
    /// `bufferViews`.
    pub buffer_views: Vec<View>,
    /// `buffers`.
    pub buffers: Vec<Buffer>,
    /// `nodes`.
    pub nodes: Vec<Node>,
    /// `skins`.
    pub skins: Vec<Skin>,
    /// `meshes`.
    pub meshes: Vec<Mesh>,
    /// `animations`.
    pub animations: Vec<Animation>,
    /// The whole JSON, for the parts read leniently (materials, textures, images).
    pub json: Value,
}

/// One accessor (enums as written, checked when read).
pub(crate) struct Accessor {
    /// `bufferView` (absent: all elements are zero).
    pub buffer_view: Option<usize>,
    /// `byteOffset` within the view.
    pub byte_offset: u64,
    /// `componentType`, the GL enum as written.
    pub component_type: u64,
    /// `normalized`.
    pub normalized: bool,
    /// `count`.
    pub count: u64,
    /// `type`, as written.
    pub kind: String,
    /// `sparse`.
    pub sparse: Option<Sparse>,
}

/// An accessor's `sparse` substitution.
pub(crate) struct Sparse {
    /// `count`: how many elements are replaced.
    pub count: u64,
    /// `indices.bufferView`, `indices.byteOffset`, `indices.componentType`.
    pub indices: (usize, u64, u64),
    /// `values.bufferView`, `values.byteOffset`.
    pub values: (usize, u64),
}

/// One buffer view.
pub(crate) struct View {
    /// `buffer`.
    pub buffer: usize,
    /// `byteOffset`.
    pub byte_offset: u64,
    /// `byteLength`.
    pub byte_length: u64,
    /// `byteStride`.
    pub byte_stride: Option<u64>,
}

/// One buffer.
pub(crate) struct Buffer {
    /// `uri` (absent: the GLB BIN chunk).
    pub uri: Option<String>,
    /// `byteLength`.
    pub byte_length: u64,
}

/// One node.
pub(crate) struct Node {
    /// `name`.
    pub name: Option<String>,
    /// `children`.
    pub children: Vec<usize>,
    /// `matrix` (column-major).
    pub matrix: Option<[f32; 16]>,
    /// `translation`.
    pub translation: Option<[f32; 3]>,
    /// `rotation` (x, y, z, w).
    pub rotation: Option<[f32; 4]>,
    /// `scale`.
    pub scale: Option<[f32; 3]>,
    /// `mesh`.
    pub mesh: Option<usize>,
    /// `skin`.
    pub skin: Option<usize>,
    /// `weights`: the morph weights of this node's mesh, overriding the mesh's.
    pub weights: Option<Vec<f32>>,
}

/// One skin.
pub(crate) struct Skin {
    /// `name`.
    pub name: Option<String>,
    /// `joints`.
    pub joints: Vec<usize>,
    /// `inverseBindMatrices`.
    pub inverse_bind_matrices: Option<usize>,
}

/// One mesh.
pub(crate) struct Mesh {
    /// `name`.
    pub name: Option<String>,
    /// `primitives`.
    pub primitives: Vec<Primitive>,
    /// `weights`: default morph weights.
    pub weights: Option<Vec<f32>>,
    /// `extras.targetNames` (Blender's and three.js's target names), when it is an array of
    /// strings; anything else there is ignored with a warning.
    pub target_names: Option<Vec<String>>,
}

/// One mesh primitive.
pub(crate) struct Primitive {
    /// `attributes`, in file order.
    pub attributes: Vec<(String, usize)>,
    /// `indices`.
    pub indices: Option<usize>,
    /// `material`.
    pub material: Option<usize>,
    /// `mode`, as written (4: triangles, the default).
    pub mode: u64,
    /// Morph `targets`: each an attribute map (`POSITION`, `NORMAL`, `TANGENT`), in file order.
    pub targets: Vec<Vec<(String, usize)>>,
}

impl Primitive {
    /// The accessor of an attribute, e.g. `"POSITION"`.
    pub fn attribute(&self, name: &str) -> Option<usize> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, a)| a)
    }
}

/// One animation.
pub(crate) struct Animation {
    /// `name`.
    pub name: Option<String>,
    /// `channels`.
    pub channels: Vec<Channel>,
    /// `samplers`.
    pub samplers: Vec<Sampler>,
}

/// One animation channel.
pub(crate) struct Channel {
    /// `sampler`.
    pub sampler: usize,
    /// `target.node` (absent: the channel is ignored, as glTF says).
    pub node: Option<usize>,
    /// `target.path`, as written.
    pub path: String,
}

/// One animation sampler.
pub(crate) struct Sampler {
    /// `input`.
    pub input: usize,
    /// `output`.
    pub output: usize,
    /// `interpolation`, as written (`LINEAR` when absent).
    pub interpolation: String,
}
