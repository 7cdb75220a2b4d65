//! The character a script animates: its skeleton and clips.

use std::rc::Rc;
use std::sync::Arc;

use marionette_anim::{Clip, Skeleton};

/// A skeleton and the clips a script can play on it.
#[derive(Debug, Clone)]
pub struct Rig {
    /// Where the rig came from (a file path, or `mannequin`).
    pub source: String,
    /// Joints, parent-first.
    pub skeleton: Arc<Skeleton>,
    /// Clips by name.
    pub clips: Vec<Arc<Clip>>,
}

impl Rig {
    /// A rig from a skeleton and clips.
    pub fn new(source: impl Into<String>, skeleton: Skeleton, clips: Vec<Clip>) -> Rig {
        Rig {
            source: source.into(),
            skeleton: Arc::new(skeleton),
            clips: clips.into_iter().map(Arc::new).collect(),
        }
    }

    /// The rig of an imported or built model.
    pub fn from_model(source: impl Into<String>, model: &marionette_anim::Model) -> Rig {
        Rig::new(source, model.skeleton.clone(), model.clips.clone())
    }

    /// Index of the clip called `name`.
    pub fn clip_index(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name == name)
    }

    /// Clip names, in rig order.
    pub fn clip_names(&self) -> Vec<&str> {
        self.clips.iter().map(|c| c.name.as_str()).collect()
    }
}

/// Loads the default rig (`None`) or the rig file a script names (`Some(path)`, relative to the
/// script's folder). Errors are plain messages; the host adds the script line.
pub type RigLoader = Rc<dyn Fn(Option<&str>) -> Result<Rc<Rig>, String>>;
