//! Glue between scripts and the renderer: a running script's graph as a
//! [`PoseSource`](crate::render::PoseSource), so `marionette render SCRIPT.lua` draws the same
//! pose `marionette run` prints (script -> graph -> post -> pose). Lives outside both
//! [`crate::script`] and [`crate::render`] so neither depends on the other.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use glam::Mat4;

use crate::anim::Transform;
use crate::render::PoseSource;
use crate::script::{load, HostOptions, Rig, RigLoader, ScriptError, ScriptedGraph};
use crate::Model;

/// A script loaded for previewing, with the model its rig came from.
pub struct LoadedPreview {
    /// The running script.
    pub graph: ScriptedGraph,
    /// The character the script animates (for drawing).
    pub model: Rc<Model>,
}

/// Loads and compiles `script`. The rig is the file the script names with
/// `marionette.rig("file.glb")` (relative to the script's folder), else `default_rig`, else the
/// built-in mannequin.
pub fn load_preview(
    script: &Path,
    default_rig: Option<&Path>,
) -> Result<LoadedPreview, ScriptError> {
    let (loader, used) = rig_loader(script, default_rig);
    let loaded = load(script, &HostOptions::new(loader))?;
    let graph = ScriptedGraph::new(loaded)?;
    let model = used
        .borrow()
        .clone()
        .ok_or_else(|| ScriptError::msg("the script never used a rig (call marionette.rig())"))?;
    Ok(LoadedPreview { graph, model })
}

/// The model a [`rig_loader`] loaded, once the script has asked for its rig.
pub type UsedModel = Rc<RefCell<Option<Rc<Model>>>>;

/// Resolves rigs for scripts (shared by `run`, `check`, `bake`, `render` and the preview): the
/// file the script names with `marionette.rig("file.glb")`, relative to the script's folder, else
/// `default_rig`, else the built-in mannequin. The returned cell holds the model that was used.
pub fn rig_loader(script: &Path, default_rig: Option<&Path>) -> (RigLoader, UsedModel) {
    let used: UsedModel = Rc::default();
    let used2 = used.clone();
    let default = default_rig.map(Path::to_path_buf);
    let dir = script.parent().map(Path::to_path_buf).unwrap_or_default();
    let loader: RigLoader = Rc::new(move |name: Option<&str>| {
        let path: Option<PathBuf> = match name {
            Some(n) => Some(dir.join(n)),
            None => default.clone(),
        };
        let (model, source) = match path {
            Some(p) => (
                crate::io::import(&p).map_err(|e| e.to_string())?,
                p.display().to_string(),
            ),
            None => (crate::mannequin::build(), "mannequin".to_string()),
        };
        let rig = Rig::from_model(source, &model);
        *used2.borrow_mut() = Some(Rc::new(model));
        Ok(Rc::new(rig))
    });
    (loader, used)
}

/// A script's graph playing a take (or live parameters), posed on demand.
pub struct ScriptPoses {
    graph: ScriptedGraph,
    range: (f32, f32),
}

impl ScriptPoses {
    /// Plays `take` (default: the script's first take) and covers its duration. A script
    /// without takes plays its live parameters over `0..=live_end`; with no takes and no
    /// `live_end` there is no time range and this fails.
    pub fn new(
        mut graph: ScriptedGraph,
        take: Option<&str>,
        live_end: Option<f32>,
    ) -> Result<ScriptPoses, ScriptError> {
        let spec = &graph.script().spec;
        let chosen = match take {
            Some(t) => Some(t.to_string()),
            None => spec.takes.first().map(|t| t.name.clone()),
        };
        let range = match &chosen {
            Some(name) => {
                graph.play(Some(name))?;
                let duration = graph.script().spec.take(name).map_or(0.0, |t| t.duration);
                (0.0, duration)
            }
            None => match live_end {
                Some(end) => {
                    graph.play(None)?;
                    (0.0, end.max(0.0))
                }
                None => {
                    return Err(ScriptError::msg(
                        "the script has no takes: give --time SECONDS to render its live \
                         parameters (a contact sheet then spans 0..SECONDS)",
                    ))
                }
            },
        };
        Ok(ScriptPoses { graph, range })
    }

    /// The take playing, if any.
    pub fn take(&self) -> Option<&str> {
        self.graph.take()
    }

    /// The running script.
    pub fn graph(&self) -> &ScriptedGraph {
        &self.graph
    }
}

impl PoseSource for ScriptPoses {
    fn range(&self) -> (f32, f32) {
        self.range
    }

    /// The graph's pose after `post` at `time`, placed at the accumulated root motion
    /// (identity when the script has no root motion, so the character stays in place).
    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4 {
        let pose = self.graph.seek(f64::from(time.max(0.0)));
        local.clear();
        local.extend_from_slice(pose);
        self.graph.graph().root_motion_world().to_matrix()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locomotion() -> ScriptedGraph {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomotion.lua");
        match load_preview(&path, None) {
            Ok(p) => p.graph,
            Err(e) => panic!("locomotion.lua: {e}"),
        }
    }

    /// A take covers 0..duration (walk_to_run is 4 s); live playback covers 0..live_end.
    #[test]
    fn ranges() {
        let p = ScriptPoses::new(locomotion(), Some("walk_to_run"), None).unwrap();
        assert_eq!(p.range(), (0.0, 4.0));
        assert_eq!(p.take(), Some("walk_to_run"));
        let mut g = locomotion();
        g.play(None).unwrap();
        // `live_end` only matters without takes; with takes the first one plays.
        let p = ScriptPoses::new(g, None, Some(2.0)).unwrap();
        assert_eq!(p.take(), Some("hello"));
        assert_eq!(p.range(), (0.0, 3.0));
    }

    /// The posed frame is `run`'s pose at the same time, and walk_to_run's root motion
    /// carries the character forward (it stands still at t = 0).
    #[test]
    fn pose_matches_run_and_moves() {
        let mut p = ScriptPoses::new(locomotion(), Some("walk_to_run"), None).unwrap();
        let mut local = Vec::new();
        let start = p.pose_at(0.0, &mut local);
        assert_eq!(start, Mat4::IDENTITY);
        let later = p.pose_at(3.0, &mut local);
        let mut reference = locomotion();
        reference.play(Some("walk_to_run")).unwrap();
        assert_eq!(local.as_slice(), reference.seek(3.0));
        assert!(later.w_axis.truncate().length() > 1.0, "{later}");
    }
}
