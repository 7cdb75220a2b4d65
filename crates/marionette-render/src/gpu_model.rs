//! A model's meshes, materials, textures and morph target deltas uploaded once to the GPU, and
//! the layout of its per-character joint palette.

use glam::Mat4;

use super::raw::{MaterialRaw, VertexRaw, NO_JOINT, NO_MORPH};
use super::RenderError;
use marionette_anim::Model;

/// Where each kind of palette entry sits in one character's palette.
///
/// Entries: every skin's joints (in skin order), then one rigid entry per skeleton joint (for
/// meshes attached to a joint without a skin), then one entry for meshes attached to nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaletteLayout {
    /// First entry of each skin.
    pub skin_offsets: Vec<u32>,
    /// First rigid (per skeleton joint) entry.
    pub rigid_offset: u32,
    /// The entry for unattached meshes (holds the armature transform).
    pub static_entry: u32,
    /// Entries per character.
    pub len: u32,
}

impl PaletteLayout {
    /// The layout for `model`.
    pub fn new(model: &Model) -> Self {
        let mut skin_offsets = Vec::with_capacity(model.skins.len());
        let mut n = 0u32;
        for skin in &model.skins {
            skin_offsets.push(n);
            n += skin.joints.len() as u32;
        }
        let rigid_offset = n;
        let static_entry = n + model.skeleton.len() as u32;
        Self {
            skin_offsets,
            rigid_offset,
            static_entry,
            len: static_entry + 1,
        }
    }

    /// Fills one character's palette from skin palettes (`skin_palettes[s][k]` = armature x
    /// joint model matrix x inverse bind) and armature-space joint matrices (`joint_world[j]`
    /// = armature x joint model matrix), appending `self.len` entries to `out`.
    pub fn fill(
        &self,
        armature: Mat4,
        skin_palettes: &[Vec<Mat4>],
        joint_world: &[Mat4],
        out: &mut Vec<Mat4>,
    ) {
        for p in skin_palettes {
            out.extend_from_slice(p);
        }
        out.extend_from_slice(joint_world);
        out.push(armature);
    }
}

/// Index range of one mesh inside the shared vertex and index buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshRange {
    /// First index.
    pub first_index: u32,
    /// Number of indices.
    pub index_count: u32,
    /// Added to every index.
    pub base_vertex: i32,
    /// Number of vertices.
    pub vertex_count: u32,
}

/// CPU-side vertex and index data of all meshes of a model, ready for upload.
#[derive(Clone, Debug, Default)]
pub struct MeshData {
    /// All vertices.
    pub vertices: Vec<VertexRaw>,
    /// All indices (relative to each mesh's base vertex).
    pub indices: Vec<u32>,
    /// One range per model mesh.
    pub ranges: Vec<MeshRange>,
    /// Morph target deltas of every mesh: per mesh, per target, per vertex, a position delta
    /// then a normal delta (w = 0).
    pub deltas: Vec<[f32; 4]>,
    /// Per mesh, its morph data as the shaders read it ([`MaterialRaw::morph`]).
    pub morphs: Vec<[u32; 4]>,
}

/// Builds vertices with palette-relative joint indices for every mesh of `model`.
pub fn build_mesh_data(model: &Model, layout: &PaletteLayout) -> Result<MeshData, RenderError> {
    let mut data = MeshData::default();
    for (mi, mesh) in model.meshes.iter().enumerate() {
        let bad = |what: String| RenderError::BadMesh {
            mesh: format!("meshes[{mi}] '{}'", mesh.name),
            what,
        };
        let n = mesh.positions.len();
        if !mesh.normals.is_empty() && mesh.normals.len() != n {
            return Err(bad(format!(
                "{} normals for {n} positions",
                mesh.normals.len()
            )));
        }
        if !mesh.uvs.is_empty() && mesh.uvs.len() != n {
            return Err(bad(format!("{} uvs for {n} positions", mesh.uvs.len())));
        }
        if let Some(&i) = mesh.indices.iter().find(|&&i| i as usize >= n) {
            return Err(bad(format!("index {i} out of range ({n} vertices)")));
        }
        let skin = match mesh.skin {
            Some(s) => Some((
                model
                    .skins
                    .get(s)
                    .ok_or_else(|| bad(format!("skin {s} does not exist")))?,
                layout.skin_offsets[s],
            )),
            None => None,
        };
        if skin.is_some() && (mesh.joints.len() != n || mesh.weights.len() != n) {
            return Err(bad(format!(
                "{} joint sets and {} weight sets for {n} positions",
                mesh.joints.len(),
                mesh.weights.len()
            )));
        }
        if let Some(j) = mesh.node_joint {
            if j as usize >= model.skeleton.len() {
                return Err(bad(format!("node joint {j} is not in the skeleton")));
            }
        }
        let base_vertex = data.vertices.len() as i32;
        for v in 0..n {
            let (joints, weights, skeleton_joints) = match skin {
                Some((skin, offset)) => {
                    let mut joints = [0u32; 4];
                    let mut sk = [NO_JOINT; 4];
                    let w = mesh.weights[v];
                    for k in 0..4 {
                        let slot = mesh.joints[v][k] as usize;
                        if w[k] != 0.0 {
                            let joint = skin.joints.get(slot).ok_or_else(|| {
                                bad(format!(
                                    "vertex {v} uses skin joint slot {slot}, skin has {}",
                                    skin.joints.len()
                                ))
                            })?;
                            joints[k] = offset + slot as u32;
                            sk[k] = *joint as u32;
                        }
                    }
                    (joints, w, sk)
                }
                None => match mesh.node_joint {
                    Some(j) => (
                        [layout.rigid_offset + j as u32, 0, 0, 0],
                        [1.0, 0.0, 0.0, 0.0],
                        [j as u32, NO_JOINT, NO_JOINT, NO_JOINT],
                    ),
                    None => (
                        [layout.static_entry, 0, 0, 0],
                        [1.0, 0.0, 0.0, 0.0],
                        [NO_JOINT; 4],
                    ),
                },
            };
            data.vertices.push(VertexRaw {
                position: mesh.positions[v].to_array(),
                normal: mesh.normals.get(v).map_or([0.0; 3], |n| n.to_array()),
                uv: mesh.uvs.get(v).map_or([0.0; 2], |t| t.to_array()),
                joints,
                weights,
                skeleton_joints,
            });
        }
        data.ranges.push(MeshRange {
            first_index: data.indices.len() as u32,
            index_count: mesh.indices.len() as u32,
            base_vertex,
            vertex_count: n as u32,
        });
        data.indices.extend_from_slice(&mesh.indices);
        let morph = mesh_morphs(model, mi, base_vertex as u32, &mut data.deltas)?;
        data.morphs.push(morph);
    }
    Ok(data)
}

/// Appends mesh `mi`'s morph deltas to `deltas` and returns its morph data
/// ([`MaterialRaw::morph`]); `[NO_MORPH, ..]` for a mesh without morph targets.
fn mesh_morphs(
    model: &Model,
    mi: usize,
    first_vertex: u32,
    deltas: &mut Vec<[f32; 4]>,
) -> Result<[u32; 4], RenderError> {
    let mesh = &model.meshes[mi];
    let bad = |what: String| RenderError::BadMesh {
        mesh: format!("meshes[{mi}] '{}'", mesh.name),
        what,
    };
    let Some(set) = mesh.morph_set.filter(|_| !mesh.targets.is_empty()) else {
        return Ok([NO_MORPH, 0, 0, 0]);
    };
    let morphs = model.skeleton.morphs();
    if morphs.range(set).len() != mesh.targets.len() {
        return Err(bad(format!(
            "{} morph targets, but its morph set {set} has {} weights",
            mesh.targets.len(),
            morphs.range(set).len()
        )));
    }
    let n = mesh.positions.len();
    let base = deltas.len();
    mesh.check_targets().map_err(bad)?;
    let with_normals = !mesh.normals.is_empty();
    for target in &mesh.targets {
        for v in 0..n {
            let p = target.positions.get(v).copied().unwrap_or_default();
            let q = if with_normals {
                target.normals.get(v).copied().unwrap_or_default()
            } else {
                glam::Vec3::ZERO
            };
            deltas.push(p.extend(0.0).to_array());
            deltas.push(q.extend(0.0).to_array());
        }
    }
    let too_many = |_| bad("too many morph target deltas for the GPU".into());
    Ok([
        u32::try_from(set).map_err(too_many)?,
        u32::try_from(n).map_err(too_many)?,
        first_vertex,
        u32::try_from(base).map_err(too_many)?,
    ])
}

/// Decodes a glTF image (PNG or JPEG) to RGBA8.
pub fn decode_image(model: &Model, index: usize) -> Result<image::RgbaImage, RenderError> {
    let img = model
        .images
        .get(index)
        .ok_or_else(|| RenderError::Texture {
            image: index,
            what: "no such image".into(),
        })?;
    let format = match img.mime_type.as_str() {
        "image/png" => Some(image::ImageFormat::Png),
        "image/jpeg" => Some(image::ImageFormat::Jpeg),
        _ => image::guess_format(&img.data).ok(),
    };
    let decoded = match format {
        Some(f) => image::load_from_memory_with_format(&img.data, f),
        None => image::load_from_memory(&img.data),
    }
    .map_err(|e| RenderError::Texture {
        image: index,
        what: e.to_string(),
    })?;
    Ok(decoded.to_rgba8())
}

/// A model's GPU resources: shared vertex/index buffers and one material bind group per mesh.
pub struct GpuModel {
    /// Palette layout of one character.
    pub layout: PaletteLayout,
    /// Vertex buffer (also bound as storage by the capture pass).
    pub vertex_buffer: wgpu::Buffer,
    /// Index buffer (u32).
    pub index_buffer: wgpu::Buffer,
    /// Per-mesh index ranges.
    pub ranges: Vec<MeshRange>,
    /// Per-mesh material bind groups (group 1 of the mesh pipeline).
    pub materials: Vec<wgpu::BindGroup>,
    /// Morph target deltas of every mesh (bound by the renderer's frame bind group and the
    /// capture pass; one zero entry when the model has none).
    pub morph_deltas: wgpu::Buffer,
    /// Per mesh, its morph data ([`MaterialRaw::morph`]).
    pub morphs: Vec<[u32; 4]>,
    /// Number of vertices.
    pub vertex_count: u32,
    /// Images that failed to decode (the mesh is drawn untextured), as messages.
    pub warnings: Vec<String>,
}

impl GpuModel {
    /// Uploads `model`. `material_layout` is the mesh pipeline's group 1 layout.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        material_layout: &wgpu::BindGroupLayout,
        model: &Model,
    ) -> Result<Self, RenderError> {
        use wgpu::util::DeviceExt;
        let layout = PaletteLayout::new(model);
        let data = build_mesh_data(model, &layout)?;
        // Empty buffers are legal but binding them is not: keep at least one vertex / index.
        let vertices = if data.vertices.is_empty() {
            vec![bytemuck::Zeroable::zeroed()]
        } else {
            data.vertices.clone()
        };
        let indices = if data.indices.is_empty() {
            vec![0u32]
        } else {
            data.indices.clone()
        };
        let vertex_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("model vertices"),
            contents: bytemuck::cast_slice(&vertices),
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE,
        });
        let index_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("model indices"),
            contents: bytemuck::cast_slice(&indices),
            usage: wgpu::BufferUsages::INDEX,
        });
        let deltas = if data.deltas.is_empty() {
            vec![[0.0f32; 4]]
        } else {
            data.deltas.clone()
        };
        let morph_deltas = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("morph target deltas"),
            contents: bytemuck::cast_slice(&deltas),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("base colour sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let white = image::RgbaImage::from_pixel(1, 1, image::Rgba([255; 4]));
        let white_view = upload_texture(device, queue, &white, "white texture");
        let mut views: Vec<Option<wgpu::TextureView>> = vec![None; model.images.len()];
        let mut warnings = Vec::new();
        let mut materials = Vec::with_capacity(model.meshes.len());
        for (mi, mesh) in model.meshes.iter().enumerate() {
            let mut view = &white_view;
            if let Some(t) = mesh.base_color_texture {
                if t < views.len() && views[t].is_none() {
                    match decode_image(model, t) {
                        Ok(img) => {
                            views[t] =
                                Some(upload_texture(device, queue, &img, "base colour texture"))
                        }
                        Err(e) => warnings.push(format!("meshes[{mi}]: {e}; drawn untextured")),
                    }
                }
                if let Some(Some(v)) = views.get(t) {
                    view = v;
                }
            }
            let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("material uniform"),
                contents: bytemuck::bytes_of(&MaterialRaw {
                    base_color: mesh.base_color,
                    morph: data.morphs[mi],
                }),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            materials.push(device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("material bind group"),
                layout: material_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: uniform.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::Sampler(&sampler),
                    },
                ],
            }));
        }
        for w in &warnings {
            eprintln!("marionette: {w}");
        }
        Ok(Self {
            layout,
            vertex_buffer,
            index_buffer,
            ranges: data.ranges,
            materials,
            morph_deltas,
            morphs: data.morphs,
            vertex_count: data.vertices.len() as u32,
            warnings,
        })
    }
}

/// Shrinks an image (keeping its aspect) so neither side exceeds `max`.
pub fn fit_texture(img: image::RgbaImage, max: u32) -> image::RgbaImage {
    let (w, h) = img.dimensions();
    if w <= max && h <= max {
        return img;
    }
    let scale = max as f64 / w.max(h) as f64;
    let (nw, nh) = (
        ((w as f64 * scale) as u32).clamp(1, max),
        ((h as f64 * scale) as u32).clamp(1, max),
    );
    image::imageops::resize(&img, nw, nh, image::imageops::FilterType::Triangle)
}

fn upload_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    img: &image::RgbaImage,
    label: &str,
) -> wgpu::TextureView {
    use wgpu::util::DeviceExt;
    let fitted;
    let img = if img.width().max(img.height()) > device.limits().max_texture_dimension_2d {
        fitted = fit_texture(img.clone(), device.limits().max_texture_dimension_2d);
        &fitted
    } else {
        img
    };
    let texture = device.create_texture_with_data(
        queue,
        &wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: img.width(),
                height: img.height(),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8UnormSrgb,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        },
        wgpu::util::TextureDataOrder::LayerMajor,
        img.as_raw(),
    );
    texture.create_view(&wgpu::TextureViewDescriptor {
        label: Some(label),
        ..Default::default()
    })
}
