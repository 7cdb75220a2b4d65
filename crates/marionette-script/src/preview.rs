//! Glue between scripts and the renderer: a running script's graph as a
//! [`PoseSource`](marionette_anim::PoseSource), so `marionette render SCRIPT.lua` draws the same
//! pose `marionette run` prints (script -> graph -> post -> pose). The trait lives in the anim
//! crate, so this glue needs neither crate to depend on the other: the renderer draws any
//! `PoseSource` and knows nothing of Lua.

use std::path::Path;
use std::rc::Rc;

use glam::Mat4;

use crate::rigs::{rig_loader, RigChoice};
use crate::{load, HostOptions, ScriptError, ScriptedGraph};
use marionette_anim::Model;
use marionette_anim::PoseSource;
use marionette_anim::Transform;

/// A script loaded for previewing, with the model its rig came from.
pub struct LoadedPreview {
    /// The running script.
    pub graph: ScriptedGraph,
    /// The character the script animates (for drawing).
    pub model: Rc<Model>,
}

/// Loads and compiles `script`. The character is `--rig` (`rig.given`), else the file the script
/// names with `marionette.rig("file.glb")` (relative to the script's folder), else
/// `rig.fallback`, else the built-in mannequin.
pub fn load_preview(script: &Path, rig: &RigChoice) -> Result<LoadedPreview, ScriptError> {
    let (loader, used) = rig_loader(script, rig);
    let loaded = load(script, &HostOptions::new(loader))?;
    let graph = ScriptedGraph::new(loaded)?;
    let model = used
        .borrow()
        .clone()
        .ok_or_else(|| ScriptError::msg("the script never used a rig (call marionette.rig())"))?;
    Ok(LoadedPreview { graph, model })
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
        let chosen = match take {
            Some(t) => Some(t.to_string()),
            None => graph.take_names().into_iter().next(),
        };
        let range = match &chosen {
            Some(name) => {
                graph.play(Some(name))?;
                let duration = graph.take_data(name).map_or(0.0, |t| t.duration);
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

    /// Plays live parameters over `0..=end` (never a take), with `set` applied to the
    /// parameters first (how `render --set speed=2.5` poses a script).
    pub fn live(
        mut graph: ScriptedGraph,
        end: f32,
        set: impl FnOnce(&mut ScriptedGraph) -> Result<(), ScriptError>,
    ) -> Result<ScriptPoses, ScriptError> {
        graph.play(None)?;
        set(&mut graph)?;
        Ok(ScriptPoses {
            graph,
            range: (0.0, end.max(0.0)),
        })
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

    /// The graph's pose after `post` at `time`, placed at the accumulated root motion in world
    /// space (identity when the script has no root motion, so the character stays in place):
    /// placement · armature · model(pose) is where `run` reports the joints and the bake has
    /// them.
    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4 {
        let pose = self.graph.seek(f64::from(time.max(0.0)));
        local.clear();
        local.extend_from_slice(pose);
        self.graph.graph().root_motion_world().to_matrix()
    }

    /// The morph weights of the last [`PoseSource::pose_at`] (after `post`).
    fn morphs(&self) -> &[f32] {
        self.graph.morphs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locomotion() -> ScriptedGraph {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/locomotion.lua");
        match load_preview(&path, &RigChoice::default()) {
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

    /// `render` places the character where `run` reports it and the bake writes it: placement ·
    /// armature · model(in-place pose) equals the f64 world of the pose with root motion on its
    /// roots, within 1e-4 m at every joint.
    #[test]
    fn placement_matches_run_world() {
        use marionette_anim::{local_to_model_f64, local_to_model_with_root};
        let mut p = ScriptPoses::new(locomotion(), Some("walk_to_run"), None).unwrap();
        let sk = p.graph().script().rig.skeleton.clone();
        let n = sk.len();
        let mut local = Vec::new();
        for t in [0.5, 2.0, 3.9] {
            let placement = p.pose_at(t, &mut local);
            let mut drawn = vec![Mat4::ZERO; n];
            let root = placement * sk.armature();
            local_to_model_with_root(&sk, &local, 0..n, &root, &mut drawn);
            let mut placed = vec![Transform::IDENTITY; n];
            p.graph().pose_with_root_motion(&mut placed);
            let mut world = vec![glam::DMat4::ZERO; n];
            local_to_model_f64(&sk, &placed, 0..n, &sk.armature().as_dmat4(), &mut world);
            for (j, (d, w)) in drawn.iter().zip(&world).enumerate() {
                let (d, w) = (d.w_axis.truncate(), w.w_axis.truncate().as_vec3());
                assert!(d.distance(w) < 1e-4, "{t} s, joint {j}: {d} vs {w}");
            }
            if t > 3.0 {
                assert!(world[0].w_axis.z > 4.0, "{}", world[0].w_axis);
            }
        }
    }
}
