//! Loading a script: a fresh sandboxed Lua state per load, the API registered, the main chunk run
//! under the load budget, and the resulting description checked.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Function, Lua, Value};

use super::api::{self, graph::GraphHandle, Builder};
use super::error::ScriptError;
use super::rig::{Rig, RigLoader};
use super::sandbox::{new_lua, Env, Limits};
use super::spec::GraphSpec;
use marionette_io::files::confine;

/// How scripts are loaded.
#[derive(Clone)]
pub struct HostOptions {
    /// Folder the script may read from and `require` within; defaults to the script's folder
    /// ([`marionette_io::files::confine::project_folder`]).
    pub project_root: Option<PathBuf>,
    /// Instruction and memory limits.
    pub limits: Limits,
    /// Provides the rig (`marionette.rig()` / `marionette.rig("file.glb")`).
    pub loader: RigLoader,
}

impl HostOptions {
    /// Options with default limits, the script's folder as project root, and `loader` for rigs.
    pub fn new(loader: RigLoader) -> Self {
        HostOptions {
            project_root: None,
            limits: Limits::default(),
            loader,
        }
    }

    /// Options whose default rig is `rig` (a named rig file is an error).
    pub fn with_rig(rig: Rig) -> Self {
        let rig = Rc::new(rig);
        Self::new(crate::rig::rigs_from_fn(
            move |name: Option<&str>| match name {
                None => Ok(rig.clone()),
                Some(n) => Err(format!(
                    "this host has a fixed rig ({}); marionette.rig(\"{n}\") is not available",
                    rig.source
                )),
            },
        ))
    }
}

/// A script that loaded successfully: its Lua state (kept alive for `post` and predicates),
/// its description and the files it read.
pub struct LoadedScript {
    /// The script's own state; `post`, predicates and curves live here.
    pub(crate) lua: Lua,
    pub(crate) env: Env,
    /// What the script built.
    pub spec: GraphSpec,
    /// The rig it animates.
    pub rig: Rc<Rig>,
    /// The other rigs the script named, whose clips it retargets (a clip's rig `k` is
    /// `sources[k - 1]`).
    pub sources: Vec<Rc<Rig>>,
    /// `post(pose, ctx)`, if defined.
    pub(crate) post: Option<Function>,
    /// Lua predicates of transitions, by index.
    pub(crate) predicates: Vec<Function>,
    /// Lua bake passes (`function(frames)`), by index.
    pub(crate) pass_fns: Vec<Function>,
    /// Where `graph { }` was called.
    pub(crate) graph_line: Option<super::Location>,
    /// The script and every file it required (canonical paths), for the watcher.
    pub files: Vec<PathBuf>,
    /// Instruction limits.
    pub(crate) limits: Limits,
    /// Warnings found while loading (`file:line: warning: ...`): a side mask or mirror that
    /// finds no left/right joints on this rig.
    pub warnings: Vec<String>,
}

impl LoadedScript {
    /// The motion assertions of take `take` (its own, else the script's; none given: measured,
    /// not asserted), with their joints found in the character: what `check`, `bake`, `run`'s
    /// contacts and the editor's contact lanes all measure by. An unknown joint is an error
    /// (the script's load already refused it at its line).
    pub fn motion_rules(
        &self,
        take: &str,
    ) -> Result<marionette_anim::motion::Resolved, marionette_anim::motion::UnknownJoint> {
        let asserts = self.spec.asserts_for(take).cloned().unwrap_or_default();
        asserts.resolve(&self.rig.skeleton)
    }

    /// Lines the script printed while loading or running.
    pub fn log(&self) -> Vec<String> {
        self.env.log.lines()
    }

    /// Bytes the script's Lua state holds.
    pub fn lua_memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// True when the script defines `post(pose, ctx)`.
    pub fn has_post(&self) -> bool {
        self.post.is_some()
    }
}

/// Loads and runs a script, returning its description or a `file:line` error.
pub fn load(path: &Path, opts: &HostOptions) -> Result<LoadedScript, ScriptError> {
    let shown = path.display().to_string();
    let source =
        confine::read_text(path, &shown, confine::SCRIPT_FILE_LIMIT).map_err(|e| match e {
            confine::ReadError::Io { error, .. } => ScriptError::io(path, &error),
            refused => ScriptError::msg(refused.to_string()),
        })?;
    load_source(path, &source, opts, true)
}

/// Loads a script Marionette wrote itself (`bake --retarget-to`), as if it were the file
/// `path`: its folder is where the rigs it names are found, and messages name `path`. Nothing is
/// read from `path` itself.
pub fn load_text(
    path: &Path,
    source: &str,
    opts: &HostOptions,
) -> Result<LoadedScript, ScriptError> {
    load_source(path, source, opts, false)
}

fn load_source(
    path: &Path,
    source: &str,
    opts: &HostOptions,
    on_disk: bool,
) -> Result<LoadedScript, ScriptError> {
    let shown = path.display().to_string();
    let root = opts
        .project_root
        .clone()
        .unwrap_or_else(|| confine::project_folder(path));
    if let Some(line) = super::source_check::find_close(source.as_bytes()) {
        return Err(ScriptError {
            location: Some(super::error::Location {
                file: shown.clone(),
                line,
            }),
            message: super::source_check::REFUSED.into(),
            ..Default::default()
        });
    }
    let env = Env::new(path, &root)?;
    let lua = new_lua(&env, &opts.limits)?;
    lua.set_app_data(Builder::new(opts.loader.clone()));
    api::register(&lua).map_err(|e| ScriptError::from_lua(&e))?;
    env.sources
        .borrow_mut()
        .insert(path.display().to_string(), std::rc::Rc::from(source));
    let chunk = lua.load(source).set_name(format!("@{}", path.display()));
    let result: Result<Value, mlua::Error> =
        env.enter(opts.limits.load_instructions, || chunk.call(()));
    let printed = || env.log.lines();
    let builder = lua
        .remove_app_data::<Builder>()
        .ok_or_else(|| ScriptError::msg("internal: the script builder vanished"))?;
    // the mistakes the API recorded come first, in line order (file by file, in the order
    // the files were met), then the error that stopped the script, if any
    let mut errors = builder.errors.clone();
    let mut files: Vec<String> = Vec::new();
    for e in &errors {
        if let Some(l) = &e.location {
            if !files.contains(&l.file) {
                files.push(l.file.clone());
            }
        }
    }
    errors.sort_by_key(|e| {
        e.location.as_ref().map_or((usize::MAX, 0), |l| {
            (files.iter().position(|f| *f == l.file).unwrap_or(0), l.line)
        })
    });
    let value = match result {
        Ok(v) => Some(v),
        Err(e) => {
            errors.push(ScriptError::from_lua(&e));
            None
        }
    };
    if !errors.is_empty() {
        let mut first = errors.remove(0);
        first.more = errors.into();
        first.printed = printed().into();
        first.warnings = builder.warnings.clone().into();
        return Err(first);
    }
    let returned_graph = matches!(&value, Some(Value::UserData(u)) if u.is::<GraphHandle>());
    if !builder.finished || !returned_graph {
        // (exact: the file is at most SCRIPT_FILE_LIMIT bytes, so far fewer than 2^32 lines)
        let lines = source.lines().count().max(1) as u32;
        return Err(ScriptError {
            location: Some(super::error::Location {
                file: path.display().to_string(),
                line: lines,
            }),
            message: "the script must end with `return graph { root = ..., ... }`".into(),
            printed: printed().into(),
            ..ScriptError::default()
        });
    }
    let rig = builder
        .rig
        .clone()
        .ok_or_else(|| ScriptError::msg("the script never used a rig (call marionette.rig())"))?;
    let fetch = |key: &mlua::RegistryKey| lua.registry_value::<Function>(key);
    let post = builder
        .post
        .as_ref()
        .map(fetch)
        .transpose()
        .map_err(|e| ScriptError::from_lua(&e))?;
    let mut predicates = Vec::new();
    for key in &builder.predicates {
        predicates.push(fetch(key).map_err(|e| ScriptError::from_lua(&e))?);
    }
    let mut pass_fns = Vec::new();
    for key in &builder.pass_fns {
        pass_fns.push(fetch(key).map_err(|e| ScriptError::from_lua(&e))?);
    }
    let mut files = if on_disk {
        vec![path.canonicalize().map_err(|e| ScriptError::io(path, &e))?]
    } else {
        Vec::new()
    };
    files.extend(env.required.borrow().iter().cloned());
    Ok(LoadedScript {
        lua,
        env,
        spec: builder.spec,
        rig,
        sources: builder.sources.clone(),
        post,
        predicates,
        pass_fns,
        graph_line: builder.graph_line.clone(),
        files,
        limits: opts.limits,
        warnings: builder.warnings.clone(),
    })
}
