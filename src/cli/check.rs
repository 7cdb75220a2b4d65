//! `marionette check SCRIPT [--rig FILE]`: loads and validates a script without a window —
//! builds the graph, plays one frame of every take (running `post`) — and prints `file:line`
//! errors with a non-zero exit. Warnings (`file:line: warning: ...`) and what the script
//! printed go to stderr, as under `run`.

use std::path::PathBuf;

use marionette::script::{load, HostOptions, ScriptedGraph};

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct Args {
    /// The Lua script.
    pub script: PathBuf,
    /// The character (default: assets/mannequin.glb, or the built-in mannequin).
    #[arg(long)]
    pub rig: Option<PathBuf>,
}

/// Validates the script; the error text is `file:line: message` plus a traceback.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (loader, _) = super::run::rig_loader(&args.script, args.rig.as_deref());
    let fail = |e| super::script_error(&args.script, e);
    let loaded = load(&args.script, &HostOptions::new(loader)).map_err(fail)?;
    let spec_summary = format!(
        "{} nodes, {} parameters, {} takes{}",
        loaded.spec.nodes.len(),
        loaded.spec.params.len(),
        loaded.spec.takes.len(),
        if loaded.has_post() {
            ", post function"
        } else {
            ""
        }
    );
    let takes: Vec<String> = loaded.spec.takes.iter().map(|t| t.name.clone()).collect();
    for w in &loaded.warnings {
        eprintln!("{w}");
    }
    let mut g = ScriptedGraph::new(loaded).map_err(fail)?;
    // a failure while playing: what the script printed, then the error
    let played = |g: &ScriptedGraph, e| {
        super::script_error(
            &args.script,
            marionette::script::ScriptError {
                printed: g.script().log(),
                ..e
            },
        )
    };
    g.seek(1.0 / 60.0);
    if let Some(e) = g.runtime_error() {
        return Err(played(&g, e));
    }
    for take in &takes {
        if let Err(e) = g.play(Some(take)) {
            return Err(played(&g, e));
        }
        g.seek(0.5);
        if let Some(e) = g.runtime_error() {
            return Err(played(&g, e));
        }
    }
    // what the script printed, as `run` shows it
    for line in g.script().log() {
        eprintln!("{}: {line}", args.script.display());
    }
    super::print(&format!("{}: ok ({spec_summary})", args.script.display()))
}
