//! `marionette run SCRIPT [--rig FILE] [--take NAME] [--set NAME=VALUE ...] --time SECONDS
//! [--in-place] [--json]`:
//! evaluates a script's graph at the frame nearest a time and prints the pose (the `sample` JSON
//! contract) plus the frame, the accumulated root motion, the active states, transition
//! progress and node weights.
//! The report itself is [`marionette::report::RunReport`], beside the other reports.

use std::path::{Path, PathBuf};

use anyhow::Context;
use marionette::bake::{bake_take, judge_take, ScriptBake};
use marionette::report::motion::contact_spans;
use marionette::report::{run_report, RunReport};
use marionette::rigs::UsedModel;
use marionette::script::{load, HostOptions, RigLoader, ScriptedGraph};

use super::table::render;

/// Arguments of `run`.
#[derive(clap::Args)]
pub struct Args {
    /// The Lua script.
    pub script: PathBuf,
    #[command(flatten)]
    pub passes: super::args::Passes,
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

/// Resolves rigs for scripts ([`super::rig_choice`]); `marionette.rig("file.glb")` is relative
/// to the script's folder.
pub fn rig_loader(script: &Path, rig: Option<&Path>) -> (RigLoader, UsedModel) {
    marionette::rigs::rig_loader(script, &super::rig_choice(rig))
}

/// Loads, plays and prints. A runtime error of `post` (or a predicate) is in the report, and
/// the exit status is non-zero.
pub fn run(args: &Args) -> anyhow::Result<()> {
    args.passes.apply();
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
    let mut r = run_report(&args.script, &g, model.as_deref(), args.in_place);
    for line in g.script().log() {
        eprintln!("{}: {line}", args.script.display());
    }
    let frame_error = g.runtime_error();
    if let (Some(take), None) = (args.take.as_deref(), &frame_error) {
        add_contacts(&mut g, take, &mut r);
    }
    if args.json {
        super::print_json(&r).context("cannot print the report")?;
    } else {
        super::print(&text(&r))?;
    }
    match frame_error {
        Some(e) => anyhow::bail!(
            "{}: runtime error ({}): {e}",
            args.script.display(),
            g.shown_instead()
        ),
        None => Ok(()),
    }
}

/// The take's foot contacts and the feet planted at the report's frame: the whole take
/// evaluated once more, as `check` measures it (after the frame is reported, so what the
/// script prints and its errors are the frame's; a take that fails to play shows none).
fn add_contacts(g: &mut ScriptedGraph, take: &str, r: &mut RunReport) {
    let Ok(baked) = bake_take(g, take, &ScriptBake::default(), &mut |_, _| {}) else {
        return;
    };
    let Ok(q) = judge_take(g, &baked) else {
        return;
    };
    let skeleton = &g.script().rig.skeleton;
    r.contacts = contact_spans(skeleton, &q);
    let frame = r.frame as usize;
    r.planted = q
        .figures
        .contacts
        .iter()
        .filter(|c| (c.start..=c.end).contains(&frame))
        .map(|c| skeleton.names()[c.joint].clone())
        .collect();
}

/// A time as text output prints it beside its frame number: at most 4 decimals, trailing zeros
/// dropped (`1.0333 s`, `1 s`); JSON keeps the full value.
fn seconds(t: f64) -> String {
    let fixed = format!("{t:.4}");
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    format!("{trimmed} s")
}

fn text(r: &RunReport) -> String {
    let mut out = format!(
        "script: {}  take: {}  frame: {} at {} (nearest --time {})  joints: {}\n",
        r.script,
        r.clip.as_deref().unwrap_or("(live)"),
        r.frame,
        seconds(f64::from(r.time)),
        r.requested_time,
        r.joints.len()
    );
    if r.passes.count > 0 {
        out += &format!(
            "passes: {} ({})\n",
            r.passes.count,
            if r.passes.applied {
                "applied"
            } else {
                "off: the raw graph"
            }
        );
        for note in &r.passes.notes {
            out += &format!("  {note}\n");
        }
    }
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
    if !r.params.is_empty() {
        let values: Vec<String> = r
            .params
            .iter()
            .map(|(name, v)| format!("{name} {}", param_text(v)))
            .collect();
        out += &format!("params: {}\n", values.join(", "));
    }
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
    out += &super::sample::morph_text(&r.morphs);
    if let Some(e) = &r.runtime_error {
        out += &format!("\nruntime error: {e}");
    }
    out
}

/// A parameter's value as the text output prints it: numbers with 3 decimals, vectors as
/// `(x, y, z)`, bools and triggers as they are.
fn param_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Number(n) => n.as_f64().map_or(n.to_string(), |x| format!("{x:.3}")),
        serde_json::Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(param_text).collect();
            format!("({})", parts.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::seconds;

    #[test]
    fn times_print_with_at_most_four_decimals() {
        assert_eq!(seconds(1.0 + 1.0 / 30.0), "1.0333 s");
        assert_eq!(seconds(1.0), "1 s");
        assert_eq!(seconds(3.9), "3.9 s");
        assert_eq!(seconds(0.0), "0 s");
    }
}
