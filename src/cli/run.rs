//! `marionette run SCRIPT [--rig FILE] [--take NAME] [--set NAME=VALUE ...] --time SECONDS
//! [--in-place] [--json]`:
//! evaluates a script's graph at the frame nearest a time and prints the pose (the `sample` JSON
//! contract) plus the frame, the accumulated root motion, the active states, transition
//! progress and node weights.
//!
//! The pose is where the character is, as `render` draws it and the baked file plays it: with
//! the script's root motion on, the root joints carry the accumulated motion (the bake's
//! frames, [`ScriptedGraph::pose_with_root_motion`]); `--in-place` prints the graph's pose
//! without it. World matrices come from [`local_to_model_f64`] with the armature as root.

use std::path::{Path, PathBuf};

use anyhow::Context;
use glam::DMat4;
use marionette::anim::local_to_model_f64;
use marionette::anim::Transform;
use marionette::report::JointSample;
use marionette::rigs::UsedModel;
use marionette::script::{load, HostOptions, RigLoader, ScriptedGraph};
use marionette::Model;
use serde::Serialize;

use super::table::render;

/// Arguments of `run`.
#[derive(clap::Args)]
pub struct Args {
    /// The Lua script.
    pub script: PathBuf,
    /// The character (default: assets/mannequin.glb, or the built-in mannequin).
    #[arg(long)]
    pub rig: Option<PathBuf>,
    /// Play this take of the script (default: live parameters at their defaults).
    #[arg(long)]
    pub take: Option<String>,
    /// Time in seconds, at least 0: the frame nearest it is shown (past a take's end, its last
    /// frame).
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::seconds)]
    pub time: f64,
    /// Leave the accumulated root motion out: the character stays where the graph extracted
    /// its motion (by default it stands where the baked file and `render` have it).
    #[arg(long)]
    pub in_place: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Set a live parameter (without --take): NAME=VALUE, e.g. speed=2.5, crouch=true,
    /// look=0,1.6,2, jump=true (fires a trigger at the start). Repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Play the script's takes as written: leave out the takes edited or recorded in the
    /// editor (the sidecar SCRIPT.marionette.json), which are used by default.
    #[arg(long)]
    pub no_sidecar: bool,
}

/// Applies `--set NAME=VALUE` assignments to live parameters (an error with `--take`).
pub fn apply_sets(
    g: &mut ScriptedGraph,
    sets: &[String],
    take: Option<&str>,
) -> anyhow::Result<()> {
    if let (Some(take), Some(first)) = (take, sets.first()) {
        anyhow::bail!(
            "--set {first}: live parameters cannot be set while playing --take {take} (the take keys them)"
        );
    }
    for s in sets {
        let (name, value) =
            marionette::script::set::split_assignment(s).map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Some(w) = g
            .set_text(name, value)
            .map_err(|e| anyhow::anyhow!("{e}"))?
        {
            eprintln!("warning: {w}");
        }
    }
    Ok(())
}

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
    /// The sidecar whose edited takes replace the script's (`null`: none, or `--no-sidecar`).
    pub sidecar: Option<String>,
}

/// Resolves rigs for scripts: `--rig`, else assets/mannequin.glb, else the built-in mannequin;
/// `marionette.rig("file.glb")` is relative to the script's folder.
pub fn rig_loader(script: &Path, rig: Option<&Path>) -> (RigLoader, UsedModel) {
    marionette::rigs::rig_loader(script, super::default_rig(rig).as_deref())
}

fn report(script: &Path, g: &ScriptedGraph, model: Option<&Model>, in_place: bool) -> RunReport {
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
    let mut world = vec![DMat4::ZERO; pose.len()];
    local_to_model_f64(
        sk,
        &pose,
        0..pose.len(),
        &sk.armature().as_dmat4(),
        &mut world,
    );
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
        use marionette::anim::graph::ParamValue as V;
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
        root_motion,
        script: script.display().to_string(),
        params,
        states,
        nodes,
        markers,
        events,
        runtime_error: g.runtime_error().map(|e| e.to_string()),
        sidecar: (!g.edited_takes().is_empty()).then(|| {
            marionette::editor::sidecar::path_for(script)
                .display()
                .to_string()
        }),
    }
}

/// Loads, plays and prints. A runtime error of `post` (or a predicate) is in the report, and
/// the exit status is non-zero.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (loader, used) = rig_loader(&args.script, args.rig.as_deref());
    let fail = |e| super::script_error(&args.script, e);
    let loaded = load(&args.script, &HostOptions::new(loader)).map_err(fail)?;
    for w in &loaded.warnings {
        eprintln!("{w}");
    }
    let mut g = ScriptedGraph::new(loaded).map_err(fail)?;
    super::sidecar::apply(&mut g, &args.script, args.no_sidecar)?;
    g.play(args.take.as_deref())
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.script.display()))?;
    apply_sets(&mut g, &args.set, args.take.as_deref())?;
    match args.take.as_deref().and_then(|t| g.take_data(t)) {
        Some(take) if args.time > f64::from(take.duration) => eprintln!(
            "note: --time {} is past the end of take '{}' ({} s): showing its last frame",
            args.time, take.name, take.duration
        ),
        Some(_) => {}
        None => super::args::live_time(args.time, g.graph().step_rate())?,
    }
    g.seek(args.time);
    // a take: evaluate the frame before, then this one, so `events` are this frame's step's
    // (live parameters are not replayed: a trigger set with --set fires only once)
    let n = g.frame();
    if n > 0 && args.take.is_some() {
        let previous = f64::from(g.frame_time()) * (n - 1) as f64 / n as f64;
        g.seek(previous);
        g.seek(args.time);
    }
    let model = used.borrow().clone();
    let r = report(&args.script, &g, model.as_deref(), args.in_place);
    for line in g.script().log() {
        eprintln!("{}: {line}", args.script.display());
    }
    if args.json {
        super::print_json(&r).context("cannot print the report")?;
    } else {
        super::print(&text(&r))?;
    }
    match g.runtime_error() {
        Some(e) => anyhow::bail!(
            "{}: runtime error (the pose is shown without post): {e}",
            args.script.display()
        ),
        None => Ok(()),
    }
}

fn text(r: &RunReport) -> String {
    let mut out = format!(
        "script: {}  take: {}  frame: {} at {}s (nearest --time {})  joints: {}\n",
        r.script,
        r.clip.as_deref().unwrap_or("(live)"),
        r.frame,
        r.time,
        r.requested_time,
        r.joints.len()
    );
    let m = &r.root_motion;
    let [x, y, z] = m.translation;
    out += &format!(
        "root motion: {}  at ({x:.3}, {y:.3}, {z:.3}) m{}\n",
        m.mode,
        if m.in_place {
            "  (left out: --in-place)"
        } else {
            ""
        }
    );
    for s in &r.states {
        out += &format!(
            "state machine #{}: {} ({:.3}s)",
            s.node, s.current, s.state_time
        );
        if let Some(t) = &s.transition {
            out += &format!(
                "  transition {} -> {} {:.0}%",
                t.from,
                t.to,
                t.progress * 100.0
            );
        }
        out += "\n";
    }
    let rows: Vec<Vec<String>> = r
        .nodes
        .iter()
        .map(|n| {
            vec![
                n.node.to_string(),
                n.name.clone().unwrap_or_default(),
                n.kind.clone(),
                format!("{:.3}", n.weight),
                n.phase.map_or("-".into(), |p| format!("{p:.3}")),
            ]
        })
        .collect();
    out += &render(&["node", "name", "kind", "weight", "phase"], &rows);
    if let Some(e) = &r.runtime_error {
        out += &format!("\nruntime error: {e}");
    }
    out
}
