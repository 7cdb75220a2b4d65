//! Files as they come from converters and exports: a texture left behind is a note in `bake`
//! (as in `inspect` and `render`), and the output keeps the image's reference as the source has
//! it.

use crate::common::{marionette_in, TempDir};

/// The bundled mannequin written as `m.gltf` in `dir` (by `marionette mannequin`), its JSON to
/// edit and write back.
fn mannequin_gltf(dir: &TempDir) -> serde_json::Value {
    let out = marionette_in(dir.path(), &["mannequin", "-o", "m.gltf"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(dir.join("m.gltf")).unwrap()).unwrap()
}

#[test]
fn a_missing_texture_is_a_note_and_its_reference_is_kept() {
    let dir = TempDir::new("missing-texture");
    let mut doc = mannequin_gltf(&dir);
    doc["images"] = serde_json::json!([{ "uri": "default.bmp" }]);
    doc["textures"] = serde_json::json!([{ "source": 0 }]);
    doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] =
        serde_json::json!({ "index": 0 });
    std::fs::write(dir.join("m.gltf"), doc.to_string()).unwrap();
    let inspect = marionette_in(dir.path(), &["inspect", "m.gltf"]);
    assert!(String::from_utf8_lossy(&inspect.stdout).contains("cannot read 'default.bmp'"));
    let out = marionette_in(
        dir.path(),
        &["bake", "m.gltf", "--clip", "walk", "-o", "out.gltf"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("note: m.gltf: images[0].uri: cannot read 'default.bmp'")
            && err.contains("keeps the reference 'default.bmp'"),
        "{err}"
    );
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out.gltf")).unwrap()).unwrap();
    assert_eq!(written["images"][0]["uri"], "default.bmp");
    assert_eq!(written["textures"][0]["source"], 0);
}

/// A mesh neither skinned nor under a joint (a prop) is kept where its node puts it, in
/// `inspect`, and in a bake's output read back (was: skipped with "static meshes are not
/// supported yet").
#[test]
fn a_static_mesh_is_kept_drawn_where_its_node_is_and_baked() {
    let dir = TempDir::new("static-mesh");
    let mut doc = mannequin_gltf(&dir);
    let prop = doc["nodes"].as_array().unwrap().len();
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "name": "Prop", "mesh": 0, "translation": [2.0, 0.0, 0.0], "scale": [0.5, 0.5, 0.5] }));
    doc["scenes"][0]["nodes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(prop));
    std::fs::write(dir.join("m.gltf"), doc.to_string()).unwrap();
    let placed = |file: &str| {
        let model = marionette_io::import(&dir.join(file)).unwrap();
        assert!(
            !model.warnings.iter().any(|w| w.contains("static meshes")),
            "{:?}",
            model.warnings
        );
        let body = model
            .meshes
            .iter()
            .find(|m| m.skin.is_some())
            .unwrap()
            .positions
            .clone();
        let prop = model
            .meshes
            .iter()
            .find(|m| m.skin.is_none() && m.node_joint.is_none())
            .unwrap_or_else(|| {
                panic!(
                    "{file}: no static mesh: {:?}",
                    model.meshes.iter().map(|m| &m.name).collect::<Vec<_>>()
                )
            });
        let armature = model.skeleton.armature();
        for (p, b) in prop.positions.iter().zip(&body) {
            let want = glam::Vec3::new(2.0, 0.0, 0.0) + *b * 0.5;
            assert!(
                (armature.transform_point3(*p) - want).length() < 1e-5,
                "{file}: {p} vs {want}"
            );
        }
    };
    placed("m.gltf");
    let out = marionette_in(
        dir.path(),
        &["bake", "m.gltf", "--clip", "walk", "-o", "out.glb"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    placed("out.glb");
    // and written from a model (a converted file's path): under the armature
    let model = marionette_io::import(&dir.join("m.gltf")).unwrap();
    std::fs::write(
        dir.join("again.glb"),
        marionette_io::to_glb(&model).unwrap(),
    )
    .unwrap();
    placed("again.glb");
}
