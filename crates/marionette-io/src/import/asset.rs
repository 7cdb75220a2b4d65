//! What a file asks of its reader before anything is read: the glTF version (`asset.version`,
//! `asset.minVersion`) and the extensions it requires (`extensionsRequired`).
//!
//! Marionette reads glTF 2.0. A required extension is refused unless Marionette reads it
//! (KHR_mesh_quantization) or it changes only what Marionette does not read (materials,
//! textures, lights: see [`IGNORABLE`]); those are accepted with a warning.

use serde_json::Value;

use super::json_obj::Obj;
use crate::error::{Fault, FaultResult};

/// Extensions Marionette reads.
const SUPPORTED: &[&str] = &["KHR_mesh_quantization"];

/// Extensions (or prefixes of their names) that change only materials, textures, lights or
/// visibility: a model is imported correctly without them (meshes drawn with their base
/// colour).
const IGNORABLE: &[&str] = &[
    "KHR_materials_",
    "KHR_texture_",
    "EXT_texture_",
    "KHR_lights_punctual",
    "KHR_node_visibility",
    "KHR_xmp_json_ld",
    "EXT_lights_image_based",
    "MSFT_texture_dds",
];

/// `MAJOR.MINOR` of a glTF version string, if it is one.
fn version(text: &str) -> Option<(u64, u64)> {
    let (major, minor) = text.split_once('.')?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(major)?, number(minor)?))
}

/// Checks `asset.version` (glTF 2.x) and `asset.minVersion` (at most 2.0).
pub(crate) fn check_version(json: &Value) -> FaultResult<()> {
    let root = Obj::new(json, "")?;
    let asset = root.req_object("asset")?;
    let text = asset.req_string("version")?;
    let (major, _) = version(text).ok_or_else(|| {
        Fault::new(
            asset.at("version"),
            format!("'{text}' is not a glTF version (MAJOR.MINOR, e.g. \"2.0\")"),
        )
    })?;
    if major != 2 {
        return Err(Fault::new(
            asset.at("version"),
            format!("glTF {text} is not supported; Marionette reads glTF 2.0"),
        ));
    }
    if let Some(min) = asset.string("minVersion")? {
        match version(min) {
            Some((2, 0)) => {}
            Some(_) => {
                return Err(Fault::new(
                    asset.at("minVersion"),
                    format!("the file needs a glTF {min} reader; Marionette reads glTF 2.0"),
                ))
            }
            None => {
                return Err(Fault::new(
                    asset.at("minVersion"),
                    format!("'{min}' is not a glTF version (MAJOR.MINOR, e.g. \"2.0\")"),
                ))
            }
        }
    }
    Ok(())
}

/// Checks `extensionsRequired`: refuses the first extension Marionette neither reads nor may
/// ignore; warns about each ignored one. Returns whether KHR_mesh_quantization is in use.
pub(crate) fn check_extensions(json: &Value, warnings: &mut Vec<String>) -> FaultResult<bool> {
    let root = Obj::new(json, "")?;
    let names = |key: &str| -> FaultResult<Vec<String>> {
        root.array(key)?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str().map(str::to_string).ok_or_else(|| {
                    Fault::new(
                        format!("{key}[{i}]"),
                        format!(
                            "must be an extension name (a string), not {}",
                            super::json_obj::describe(v)
                        ),
                    )
                })
            })
            .collect()
    };
    let used = names("extensionsUsed")?;
    let required = names("extensionsRequired")?;
    for (i, name) in required.iter().enumerate() {
        if SUPPORTED.contains(&name.as_str()) {
            continue;
        }
        if IGNORABLE.iter().any(|p| name.starts_with(p)) {
            warnings.push(format!(
                "extensionsRequired[{i}]: '{name}' changes only materials, textures or lights, \
                 which Marionette does not read (meshes are drawn with their base colour); \
                 ignored"
            ));
            continue;
        }
        return Err(Fault::new(
            format!("extensionsRequired[{i}]"),
            format!("the file requires the extension '{name}', which Marionette does not support"),
        ));
    }
    let quantization = "KHR_mesh_quantization";
    Ok(used.iter().chain(&required).any(|n| n == quantization))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn version_error(asset: Value) -> Option<String> {
        check_version(&json!({ "asset": asset }))
            .err()
            .map(|f| f.to_string())
    }

    /// glTF 2.x imports; 1.0, malformed versions and a minVersion above 2.0 are refused.
    #[test]
    fn versions() {
        assert_eq!(version_error(json!({"version": "2.0"})), None);
        assert_eq!(version_error(json!({"version": "2.1"})), None);
        assert_eq!(
            version_error(json!({"version": "1.0"})).as_deref(),
            Some("asset.version: glTF 1.0 is not supported; Marionette reads glTF 2.0")
        );
        assert!(version_error(json!({"version": "1.0.1-dev"})).is_some());
        assert!(
            version_error(json!({"version": "2.0", "minVersion": "2.1"})).is_some_and(
                |e| e.starts_with("asset.minVersion: the file needs a glTF 2.1 reader")
            )
        );
        assert_eq!(
            check_version(&json!({}))
                .err()
                .map(|f| f.to_string())
                .as_deref(),
            Some("asset: required property is missing")
        );
    }

    /// Material extensions are ignored with a warning; unknown ones are refused with their path.
    #[test]
    fn required_extensions() {
        let mut warnings = Vec::new();
        let ok = check_extensions(
            &json!({"extensionsRequired": ["KHR_materials_unlit", "KHR_mesh_quantization"]}),
            &mut warnings,
        );
        assert_eq!(ok, Ok(true));
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("extensionsRequired[0]: 'KHR_materials_unlit'"));
        let err = check_extensions(
            &json!({"extensionsRequired": ["KHR_draco_mesh_compression"]}),
            &mut warnings,
        );
        assert_eq!(
            err.err().map(|f| f.to_string()).as_deref(),
            Some(
                "extensionsRequired[0]: the file requires the extension \
                 'KHR_draco_mesh_compression', which Marionette does not support"
            )
        );
    }
}
