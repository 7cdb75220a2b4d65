//! `marionette check SCRIPT [--rig FILE]`: loads and validates a script without a window —
//! builds the graph, evaluates one live frame and every frame of every take (running `post`
//! and the Lua predicates, rendering nothing) — and prints `file:line` errors with a non-zero
//! exit; a runtime error names the take and the time (`take 'walk' at 1.5 s: file:line: ...`).
//! Warnings (`file:line: warning: ...`) and what the script printed go to stderr, as under
//! `run`.

use std::path::PathBuf;

use marionette::anim::time::{step_at, step_time};
use marionette::script::{load, HostOptions, ScriptError, ScriptedGraph};

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct Args {
    /// The Lua script.
    pub script: PathBuf,
    /// The character (default: assets/mannequin.glb, or the built-in mannequin).
    #[arg(long)]
    pub rig: Option<PathBuf>,
    /// Play the script's takes as written: leave out the takes edited or recorded in the
    /// editor (the sidecar SCRIPT.marionette.json), which are used by default.
    #[arg(long)]
    pub no_sidecar: bool,
}

/// Validates the script; the error text is `file:line: message` plus a traceback.
pub fn run(args: &Args) -> anyhow::Result<()> {
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
    let mut g = ScriptedGraph::new(loaded).map_err(fail)?;
    super::sidecar::apply(&mut g, &args.script, args.no_sidecar)?;
    let takes: Vec<(String, f32, f32)> = g
        .takes()
        .into_iter()
        .map(|t| (t.name, t.duration, t.fps))
        .collect();
    // a failure while playing: what the script printed, then the error
    if let Err(e) = evaluate(&mut g, &takes) {
        let printed = g.script().log();
        return Err(super::script_error(
            &args.script,
            ScriptError {
                printed: printed.into(),
                ..e
            },
        ));
    }
    // what the script printed, as `run` shows it
    for line in g.script().log() {
        eprintln!("{}: {line}", args.script.display());
    }
    super::print(&format!("{}: ok ({spec_summary})", args.script.display()))
}

/// Evaluates one live frame, then every frame of every take `(name, duration, fps)` in order;
/// the first runtime error names the take and the frame's time.
fn evaluate(g: &mut ScriptedGraph, takes: &[(String, f32, f32)]) -> Result<(), ScriptError> {
    g.seek(1.0 / 60.0);
    if let Some(e) = g.runtime_error() {
        return Err(e);
    }
    for (take, duration, fps) in takes {
        g.play(Some(take))?;
        for n in 0..=step_at(f64::from(*duration), *fps) {
            let t = step_time(n, *fps);
            g.seek(f64::from(t));
            if let Some(e) = g.runtime_error() {
                return Err(ScriptError {
                    message: format!("take '{take}' at {t} s: {}", e.message),
                    ..e
                });
            }
        }
    }
    Ok(())
}

/// `1 take`, `3 takes`.
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
