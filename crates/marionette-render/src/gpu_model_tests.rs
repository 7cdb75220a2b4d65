//! Unit tests of the palette layout and vertex building (no GPU needed).

use glam::{Mat4, Vec2, Vec3};

use super::gpu_model::{build_mesh_data, fit_texture, PaletteLayout};
use super::raw::NO_JOINT;
use super::RenderError;
use marionette_anim::Model;
use marionette_anim::{Skeleton, Skin, SkinnedMesh, Transform};

fn model() -> Model {
    let skeleton = Skeleton::new(
        vec!["a".into(), "b".into(), "c".into()],
        vec![None, Some(0), Some(1)],
        vec![Transform::IDENTITY; 3],
        Mat4::IDENTITY,
    )
    .unwrap()
    .skeleton;
    let skin = |joints: Vec<u16>| Skin {
        name: "s".into(),
        inverse_bind: vec![Mat4::IDENTITY; joints.len()],
        joints,
    };
    let tri = |skin: Option<usize>, node_joint: Option<u16>| SkinnedMesh {
        name: "tri".into(),
        skin,
        node_joint,
        positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        uvs: vec![Vec2::ZERO; 3],
        indices: vec![0, 1, 2],
        joints: if skin.is_some() {
            vec![[1, 0, 0, 0]; 3]
        } else {
            vec![]
        },
        weights: if skin.is_some() {
            vec![[0.75, 0.25, 0.0, 0.0]; 3]
        } else {
            vec![]
        },
        base_color: [1.0; 4],
        ..Default::default()
    };
    Model {
        skeleton,
        skins: vec![skin(vec![0, 1]), skin(vec![2, 1])],
        meshes: vec![tri(Some(1), None), tri(None, Some(2)), tri(None, None)],
        ..Default::default()
    }
}

/// Skins are laid out back to back, then one rigid entry per joint, then the static entry.
#[test]
fn palette_layout_offsets() {
    let l = PaletteLayout::new(&model());
    assert_eq!(l.skin_offsets, vec![0, 2]);
    assert_eq!(l.rigid_offset, 4);
    assert_eq!(l.static_entry, 7);
    assert_eq!(l.len, 8);
    let mut out = Vec::new();
    let skins = vec![vec![Mat4::IDENTITY; 2]; 2];
    l.fill(
        Mat4::from_scale(Vec3::splat(2.0)),
        &skins,
        &[Mat4::ZERO; 3],
        &mut out,
    );
    assert_eq!(out.len(), 8);
    assert_eq!(out[7], Mat4::from_scale(Vec3::splat(2.0)));
}

/// Skinned vertices get palette-relative joints and skeleton joints for the heatmap; rigid and
/// static meshes get one full-weight influence on their entry.
#[test]
fn vertices_reference_the_palette() {
    let m = model();
    let d = build_mesh_data(&m, &PaletteLayout::new(&m)).unwrap();
    assert_eq!(d.vertices.len(), 9);
    assert_eq!(d.ranges[1].base_vertex, 3);
    assert_eq!(d.ranges[2].first_index, 6);
    // Mesh 0 uses skin 1 (offset 2): slots 1 and 0 -> entries 3 and 2, joints 1 and 2.
    let v = d.vertices[0];
    assert_eq!(v.joints, [3, 2, 0, 0]);
    assert_eq!(v.skeleton_joints, [1, 2, NO_JOINT, NO_JOINT]);
    // Mesh 1 is rigid on joint 2: rigid entry 4 + 2.
    assert_eq!(d.vertices[3].joints[0], 6);
    assert_eq!(d.vertices[3].weights, [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(d.vertices[3].skeleton_joints[0], 2);
    // Mesh 2 is attached to nothing: the static entry.
    assert_eq!(d.vertices[6].joints[0], 7);
}

/// Bad meshes are errors naming the mesh, not panics.
#[test]
fn bad_meshes_are_errors() {
    let mut m = model();
    m.meshes[0].joints[1] = [5, 0, 0, 0];
    let err = build_mesh_data(&m, &PaletteLayout::new(&m)).unwrap_err();
    assert!(matches!(err, RenderError::BadMesh { .. }));
    assert!(err.to_string().contains("meshes[0]"), "{err}");
    let mut m = model();
    m.meshes[1].indices.push(9);
    let err = build_mesh_data(&m, &PaletteLayout::new(&m)).unwrap_err();
    assert!(err.to_string().contains("index 9"), "{err}");
}

/// Oversized textures are shrunk to the device limit, keeping the aspect ratio.
#[test]
fn textures_fit_the_limit() {
    let img = image::RgbaImage::new(400, 100);
    assert_eq!(fit_texture(img.clone(), 200).dimensions(), (200, 50));
    assert_eq!(fit_texture(img, 1000).dimensions(), (400, 100));
}
