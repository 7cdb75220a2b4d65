//! Map files: what `marionette retarget-map` prints, edited, read back for `bake
//! --retarget-to --map` ([`read_map_file`]) and checked against both rigs
//! ([`resolve_map_file`]). A mistake is reported at its line of the file (`map.lua:12: unknown
//! joint 'pelvs' ...`): the file is a table, so the line is found by the names the mistake is
//! about ([`line_of`]).

use marionette_anim::retarget::JointMap;
use marionette_anim::Skeleton;

use crate::joint_map::{resolve, MapMistake};
use crate::spec::MapSpec;
use crate::{Location, ScriptError};

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

/// The text of a map file (as scripts are read: confined, size-limited).
fn read_text(path: &std::path::Path) -> Result<String, ScriptError> {
    use marionette_io::files::confine;
    let shown = path.display().to_string();
    confine::read_text(path, &shown, confine::SCRIPT_FILE_LIMIT).map_err(|e| match e {
        confine::ReadError::Io { error, .. } => ScriptError::io(path, &error),
        refused => ScriptError::msg(refused.to_string()),
    })
}

/// An error at the line of `text` that `keys` (the last written of them) and `value` find,
/// else at the file.
fn placed(
    path: &std::path::Path,
    text: &str,
    message: String,
    keys: &[&str],
    value: Option<&str>,
) -> ScriptError {
    let shown = path.display().to_string();
    let line = match keys {
        [] => line_of(text, None, value),
        keys => keys
            .iter()
            .filter_map(|k| line_of(text, Some(k), value))
            .max(),
    };
    match line {
        Some(line) => ScriptError {
            location: Some(Location { file: shown, line }),
            message,
            ..ScriptError::default()
        },
        None => ScriptError::msg(format!("{shown}: {message}")),
    }
}

/// Reads a map file (what `marionette retarget-map` prints: a Lua file returning `{ map = {
/// ... }, chains = { ... } }` and optionally `rest`, `scale` and `ik` as `retarget` takes them,
/// or the map table alone), run in the scripts' sandbox; an unknown key is an error.
pub fn read_map_file(path: &std::path::Path) -> Result<MapFile, ScriptError> {
    let shown = path.display().to_string();
    let text = read_text(path)?;
    let root = marionette_io::files::confine::project_folder(path);
    let env = crate::sandbox::Env::new(path, &root)?;
    let limits = crate::Limits::default();
    let lua = crate::sandbox::new_lua(&env, &limits)?;
    let fail = |e: mlua::Error| {
        let mut e = ScriptError::from_lua(&e);
        // a data file's traceback says nothing its line does not
        e.traceback = Box::from("");
        if e.location.is_none() {
            e.message = format!("{shown}: {}", e.message);
        }
        e
    };
    undefined_names_are_errors(&lua).map_err(fail)?;
    let chunk = lua.load(text.as_str()).set_name(format!("@{shown}"));
    let value: mlua::Value = env
        .enter(limits.load_instructions, || chunk.call(()))
        .map_err(fail)?;
    let mlua::Value::Table(t) = value else {
        return Err(ScriptError::msg(format!(
            "{shown}: a map file returns a table: {{ map = {{ character_joint = \"source_joint\", ... }}, chains = {{ ... }} }}"
        )));
    };
    // an option's mistake, at the option's line
    let invalid = |key: &str, e: mlua::Error| match crate::api::invalid_message(&e) {
        // the options' messages are `retarget`'s, whose options a map file holds
        Some(m) => {
            let m = m.strip_prefix("retarget: ").unwrap_or(&m).to_string();
            placed(path, &text, m, &[key], None)
        }
        None => fail(e),
    };
    // the file's own table (`{ map = ..., chains = ... }`), or the map alone (names to names)
    let mut wrapped = false;
    let mut unknown = None;
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair.map_err(fail)?;
        let key = match &k {
            mlua::Value::String(s) => Some(s.to_string_lossy()),
            _ => None,
        };
        let named = key.as_deref().is_some_and(|k| MAP_FILE_KEYS.contains(&k));
        if named || matches!(v, mlua::Value::Table(_)) {
            wrapped = true;
        }
        if !named && unknown.is_none() {
            unknown = key;
        }
    }
    let get = |k: &str| -> Result<mlua::Value, ScriptError> {
        if wrapped {
            t.get(k).map_err(fail)
        } else {
            Ok(mlua::Value::Nil)
        }
    };
    if wrapped {
        crate::api::strict::check_keys(&t, "map file", &MAP_FILE_KEYS, 0)
            .map_err(|e| invalid(unknown.as_deref().unwrap_or("map"), e))?;
    }
    let map = if wrapped {
        get("map")?
    } else {
        mlua::Value::Table(t.clone())
    };
    let pairs = crate::api::retarget_options::map_option(map).map_err(|e| invalid("map", e))?;
    let chains = crate::api::retarget_options::chains_option(get("chains")?)
        .map_err(|e| invalid("chains", e))?;
    let reference =
        crate::api::retarget_options::rest_option(get("rest")?).map_err(|e| invalid("rest", e))?;
    let scale = crate::api::retarget_options::scale_option(get("scale")?)
        .map_err(|e| invalid("scale", e))?;
    let ik = match get("ik")? {
        mlua::Value::Nil => None,
        v => Some(crate::api::retarget_options::ik_option(v).map_err(|e| invalid("ik", e))?),
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

/// A map file is data: a name it reads that nothing defines is a joint name written without
/// quotes (`L_thigh = UpperLegL`), which Lua would read as nil and the map would silently lose.
fn undefined_names_are_errors(lua: &mlua::Lua) -> mlua::Result<()> {
    let strict = lua.create_table()?;
    strict.set(
        "__index",
        lua.create_function(
            |_, (_, name): (mlua::Value, mlua::Value)| -> mlua::Result<()> {
                let name = match &name {
                    mlua::Value::String(s) => s.to_string_lossy(),
                    other => format!("{other:?}"),
                };
                Err(mlua::Error::runtime(format!(
                    "'{name}' is not defined: joint names and options are strings in quotes \
                 (\"{name}\")"
                )))
            },
        )?,
    )?;
    lua.globals().set_metatable(Some(strict))?;
    Ok(())
}

/// The map of a map file read from `path`, checked against the character (`target`) and the
/// source skeleton (`whose` names them); a mistake is reported at its line of the file.
pub fn resolve_map_file(
    path: &std::path::Path,
    file: &MapFile,
    target: &Skeleton,
    source: &Skeleton,
    whose: (&str, &str),
) -> Result<JointMap, ScriptError> {
    resolve(&file.map, target, source, whose).map_err(|m: MapMistake| {
        let text = read_text(path).unwrap_or_default();
        let keys: Vec<&str> = m.keys.iter().map(String::as_str).collect();
        placed(path, &text, m.message, &keys, m.value.as_deref())
    })
}

/// The 1-based line of `text` (Lua source) that writes `key` as a table key (`key =` or
/// `["key"] =`) with `value` as a string on the same line; else the first line with the key;
/// else the first with the string. Comments are set aside.
pub fn line_of(text: &str, key: Option<&str>, value: Option<&str>) -> Option<u32> {
    let code: Vec<(u32, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i as u32 + 1, code_of(l)))
        .collect();
    let has_key = |l: &str| key.is_some_and(|k| writes_key(l, k));
    let has_value = |l: &str| value.is_some_and(|v| writes_string(l, v));
    let find = |f: &dyn Fn(&str) -> bool| code.iter().find(|(_, l)| f(l)).map(|(n, _)| *n);
    find(&|l| has_key(l) && has_value(l))
        .or_else(|| find(&has_key))
        .or_else(|| find(&has_value))
}

/// A line without its comment (`--` outside a string).
fn code_of(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut prev_dash = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => {
                if c == '-' && prev_dash {
                    return &line[..i - 1];
                }
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
            }
        }
        prev_dash = quote.is_none() && c == '-';
    }
    line
}

/// Whether `line` writes `s` as a string literal.
fn writes_string(line: &str, s: &str) -> bool {
    ['"', '\'']
        .iter()
        .any(|q| line.contains(&format!("{q}{s}{q}")))
}

/// Whether `line` writes `key` as a table key: a bare name followed by `=` (not `==`), or a
/// bracketed string.
fn writes_key(line: &str, key: &str) -> bool {
    if ['"', '\''].iter().any(|q| {
        let bracketed = format!("[{q}{key}{q}]");
        line.match_indices(&bracketed)
            .any(|(i, _)| assigns(&line[i + bracketed.len()..]))
    }) {
        return true;
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(key).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        !before.is_some_and(|c| ident(c) || c == '"' || c == '\'')
            && !line[i + key.len()..].starts_with(ident)
            && assigns(&line[i + key.len()..])
    })
}

/// Whether `rest` starts (after spaces) with a single `=`.
fn assigns(rest: &str) -> bool {
    let r = rest.trim_start();
    r.starts_with('=') && !r.starts_with("==")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = r#"-- a comment naming pelvis = "Hips"
return {
  map = {
    pelvis = "Hips", -- hips
    ["L thigh"] = "UpperLegL",
    spine_01 = 'Hips',
  },
  chains = {
    { "spine_02", "chest", from = { "Abdomen" } },
  },
  rest = "apose",
}
"#;

    #[test]
    fn lines_are_found_by_key_and_value() {
        assert_eq!(line_of(MAP, Some("pelvis"), Some("Hips")), Some(4));
        assert_eq!(line_of(MAP, Some("spine_01"), Some("Hips")), Some(6));
        assert_eq!(line_of(MAP, Some("L thigh"), None), Some(5));
        assert_eq!(line_of(MAP, None, Some("chest")), Some(9));
        assert_eq!(line_of(MAP, Some("rest"), None), Some(11));
        assert_eq!(line_of(MAP, Some("chains"), None), Some(8));
        // the key alone when the value is elsewhere; nothing when neither is written
        assert_eq!(line_of(MAP, Some("pelvis"), Some("Nowhere")), Some(4));
        assert_eq!(line_of(MAP, Some("missing"), Some("Nowhere")), None);
        // a name inside another does not count, nor a comparison
        assert_eq!(
            line_of("xpelvis = 1\npelvis == 2\n", Some("pelvis"), None),
            None
        );
    }

    #[test]
    fn comments_are_set_aside_but_not_inside_strings() {
        assert_eq!(code_of("a = 1 -- b = 2"), "a = 1 ");
        assert_eq!(code_of("a = \"x--y\" -- c"), "a = \"x--y\" ");
        assert_eq!(code_of("a = 'it\\'s' --"), "a = 'it\\'s' ");
    }
}
