//! `marionette.rig()`: clips by name (`rig.walk`, `rig:clip("walk")`), joints (`rig:joint`,
//! `rig.joints`) and morph target names (`rig.morphs`).
//!
//! `marionette.rig()` is the character (see [`crate::RigSource`] for which file that is);
//! `marionette.rig("other.glb")` naming another file gives a handle on that rig, a **source**:
//! its clips play through `retarget` (a clip of another skeleton used on the character directly
//! is an error that says so). Each file is imported once.

use mlua::{Lua, MetaMethod, UserData, UserDataMethods};

use super::{
    caller_location, current_rig, err, invalid_node,
    nodes::Node,
    recover, rig_at,
    strict::{check_joint, did_you_mean},
    with_builder,
};
use crate::spec::{ClipSpec, NodeSpec};

/// The rig handle a script gets from `marionette.rig(...)`: the character (index 0) or the
/// script's `index`-th other rig.
pub(crate) struct RigHandle {
    pub index: usize,
}

/// A clip player node for the named clip of rig `index`, or an error listing its clips.
pub(crate) fn clip_node(lua: &Lua, index: usize, name: &str) -> mlua::Result<Node> {
    let rig = rig_at(lua, index)?;
    let Some(clip) = rig.clip_index(name) else {
        let names = rig.clip_names();
        let hint = did_you_mean(name, names.iter().copied());
        let nearby = if index == 0 {
            nearby_hint(lua, name)
        } else {
            String::new()
        };
        return Err(err(format!(
            "unknown clip '{name}'{hint} (the rig {} has: {}){nearby}",
            rig.source,
            names.join(", "),
        )));
    };
    let spec = ClipSpec {
        rig: index,
        clip,
        speed: 1.0,
        looping: true,
        offset: 0.0,
        events: Vec::new(),
    };
    let at = caller_location(lua);
    with_builder(lua, |b| Ok(Node(b.push(NodeSpec::Clip(spec), at))))
}

/// [`clip_node`], a mistake recorded and a placeholder returned (see [`recover`]).
fn clip_or_placeholder(lua: &Lua, index: usize, name: &str) -> mlua::Result<Node> {
    let r = clip_node(lua, index, name);
    recover(lua, r, invalid_node)
}

/// For a clip the default mannequin lacks that a file next to the script has:
/// `; RobotExpressive.glb next to the script has a clip 'Walking': ...`.
fn nearby_hint(lua: &Lua, name: &str) -> String {
    let found = with_builder(lua, |b| {
        let default = b.rig.as_ref().is_some_and(|r| r.path.is_none());
        Ok((default && !b.named_file && b.loader.given().is_none())
            .then(|| b.loader.nearby_clip(name))
            .flatten())
    });
    match found {
        Ok(Some(file)) => format!(
            "; {file} next to the script has a clip '{name}': animate that rig with --rig {file}, or name it in the script with marionette.rig(\"{file}\")"
        ),
        _ => String::new(),
    }
}

impl UserData for RigHandle {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        super::method(
            methods,
            "clip",
            "rig:clip(name)",
            1,
            |lua, this: &Self, name: String| clip_or_placeholder(lua, this.index, &name),
        );
        super::method(
            methods,
            "joint",
            "rig:joint(name)",
            1,
            |lua, this: &Self, name: String| {
                if this.index == 0 {
                    check_joint(lua, &name)?;
                    return Ok(name);
                }
                let rig = rig_at(lua, this.index)?;
                if rig.skeleton.find(&name).is_none() {
                    let names = rig.skeleton.names().iter().map(String::as_str);
                    let hint = did_you_mean(&name, names);
                    return Err(err(format!(
                        "unknown joint '{name}'{hint} in {}",
                        rig.source
                    )));
                }
                Ok(name)
            },
        );
        super::method(
            methods,
            "springs",
            "rig:springs(opts)",
            1,
            |lua, this: &Self, opts: Option<mlua::Table>| {
                super::spring::file_springs(lua, this.index, &opts)
            },
        );
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: String| {
            let rig = rig_at(lua, this.index)?;
            match key.as_str() {
                "joints" => lua
                    .create_sequence_from(rig.skeleton.names().iter().cloned())
                    .map(mlua::Value::Table),
                "clips" => lua
                    .create_sequence_from(rig.clip_names())
                    .map(mlua::Value::Table),
                "morphs" => lua
                    .create_sequence_from(rig.skeleton.morphs().target_names())
                    .map(mlua::Value::Table),
                "source" => lua.create_string(&rig.source).map(mlua::Value::String),
                _ => clip_or_placeholder(lua, this.index, &key)
                    .and_then(|n| lua.create_userdata(n))
                    .map(mlua::Value::UserData),
            }
        });
    }
}

/// `marionette.rig(path)`: the character when it is the script's first rig call and nothing
/// was made from the character yet (and no `--rig` names the character), else the character
/// when the file is the character's, else a source rig.
fn named_rig(
    lua: &Lua,
    path: &str,
    options: &marionette_io::ImportOptions,
) -> mlua::Result<RigHandle> {
    let (first, in_use, given) = with_builder(lua, |b| {
        let in_use = b.rig.is_some() && (!b.spec.nodes.is_empty() || b.rig_used);
        let first = !std::mem::replace(&mut b.named_character, true);
        b.named_file = true;
        Ok((first, in_use, b.loader.given()))
    })?;
    if first && !in_use && given.is_none() {
        // the script's own character (a one-rig script)
        let loaded = with_builder(lua, |b| {
            b.loader
                .file(path, true, options)
                .map_err(mlua::Error::runtime)
        })?;
        import_notes(lua, &loaded)?;
        with_builder(lua, |b| {
            b.rig = Some(loaded);
            Ok(())
        })?;
        return Ok(RigHandle { index: 0 });
    }
    let character = current_rig(lua)?;
    let loaded = with_builder(lua, |b| {
        b.loader
            .file(path, false, options)
            .map_err(mlua::Error::runtime)
    })?;
    import_notes(lua, &loaded)?;
    let same = std::rc::Rc::ptr_eq(&loaded, &character)
        || (loaded.path.is_some() && loaded.path == character.path);
    if same {
        return Ok(RigHandle { index: 0 });
    }
    if let (true, Some(given)) = (first, &given) {
        // the script's character and --rig disagree: --rig wins, and the script hears it
        let line =
            caller_location(lua).map_or(String::new(), |l| format!("{}:{}: ", l.file, l.line));
        with_builder(lua, |b| {
            b.warnings.push(format!(
                "{line}warning: --rig {given} is the character, not {path}; {path} is a source rig here (play its clips on the character with retarget(clip, {{ from = rig }}), or leave out --rig)"
            ));
            Ok(())
        })?;
    }
    with_builder(lua, |b| {
        let index = match b
            .sources
            .iter()
            .position(|r| std::rc::Rc::ptr_eq(r, &loaded))
        {
            Some(k) => k + 1,
            None => {
                b.sources.push(loaded);
                b.sources.len()
            }
        };
        Ok(RigHandle { index })
    })
}

/// What a rig file's import said (a BVH's unit, a Z-up file turned), as warnings at the
/// `marionette.rig` line, once each, naming the file.
fn import_notes(lua: &Lua, rig: &crate::Rig) -> mlua::Result<()> {
    let name = rig.short_name();
    for w in &rig.warnings {
        let named =
            w.starts_with(&format!("{}:", rig.source)) || w.starts_with(&format!("{name}:"));
        let message = if named {
            w.clone()
        } else {
            format!("{name}: {w}")
        };
        super::sides::warn(lua, message)?;
    }
    Ok(())
}

/// `marionette.rig(path, { unit = "cm" })`'s options: the unit of a BVH's or FBX's lengths.
fn rig_options(opts: Option<mlua::Value>) -> mlua::Result<marionette_io::ImportOptions> {
    let opts = match opts {
        None | Some(mlua::Value::Nil) => None,
        Some(mlua::Value::Table(t)) => Some(t),
        Some(other) => {
            return Err(super::err(format!(
                "marionette.rig: options are a table ({{ unit = \"cm\" }}), got {}",
                super::strict::describe(&other)
            )))
        }
    };
    super::strict::check_opts(&opts, "marionette.rig", &["unit"])?;
    let unit = match opts.map(|t| t.get::<mlua::Value>("unit")).transpose()? {
        None | Some(mlua::Value::Nil) => None,
        Some(mlua::Value::String(s)) => {
            let text = s.to_string_lossy();
            Some(
                text.parse::<marionette_io::Unit>()
                    .map_err(|e| super::err(format!("marionette.rig: unit = \"{text}\": {e}")))?,
            )
        }
        Some(other) => {
            return Err(super::err(format!(
                "marionette.rig: unit must be a string ({}), got {}",
                marionette_io::units::UNIT_NAMES,
                super::strict::describe(&other)
            )))
        }
    };
    Ok(marionette_io::ImportOptions { unit })
}

/// Registers the `marionette` table with `marionette.rig(path?, options?)`.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let m = lua.create_table()?;
    m.set(
        "rig",
        super::function(
            lua,
            "marionette.rig(path, options)",
            2,
            |lua, (path, opts): (Option<String>, Option<mlua::Value>)| match path {
                Some(path) => named_rig(lua, &path, &rig_options(opts)?),
                None if !matches!(opts, None | Some(mlua::Value::Nil)) => {
                    // checked for its kind first, then refused: options go with a file
                    rig_options(opts)?;
                    Err(super::err(
                        "marionette.rig: options go with a file: marionette.rig(\"walk.bvh\", { unit = \"cm\" })",
                    ))
                }
                None => {
                    // asked for, the character is settled: a file named later is another rig
                    with_builder(lua, |b| {
                        b.named_character = true;
                        Ok(())
                    })?;
                    current_rig(lua)?;
                    Ok(RigHandle { index: 0 })
                }
            },
        )?,
    )?;
    m.set("version", env!("CARGO_PKG_VERSION"))?;
    lua.globals().set("marionette", m)
}
