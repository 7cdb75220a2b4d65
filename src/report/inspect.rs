//! What a model holds: skeleton, skins, meshes and their morph targets, clips, images and
//! import warnings.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::anim::{Clip, Interpolation, SkinnedMesh};
use crate::Model;

/// Everything `marionette inspect` shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InspectReport {
    /// Where the model came from.
    pub file: String,
    /// Number of skeleton joints.
    pub joint_count: usize,
    /// The joints, parent-first.
    pub joints: Vec<JointInfo>,
    /// World transform of the skeleton's non-joint ancestors (16 floats, column-major).
    pub armature: [f32; 16],
    /// Skins, in file order.
    pub skins: Vec<SkinInfo>,
    /// Meshes (one per glTF primitive).
    pub meshes: Vec<MeshInfo>,
    /// Morph target sets (one per mesh instance with morph targets), in weight order.
    pub morphs: Vec<MorphSetInfo>,
    /// The file's spring bones (`VRMC_springBone`), one per spring (empty when none).
    pub springs: Vec<SpringInfo>,
    /// Clips, in file order.
    pub clips: Vec<ClipInfo>,
    /// Images used by materials.
    pub images: Vec<ImageInfo>,
    /// Problems fixed on import.
    pub warnings: Vec<String>,
    /// The limit of [`InspectReport::fast_turns`], degrees per second.
    pub turn_limit: f32,
    /// Where a joint turns faster than `turn_limit` between two keys: a capture's glitches (a
    /// marker swap), reported rather than baked silently.
    pub fast_turns: Vec<FastTurnInfo>,
}

/// One spring of the file's spring bones (`VRMC_springBone`), as `rig:springs()` uses it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpringInfo {
    /// Its name (may be empty).
    pub name: String,
    /// Its joints, root first (the last one is the tail of the one before).
    pub joints: Vec<String>,
    /// How many colliders it collides with.
    pub colliders: usize,
}

/// A run of keys over which a joint turns faster than the limit (see
/// [`crate::anim::fast_turns`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FastTurnInfo {
    /// The clip's name.
    pub clip: String,
    /// The joint's name.
    pub joint: String,
    /// When the run starts, seconds.
    pub time: f32,
    /// How long it lasts, seconds.
    pub duration: f32,
    /// The fastest turn in it, degrees per second.
    pub degrees_per_second: f32,
    /// How far the joint turns over it, degrees.
    pub degrees: f32,
}

impl FastTurnInfo {
    /// Every fast turn of `model`'s clips over `limit` degrees per second.
    pub fn of_model(model: &Model, limit: f32) -> Vec<FastTurnInfo> {
        model
            .clips
            .iter()
            .flat_map(|c| {
                crate::anim::fast_turns::fast_turns(c, limit)
                    .into_iter()
                    .map(|f| FastTurnInfo {
                        clip: c.name.clone(),
                        joint: model
                            .skeleton
                            .names()
                            .get(f.joint as usize)
                            .cloned()
                            .unwrap_or_default(),
                        time: f.time,
                        duration: f.duration,
                        degrees_per_second: f.degrees_per_second,
                        degrees: f.degrees,
                    })
            })
            .collect()
    }

    /// One line ([`crate::anim::fast_turns::FastTurn::describe`]).
    pub fn describe(&self) -> String {
        let turn = crate::anim::fast_turns::FastTurn {
            joint: 0,
            time: self.time,
            duration: self.duration,
            degrees_per_second: self.degrees_per_second,
            degrees: self.degrees,
        };
        turn.describe(&self.clip, &self.joint)
    }
}

/// One skeleton joint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointInfo {
    /// Joint name.
    pub name: String,
    /// glTF node index.
    pub node: usize,
    /// Parent joint's name (`None` for roots).
    pub parent: Option<String>,
    /// Number of ancestors (0 for roots).
    pub depth: usize,
}

/// One skin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkinInfo {
    /// Skin name.
    pub name: String,
    /// Joint names, in the skin's slot order.
    pub joints: Vec<String>,
}

/// One mesh (glTF primitive).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeshInfo {
    /// Mesh name.
    pub name: String,
    /// Skin index, for skinned meshes.
    pub skin: Option<usize>,
    /// Joint a non-skinned mesh follows.
    pub attached_to: Option<String>,
    /// Vertex count.
    pub vertices: usize,
    /// Triangle count.
    pub triangles: usize,
    /// Largest number of non-zero influences on one vertex (after reduction to four).
    pub max_influences: usize,
    /// True when the mesh has normals.
    pub normals: bool,
    /// True when the mesh has texture coordinates.
    pub uvs: bool,
    /// True when the material has a base colour texture.
    pub textured: bool,
    /// Number of morph targets.
    pub morph_targets: usize,
    /// Base colour factor (linear RGBA).
    pub base_color: [f32; 4],
}

/// The morph targets of one mesh instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MorphSetInfo {
    /// The mesh's name.
    pub name: String,
    /// The glTF node that carries it, if it came from a file.
    pub node: Option<usize>,
    /// The joint it follows (masks cover it with that joint).
    pub follows: Option<String>,
    /// Target names.
    pub targets: Vec<String>,
    /// Default weights.
    pub defaults: Vec<f32>,
}

/// One clip.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClipInfo {
    /// Clip name.
    pub name: String,
    /// Duration in glTF terms: the time of the last key, seconds.
    pub duration: f32,
    /// Time of the earliest key, seconds.
    pub start: f32,
    /// Number of animated channels (joint channels and morph weights channels).
    pub channels: usize,
    /// Number of animated joints.
    pub joints: usize,
    /// Morph weights channels (one per mesh whose weights the clip animates).
    pub weights: usize,
    /// Translation channels.
    pub translation: usize,
    /// Rotation channels.
    pub rotation: usize,
    /// Scale channels.
    pub scale: usize,
    /// Interpolation modes used (glTF spelling, sorted).
    pub interpolations: Vec<String>,
    /// Largest key count of any channel.
    pub max_keys: usize,
    /// What Marionette's bake recorded in the animation's `extras.marionette` (rate, frames,
    /// duration, key profile, markers and events); `None` for clips Marionette did not bake.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baked: Option<BakedInfo>,
    /// Each foot's contacts in the clip played on its own at 60 Hz, in seconds (the default
    /// feet and thresholds, see the guide's motion chapter); empty for a rig without feet.
    pub contacts: std::collections::BTreeMap<String, Vec<super::motion::Span>>,
}

/// The `extras.marionette` of a baked animation (see `bake::export`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BakedInfo {
    /// Frames per second of the bake; `None` (JSON `null`): a clip's own irregular key times.
    pub fps: Option<f64>,
    /// `"rate"` (frame k at k / fps) or `"source"` (a clip's own key times).
    pub time_base: String,
    /// The budget a clip at its own key times was reduced under, in millimetres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance_mm: Option<f64>,
    /// The `--shell-mm` it was measured at (`None`: each joint's farthest vertex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell_mm: Option<f64>,
    /// Frames baked.
    pub frames: u64,
    /// Time of the last frame, seconds (absent in bakes older than the key profiles).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    /// Key profile (`linear` or `cubic`), when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curves: Option<String>,
    /// Compact output: rotation keys 16-bit where the budget allowed (absent: every key a
    /// float, `--quantize off` or a bake older than compact output).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub quantize: bool,
    /// Number of markers.
    pub markers: usize,
    /// Number of events.
    pub events: usize,
}

/// The `extras.marionette` of each animation of `file`, by animation name (empty when the file
/// cannot be read as JSON glTF).
fn baked_extras(file: &std::path::Path) -> Vec<(String, BakedInfo)> {
    let Ok(doc) = crate::io::Document::read(file) else {
        return Vec::new();
    };
    let anims = doc.json["animations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    anims
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let m = &a["extras"]["marionette"];
            let info = BakedInfo {
                fps: m["fps"].as_f64(),
                time_base: m["time_base"].as_str().unwrap_or("rate").to_string(),
                tolerance_mm: m["tolerance_mm"].as_f64(),
                shell_mm: m["shell_mm"].as_f64(),
                frames: m["frames"].as_u64()?,
                duration: m["duration"].as_f64(),
                curves: m["curves"].as_str().map(str::to_string),
                quantize: m["quantize"].as_bool() == Some(true),
                markers: m["markers"].as_array().map_or(0, Vec::len),
                events: m["events"].as_array().map_or(0, Vec::len),
            };
            let name = a["name"]
                .as_str()
                .map_or_else(|| format!("animation_{i}"), str::to_string);
            Some((name, info))
        })
        .collect()
}

/// One image.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ImageInfo {
    /// Image name, if any.
    pub name: Option<String>,
    /// MIME type.
    pub mime_type: String,
    /// Encoded size.
    pub bytes: usize,
}

/// Builds the inspection report of a model.
pub fn inspect(model: &Model) -> InspectReport {
    inspect_with(model, crate::anim::fast_turns::DEFAULT_TURN_LIMIT)
}

/// [`inspect`], reporting joints that turn faster than `turn_limit` degrees per second.
pub fn inspect_with(model: &Model, turn_limit: f32) -> InspectReport {
    let sk = &model.skeleton;
    let mut depth = vec![0usize; sk.len()];
    let joints = (0..sk.len())
        .map(|j| {
            let parent = sk.parents()[j];
            if let Some(p) = parent {
                depth[j] = depth[p as usize] + 1;
            }
            JointInfo {
                name: sk.names()[j].clone(),
                node: model.joint_nodes.get(j).copied().unwrap_or(j),
                parent: parent.map(|p| sk.names()[p as usize].clone()),
                depth: depth[j],
            }
        })
        .collect();
    let joint_name = |j: u16| {
        sk.names()
            .get(j as usize)
            .cloned()
            .unwrap_or_else(|| format!("#{j}"))
    };
    InspectReport {
        file: model.source.display().to_string(),
        joint_count: sk.len(),
        joints,
        armature: sk.armature().to_cols_array(),
        skins: model
            .skins
            .iter()
            .map(|s| SkinInfo {
                name: s.name.clone(),
                joints: s.joints.iter().map(|&j| joint_name(j)).collect(),
            })
            .collect(),
        meshes: model
            .meshes
            .iter()
            .map(|m| mesh_info(m, m.node_joint.map(joint_name)))
            .collect(),
        morphs: sk
            .morphs()
            .sets()
            .iter()
            .map(|s| MorphSetInfo {
                name: s.name.clone(),
                node: s.node,
                follows: s.joint.map(joint_name),
                targets: s.targets.clone(),
                defaults: s.defaults.clone(),
            })
            .collect(),
        springs: sk
            .springs()
            .springs
            .iter()
            .enumerate()
            .map(|(k, s)| SpringInfo {
                name: s.name.clone(),
                joints: s.joints.iter().map(|j| joint_name(j.joint)).collect(),
                colliders: sk.springs().colliders_of(k).len(),
            })
            .collect(),
        clips: {
            let extras = if model.source.is_file() {
                baked_extras(&model.source)
            } else {
                Vec::new()
            };
            model
                .clips
                .iter()
                .map(|c| {
                    let mut info = clip_info(c);
                    info.contacts = clip_contacts(&model.skeleton, c);
                    info.baked = extras
                        .iter()
                        .find(|(n, _)| *n == c.name)
                        .map(|(_, b)| b.clone());
                    info
                })
                .collect()
        },
        images: model
            .images
            .iter()
            .map(|i| ImageInfo {
                name: i.name.clone(),
                mime_type: i.mime_type.clone(),
                bytes: i.data.len(),
            })
            .collect(),
        warnings: model.warnings.clone(),
        turn_limit,
        fast_turns: FastTurnInfo::of_model(model, turn_limit),
    }
}

fn mesh_info(m: &SkinnedMesh, attached_to: Option<String>) -> MeshInfo {
    let max_influences = m
        .weights
        .iter()
        .map(|w| w.iter().filter(|&&x| x > 0.0).count())
        .max()
        .unwrap_or(0);
    MeshInfo {
        name: m.name.clone(),
        skin: m.skin,
        attached_to,
        vertices: m.positions.len(),
        triangles: m.indices.len() / 3,
        max_influences,
        normals: !m.normals.is_empty(),
        uvs: !m.uvs.is_empty(),
        textured: m.base_color_texture.is_some(),
        morph_targets: m.targets.len(),
        base_color: m.base_color,
    }
}

/// A clip's foot contacts by foot, played on its own at 60 Hz with the default feet.
fn clip_contacts(
    skeleton: &marionette_anim::Skeleton,
    c: &Clip,
) -> std::collections::BTreeMap<String, Vec<super::motion::Span>> {
    use marionette_anim::motion::{Motion, MotionAsserts};
    let Ok(rules) = MotionAsserts::default().resolve(skeleton) else {
        return Default::default();
    };
    let m = Motion::of_clip(skeleton, c, 60.0);
    super::motion::spans(skeleton, &rules.measure(&m).contacts, m.fps)
}

fn clip_info(c: &Clip) -> ClipInfo {
    let mut modes = BTreeSet::new();
    let (mut t, mut r, mut s, mut max_keys) = (0, 0, 0, 0);
    let mut note = |i: Interpolation, keys: usize| {
        modes.insert(i.as_gltf().to_string());
        max_keys = max_keys.max(keys);
    };
    for jt in &c.tracks {
        if let Some(tr) = &jt.translation {
            t += 1;
            note(tr.interpolation, tr.times.len());
        }
        if let Some(tr) = &jt.rotation {
            r += 1;
            note(tr.interpolation, tr.times.len());
        }
        if let Some(tr) = &jt.scale {
            s += 1;
            note(tr.interpolation, tr.times.len());
        }
    }
    for m in &c.morphs {
        note(m.interpolation, m.times.len());
    }
    ClipInfo {
        name: c.name.clone(),
        duration: c.duration(),
        start: c.start,
        channels: t + r + s + c.morphs.len(),
        joints: c.tracks.len(),
        weights: c.morphs.len(),
        translation: t,
        rotation: r,
        scale: s,
        interpolations: modes.into_iter().collect(),
        max_keys,
        baked: None,
        contacts: Default::default(),
    }
}
