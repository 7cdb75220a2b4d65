//! The rigs a script animates: its character (the rig being edited) and the other rigs it
//! takes clips from ([`Rig`]), and where they come from ([`RigSource`]).

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use marionette_anim::{Clip, Skeleton};

/// A skeleton and the clips a script can play on it.
#[derive(Debug, Clone)]
pub struct Rig {
    /// Where the rig came from (a file path, or `mannequin`).
    pub source: String,
    /// The file it was imported from, canonical (`None` for a rig built in memory): what tells
    /// two names of one file apart from two files.
    pub path: Option<PathBuf>,
    /// Joints, parent-first.
    pub skeleton: Arc<Skeleton>,
    /// Clips by name.
    pub clips: Vec<Arc<Clip>>,
    /// What its import fixed or read around (a BVH's unit, a texture left behind): a script
    /// that names the file hears them once, at the `marionette.rig` line.
    pub warnings: Vec<String>,
}

impl Rig {
    /// A rig from a skeleton and clips.
    pub fn new(source: impl Into<String>, skeleton: Skeleton, clips: Vec<Clip>) -> Rig {
        Rig {
            source: source.into(),
            path: None,
            skeleton: Arc::new(skeleton),
            clips: clips.into_iter().map(Arc::new).collect(),
            warnings: Vec::new(),
        }
    }

    /// The rig of an imported or built model.
    pub fn from_model(source: impl Into<String>, model: &marionette_anim::Model) -> Rig {
        let mut rig = Rig::new(source, model.skeleton.clone(), model.clips.clone());
        rig.warnings = model.warnings.clone();
        rig
    }

    /// Index of the clip called `name`.
    pub fn clip_index(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name == name)
    }

    /// Clip names, in rig order.
    pub fn clip_names(&self) -> Vec<&str> {
        self.clips.iter().map(|c| c.name.as_str()).collect()
    }

    /// The file name alone (`RobotExpressive.glb`), for messages.
    pub fn short_name(&self) -> &str {
        std::path::Path::new(&self.source)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.source)
    }
}

/// Where a script's rigs come from. Errors are plain messages; the host adds the script line.
///
/// The **character** is, in order: the rig the command line gives (`--rig`, see
/// [`RigSource::given`]); else the file of the script's first `marionette.rig(file)`; else a
/// default (the bundled mannequin). Any other file the script names is a source rig, whose
/// clips reach the character through `retarget`.
pub trait RigSource {
    /// The file the command line gave as the character (`--rig`), if any: it wins over the
    /// script's own `marionette.rig(file)`.
    fn given(&self) -> Option<String>;

    /// The character when the script names none (or `--rig` was given).
    fn character(&self) -> Result<Rc<Rig>, String>;

    /// A file the script names (relative to its folder); `character` when it becomes the
    /// character; `options` the script's (a BVH's or FBX's unit). Loading one file twice with
    /// the same options gives the same rig.
    fn file(
        &self,
        name: &str,
        character: bool,
        options: &marionette_io::ImportOptions,
    ) -> Result<Rc<Rig>, String>;

    /// A model file next to the script (its name, relative) that has a clip called `clip`:
    /// the hint for a clip the default character lacks. None by default.
    fn nearby_clip(&self, clip: &str) -> Option<String> {
        let _ = clip;
        None
    }
}

/// A shared [`RigSource`].
pub type RigLoader = Rc<dyn RigSource>;

/// A [`RigSource`] from one function: `None` asks for the default character, `Some(name)` for
/// a file (tests and embedders with rigs in memory). No `--rig`.
pub struct FnRigs<F>(pub F);

impl<F: Fn(Option<&str>) -> Result<Rc<Rig>, String>> RigSource for FnRigs<F> {
    fn given(&self) -> Option<String> {
        None
    }

    fn character(&self) -> Result<Rc<Rig>, String> {
        (self.0)(None)
    }

    fn file(
        &self,
        name: &str,
        _character: bool,
        _options: &marionette_io::ImportOptions,
    ) -> Result<Rc<Rig>, String> {
        (self.0)(Some(name))
    }
}

/// A [`RigLoader`] from one function (see [`FnRigs`]).
pub fn rigs_from_fn(f: impl Fn(Option<&str>) -> Result<Rc<Rig>, String> + 'static) -> RigLoader {
    Rc::new(FnRigs(f))
}
