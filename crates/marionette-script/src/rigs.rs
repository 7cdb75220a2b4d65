//! Where a script's rigs come from ([`FileRigs`], the [`RigSource`] of every caller that runs
//! scripts: `run`, `check`, `bake`, `render`, the preview and the editor, so they all animate
//! the same character): the rig the command line gives (`--rig`), the files the script names
//! with `marionette.rig("file.glb")` (relative to the script's folder, inside the project
//! folder: the rule of [`marionette_io::files::confine`]), else a fallback file, else the
//! bundled mannequin. Each file is imported once (a loader reused for many scripts shares them). Lives at the edge with [`marionette_io`] so
//! [`crate`] itself never reads files of this kind.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::{Rig, RigLoader, RigSource};
use marionette_anim::Model;
use marionette_io::files::confine::{Scope, ScopeKind};
use marionette_io::ImportOptions;

/// The model of the character, once the script has asked for it.
pub type UsedModel = Rc<RefCell<Option<Rc<Model>>>>;

/// A rig and the model it came from.
type Loaded = (Rc<Rig>, Rc<Model>);

/// Rigs from files (see the [module docs](self)).
pub struct FileRigs {
    dir: PathBuf,
    project: PathBuf,
    /// `--rig`: the character whatever the script says.
    given: Option<PathBuf>,
    /// The character when neither `--rig` nor the script names one (before the mannequin).
    fallback: Option<PathBuf>,
    used: UsedModel,
    /// Imported files by canonical path and the unit they were read in.
    cache: RefCell<HashMap<(PathBuf, Option<marionette_io::Unit>), Loaded>>,
    /// The built-in mannequin, once built.
    mannequin: RefCell<Option<Loaded>>,
}

/// The model of a rig file, or the built-in mannequin for the name `mannequin` when no such
/// file exists (so either rig of a retarget may be the default character).
pub fn import_rig(path: &Path) -> Result<Model, marionette_io::GltfError> {
    if is_builtin(path) {
        return Ok(marionette_anim::mannequin::build());
    }
    marionette_io::import(path)
}

/// True for the name `mannequin` (alone, or as a file name) when no such file exists.
pub fn is_builtin(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "mannequin") && !path.exists()
}

impl FileRigs {
    fn import(&self, path: &Path, options: &ImportOptions) -> Result<Loaded, String> {
        let options = options.or_command_line();
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let cache_key = (key.clone(), options.unit);
        if let Some(hit) = self.cache.borrow().get(&cache_key) {
            return Ok(hit.clone());
        }
        if is_builtin(path) {
            let model = marionette_anim::mannequin::build();
            let rig = Rig::from_model("mannequin", &model);
            let hit = (Rc::new(rig), Rc::new(model));
            self.cache.borrow_mut().insert(cache_key, hit.clone());
            return Ok(hit);
        }
        let model = marionette_io::import_with(path, &options).map_err(|e| e.to_string())?;
        let mut rig = Rig::from_model(path.display().to_string(), &model);
        rig.path = Some(key);
        let hit = (Rc::new(rig), Rc::new(model));
        self.cache.borrow_mut().insert(cache_key, hit.clone());
        Ok(hit)
    }

    fn keep(&self, hit: Loaded) -> Rc<Rig> {
        *self.used.borrow_mut() = Some(hit.1);
        hit.0
    }
}

impl RigSource for FileRigs {
    fn given(&self) -> Option<String> {
        self.given.as_ref().map(|p| p.display().to_string())
    }

    fn character(&self) -> Result<Rc<Rig>, String> {
        match self.given.as_ref().or(self.fallback.as_ref()) {
            Some(p) => {
                let hit = self.import(p, &ImportOptions::command_line())?;
                Ok(self.keep(hit))
            }
            None => {
                let hit = self
                    .mannequin
                    .borrow_mut()
                    .get_or_insert_with(|| {
                        let model = marionette_anim::mannequin::build();
                        let rig = Rc::new(Rig::from_model("mannequin", &model));
                        (rig, Rc::new(model))
                    })
                    .clone();
                Ok(self.keep(hit))
            }
        }
    }

    fn file(
        &self,
        name: &str,
        character: bool,
        options: &ImportOptions,
    ) -> Result<Rc<Rig>, String> {
        let path = self.dir.join(name);
        if is_builtin(&path) {
            let hit = self.import(&path, options)?;
            return Ok(if character { self.keep(hit) } else { hit.0 });
        }
        if !path.exists() {
            // a typo: the model files beside the script, the closest first
            let files = self.model_files();
            let names: Vec<&str> = files
                .iter()
                .filter_map(|p| p.file_name().and_then(|n| n.to_str()))
                .collect();
            let hint = crate::spec::did_you_mean(name, names.iter().copied());
            let has = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            };
            return Err(format!(
                "no rig file '{name}' beside the script{hint} (model files there: {has}; `mannequin` names the built-in one)"
            ));
        }
        // the rule of marionette_io::files::confine: a rig the script names lies inside the project
        let scope = Scope::new(ScopeKind::Project, &self.project).map_err(|e| e.to_string())?;
        scope.check(&path, name).map_err(|e| e.to_string())?;
        let hit = self.import(&path, options)?;
        Ok(if character { self.keep(hit) } else { hit.0 })
    }

    fn nearby_clip(&self, clip: &str) -> Option<String> {
        // (a hint on an error path: a handful of files, each imported once)
        self.model_files().into_iter().take(8).find_map(|p| {
            let (rig, _) = self.import(&p, &ImportOptions::command_line()).ok()?;
            rig.clip_index(clip)?;
            p.file_name()?.to_str().map(str::to_string)
        })
    }
}

/// Which file a caller makes a script's character.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RigChoice {
    /// The command line's `--rig`: the character whatever the script says.
    pub given: Option<PathBuf>,
    /// The character when neither `given` nor the script names one (else the bundled
    /// mannequin).
    pub fallback: Option<PathBuf>,
}

impl RigChoice {
    /// `--rig` (`None`: the script's, else the mannequin).
    pub fn given(rig: Option<&Path>) -> RigChoice {
        RigChoice {
            given: rig.map(Path::to_path_buf),
            fallback: None,
        }
    }

    /// No `--rig`; `path` when the script names none (a caller's default character).
    pub fn fallback(path: impl Into<PathBuf>) -> RigChoice {
        RigChoice {
            given: None,
            fallback: Some(path.into()),
        }
    }

    /// The files this choice names.
    pub fn files(&self) -> impl Iterator<Item = &PathBuf> {
        self.given.iter().chain(&self.fallback)
    }
}

impl FileRigs {
    /// The `.glb` and `.gltf` files beside the script, sorted.
    fn model_files(&self) -> Vec<PathBuf> {
        let dir = if self.dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            self.dir.as_path()
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|r| {
                r.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
                        p.is_file()
                            && (ext.eq_ignore_ascii_case("glb") || ext.eq_ignore_ascii_case("gltf"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    }
}

/// The files a script's folder offers as its character, in the order they are tried:
/// `mannequin.glb` beside the script, then `assets/mannequin.glb` there.
pub fn beside(script: &Path) -> [PathBuf; 2] {
    let dir = script.parent().unwrap_or(Path::new(""));
    [
        dir.join("mannequin.glb"),
        dir.join("assets").join("mannequin.glb"),
    ]
}

/// The character when neither `--rig` nor the script names one: a mannequin beside the script
/// ([`beside`]), else the caller's fallback (the command line's: `assets/mannequin.glb` in the
/// working folder), else none (the built-in mannequin).
pub fn fallback_of(script: &Path, choice: &RigChoice) -> Option<PathBuf> {
    if choice.given.is_some() {
        return None;
    }
    beside(script)
        .into_iter()
        .find(|p| p.is_file())
        .or_else(|| choice.fallback.clone())
}

/// Which character a script loaded with `choice` got, and why, for people: `(what, why)`, e.g.
/// `("mannequin.glb", "beside the script; the script names no rig file")`. The order:
/// `--rig`, the script's own `marionette.rig(file)`, a mannequin beside the script, the working
/// folder's `assets/mannequin.glb`, the built-in mannequin (the why says where it looked).
pub fn character_origin(script: &Path, choice: &RigChoice, rig: &Rig) -> (String, String) {
    // (a path under the working folder is shown relative to it)
    let shown = |p: &Path| {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| p.strip_prefix(cwd).ok().map(Path::to_path_buf))
            .unwrap_or_else(|| p.to_path_buf())
            .display()
            .to_string()
    };
    let same = |p: &Path| {
        let canon = |q: &Path| q.canonicalize().unwrap_or_else(|_| q.to_path_buf());
        rig.path.as_deref().is_some_and(|r| canon(r) == canon(p))
    };
    if let Some(g) = &choice.given {
        return (shown(g), "--rig".into());
    }
    let fallback = fallback_of(script, choice);
    match (&rig.path, &fallback) {
        (Some(_), Some(f)) if same(f) => {
            let why = if beside(script).iter().any(|b| b == f) {
                "beside the script; the script names no rig file"
            } else {
                "in the working folder; the script names no rig file and has no mannequin.glb beside it"
            };
            (shown(f), why.into())
        }
        (Some(_), _) => (
            rig.source.clone(),
            "the script's marionette.rig(file)".into(),
        ),
        (None, _) => {
            let [a, b] = beside(script);
            (
                "the built-in mannequin".into(),
                format!(
                    "no --rig, no marionette.rig(file), no {} or {} beside the script, no assets/mannequin.glb in the working folder",
                    a.display(),
                    b.display()
                ),
            )
        }
    }
}

/// The rigs of `script` (see [`RigChoice`]; the character when nothing names one:
/// [`fallback_of`]). The returned cell holds the character's model once it is loaded.
pub fn rig_loader(script: &Path, choice: &RigChoice) -> (RigLoader, UsedModel) {
    let fallback = fallback_of(script, choice);
    let (given, fallback) = (choice.given.as_deref(), fallback.as_deref());
    let used: UsedModel = Rc::default();
    let rigs = FileRigs {
        dir: script.parent().map(Path::to_path_buf).unwrap_or_default(),
        project: marionette_io::files::confine::project_folder(script),
        given: given.map(Path::to_path_buf),
        fallback: fallback.map(Path::to_path_buf),
        used: used.clone(),
        cache: RefCell::default(),
        mannequin: RefCell::default(),
    };
    (Rc::new(rigs), used)
}
