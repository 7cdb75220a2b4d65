//! A fresh, sandboxed Lua state per load: safe standard libraries only, `require` limited to the
//! project, read-only `io.open` inside the project, an instruction budget per call (and per take)
//! that covers every way into Lua ([`super::budget`]), a memory limit and a cap on printed text.
//!
//! Forbidden functions are not simply missing: they are replaced by functions that raise
//! `os.execute is not allowed in Marionette scripts (sandbox)`, so a script author learns why.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Lua, LuaOptions, StdLib, Table, Value};

use super::budget::{self, Budget};
use super::error::{RequiredFiles, ScriptError};
use super::output::{self, Log};
use marionette_io::files::confine::{self, ReadError, Scope, ScopeKind, SCRIPT_FILE_LIMIT};

/// Resource limits for one script state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Instructions allowed while the script's main chunk runs (building the graph).
    pub load_instructions: u64,
    /// Instructions allowed per call into the script afterwards (`post`, predicates, curves).
    pub call_instructions: u64,
    /// Bytes the Lua state may allocate in total.
    pub memory_bytes: usize,
    /// Instructions allowed in total while a take plays from its start (every `post` and
    /// predicate call of its frames; a bake plays each take once): a heavy `post` on a long
    /// take stops with an error naming the take and frame instead of running for hours.
    pub take_instructions: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            load_instructions: 50_000_000,
            call_instructions: 2_000_000,
            memory_bytes: 64 << 20,
            take_instructions: 1_000_000_000,
        }
    }
}

/// What the sandbox shares with the host while a state lives.
#[derive(Clone)]
pub(crate) struct Env {
    /// The project folder: every file a script reads must lie inside it (the rule of
    /// [`marionette_io::files::confine`]).
    pub scope: Scope,
    /// Folder of the main script, as given (used for chunk names so errors show familiar paths).
    pub script_dir: PathBuf,
    /// Files loaded by `require`, for the watcher.
    pub required: RequiredFiles,
    /// Lines printed by the script (`print`), kept out of stdout so JSON output stays clean;
    /// at most [`output::PRINT_LIMIT`] bytes.
    pub log: Log,
    /// The instruction budget.
    pub budget: Rc<Budget>,
    /// The text of every chunk the host loaded (the script and its `require`d modules), by
    /// chunk name without its `@`: error reporting reads source lines here, never from disk
    /// (a script chooses the chunk names of what it `load`s).
    pub sources: Sources,
}

/// The host's own copies of the texts it loaded, by chunk name (see [`Env::sources`]).
pub(crate) type Sources = Rc<std::cell::RefCell<std::collections::HashMap<String, Rc<str>>>>;

impl Env {
    /// An environment for a script at `script` inside the project folder `root`.
    pub fn new(script: &Path, root: &Path) -> Result<Env, ScriptError> {
        let scope =
            Scope::new(ScopeKind::Project, root).map_err(|e| ScriptError::msg(e.to_string()))?;
        let script_dir = script.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Env {
            scope,
            script_dir,
            required: Rc::default(),
            log: Log::default(),
            budget: Budget::new(),
            sources: Rc::default(),
        })
    }

    /// Runs `f`, one entry into the script's Lua, under an allowance of `limit` instructions
    /// (see [`Budget::enter`]).
    pub fn enter<R>(&self, limit: u64, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        self.budget.enter(limit, f)
    }

    /// Resolves `rel` against the script folder under the rule of [`marionette_io::files::confine`]: the path
    /// as shown to the user (script folder + `rel`) and the real file, or why it is refused (a
    /// missing file is judged by its folder, so `../missing.lua` is still outside).
    pub fn resolve(&self, rel: &str) -> Result<(PathBuf, PathBuf), ReadError> {
        let shown = self.script_dir.join(rel);
        let real = self.scope.check(&shown, &shown.display().to_string())?;
        Ok((shown, real))
    }

    /// Reads the text of `rel` (see [`Env::resolve`]): a regular file inside the project, at
    /// most [`SCRIPT_FILE_LIMIT`] bytes.
    pub fn read_text(&self, rel: &str) -> Result<(PathBuf, PathBuf, String), ReadError> {
        let (shown, real) = self.resolve(rel)?;
        let text = confine::read_text(&real, &shown.display().to_string(), SCRIPT_FILE_LIMIT)?;
        Ok((shown, real, text))
    }
}

/// Chunk name of the built-in prelude; its frames are skipped when locating errors.
const PRELUDE_NAME: &str = "=[marionette]";

/// Lua-side part of the sandbox: wrappers that need Lua semantics (varargs, file objects) and
/// those that keep every entry under the budget (`prelude.lua`).
const PRELUDE: &str = include_str!("prelude.lua");

/// Creates a sandboxed state for one load of a script.
pub(crate) fn new_lua(env: &Env, limits: &Limits) -> Result<Lua, ScriptError> {
    let lib = StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH;
    let lua = Lua::new_with(lib | StdLib::OS, LuaOptions::default())
        .map_err(|e| ScriptError::from_lua(&e))?;
    lua.set_memory_limit(limits.memory_bytes)
        .map_err(|e| ScriptError::from_lua(&e))?;
    install(&lua, env).map_err(|e| ScriptError::from_lua(&e))?;
    super::pattern::register(&lua, &env.budget, limits.memory_bytes)
        .map_err(|e| ScriptError::from_lua(&e))?;
    budget::install_hook(&lua, &env.budget);
    lua.set_app_data(env.sources.clone());
    Ok(lua)
}

fn install(lua: &Lua, env: &Env) -> mlua::Result<()> {
    let g = lua.globals();
    // Keep the harmless parts of `os`; the prelude rebuilds the table around them.
    let os: Table = g.get("os")?;
    for name in ["clock", "time", "date", "difftime"] {
        g.set(format!("os_{name}"), os.get::<Value>(name)?)?;
    }
    let loaded = lua.create_table()?;
    lua.set_named_registry_value("marionette.loaded", &loaded)?;
    g.set("package_loaded", loaded)?;

    g.set("print", output::print_function(lua, &env.log)?)?;

    let forbid = lua.create_function(|lua, name: String| {
        lua.create_function(move |_, _: mlua::MultiValue| -> mlua::Result<()> {
            Err(mlua::Error::runtime(format!(
                "{name} is not allowed in Marionette scripts (sandbox)"
            )))
        })
    })?;

    let read_env = env.clone();
    let read_file = lua.create_function(
        move |_, (path, mode): (String, Option<String>)| -> mlua::Result<(Option<String>, Option<String>)> {
            let mode = mode.unwrap_or_else(|| "r".into());
            if mode != "r" && mode != "rb" {
                return Err(mlua::Error::runtime(format!(
                    "io.open(\"{path}\", \"{mode}\"): writing files is not allowed in Marionette scripts (sandbox)"
                )));
            }
            match read_env.read_text(&path) {
                Ok((_, _, text)) => Ok((Some(text), None)),
                Err(e) if e.is_refusal() => Err(mlua::Error::runtime(format!(
                    "io.open(\"{path}\"): {e}"
                ))),
                Err(e) => Ok((None, Some(e.to_string()))),
            }
        },
    )?;
    let check_budget = env.budget.clone();
    let check = lua.create_function(move |_, ()| check_budget.check())?;
    let charge_budget = env.budget.clone();
    let charge = lua.create_function(move |lua, (n, what): (f64, String)| {
        // `as` saturates: NaN and negatives charge nothing, huge counts the most.
        charge_budget.charge(lua, n as u64, &what)
    })?;
    let check_source =
        lua.create_function(|_, (chunk, name): (mlua::LuaString, Option<String>)| {
            Ok(
                super::source_check::find_close(&chunk.as_bytes()).map(|line| {
                    let name = name.as_deref().unwrap_or("=(load)");
                    let name = name.strip_prefix(['=', '@']).unwrap_or(name);
                    format!("{name}:{line}: {}", super::source_check::REFUSED)
                }),
            )
        })?;
    lua.load(PRELUDE).set_name(PRELUDE_NAME).call::<()>((
        read_file,
        forbid,
        check,
        charge,
        check_source,
    ))?;
    g.set("require", require_function(lua, env)?)?;
    Ok(())
}

/// `require("name.sub")`: loads `name/sub.lua` (or `name/sub/init.lua`) next to the script, once.
fn require_function(lua: &Lua, env: &Env) -> mlua::Result<mlua::Function> {
    let env = env.clone();
    lua.create_function(move |lua, name: String| -> mlua::Result<Value> {
        let loaded: Table = lua.named_registry_value("marionette.loaded")?;
        match loaded.get::<Value>(name.as_str())? {
            Value::Nil => {}
            Value::Boolean(false) => {
                return Err(mlua::Error::runtime(format!(
                    "require(\"{name}\"): circular require"
                )))
            }
            v => return Ok(v),
        }
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
            && !name.contains("..");
        if !valid {
            return Err(mlua::Error::runtime(format!(
                "require(\"{name}\"): module names are dotted paths inside the project (e.g. \"lib.gait\")"
            )));
        }
        let rel = name.replace('.', "/");
        let candidates = [format!("{rel}.lua"), format!("{rel}/init.lua")];
        let mut found = None;
        for c in &candidates {
            match env.read_text(c) {
                Ok(f) => {
                    found = Some(f);
                    break;
                }
                Err(e) if e.is_not_found() => {}
                Err(e) => return Err(mlua::Error::runtime(format!("require(\"{name}\"): {e}"))),
            }
        }
        let Some((shown, canonical, source)) = found else {
            return Err(mlua::Error::runtime(format!(
                "require(\"{name}\"): no file {} or {} in {}",
                candidates[0],
                candidates[1],
                env.script_dir.display()
            )));
        };
        if let Some(line) = super::source_check::find_close(source.as_bytes()) {
            return Err(mlua::Error::runtime(format!(
                "{}:{line}: {}",
                shown.display(),
                super::source_check::REFUSED
            )));
        }
        env.required.borrow_mut().push(canonical);
        loaded.set(name.as_str(), false)?;
        let chunk = shown.display().to_string();
        env.sources
            .borrow_mut()
            .insert(chunk.clone(), Rc::from(source.as_str()));
        let value: Value = lua
            .load(source)
            .set_name(format!("@{chunk}"))
            .call(name.as_str())?;
        let value = if value.is_nil() {
            Value::Boolean(true)
        } else {
            value
        };
        loaded.set(name.as_str(), &value)?;
        Ok(value)
    })
}
