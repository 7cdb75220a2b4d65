//! Joint maps between two rigs as scripts write them: the retargeter a `retarget` node runs
//! ([`retargeter`], its map resolved by [`crate::joint_map`]), the proposed map printed as a
//! Lua table to paste and edit ([`to_lua`], what `marionette retarget-map` prints), and the
//! script `bake --retarget-to` runs ([`bake_script`], from a [`crate::map_file`]).

use std::fmt::Write as _;

use marionette_anim::retarget::ground::planted_height;
use marionette_anim::retarget::{AutoMap, Humanoid, RetargetOptions, Retargeter};
use marionette_anim::{Clip, JointIndex, Skeleton};

use crate::spec::{MapSpec, RetargetSpec};

pub use crate::joint_map::{resolve, MapMistake};
pub use crate::map_file::{read_map_file, resolve_map_file, MapFile, MAP_FILE_KEYS};

/// The retargeter of a `retarget` node; `source_clips` (all the source rig's clips) say where
/// its floor is ([`planted_height`]); `start`, the first clip it plays (a clip of the source
/// rig, its index and start offset), where it starts over the ground.
pub fn retargeter(
    spec: &RetargetSpec,
    target: &Skeleton,
    (source, source_clips): (&Skeleton, &[std::sync::Arc<Clip>]),
    whose: (&str, &str),
    start: Option<&crate::spec::ClipSpec>,
) -> Result<Retargeter, String> {
    let map = resolve(&spec.map, target, source, whose).map_err(|e| e.message)?;
    let clips: Vec<&Clip> = source_clips.iter().map(|c| c.as_ref()).collect();
    let armature = glam::Mat3::from_mat4(source.armature());
    // the source's model up: the world's +Y brought into its model space
    let up = (armature.inverse() * glam::Vec3::Y).normalize_or(glam::Vec3::Y);
    let options = RetargetOptions {
        reference: spec.reference,
        scale: spec.scale,
        ik_feet: spec.ik_feet,
        ik_hands: spec.ik_hands,
        source_ground: planted_height(source, &clips, up),
        source_start: start
            .filter(|c| c.rig == spec.rig)
            .and_then(|c| source_clips.get(c.clip))
            .map(|clip| {
                let mut pose = source.rest_pose().to_vec();
                let mut cache = marionette_anim::SamplingCache::default();
                clip.sample(clip.start, source.rest_pose(), &mut cache, &mut pose);
                pose
            }),
    };
    Ok(Retargeter::new(target, source, &map, &options))
}

/// A Lua string literal.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let _ = write!(out, "\\{}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A Lua table key: bare when it is an identifier, else `["..."]`.
fn key(s: &str) -> String {
    let ident = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    const KEYWORDS: [&str; 22] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    if ident && !KEYWORDS.contains(&s) {
        s.to_string()
    } else {
        format!("[{}]", quoted(s))
    }
}

/// The proposed map from `source` onto `target` as a Lua file returning `{ map = ..., chains =
/// ... }`: each pair with the body part it is (as a comment), then the character's joints left
/// unmapped and the notes, as comments. `names` are the two files as the user gave them.
pub fn to_lua(target: &Skeleton, source: &Skeleton, auto: &AutoMap, names: (&str, &str)) -> String {
    let body = Humanoid::find(target);
    let role = |j: JointIndex| {
        body.joints()
            .into_iter()
            .find(|r| r.0 == j)
            .map(|(_, r, side)| match side {
                Some(marionette_anim::mirror::Side::Left) => format!("left {}", r.name()),
                Some(marionette_anim::mirror::Side::Right) => format!("right {}", r.name()),
                None => r.name().to_string(),
            })
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "-- joint map: {} (source) onto {} (character), proposed by marionette retarget-map",
        names.1, names.0
    );
    let _ = writeln!(
        out,
        "-- {} of the character's {} joints mapped. Edit freely; then, in a script beside this file",
        auto.map.len(),
        target.len()
    );
    out.push_str(
        "-- (saved as map.lua): local m = require(\"map\"); retarget(clip, { from = rig, map = m.map, chains = m.chains }),\n\
         -- or: marionette bake SOURCE --retarget-to CHARACTER --map map.lua\n",
    );
    out.push_str("return {\n");
    out.push_str("  -- rest = \"tpose\", -- align both rigs in a T-pose first (an A-pose rig onto a T-pose one)\n");
    out.push_str("  -- scale = 1, -- translation scale (default: the ratio of leg lengths)\n");
    out.push_str("  -- ik = true, -- false, \"feet\" or \"hands\"\n");
    out.push_str("  map = {\n");
    for &(t, s) in &auto.map.pairs {
        let comment = role(t).map_or(String::new(), |r| format!(" -- {r}"));
        let _ = writeln!(
            out,
            "    {} = {},{comment}",
            key(target.name(t)),
            quoted(source.name(s))
        );
    }
    out.push_str("  },\n  chains = {\n");
    for c in &auto.map.chains {
        let t: Vec<String> = c.target.iter().map(|&j| quoted(target.name(j))).collect();
        let s: Vec<String> = c.source.iter().map(|&j| quoted(source.name(j))).collect();
        let _ = writeln!(
            out,
            "    {{ {}, from = {{ {} }} }}, -- {} joints from {}",
            t.join(", "),
            s.join(", "),
            t.len(),
            s.len()
        );
    }
    out.push_str("  },\n}\n");
    if !auto.unmapped.is_empty() {
        let names: Vec<&str> = auto.unmapped.iter().map(|&j| target.name(j)).collect();
        let _ = writeln!(
            out,
            "-- not mapped (they keep the character's rest pose): {}",
            names.join(", ")
        );
    }
    for n in &auto.notes {
        let _ = writeln!(out, "-- note: {n}");
    }
    out
}

/// The Lua table literal of a map spec (`nil` for the proposed one).
fn map_literal(map: &MapSpec) -> (String, String) {
    match map {
        MapSpec::Auto => ("\"auto\"".into(), "nil".into()),
        MapSpec::Joints { pairs, chains } => {
            let mut m = String::from("{\n");
            for (t, s) in pairs {
                let _ = writeln!(m, "    {} = {},", key(t), quoted(s));
            }
            m.push_str("  }");
            let mut c = String::from("{\n");
            for (t, s) in chains {
                let t: Vec<String> = t.iter().map(|n| quoted(n)).collect();
                let s: Vec<String> = s.iter().map(|n| quoted(n)).collect();
                let _ = writeln!(
                    c,
                    "    {{ {}, from = {{ {} }} }},",
                    t.join(", "),
                    s.join(", ")
                );
            }
            c.push_str("  }");
            (m, c)
        }
    }
}

/// A frame rate that makes `duration` whole frames (so the bake ends where the clip does): the
/// first of 60, 120, 30, 24, 25, 50 and 48 that does, else 60.
fn whole_frames(duration: f32) -> f32 {
    [60.0f32, 120.0, 30.0, 24.0, 25.0, 50.0, 48.0]
        .into_iter()
        .find(|fps| {
            let n = f64::from(duration) * f64::from(*fps);
            (n - n.round()).abs() < 1e-3 && n.round() >= 1.0
        })
        .unwrap_or(60.0)
}

/// The script `marionette bake SOURCE --retarget-to CHARACTER` runs: every clip of `source`
/// (named `file` in the script's folder) retargeted onto the character, one take per clip (its
/// own length, at `fps`, else at a rate that makes it whole frames), with root motion and the
/// options a map file gives.
pub fn bake_script(source: &crate::Rig, file: &str, options: &MapFile, fps: Option<f32>) -> String {
    let (map, chains) = map_literal(&options.map);
    let mut extra = String::new();
    if let Some(r) = options.reference {
        let _ = write!(extra, ", rest = {}", quoted(r.name()));
    }
    if let Some(s) = options.scale {
        let _ = write!(extra, ", scale = {{ {}, {}, {} }}", s.x, s.y, s.z);
    }
    if let Some((feet, hands)) = options.ik {
        let ik = match (feet, hands) {
            (true, true) => "true",
            (false, false) => "false",
            (true, false) => "\"feet\"",
            (false, true) => "\"hands\"",
        };
        let _ = write!(extra, ", ik = {ik}");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "-- written by `marionette bake {file} --retarget-to ...`: each clip of {file} on the character"
    );
    // (the character is settled first: the file named next is the source)
    out.push_str("marionette.rig()\n");
    // (each clip plays once: a take rounded up to whole frames holds the clip's last key
    // instead of wrapping to its first)
    let _ = writeln!(out, "local source = marionette.rig({})", quoted(file));
    let _ = writeln!(
        out,
        "local opts = {{ from = source, map = {map}, chains = {chains}{extra} }}"
    );
    let n = source.clips.len();
    let _ = writeln!(
        out,
        "params {{ clip = float(0, 0, {}) }}",
        n.saturating_sub(1).max(1)
    );
    out.push_str("local clips = blend1d(\"clip\", {\n");
    for (i, c) in source.clips.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {{ {i}, retarget(source:clip({}):once(), opts) }},",
            quoted(&c.name)
        );
    }
    if n == 1 {
        // (a blend space needs two points: the one clip twice)
        let _ = writeln!(
            out,
            "  {{ 1, retarget(source:clip({}):once(), opts) }},",
            quoted(&source.clips[0].name)
        );
    }
    out.push_str("})\nreturn graph {\n  root = clips,\n  root_motion = \"ground\",\n  takes = {\n");
    for (i, c) in source.clips.iter().enumerate() {
        let fps = fps.unwrap_or_else(|| whole_frames(c.duration()));
        let _ = writeln!(
            out,
            "    [{}] = {{ duration = {}, fps = {fps}, keys = {{ clip = {{ {{ 0, {i} }} }} }} }},",
            quoted(&c.name),
            c.duration().max(1.0 / fps)
        );
    }
    out.push_str("  },\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_strings_are_lua() {
        assert_eq!(key("L_thigh"), "L_thigh");
        assert_eq!(key("mixamorig:Hips"), "[\"mixamorig:Hips\"]");
        assert_eq!(key("end"), "[\"end\"]");
        assert_eq!(key("2nd"), "[\"2nd\"]");
        assert_eq!(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }

    /// `bake --retarget-to --rest tpose` (and a map file's rest, scale and ik) reach the
    /// retarget options of the script it runs (they were once dropped: the output did not
    /// change).
    #[test]
    fn the_bake_script_passes_rest_scale_and_ik() {
        let model = marionette_anim::mannequin::build();
        let rig = crate::Rig::from_model("mannequin", &model);
        let file = MapFile {
            map: MapSpec::Auto,
            reference: Some(marionette_anim::retarget::ReferencePose::TPose),
            scale: Some(glam::Vec3::splat(2.0)),
            ik: Some((true, true)),
        };
        let text = bake_script(&rig, "walk.bvh", &file, None);
        assert!(
            text.contains("rest = \"tpose\", scale = { 2, 2, 2 }, ik = true }"),
            "{text}"
        );
    }
}
