//! `marionette check SCRIPT [--rig FILE]`: loads and validates a script without a window —
//! builds the graph, evaluates one live frame and every frame of every take (running `post`
//! and the Lua predicates, rendering nothing) — and prints `file:line` errors with a non-zero
//! exit; a runtime error names the take and the time (`take 'walk' at 1.5 s: file:line: ...`).
//! Warnings (`file:line: warning: ...`) and what the script printed go to stderr, as under
//! `run`.
//!
//! Every take's frames are judged ([`marionette::bake::judge_take`]): its `assert_motion` (or the
//! script's) is checked on every frame, each broken one a line on stderr (`take 'walk' at 1.250
//! s (frame 75): L_foot slides 4.1 mm > 2 mm`) and exit 1; `--report FILE` writes every
//! figure measured ([`crate::report::motion`]).

use std::path::PathBuf;

use marionette::bake::{bake_take, judge_take, ScriptBake, TakeQuality};
use marionette::report::motion::{take_report, MotionReport};
use marionette::report::passes::PassesReport;
use marionette::script::{load, HostOptions, ScriptError, ScriptedGraph};

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct Args {
    /// The Lua script.
    pub script: PathBuf,
    #[command(flatten)]
    pub passes: super::args::Passes,
    /// The character (default: assets/mannequin.glb, or the built-in mannequin).
    #[arg(long)]
    pub rig: Option<PathBuf>,
    /// Play the script's takes as written: leave out the takes edited or recorded in the
    /// editor (the sidecar SCRIPT.marionette.json), which are used by default.
    #[arg(long)]
    pub no_sidecar: bool,
    /// Write every figure measured on every take (foot slide, contacts, joint speeds, ...) to
    /// this JSON file, for CI dashboards.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// Validates the script; the error text is `file:line: message` plus a traceback.
pub fn run(args: &Args) -> anyhow::Result<()> {
    args.passes.apply();
    let (loader, _) = super::run::rig_loader(&args.script, args.rig.as_deref());
    let fail = |e| super::script_error(&args.script, e);
    let loaded = load(&args.script, &HostOptions::new(loader)).map_err(fail)?;
    let spec_summary = format!(
        "{}, {}, {}{}",
        counted(loaded.spec.nodes.len(), "node"),
        counted(loaded.spec.params.len(), "parameter"),
        counted(loaded.spec.takes.len(), "take"),
        if loaded.has_post() {
            ", post function"
        } else {
            ""
        }
    );
    for w in &loaded.warnings {
        eprintln!("{w}");
    }
    // which character the script got, and why (a mannequin beside the script beats the
    // working folder's), said with the verdict
    let (who, why) = marionette::rigs::character_origin(
        &args.script,
        &super::rig_choice(args.rig.as_deref()),
        &loaded.rig,
    );
    let mut g = ScriptedGraph::new(loaded).map_err(fail)?;
    super::sidecar::apply(&mut g, &args.script, args.no_sidecar)?;
    let takes: Vec<String> = g.takes().into_iter().map(|t| t.name).collect();
    // a failure while playing: what the script printed, then the error
    let mut passes = Vec::new();
    let judged = match evaluate(&mut g, &takes, &mut passes) {
        Ok(judged) => judged,
        Err(e) => {
            let printed = g.script().log();
            return Err(super::script_error(
                &args.script,
                ScriptError {
                    printed: printed.into(),
                    ..e
                },
            ));
        }
    };
    // what the script printed, as `run` shows it
    for line in g.script().log() {
        eprintln!("{}: {line}", args.script.display());
    }
    // what the takes' bake passes did (a capture's spikes repaired, a loop closed)
    for note in passes.iter().flat_map(|p: &PassesReport| &p.notes) {
        eprintln!("{}: note: {note}", args.script.display());
    }
    let skeleton = g.script().rig.skeleton.clone();
    if let Some(path) = &args.report {
        let report = MotionReport {
            takes: judged
                .iter()
                .zip(passes)
                .map(|(q, p)| (q.take.clone(), take_report(&skeleton, q, p)))
                .collect(),
        };
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, text + "\n")
            .map_err(|e| anyhow::anyhow!("{}: cannot write the report: {e}", path.display()))?;
    }
    let failures: Vec<&String> = judged.iter().flat_map(|q| &q.failures).collect();
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("{}: {f}", args.script.display());
        }
        anyhow::bail!(
            "{}: {} motion assertion{} failed",
            args.script.display(),
            failures.len(),
            if failures.len() == 1 { "" } else { "s" }
        );
    }
    eprintln!("{}: note: character: {who} ({why})", args.script.display());
    super::print(&format!("{}: ok ({spec_summary})", args.script.display()))
}

/// Evaluates one live frame, then every frame of every take in order, each judged against
/// its motion assertions; the first runtime error names the take and the frame's time.
/// `passes` gets each take's bake passes, as they ran.
fn evaluate(
    g: &mut ScriptedGraph,
    takes: &[String],
    passes: &mut Vec<PassesReport>,
) -> Result<Vec<TakeQuality>, ScriptError> {
    g.seek(1.0 / 60.0);
    if let Some(e) = g.runtime_error() {
        return Err(e);
    }
    let mut judged = Vec::new();
    for take in takes {
        let baked = bake_take(g, take, &ScriptBake::default(), &mut |_, _| {})?;
        passes.push(PassesReport::of(g));
        judged.push(judge_take(g, &baked)?);
    }
    Ok(judged)
}

/// `1 take`, `3 takes`.
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
