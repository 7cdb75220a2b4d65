//! The FBX entry point: bytes to a [`Model`] through ufbx, errors as `file: object: message`.

use std::path::Path;

use super::fbx::{clips, joints, meshes};
use super::units::{height_note, ImportOptions};
use super::GltfError;
use marionette_anim::Model;

/// The most nodes an FBX may have (a joint index is 16 bits).
const MAX_NODES: usize = u16::MAX as usize;

/// Reads FBX bytes (binary or ASCII, any version ufbx reads). `label` names the file in errors
/// and notes. The file's own unit is used unless `options` names one.
pub fn import_fbx_slice(
    bytes: &[u8],
    _path: &Path,
    label: &str,
    options: &ImportOptions,
) -> Result<Model, GltfError> {
    let fail = |path: &str, message: String| GltfError::Fbx {
        file: label.to_string(),
        path: path.to_string(),
        message,
    };
    let opts = ufbx::LoadOpts {
        target_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_unit_meters: 1.0,
        space_conversion: ufbx::SpaceConversion::ModifyGeometry,
        inherit_mode_handling: ufbx::InheritModeHandling::Compensate,
        load_external_files: false,
        ignore_embedded: true,
        generate_missing_normals: true,
        ..Default::default()
    };
    let scene = ufbx::load_memory(bytes, opts).map_err(|e| {
        let info = e.info();
        let detail = if info.is_empty() {
            String::new()
        } else {
            format!(" ({info})")
        };
        fail(
            "",
            format!(
                "not a readable FBX file: {}{detail}; re-export it from its tool (FBX 2011 or later, binary or ASCII)",
                e.description
            ),
        )
    })?;
    if scene.nodes.len() > MAX_NODES {
        return Err(fail(
            "Objects",
            format!("{} nodes: more than {MAX_NODES}", scene.nodes.len()),
        ));
    }
    let mut warnings = Vec::new();
    // ufbx has put the file in metres; a unit the command line names replaces the file's
    let file_unit = scene.settings.original_unit_meters;
    let scale = match options.unit {
        Some(u) if file_unit > 0.0 => f64::from(u.metres()) / file_unit,
        _ => 1.0,
    };
    let joints = joints::joints(&scene, scale).map_err(|m| fail("Objects/Model", m))?;
    let meshes = meshes::meshes(&scene, &joints, scale, &mut warnings)
        .map_err(|m| fail("Objects/Geometry", m))?;
    let sets: Vec<usize> = meshes.sets.iter().map(|s| s.targets.len()).collect();
    let clips = clips::clips(
        &scene,
        &joints,
        &meshes.channels,
        &sets,
        scale,
        &mut warnings,
    )
    .map_err(|m| fail("Objects/AnimationStack", m))?;
    let unit = options.unit.unwrap_or(crate::units::Unit::M);
    let height = body_height(&joints.skeleton);
    let mut warnings: Vec<String> = warnings
        .into_iter()
        .map(|w| format!("{label}: {w}"))
        .collect();
    // (the note names the file itself)
    warnings.extend(height_note(label, height, unit));
    let joint_nodes = (0..joints.skeleton.len()).collect();
    let skeleton = joints
        .skeleton
        .with_morphs(marionette_anim::Morphs::new(meshes.sets));
    Ok(Model {
        source: Default::default(),
        skeleton,
        joint_nodes,
        skins: meshes.skins,
        meshes: meshes.meshes,
        clips,
        images: Vec::new(),
        warnings,
    })
}

/// The largest extent of the skeleton's rest pose, in metres.
fn body_height(skeleton: &marionette_anim::Skeleton) -> f32 {
    let mut model = vec![marionette_anim::Transform::IDENTITY; skeleton.len()];
    marionette_anim::retarget::reference::model_pose(skeleton, skeleton.rest_pose(), &mut model);
    let (mut low, mut high) = (glam::Vec3::splat(f32::MAX), glam::Vec3::splat(f32::MIN));
    for t in &model {
        low = low.min(t.translation);
        high = high.max(t.translation);
    }
    (high - low).max_element().max(0.0)
}
