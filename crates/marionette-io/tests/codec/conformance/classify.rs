//! Which validator errors touch data Marionette does not read (and may pass silently), and
//! whether a warning names an error's place.
//!
//! The classification is by validator code (rules that do not change what Marionette reads)
//! and by JSON pointer (parts of the file Marionette never reads), each with its reason; no
//! file is an exception by name.

use super::{Message, Reads};

/// Codes whose rule does not change what Marionette reads, with the reason.
const HARMLESS_CODES: &[(&str, &str)] = &[
    (
        "EMPTY_ENTITY",
        "an empty array or object holds nothing to read",
    ),
    ("ACCESSOR_MIN_MISMATCH", "accessor min/max are not read"),
    ("ACCESSOR_MAX_MISMATCH", "accessor min/max are not read"),
    (
        "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND",
        "accessor min/max are not read",
    ),
    (
        "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND",
        "accessor min/max are not read",
    ),
    (
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS",
        "accessor min/max are not read",
    ),
    (
        "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS",
        "accessor min/max are not read",
    ),
    (
        "BUFFER_VIEW_TARGET_OVERRIDE",
        "a buffer view's target is a GPU hint, not read",
    ),
    (
        "ACCESSOR_OFFSET_ALIGNMENT",
        "GPU alignment rule: Marionette reads bytes at any alignment",
    ),
    (
        "ACCESSOR_TOTAL_OFFSET_ALIGNMENT",
        "GPU alignment rule: Marionette reads bytes at any alignment",
    ),
    (
        "ACCESSOR_MATRIX_ALIGNMENT",
        "GPU alignment rule: Marionette reads bytes at any alignment",
    ),
    (
        "MESH_PRIMITIVE_ACCESSOR_UNALIGNED",
        "GPU alignment rule: Marionette reads bytes at any alignment",
    ),
    (
        "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
        "which views may be strided is a GPU rule: Marionette reads any view with its stride",
    ),
    (
        "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE",
        "which views may be strided is a GPU rule: Marionette reads any view with its stride",
    ),
    (
        "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE",
        "which views may be strided is a GPU rule: Marionette reads any view with its stride",
    ),
    (
        "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE",
        "which views may be strided is a GPU rule: Marionette reads any view with its stride",
    ),
    (
        "BUFFER_VIEW_INVALID_BYTE_STRIDE",
        "which views may be strided is a GPU rule: Marionette reads any view with its stride",
    ),
    (
        "NODE_SKIN_NO_SCENE",
        "scenes are not read: Marionette imports every node",
    ),
    (
        "UNDECLARED_EXTENSION",
        "extension declarations: Marionette judges by extensionsRequired",
    ),
    (
        "NON_REQUIRED_EXTENSION",
        "extension declarations: Marionette judges by extensionsRequired",
    ),
    (
        "UNEXPECTED_EXTENSION_OBJECT",
        "an extension object where it has no meaning is not read",
    ),
];

/// The vertex attributes Marionette reads.
pub fn read_attribute(name: &str) -> bool {
    let set = |prefix: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    matches!(name, "POSITION" | "NORMAL" | "TEXCOORD_0") || set("JOINTS_") || set("WEIGHTS_")
}

const MATERIALS: &str = "materials, textures, images and samplers: Marionette reads only a \
                         drawn mesh's base colour and texture, and a broken one is a warning";
const MORPHS: &str = "morph targets and weights are not read (skipped with a warning)";

/// Why the error `code` at `pointer` touches nothing Marionette reads, or `None` when it does.
pub fn unread(code: &str, pointer: &str, reads: &Reads) -> Option<&'static str> {
    if let Some((_, reason)) = HARMLESS_CODES.iter().find(|(c, _)| *c == code) {
        return Some(reason);
    }
    let seg: Vec<&str> = pointer.split('/').skip(1).collect();
    match seg.as_slice() {
        ["materials" | "textures" | "images" | "samplers", ..] => Some(MATERIALS),
        ["cameras", ..] => Some("cameras are not read"),
        ["scene"] | ["scenes", ..] => Some("scenes are not read: Marionette imports every node"),
        ["extensions", ..] | ["extensionsUsed", ..] => {
            Some("root extension objects and extensionsUsed are not read")
        }
        ["nodes", _, "camera" | "extensions", ..] => Some("node cameras and extensions are not read"),
        ["nodes", _, "weights", ..] | ["meshes", _, "weights", ..] => Some(MORPHS),
        ["meshes", _, "primitives", _, "targets", ..] => Some(MORPHS),
        ["meshes", _, "primitives", _, "material", ..] => Some(MATERIALS),
        ["meshes", _, "extensions", ..] | ["meshes", _, "primitives", _, "extensions", ..] => {
            Some("mesh extensions (material variants) are not read")
        }
        ["meshes", _, "primitives", _, "attributes", name, ..] if !read_attribute(name) => {
            Some("vertex attributes other than POSITION, NORMAL, TEXCOORD_0, JOINTS_n and WEIGHTS_n are not read")
        }
        ["meshes", m, ..] if !reads.mesh(m) => Some("a mesh no node instantiates is not read"),
        ["skins", _, "skeleton", ..] => Some("a skin's skeleton property is not read"),
        ["animations", _, "channels", _, "target", "extensions", ..]
        | ["animations", _, "channels", _, "extensions", ..] => {
            Some("KHR_animation_pointer targets are not read (such channels are ignored with a warning)")
        }
        ["accessors", a, ..] if !reads.accessor(a) => {
            Some("an accessor nothing Marionette reads refers to is not read")
        }
        _ => None,
    }
}

/// The glTF path of a JSON pointer: `/meshes/0/primitives/1` to `meshes[0].primitives[1]`.
pub fn gltf_path(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else if out.is_empty() {
            out.push_str(seg);
        } else {
            out.push('.');
            out.push_str(seg);
        }
    }
    out
}

/// Whether a warning names the place of `error`: the entry it is in (`nodes[0]` for
/// `/nodes/0/rotation`, `extensionsRequired[1]`), or the GLB container or the JSON for errors
/// about the whole file.
pub fn warned(error: &Message, warnings: &[String]) -> bool {
    let path = gltf_path(&error.pointer);
    let entry: String = match path.find(']') {
        Some(end) => path[..=end].to_string(),
        None => path.clone(),
    };
    let whole_file = if error.code.starts_with("GLB_") {
        "GLB"
    } else {
        "JSON"
    };
    warnings.iter().any(|w| {
        if entry.is_empty() {
            return w.contains(whole_file);
        }
        w.match_indices(&entry).any(|(at, _)| {
            let before = w[..at].chars().next_back();
            before.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_become_gltf_paths() {
        assert_eq!(
            gltf_path("/meshes/0/primitives/1"),
            "meshes[0].primitives[1]"
        );
        assert_eq!(gltf_path(""), "");
    }
}
