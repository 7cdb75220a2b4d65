//! Joint maps between two rigs as scripts write them: a [`MapSpec`] resolved against both
//! skeletons ([`resolve`], the errors naming the joint and the closest name), the retargeter a
//! `retarget` node runs ([`retargeter`]), and the proposed map printed as a Lua table to paste
//! and edit ([`to_lua`], what `marionette retarget-map` prints).

use std::fmt::Write as _;

use marionette_anim::retarget::{
    AutoMap, ChainMap, Humanoid, JointMap, RetargetOptions, Retargeter,
};
use marionette_anim::{JointIndex, Skeleton};

use crate::spec::{MapSpec, RetargetSpec};

/// The joint of `skeleton` called `name`, or an error naming it with the closest name.
fn joint(skeleton: &Skeleton, name: &str, whose: &str) -> Result<JointIndex, String> {
    skeleton.find(name).ok_or_else(|| {
        let hint = crate::spec::did_you_mean(name, skeleton.names().iter().map(String::as_str));
        format!("unknown joint '{name}'{hint} in {whose}")
    })
}

/// The map a script gave (or the proposed one), checked against the character (`target`) and
/// the source skeleton; `whose` names them in messages.
pub fn resolve(
    map: &MapSpec,
    target: &Skeleton,
    source: &Skeleton,
    whose: (&str, &str),
) -> Result<JointMap, String> {
    match map {
        MapSpec::Auto => Ok(JointMap::auto(target, source).map),
        MapSpec::Joints { pairs, chains } => {
            let mut p = Vec::with_capacity(pairs.len());
            for (t, s) in pairs {
                p.push((joint(target, t, whose.0)?, joint(source, s, whose.1)?));
            }
            let mut c = Vec::with_capacity(chains.len());
            for (ts, ss) in chains {
                let target_joints = ts
                    .iter()
                    .map(|t| joint(target, t, whose.0))
                    .collect::<Result<Vec<_>, _>>()?;
                let source_joints = ss
                    .iter()
                    .map(|s| joint(source, s, whose.1))
                    .collect::<Result<Vec<_>, _>>()?;
                c.push(ChainMap {
                    target: target_joints,
                    source: source_joints,
                });
            }
            JointMap::new(p, c, target, source).map_err(|e| e.to_string())
        }
    }
}

/// The retargeter of a `retarget` node.
pub fn retargeter(
    spec: &RetargetSpec,
    target: &Skeleton,
    source: &Skeleton,
    whose: (&str, &str),
) -> Result<Retargeter, String> {
    let map = resolve(&spec.map, target, source, whose)?;
    let options = RetargetOptions {
        reference: spec.reference,
        scale: spec.scale,
        ik_feet: spec.ik_feet,
        ik_hands: spec.ik_hands,
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

/// What a map file holds: the map, and the other `retarget` options it may set.
#[derive(Clone, Debug, PartialEq)]
pub struct MapFile {
    /// The joint map.
    pub map: MapSpec,
    /// `rest = "rest" | "tpose"`.
    pub reference: Option<marionette_anim::retarget::ReferencePose>,
    /// `scale = n | {x, y, z}`.
    pub scale: Option<glam::Vec3>,
    /// `ik = true | false | "feet" | "hands"`: (feet, hands).
    pub ik: Option<(bool, bool)>,
}

/// The keys a map file's table may have.
pub const MAP_FILE_KEYS: [&str; 5] = ["map", "chains", "rest", "scale", "ik"];

/// Reads a map file (what `marionette retarget-map` prints: a Lua file returning `{ map = {
/// ... }, chains = { ... } }` and optionally `rest`, `scale` and `ik` as `retarget` takes them,
/// or the map table alone), run in the scripts' sandbox; an unknown key is an error.
pub fn read_map_file(path: &std::path::Path) -> Result<MapFile, crate::ScriptError> {
    use marionette_io::files::confine;
    let shown = path.display().to_string();
    let text =
        confine::read_text(path, &shown, confine::SCRIPT_FILE_LIMIT).map_err(|e| match e {
            confine::ReadError::Io { error, .. } => crate::ScriptError::io(path, &error),
            refused => crate::ScriptError::msg(refused.to_string()),
        })?;
    let root = confine::project_folder(path);
    let env = crate::sandbox::Env::new(path, &root)?;
    let limits = crate::Limits::default();
    let lua = crate::sandbox::new_lua(&env, &limits)?;
    let fail = |e: mlua::Error| {
        let mut e = crate::ScriptError::from_lua(&e);
        if e.location.is_none() {
            e.message = format!("{shown}: {}", e.message);
        }
        e
    };
    let chunk = lua.load(text.as_str()).set_name(format!("@{shown}"));
    let value: mlua::Value = env
        .enter(limits.load_instructions, || chunk.call(()))
        .map_err(fail)?;
    let msg = |m: String| crate::ScriptError::msg(format!("{shown}: {m}"));
    let mlua::Value::Table(t) = value else {
        return Err(msg(
            "a map file returns a table: { map = { character_joint = \"source_joint\", ... }, chains = { ... } }".into(),
        ));
    };
    let invalid = |e: mlua::Error| match crate::api::invalid_message(&e) {
        Some(m) => msg(m),
        None => fail(e),
    };
    // the file's own table (`{ map = ..., chains = ... }`), or the map alone (names to names)
    let mut wrapped = false;
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair.map_err(fail)?;
        let named = matches!(&k, mlua::Value::String(s) if MAP_FILE_KEYS.iter().any(|m| s.as_bytes() == m.as_bytes()));
        if named || matches!(v, mlua::Value::Table(_)) {
            wrapped = true;
        }
    }
    let get = |k: &str| -> Result<mlua::Value, crate::ScriptError> {
        if wrapped {
            t.get(k).map_err(fail)
        } else {
            Ok(mlua::Value::Nil)
        }
    };
    if wrapped {
        crate::api::strict::check_keys(&t, "map file", &MAP_FILE_KEYS, 0).map_err(invalid)?;
    }
    let map = if wrapped {
        get("map")?
    } else {
        mlua::Value::Table(t.clone())
    };
    let pairs = crate::api::retarget::map_option(map).map_err(invalid)?;
    let chains = crate::api::retarget::chains_option(get("chains")?).map_err(invalid)?;
    let reference = crate::api::retarget::rest_option(get("rest")?).map_err(invalid)?;
    let scale = crate::api::retarget::scale_option(get("scale")?).map_err(invalid)?;
    let ik = match get("ik")? {
        mlua::Value::Nil => None,
        v => Some(crate::api::retarget::ik_option(v).map_err(invalid)?),
    };
    Ok(MapFile {
        map: if pairs.is_empty() && chains.is_empty() {
            MapSpec::Auto
        } else {
            MapSpec::Joints { pairs, chains }
        },
        reference,
        scale,
        ik,
    })
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
    let _ = writeln!(out, "local source = marionette.rig({})", quoted(file));
    let _ = writeln!(
        out,
        "local opts = {{ from = source, map = {map}, chains = {chains} }}"
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
            "  {{ {i}, retarget(source:clip({}), opts) }},",
            quoted(&c.name)
        );
    }
    if n == 1 {
        // (a blend space needs two points: the one clip twice)
        let _ = writeln!(
            out,
            "  {{ 1, retarget(source:clip({}), opts) }},",
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
}
