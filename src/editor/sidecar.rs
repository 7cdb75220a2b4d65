//! The sidecar file next to the script (`locomotion.lua` -> `locomotion.marionette.json`): the
//! editor's own state — take edits and recorded takes, the camera, overlay toggles, panel
//! visibility, the selected take and the playhead. Written atomically (a temp file renamed
//! over it); a sidecar that does not parse is renamed aside (`*.corrupt-<unix secs>.json`) and
//! reported, never lost. The script itself is never written.
//!
//! Format (version 1):
//! ```json
//! {"version": 1, "selected_take": "walk_to_run", "time": 1.5,
//!  "camera": {"target": [0, 1, 0], "yaw": 0.6, "pitch": 0.2, "distance": 4, "fov_y": 0.61},
//!  "overlays": {"grid": true, "skeleton": true, "axes": false, "heatmap": false,
//!               "ghosts": false, "follow_root": true},
//!  "panels": {"outliner": true, "inspector": true, "console": true},
//!  "timeline": {"visible": {...}, "lanes": {...}, "selected": null, "name_width": 130, ...},
//!  "takes": [{"name": "walk_to_run", "duration": 4, "fps": 60,
//!             "tracks": [{"param": "speed", "step": false, "keys": [[0, 0.0], [1, 1.4]]}],
//!             "triggers": [{"param": "jump", "time": 2}]}]}
//! ```
//! Key values are a number (float), a bool, or `[x, y, z]` (vec3). Only takes that differ from
//! the script (or that the script lacks) are stored.

use std::path::{Path, PathBuf};

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::anim::graph::{KeyInterpolation, ParamTrack, ParamValue, Take, TakeTrigger};
use crate::render::OrbitCamera;

use super::viewport::Overlays;

/// The sidecar path of a script: same folder, `<stem>.marionette.json`.
pub fn path_for(script: &Path) -> PathBuf {
    let stem = script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "script".into());
    script.with_file_name(format!("{stem}.marionette.json"))
}

/// Everything the sidecar holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sidecar {
    /// Format version (1).
    pub version: u32,
    /// The take shown (none: live).
    #[serde(default)]
    pub selected_take: Option<String>,
    /// The playhead.
    #[serde(default)]
    pub time: f64,
    /// The viewport camera.
    #[serde(default)]
    pub camera: Option<CameraState>,
    /// Overlay toggles.
    #[serde(default)]
    pub overlays: Option<OverlayState>,
    /// Which panels are open.
    #[serde(default)]
    pub panels: Panels,
    /// Edited and recorded takes.
    #[serde(default)]
    pub takes: Vec<TakeState>,
    /// Timeline view: zoom, pan, lane heights and folding.
    #[serde(default)]
    pub timeline: Option<super::timeline::TimelineState>,
}

/// A camera.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CameraState {
    target: [f32; 3],
    yaw: f32,
    pitch: f32,
    distance: f32,
    fov_y: f32,
}

impl From<&OrbitCamera> for CameraState {
    fn from(c: &OrbitCamera) -> Self {
        CameraState {
            target: c.target.to_array(),
            yaw: c.yaw,
            pitch: c.pitch,
            distance: c.distance,
            fov_y: c.fov_y,
        }
    }
}

impl CameraState {
    /// The camera (non-finite values fall back to the default's).
    pub fn camera(&self) -> OrbitCamera {
        let d = OrbitCamera::default();
        let f = |v: f32, dv: f32| if v.is_finite() { v } else { dv };
        let target = Vec3::from_array(self.target);
        OrbitCamera {
            target: if target.is_finite() { target } else { d.target },
            yaw: f(self.yaw, d.yaw),
            pitch: f(self.pitch, d.pitch),
            distance: f(self.distance, d.distance).max(1e-3),
            fov_y: f(self.fov_y, d.fov_y),
        }
    }
}

/// Overlay toggles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OverlayState {
    grid: bool,
    skeleton: bool,
    axes: bool,
    heatmap: bool,
    ghosts: bool,
    follow_root: bool,
}

impl From<&Overlays> for OverlayState {
    fn from(o: &Overlays) -> Self {
        OverlayState {
            grid: o.grid,
            skeleton: o.skeleton,
            axes: o.axes,
            heatmap: o.heatmap,
            ghosts: o.ghosts,
            follow_root: o.follow_root,
        }
    }
}

impl From<&OverlayState> for Overlays {
    fn from(o: &OverlayState) -> Self {
        Overlays {
            grid: o.grid,
            skeleton: o.skeleton,
            axes: o.axes,
            heatmap: o.heatmap,
            ghosts: o.ghosts,
            follow_root: o.follow_root,
        }
    }
}

/// Panel visibility.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Panels {
    /// Joint tree (left).
    pub outliner: bool,
    /// Parameters and states (right).
    pub inspector: bool,
    /// Console (bottom).
    pub console: bool,
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            outliner: true,
            inspector: true,
            console: true,
        }
    }
}

/// A take as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TakeState {
    name: String,
    duration: f32,
    fps: f32,
    tracks: Vec<TrackState>,
    triggers: Vec<TriggerState>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TrackState {
    param: String,
    step: bool,
    keys: Vec<(f32, KeyValue)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TriggerState {
    param: String,
    time: f32,
}

/// A key's value: a float, a bool or a vector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum KeyValue {
    Bool(bool),
    Float(f32),
    Vec3([f32; 3]),
}

impl From<&Take> for TakeState {
    fn from(t: &Take) -> Self {
        TakeState {
            name: t.name.clone(),
            duration: t.duration,
            fps: t.fps,
            tracks: t
                .tracks
                .iter()
                .map(|tr| TrackState {
                    param: tr.param.clone(),
                    step: tr.interpolation == KeyInterpolation::Step,
                    keys: tr
                        .keys
                        .iter()
                        .map(|(time, v)| {
                            let v = match v {
                                ParamValue::Float(x) => KeyValue::Float(*x),
                                ParamValue::Bool(b) | ParamValue::Trigger(b) => KeyValue::Bool(*b),
                                ParamValue::Vec3(v) => KeyValue::Vec3(v.to_array()),
                            };
                            (*time, v)
                        })
                        .collect(),
                })
                .collect(),
            triggers: t
                .triggers
                .iter()
                .map(|tr| TriggerState {
                    param: tr.param.clone(),
                    time: tr.time,
                })
                .collect(),
        }
    }
}

impl TakeState {
    /// The take.
    pub fn take(&self) -> Take {
        Take {
            name: self.name.clone(),
            duration: self.duration,
            fps: self.fps,
            tracks: self
                .tracks
                .iter()
                .map(|tr| ParamTrack {
                    param: tr.param.clone(),
                    interpolation: if tr.step {
                        KeyInterpolation::Step
                    } else {
                        KeyInterpolation::Linear
                    },
                    keys: tr
                        .keys
                        .iter()
                        .map(|(t, v)| {
                            let v = match v {
                                KeyValue::Float(x) => ParamValue::Float(*x),
                                KeyValue::Bool(b) => ParamValue::Bool(*b),
                                KeyValue::Vec3(a) => ParamValue::Vec3(Vec3::from_array(*a)),
                            };
                            (*t, v)
                        })
                        .collect(),
                })
                .collect(),
            triggers: self
                .triggers
                .iter()
                .map(|t| TakeTrigger {
                    param: t.param.clone(),
                    time: t.time,
                })
                .collect(),
        }
    }
}

/// Errors reading or writing the sidecar.
#[derive(Debug, thiserror::Error)]
pub enum SidecarError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file did not parse; it was moved to `aside`.
    #[error("{path}: not a valid sidecar ({message}); kept as {aside}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Where it was moved.
        aside: PathBuf,
        /// The parse error.
        message: String,
    },
}

/// Loads the sidecar at `path`: `Ok(None)` when there is none; a corrupt file is renamed aside
/// and reported as [`SidecarError::Corrupt`].
pub fn load(path: &Path) -> Result<Option<Sidecar>, SidecarError> {
    // a regular file only (crate::confine): a FIFO in its place must not block the editor
    let shown = path.display().to_string();
    let text = match crate::confine::read_text(path, &shown, crate::confine::SCRIPT_FILE_LIMIT) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => {
            let source = match e {
                crate::confine::ReadError::Io { error, .. } => error,
                refused => std::io::Error::other(refused.to_string()),
            };
            return Err(SidecarError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    match serde_json::from_str::<Sidecar>(&text) {
        Ok(s) => Ok(Some(s)),
        Err(e) => {
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let stem = path
                .file_name()
                .map(|s| s.to_string_lossy().trim_end_matches(".json").to_string())
                .unwrap_or_default();
            let aside = path.with_file_name(format!("{stem}.corrupt-{secs}.json"));
            std::fs::rename(path, &aside).map_err(|source| SidecarError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            Err(SidecarError::Corrupt {
                path: path.to_path_buf(),
                aside,
                message: e.to_string(),
            })
        }
    }
}

/// Writes the sidecar atomically: a temp file in the same folder, then a rename over `path`.
pub fn save(path: &Path, sidecar: &Sidecar) -> Result<(), SidecarError> {
    let io = |source| SidecarError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(sidecar)
        .map_err(|e| io(std::io::Error::other(e.to_string())))?;
    let tmp = path.with_extension(format!("json.tmp-{}", std::process::id()));
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A take survives the round trip through the sidecar's JSON.
    #[test]
    fn take_round_trip() {
        let take = Take::new("t", 2.0)
            .fps(30.0)
            .floats("speed", &[(0.0, 1.0), (1.0, 2.5)])
            .track(
                "look",
                KeyInterpolation::Step,
                vec![(0.5, ParamValue::Vec3(Vec3::new(1.0, 2.0, 3.0)))],
            )
            .track(
                "on",
                KeyInterpolation::Step,
                vec![(0.0, ParamValue::Bool(true))],
            )
            .trigger("jump", 1.5);
        let s = Sidecar {
            version: 1,
            selected_take: Some("t".into()),
            time: 0.5,
            camera: None,
            overlays: None,
            panels: Panels::default(),
            takes: vec![TakeState::from(&take)],
            timeline: None,
        };
        let text = serde_json::to_string(&s).unwrap();
        let back: Sidecar = serde_json::from_str(&text).unwrap();
        assert_eq!(back.takes[0].take(), take);
    }

    /// Saving then loading gives the same sidecar; a corrupt file is moved aside.
    #[test]
    fn save_load_and_corrupt() {
        let dir = std::env::temp_dir().join(format!("marionette-sidecar-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.marionette.json");
        let s = Sidecar {
            version: 1,
            selected_take: None,
            time: 0.0,
            camera: Some(CameraState::from(&OrbitCamera::default())),
            overlays: None,
            panels: Panels::default(),
            takes: Vec::new(),
            timeline: Some(Default::default()),
        };
        save(&path, &s).unwrap();
        assert_eq!(load(&path).unwrap(), Some(s));
        std::fs::write(&path, "{ not json").unwrap();
        match load(&path) {
            Err(SidecarError::Corrupt { aside, .. }) => {
                assert_eq!(std::fs::read_to_string(&aside).unwrap(), "{ not json");
                assert!(!path.exists());
            }
            other => panic!("expected Corrupt, got {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
