//! The sidecar file next to the script (`locomotion.lua` -> `locomotion.marionette.json`): the
//! editor's own state — take edits and recorded takes, the camera, overlay toggles, panel
//! visibility, the selected take and the playhead. The script itself is never written.
//!
//! The file is input like a script, read by [`load`]:
//! - a file that does not parse is renamed aside (`*.corrupt-<unix secs>.json`) and reported,
//!   never lost;
//! - a file of a newer version than [`VERSION`] is refused and left untouched (the editor
//!   then never writes it); an older one would be upgraded step by step (`load::upgrade`);
//! - each take must follow the rules a script's takes follow ([`Take::check`]): one that does
//!   not (or that does not read as a take) is reported, not loaded, and kept: [`save`] writes
//!   it back as it was ([`KeptTake`]). Whether its parameters exist is checked against the
//!   script when it is played.
//!
//! Written through `marionette_io::files::atomic` (a temporary file flushed, renamed over it).
//!
//! Every command that plays a take (`run`, `check`, `render`, `bake`, `edit`) plays a take of
//! this file instead of the script's take of that name ([`read`] there: nothing is changed on
//! disk; `--no-sidecar` leaves the file out).
//!
//! Format (version 3; version 2 had no `eases` in its tracks, version 1 no `script` in its
//! takes):
//! ```json
//! {"version": 3, "selected_take": "walk_to_run", "time": 1.5,
//!  "camera": {"target": [0, 1, 0], "yaw": 0.6, "pitch": 0.2, "distance": 4, "fov_y": 0.61},
//!  "overlays": {"grid": true, "skeleton": true, "axes": false, "heatmap": false,
//!               "ghosts": false, "follow_root": true, "sources": true},
//!  "panels": {"outliner": true, "inspector": true, "console": true, "graph": false},
//!  "timeline": {"visible": {...}, "lanes": {...}, "selected": null, "name_width": 130, ...},
//!  "takes": [{"name": "walk_to_run", "duration": 4, "fps": 60,
//!             "tracks": [{"param": "speed", "step": false, "keys": [[0, 0.0], [1, 1.4]],
//!                         "eases": ["flat", [0.0, 2.5]]}],
//!             "triggers": [{"param": "jump", "time": 2}],
//!             "script": "5be1c8a0f3e29d17"}]}
//! ```
//! A take is the graph's [`Take`], in this layout of its own ([`StoredTake`]; no markers: they
//! stay the script's). Key values are a number (float), a bool, or `[x, y, z]` (vec3); `eases`
//! (absent when every key follows `step`) gives each key's ease, a name or
//! `[slope_in, slope_out]`. Only
//! takes that differ from the script (or that the script lacks) are stored. `script` is the
//! fingerprint of the script's take the edit started from (`null`: the script had none), so a
//! later change of the script's own take is noticed and shown, never silently overridden
//! ([`ScriptBase`]).

mod load;
mod stored_take;

use std::path::{Path, PathBuf};

use glam::Vec3;
use serde::{Deserialize, Serialize};

#[cfg(doc)]
use marionette_anim::graph::Take;
use marionette_render::OrbitCamera;

use super::viewport::Overlays;

pub use load::{load, read, VERSION};
pub use stored_take::{fingerprint, ScriptBase, StoredTake};

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
    /// Format version ([`VERSION`] once read).
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
    pub takes: Vec<StoredTake>,
    /// Takes of the file that were not loaded (invalid), written back as they were.
    #[serde(skip)]
    pub kept: Vec<KeptTake>,
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
    /// The camera (non-finite values fall back to the default's; pitch, distance and field of
    /// view are kept within what the viewport can show).
    pub fn camera(&self) -> OrbitCamera {
        let d = OrbitCamera::default();
        let f = |v: f32, dv: f32| if v.is_finite() { v } else { dv };
        let target = Vec3::from_array(self.target);
        let right_angle = std::f32::consts::FRAC_PI_2;
        OrbitCamera {
            target: if target.is_finite() { target } else { d.target },
            yaw: f(self.yaw, d.yaw),
            pitch: f(self.pitch, d.pitch).clamp(-0.99 * right_angle, 0.99 * right_angle),
            distance: f(self.distance, d.distance).clamp(1e-3, 1e6),
            fov_y: f(self.fov_y, d.fov_y).clamp(0.02, 1.9 * right_angle),
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
    /// Retarget sources beside the character (absent before it existed: shown).
    #[serde(default = "shown")]
    sources: bool,
    /// Procedural-rigging gizmos (absent before they existed: shown).
    #[serde(default = "shown")]
    rig: bool,
    /// Bones coloured by what drives them (absent before it existed: off).
    #[serde(default)]
    drivers: bool,
    /// The previous script's ghost pinned after a reload (absent before it existed: off).
    #[serde(default)]
    compare: bool,
}

fn shown() -> bool {
    true
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
            sources: o.sources,
            rig: o.rig,
            drivers: o.drivers,
            compare: o.compare,
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
            sources: o.sources,
            rig: o.rig,
            drivers: o.drivers,
            compare: o.compare,
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
    /// The graph view (right of the viewport; absent before it existed: hidden).
    #[serde(default)]
    pub graph: bool,
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            outliner: true,
            inspector: true,
            console: true,
            graph: false,
        }
    }
}

/// A take of the file that is not loaded — it breaks a rule every take follows
/// ([`Take::check`]) or does not read as a take — kept as it was in the file: [`save`] writes it
/// back unchanged (as the same JSON value), so a take the editor cannot use is never lost.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptTake {
    /// Its name (`#N`, its place in the file's list, when it has none).
    pub name: String,
    /// What is wrong, e.g. `speed: time 5 is outside the take (0 to 4 s)`.
    pub problem: String,
    /// The take as it was in the file.
    pub raw: serde_json::Value,
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
    /// The file did not parse and was left where it is ([`read`]).
    #[error("{path}: not a valid sidecar ({message})")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The parse error.
        message: String,
    },
    /// The file is of a newer format than this build reads; it was left as it is.
    #[error(
        "{path}: sidecar version {version} is newer than the supported version {supported} \
         (written by a newer Marionette); the file is left untouched"
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its version.
        version: u64,
        /// The newest version this build reads ([`VERSION`]).
        supported: u64,
    },
}

/// Writes the sidecar atomically (`marionette_io::files::atomic`), with its [`Sidecar::kept`] takes
/// after the others, as they were read.
pub fn save(path: &Path, sidecar: &Sidecar) -> Result<(), SidecarError> {
    let io = |source| SidecarError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut value =
        serde_json::to_value(sidecar).map_err(|e| io(std::io::Error::other(e.to_string())))?;
    if let Some(serde_json::Value::Array(takes)) = value.get_mut("takes") {
        takes.extend(sidecar.kept.iter().map(|k| k.raw.clone()));
    }
    let text = serde_json::to_string_pretty(&value)
        .map_err(|e| io(std::io::Error::other(e.to_string())))?;
    marionette_io::files::write_atomic(path, text.as_bytes()).map_err(io)
}
