//! What `marionette run` prints: a script's graph evaluated at one frame. The pose (the
//! `sample` JSON contract's joints), the frame, the accumulated root motion, the active states,
//! transition progress, node weights, markers and events.
//!
//! The pose is where the character is, as `render` draws it and the baked file plays it: with
//! the script's root motion on, the root joints carry the accumulated motion (the bake's
//! frames, [`ScriptedGraph::pose_with_root_motion`]); in place, the graph's pose without it.
//! World matrices are [`world_matrices`], as everywhere.

use std::path::Path;

use serde::Serialize;

use crate::anim::{world_matrices, Transform};
use crate::report::JointSample;
use crate::script::ScriptedGraph;
use crate::Model;

/// A running transition.
#[derive(Serialize)]
pub struct TransitionReport {
    /// State left.
    pub from: String,
    /// State entered.
    pub to: String,
    /// Linear progress 0..1.
    pub progress: f32,
    /// Target weight after the curve.
    pub weight: f32,
    /// Frozen source pose.
    pub frozen: bool,
    /// Inertial: the target plays at full weight, the outgoing pose's offset decays (`weight`
    /// is then the offset's progress).
    pub inertial: bool,
}

/// A state machine's status.
#[derive(Serialize)]
pub struct StateReport {
    /// Node index in the graph.
    pub node: usize,
    /// Current state.
    pub current: String,
    /// Seconds in it.
    pub state_time: f32,
    /// The running transition.
    pub transition: Option<TransitionReport>,
}

/// One node's weight.
#[derive(Serialize)]
pub struct NodeReport {
    /// Node index in the graph.
    pub node: usize,
    /// Name (clip name for players).
    pub name: Option<String>,
    /// Kind.
    pub kind: String,
    /// Effective weight in the output.
    pub weight: f32,
    /// Normalised phase, where defined.
    pub phase: Option<f32>,
}

/// The accumulated root motion: where the character stands in the world, relative to where it
/// stood at the first frame (the identity there).
#[derive(Serialize)]
pub struct RootMotionReport {
    /// The script's `root_motion` mode (`"off"`, `"ground"` or `"whole"`).
    pub mode: &'static str,
    /// World translation.
    pub translation: [f32; 3],
    /// World rotation `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// True when `--in-place` left it out of `joints`.
    pub in_place: bool,
}

/// A take marker.
#[derive(Serialize)]
pub struct MarkerReport {
    /// Marker name.
    pub name: String,
    /// Seconds from the take's start.
    pub time: f32,
}

/// A clip event crossed in the frame shown.
#[derive(Serialize)]
pub struct EventReport {
    /// Event name.
    pub name: String,
    /// A clip event's time in its clip (seconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clip_time: Option<f32>,
    /// A state event's state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// A state event's time in its state (seconds since entered: 0 on enter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_time: Option<f32>,
    /// The player's (or state machine's) effective weight when the event fired.
    pub weight: f32,
}

/// What `run --json` prints.
#[derive(Serialize)]
pub struct RunReport {
    /// The take played (`sample`'s `clip` field), or null for live parameters.
    pub clip: Option<String>,
    /// The frame shown: the fixed step nearest `requested_time`.
    pub frame: u64,
    /// The exact time of `frame` in seconds (`frame / fps`).
    pub time: f32,
    /// The `--time` asked for.
    pub requested_time: f64,
    /// Joints, parent-first, with the root motion on the root joints unless `--in-place`.
    pub joints: Vec<JointSample>,
    /// The morph weights of each mesh with morph targets, `post` applied (absent when the rig
    /// has none), as `sample --json` prints them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub morphs: Vec<super::sample::MorphSample>,
    /// The accumulated root motion (identity when the script extracts none).
    pub root_motion: RootMotionReport,
    /// The script.
    pub script: String,
    /// Parameter values at this time.
    pub params: serde_json::Map<String, serde_json::Value>,
    /// State machines.
    pub states: Vec<StateReport>,
    /// Nodes that took part in the last step.
    pub nodes: Vec<NodeReport>,
    /// The take's markers (empty for live parameters).
    pub markers: Vec<MarkerReport>,
    /// Clip events crossed and state events fired in the step that reached this frame (with
    /// live parameters: since time 0).
    pub events: Vec<EventReport>,
    /// Error raised by `post` or a predicate, if any (the pose is still printed).
    pub runtime_error: Option<String>,
    /// The take's foot contacts by foot, in seconds (empty without a take; see
    /// [`super::motion::contact_spans`]).
    pub contacts: std::collections::BTreeMap<String, Vec<super::motion::Span>>,
    /// The feet planted at the frame shown.
    pub planted: Vec<String>,
    /// The sidecar whose edited takes replace the script's (`null`: none, or `--no-sidecar`).
    pub sidecar: Option<String>,
    /// The take's bake passes: whether the frame shown is after them, and what they said.
    pub passes: super::passes::PassesReport,
}

pub fn run_report(
    script: &Path,
    g: &ScriptedGraph,
    model: Option<&Model>,
    in_place: bool,
) -> RunReport {
    let rig = &g.script().rig;
    let sk = &rig.skeleton;
    let mut pose = vec![Transform::IDENTITY; g.pose().len()];
    if in_place {
        pose.copy_from_slice(g.pose());
    } else {
        g.pose_with_root_motion(&mut pose);
    }
    let node = |j: usize| {
        model
            .and_then(|m| m.joint_nodes.get(j).copied())
            .unwrap_or(j)
    };
    let mut world = Vec::new();
    world_matrices(sk, &pose, &mut world);
    let motion = g.graph().root_motion_world();
    let root_motion = RootMotionReport {
        mode: g.graph().root_motion_mode().name(),
        translation: motion.translation.to_array(),
        rotation: motion.rotation.to_array(),
        in_place,
    };
    let joints = pose
        .iter()
        .enumerate()
        .map(|(j, t)| JointSample {
            name: sk.names()[j].clone(),
            node: node(j),
            parent: sk.parents()[j].map(|p| node(p as usize)),
            translation: t.translation.to_array(),
            rotation: t.rotation.to_array(),
            scale: t.scale.to_array(),
            world: world[j].to_cols_array(),
        })
        .collect();
    let graph = g.graph();
    let mut params = serde_json::Map::new();
    let p = graph.params();
    for (def, v) in p.defs().iter().zip(p.values()) {
        use crate::anim::graph::ParamValue as V;
        let value = match v {
            V::Float(x) => serde_json::json!(x),
            V::Bool(b) | V::Trigger(b) => serde_json::json!(b),
            V::Vec3(v) => serde_json::json!([v.x, v.y, v.z]),
        };
        params.insert(def.name.clone(), value);
    }
    let states = graph
        .state_machines()
        .map(|s| StateReport {
            node: s.node.index(),
            current: s.current.to_string(),
            state_time: s.state_time,
            transition: s.transition.map(|t| TransitionReport {
                from: t.from.to_string(),
                to: t.to.to_string(),
                progress: t.progress,
                weight: t.weight,
                frozen: t.frozen,
                inertial: t.inertial,
            }),
        })
        .collect();
    let nodes = graph
        .nodes()
        .filter(|n| n.weight > 0.0)
        .map(|n| NodeReport {
            node: n.id.index(),
            name: n.name.map(str::to_string),
            kind: n.kind.to_string(),
            weight: n.weight,
            phase: n.phase,
        })
        .collect();
    let markers = g
        .take()
        .and_then(|t| g.script().spec.take(t))
        .map(|t| {
            t.markers
                .iter()
                .map(|(time, name)| MarkerReport {
                    name: name.clone(),
                    time: *time,
                })
                .collect()
        })
        .unwrap_or_default();
    let events = graph
        .events()
        .map(|e| EventReport {
            name: e.name.to_string(),
            clip_time: e.state.is_none().then_some(e.time),
            state: e.state.map(str::to_string),
            state_time: e.state.map(|_| e.time),
            weight: e.weight,
        })
        .collect();
    RunReport {
        clip: g.take().map(str::to_string),
        frame: g.frame(),
        time: g.frame_time(),
        requested_time: g.time(),
        joints,
        morphs: super::sample::morph_samples(sk.morphs(), g.morphs()),
        root_motion,
        script: script.display().to_string(),
        params,
        states,
        nodes,
        markers,
        events,
        runtime_error: g.runtime_error().map(|e| e.to_string()),
        contacts: Default::default(),
        planted: Vec::new(),
        passes: super::passes::PassesReport::of(g),
        sidecar: (!g.edited_takes().is_empty())
            .then(|| crate::editor::sidecar_path(script).display().to_string()),
    }
}
