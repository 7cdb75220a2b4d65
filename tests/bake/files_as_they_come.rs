//! Files as they come from converters and exports: a texture left behind is a note in `bake`
//! (as in `inspect` and `render`), and the output keeps the image's reference as the source has
//! it.

use crate::common::{marionette_in, TempDir};

#[test]
fn a_missing_texture_is_a_note_and_its_reference_is_kept() {
    let dir = TempDir::new("missing-texture");
    let out = marionette_in(dir.path(), &["mannequin", "-o", "m.gltf"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("m.gltf")).unwrap()).unwrap();
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
