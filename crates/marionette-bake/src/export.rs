//! Reduced takes into a glTF [`Document`]: the source rig (everything kept) or a skeleton-only
//! document, with one animation per take written by the codec ([`marionette_io::append_animations`]).
//!
//! # The `extras` of a baked animation
//!
//! Every animation Marionette bakes carries, in `animations[i].extras.marionette`:
//!
//! ```json
//! {
//!   "take": "walk_to_run",          // the take (or clip) name, also the animation name
//!   "fps": 30.0,                    // the frame rate, or null: a clip's own irregular key times
//!   "frames": 121,                  // frames baked: 0 ..= frames - 1
//!   "duration": 4.0,                // time of the last frame (a clip's exact end)
//!   "time_base": "source",          // only for a clip baked at its own key times, with:
//!   "tolerance_mm": 0.1,            //   the budget it was reduced under
//!   "shell_mm": null,               //   --shell-mm, or null: each joint's farthest vertex
//!   "curves": "linear",             // the key profile: "linear" or "cubic"
//!   "quantize": true,               // rotations keyed as 16-bit integers where the budget
//!                                   //   allowed (absent: every key a float, --quantize off)
//!   "morph_tolerance": 0.001,       // only when it writes weights channels: their tolerance
//!   "markers": [ { "name": "contact_l", "time": 0.5 } ],
//!   "events":  [ { "name": "jump", "time": 2.0, "value": 1 } ]
//! }
//! ```
//!
//! Without `time_base` (a script take, a clip baked at `--fps`, every file written before the
//! field existed) frame `k` is at `k / fps`, the last at `duration`, which is
//! `(frames - 1) / fps` unless a resampled clip ends between frames. With `"source"` the
//! frames are the source clip's own key times (within float noise of `k / fps` when `fps` is
//! a number; `fps` is `null` when they are on no usual rate). Times are seconds from the start of the animation; `value` is present only when the event
//! carries one. `markers` and `events` are always present (possibly empty) and in time order.

use std::path::Path;

use serde_json::{json, Value};

use super::ReducedTake;
use marionette_anim::{Model, Skeleton};
use marionette_io::export::Animation;
use marionette_io::{
    append_animations, converted_document, skeleton_document, Document, GltfError,
};

/// Where baked animations go.
#[derive(Clone, Copy, Debug)]
pub enum Target<'a> {
    /// Into a copy of the source rig (everything kept), targeting `joint_nodes[joint]` and, for
    /// the weights of morph set `s`, the nodes `morph_nodes[s]`.
    Rig {
        /// The source `.glb` / `.gltf`.
        source: &'a Path,
        /// glTF node of each skeleton joint (`Model::joint_nodes`).
        joint_nodes: &'a [usize],
        /// glTF nodes of each morph set (its [`marionette_anim::MorphSet::node`]).
        morph_nodes: &'a [Vec<usize>],
    },
    /// Into a glTF made from a model read from another format (BVH, FBX): everything
    /// Marionette read from it is kept (skeleton, skins, meshes, morph targets, images), its
    /// own clips replaced by the takes.
    Converted {
        /// The model as imported.
        model: &'a Model,
    },
    /// Into a file holding the skeleton's nodes and the animations alone (no mesh: morph
    /// weights are not written, and the bake says so).
    AnimationOnly {
        /// The skeleton the takes were baked on.
        skeleton: &'a Skeleton,
    },
}

impl ReducedTake {
    /// The `extras` of the take's animation (see the module docs).
    pub fn extras(&self) -> Value {
        let mut extras = json!({"marionette": {
            "take": self.name,
            "fps": self.grid.rate,
            "frames": self.report.frames,
            "duration": self.grid.end(),
            "curves": self.curves.name(),
            "markers": self.meta.markers,
            "events": self.meta.events,
        }});
        if self.quantized {
            extras["marionette"]["quantize"] = json!(true);
        }
        if !self.morphs.is_empty() {
            extras["marionette"]["morph_tolerance"] = json!(self.report.morphs.tolerance);
        }
        if self.source_times {
            let m = &mut extras["marionette"];
            m["time_base"] = json!("source");
            m["tolerance_mm"] = json!(self.tolerance * 1e3);
            m["shell_mm"] = json!(self.report.shells.fixed_mm());
        }
        extras
    }
}

/// Builds the output document for `takes`.
pub fn export_document(takes: &[ReducedTake], target: Target<'_>) -> Result<Document, GltfError> {
    let (mut doc, nodes, morph_nodes) = match target {
        Target::Rig {
            source,
            joint_nodes,
            morph_nodes,
        } => (
            Document::read(source)?,
            joint_nodes.to_vec(),
            morph_nodes.to_vec(),
        ),
        Target::Converted { model } => converted_document(model)?,
        Target::AnimationOnly { skeleton } => {
            let (doc, nodes) = skeleton_document(skeleton)?;
            (doc, nodes, Vec::new())
        }
    };
    let clips: Vec<_> = takes
        .iter()
        .map(|t| {
            let mut clip = t.to_clip();
            if matches!(target, Target::AnimationOnly { .. }) {
                clip.morphs.clear();
            }
            clip
        })
        .collect();
    let animations: Vec<Animation<'_>> = takes
        .iter()
        .zip(&clips)
        .map(|(take, clip)| Animation {
            clip,
            rate: take.grid.rate,
            extras: take.extras(),
            snorm_rotations: take.quantized,
        })
        .collect();
    append_animations(&mut doc, &animations, &nodes, &morph_nodes)?;
    Ok(doc)
}
