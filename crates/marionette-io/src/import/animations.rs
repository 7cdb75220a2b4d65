//! Animations to [`Clip`]s: channels on translation / rotation / scale, `weights` channels on
//! the morph sets of nodes' meshes, every interpolation, normalised-integer outputs,
//! validation mapped to glTF paths, stable unique names.

use std::collections::HashSet;

use glam::{Quat, Vec3};

use super::accessor::{all_zero, read_floats, Ints};
use super::component::Type;
use super::container::Parsed;
use super::nodes::UNIT_LENGTH_TOLERANCE;

/// How far off unit length a 16-bit rotation key may be and still be kept as decoded: four
/// steps of 1/32767 (a bake's quantized keys are within three).
const SNORM16_UNIT_SLACK: f32 = 4.0 / 32767.0;
use super::skeleton::Joints;
use crate::error::{Fault, FaultResult};
use marionette_anim::{
    rotation_codes, Clip, ClipError, Interpolation, JointTracks, KeyValue, MorphSet, MorphTrack,
    Track,
};

/// Stable unique clip names: unnamed animations are called `animation_<index>`, and a repeated
/// name gets a `_2`, `_3`... suffix (one warning each). The first use of a name keeps it.
pub(crate) fn unique_clip_names(names: &[Option<&str>]) -> (Vec<String>, Vec<String>) {
    let base: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| match n.map(str::trim) {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => format!("animation_{i}"),
        })
        .collect();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(base.len());
    let mut warnings = Vec::new();
    for (i, name) in base.iter().enumerate() {
        if seen.insert(name.clone()) {
            out.push(name.clone());
            continue;
        }
        let mut k = 2;
        let fresh = loop {
            let candidate = format!("{name}_{k}");
            if !seen.contains(&candidate) && !base.contains(&candidate) {
                break candidate;
            }
            k += 1;
        };
        warnings.push(format!(
            "animations[{i}]: the name '{name}' is used by an earlier animation; renamed \
             '{fresh}'"
        ));
        seen.insert(fresh.clone());
        out.push(fresh);
    }
    (out, warnings)
}

/// Reads every animation, in file order.
pub(crate) fn clips(
    doc: &Parsed,
    joints: &Joints,
    sets: &[MorphSet],
    warnings: &mut Vec<String>,
) -> FaultResult<Vec<Clip>> {
    let names: Vec<Option<&str>> = doc
        .root
        .animations
        .iter()
        .map(|a| a.name.as_deref())
        .collect();
    let (names, name_warnings) = unique_clip_names(&names);
    warnings.extend(name_warnings);
    let mut clips = Vec::with_capacity(names.len());
    for (a, name) in names.into_iter().enumerate() {
        clips.push(clip(doc, joints, sets, a, name, warnings)?);
    }
    Ok(clips)
}

fn clip(
    doc: &Parsed,
    joints: &Joints,
    sets: &[MorphSet],
    a: usize,
    name: String,
    warnings: &mut Vec<String>,
) -> FaultResult<Clip> {
    let anim = &doc.root.animations[a];
    let mut per_joint: Vec<Option<JointTracks>> = vec![None; joints.skeleton.len()];
    let mut targets: Vec<(usize, Channel3, usize)> = Vec::new();
    let (mut no_node, mut unknown) = (0, Vec::new());
    // each weights track and the channel it came from
    let mut morphs: Vec<(MorphTrack, usize)> = Vec::new();
    for (c, ch) in anim.channels.iter().enumerate() {
        let target_path = format!("animations[{a}].channels[{c}].target");
        // A channel without a node is ignored, as glTF says (KHR_animation_pointer uses that).
        let Some(node) = ch.node else {
            no_node += 1;
            continue;
        };
        let channel = match ch.path.as_str() {
            "translation" => Channel3::Translation,
            "rotation" => Channel3::Rotation,
            "scale" => Channel3::Scale,
            "weights" => {
                if let Some(track) = weights_track(doc, a, c, sets, warnings)? {
                    if let Some(&(_, earlier)) = morphs.iter().find(|(t, _)| t.set == track.set) {
                        return Err(Fault::new(
                            target_path,
                            format!(
                                "node {node} weights is already animated by channels[{earlier}]; \
                                 each target may be animated once per animation"
                            ),
                        ));
                    }
                    morphs.push((track, c));
                }
                continue;
            }
            _ => {
                unknown.push(format!("channels[{c}] ('{}')", ch.path));
                continue;
            }
        };
        if let Some(&(_, _, earlier)) = targets
            .iter()
            .find(|(n, ch3, _)| *n == node && *ch3 == channel)
        {
            return Err(Fault::new(
                target_path,
                format!(
                    "node {node} {} is already animated by channels[{earlier}]; each target may \
                     be animated once per animation",
                    channel.name()
                ),
            ));
        }
        targets.push((node, channel, c));
        if doc.root.nodes.get(node).is_some_and(|n| n.matrix.is_some()) {
            warnings.push(format!(
                "{target_path}.node: node {node} is animated but has a matrix, which glTF forbids \
                 (animated nodes use translation, rotation and scale); the matrix is its rest pose"
            ));
        }
        let joint = joints
            .node_joint
            .get(node)
            .copied()
            .flatten()
            .ok_or_else(|| Fault::new(target_path.clone() + ".node", "node does not exist"))?;
        let Some(Keys {
            interpolation,
            times,
            input_path,
            output_path,
            output: out,
        }) = keys(doc, a, c, warnings)?
        else {
            continue;
        };
        let kinds = [if channel == Channel3::Rotation {
            Type::Vec4
        } else {
            Type::Vec3
        }];
        let what = format!("a {} output", channel.name());
        let (values, count) = read_floats(doc, out, &output_path, &what, &kinds, Ints::Normalized)?;
        let stride = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        if count != times.len() * stride {
            let mut message = format!(
                "accessor {out} has {count} elements but input has {}",
                times.len()
            );
            if stride == 3 {
                message.push_str(&format!(
                    " keys (CUBICSPLINE needs 3 per key: {})",
                    times.len() * 3
                ));
            }
            return Err(Fault::new(output_path, message));
        }
        let tracks = per_joint[joint as usize].get_or_insert_with(|| JointTracks::new(joint));
        match channel {
            Channel3::Rotation => {
                let mut values: Vec<Quat> = values.chunks_exact(4).map(Quat::from_slice).collect();
                // key values (not cubic tangents) are rotations: normalised, zero length refused
                let mut not_unit = 0;
                for (k, q) in values
                    .iter_mut()
                    .enumerate()
                    .skip(stride / 2)
                    .step_by(stride)
                {
                    let off = (1.0 - q.length()).abs();
                    if off > UNIT_LENGTH_TOLERANCE {
                        not_unit += 1;
                    }
                    // a key already unit within f32 noise is kept bit for bit (renormalising
                    // moves it by an ulp, so a re-bake of a bake would not reproduce it), and so
                    // is a 16-bit key within a few steps of unit (its length is the format's
                    // precision, which a bake measured as clients draw it)
                    if off <= 1e-6 || (off <= SNORM16_UNIT_SLACK && rotation_codes(*q).is_some()) {
                        continue;
                    }
                    *q = super::nodes::unit_quat(q.to_array()).ok_or_else(|| {
                        Fault::new(
                            output_path.clone(),
                            format!(
                                "key {} is a zero-length quaternion (not a rotation)",
                                k / stride
                            ),
                        )
                    })?;
                }
                if not_unit > 0 {
                    warnings.push(format!(
                        "{output_path}: {not_unit} rotation key(s) are not unit quaternions; \
                         normalised"
                    ));
                }
                let track = checked(interpolation, times, values, &input_path, &output_path)?;
                tracks.rotation = Some(track);
            }
            Channel3::Translation | Channel3::Scale => {
                let values = values.chunks_exact(3).map(Vec3::from_slice).collect();
                let track = checked(interpolation, times, values, &input_path, &output_path)?;
                if channel == Channel3::Translation {
                    tracks.translation = Some(track);
                } else {
                    tracks.scale = Some(track);
                }
            }
        }
    }
    if no_node > 0 {
        warnings.push(format!(
            "animations[{a}] '{name}': ignored {no_node} channel(s) without a target node (such as \
             KHR_animation_pointer channels, which Marionette does not read)"
        ));
    }
    if !unknown.is_empty() {
        warnings.push(format!(
            "animations[{a}] '{name}': ignored {} with a target path Marionette does not know",
            unknown.join(", ")
        ));
    }
    let morphs = morphs.into_iter().map(|(t, _)| t).collect();
    Ok(Clip::new(name, per_joint.into_iter().flatten().collect()).with_morphs(morphs))
}

/// A channel's sampler: its interpolation, key times and paths.
struct Keys {
    interpolation: Interpolation,
    times: Vec<f32>,
    input_path: String,
    output_path: String,
    /// The output accessor.
    output: usize,
}

/// Reads channel `c`'s sampler: the interpolation and the key times (checked: readable, and
/// two keys at least for CUBICSPLINE). `None`: the channel is skipped (an input without data,
/// warned).
fn keys(doc: &Parsed, a: usize, c: usize, warnings: &mut Vec<String>) -> FaultResult<Option<Keys>> {
    let anim = &doc.root.animations[a];
    let s = anim.channels[c].sampler;
    let sampler = anim.samplers.get(s).ok_or_else(|| {
        Fault::new(
            format!("animations[{a}].channels[{c}].sampler"),
            format!("sampler {s} does not exist"),
        )
    })?;
    let spath = format!("animations[{a}].samplers[{s}]");
    let interpolation = match sampler.interpolation.as_str() {
        "LINEAR" => Interpolation::Linear,
        "STEP" => Interpolation::Step,
        "CUBICSPLINE" => Interpolation::CubicSpline,
        other => {
            return Err(Fault::new(
                spath + ".interpolation",
                format!("'{other}' is not LINEAR, STEP or CUBICSPLINE"),
            ));
        }
    };
    let input_path = format!("{spath}.input");
    let output_path = format!("{spath}.output");
    let (times, _) = read_floats(
        doc,
        sampler.input,
        &input_path,
        "an animation input",
        &[Type::Scalar],
        Ints::None,
    )?;
    if all_zero(doc, sampler.input) && times.len() > 1 {
        warnings.push(format!(
            "{input_path}: accessor {} has no bufferView, so all its {} key times are 0; \
             channels[{c}] skipped",
            sampler.input,
            times.len()
        ));
        return Ok(None);
    }
    if interpolation == Interpolation::CubicSpline && times.len() < 2 {
        return Err(Fault::new(
            input_path,
            format!(
                "has {} key(s); a CUBICSPLINE sampler needs at least 2",
                times.len()
            ),
        ));
    }
    Ok(Some(Keys {
        interpolation,
        times,
        input_path,
        output_path,
        output: sampler.output,
    }))
}

/// A `weights` channel (channel `c` of animation `a`) as a [`MorphTrack`] of the morph set of
/// its node: the output holds targets × keys weights (and in/value/out groups for
/// CUBICSPLINE). `None`: skipped with a warning (the node's mesh was not imported).
fn weights_track(
    doc: &Parsed,
    a: usize,
    c: usize,
    sets: &[MorphSet],
    warnings: &mut Vec<String>,
) -> FaultResult<Option<MorphTrack>> {
    let ch = &doc.root.animations[a].channels[c];
    let node_path = format!("animations[{a}].channels[{c}].target.node");
    let Some(node) = ch.node else {
        return Ok(None);
    };
    let Some(set) = sets.iter().position(|s| s.node == Some(node)) else {
        let mesh = doc.root.nodes.get(node).and_then(|n| n.mesh);
        let targets = mesh
            .and_then(|m| doc.root.meshes.get(m))
            .and_then(|m| m.primitives.first())
            .map_or(0, |p| p.targets.len());
        if targets > 0 {
            warnings.push(format!(
                "{node_path}: node {node}'s mesh was not imported (see above); its weights \
                 channel is skipped"
            ));
            return Ok(None);
        }
        return Err(Fault::new(
            node_path,
            format!("node {node} has no mesh with morph targets, so it has no weights to animate"),
        ));
    };
    let Some(k) = keys(doc, a, c, warnings)? else {
        return Ok(None);
    };
    let targets = sets[set].targets.len();
    let (values, count) = read_floats(
        doc,
        k.output,
        &k.output_path,
        "a weights output",
        &[Type::Scalar],
        Ints::Normalized,
    )?;
    let stride = if k.interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    let expected = k.times.len() * stride * targets;
    if count != expected {
        let layout = if stride == 3 {
            format!(
                "{} keys x 3 (in-tangent, value, out-tangent) x {targets} targets",
                k.times.len()
            )
        } else {
            format!("{} keys x {targets} targets", k.times.len())
        };
        return Err(Fault::new(
            k.output_path,
            format!(
                "accessor {} has {count} elements but a weights channel of node {node} (mesh \
                 '{}') needs {expected}: {layout}",
                k.output, sets[set].name
            ),
        ));
    }
    let track = MorphTrack {
        set: u16::try_from(set)
            .map_err(|_| Fault::new(node_path.clone(), "too many morph sets in the file"))?,
        targets,
        interpolation: k.interpolation,
        times: k.times,
        values,
    };
    match track.validate() {
        Ok(()) => Ok(Some(track)),
        Err(e) => {
            let hint = match e {
                ClipError::NotIncreasing { .. } => " (key times must be sorted and unique)",
                ClipError::Empty => " (an animation sampler needs at least one key)",
                _ => "",
            };
            let path = match e {
                ClipError::CountMismatch { .. } => k.output_path,
                _ => k.input_path,
            };
            Err(Fault::new(path, format!("{e}{hint}")))
        }
    }
}

/// The channels a clip track can drive.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Channel3 {
    Translation,
    Rotation,
    Scale,
}

impl Channel3 {
    fn name(self) -> &'static str {
        match self {
            Channel3::Translation => "translation",
            Channel3::Rotation => "rotation",
            Channel3::Scale => "scale",
        }
    }
}

/// Builds a track and maps its validation error to the sampler's input or output path.
fn checked<T: KeyValue>(
    interpolation: Interpolation,
    times: Vec<f32>,
    values: Vec<T>,
    input_path: &str,
    output_path: &str,
) -> FaultResult<Track<T>> {
    let track = Track {
        interpolation,
        times,
        values,
    };
    match track.validate() {
        Ok(()) => Ok(track),
        Err(e) => {
            let on_output = match &e {
                ClipError::CountMismatch { .. } => true,
                ClipError::NotFinite { key } => {
                    track.times.get(*key).is_some_and(|t| t.is_finite())
                }
                _ => false,
            };
            let path = if on_output { output_path } else { input_path };
            let hint = match e {
                ClipError::NotIncreasing { .. } => " (key times must be sorted and unique)",
                ClipError::Empty => " (an animation sampler needs at least one key)",
                _ => "",
            };
            Err(Fault::new(path, format!("{e}{hint}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unnamed animations get `animation_<index>`; duplicates get `_2` without stealing names.
    #[test]
    fn clip_names_are_stable_and_unique() {
        let (names, warnings) =
            unique_clip_names(&[Some("Walk"), None, Some("Walk"), Some("  "), Some("Walk_2")]);
        assert_eq!(
            names,
            vec!["Walk", "animation_1", "Walk_3", "animation_3", "Walk_2"]
        );
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("animations[2]"), "{}", warnings[0]);
    }

    /// A NaN value is reported on the output path; decreasing times on the input path.
    #[test]
    fn validation_errors_map_to_input_or_output() {
        let err = checked(
            Interpolation::Linear,
            vec![0.0, 1.0],
            vec![Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0)],
            "in",
            "out",
        )
        .err();
        assert_eq!(err.map(|f| f.path), Some("out".to_string()));
        let err = checked(
            Interpolation::Linear,
            vec![1.0, 0.5],
            vec![Vec3::ZERO, Vec3::ONE],
            "in",
            "out",
        )
        .err();
        assert_eq!(err.as_ref().map(|f| f.path.as_str()), Some("in"));
        assert!(err.is_some_and(|f| f.message.contains("key 1 at 0.5s follows 1s")));
    }
}
