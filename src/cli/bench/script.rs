//! `marionette bench crowd [RIG] --script S [--count N] [--frames F] [--warmup W] [--json]`: a
//! crowd of characters each running its own instance of a script's whole graph
//! ([`ScriptCrowd`]: its own Lua state, graph, parameters and `post`), timed per stage —
//! evaluate (advance, evaluate, `post`), local-to-model, palette — in ms per frame and ns per
//! joint, median and minimum.

use std::path::Path;
use std::time::Instant;

use marionette::script::crowd::{ScriptCrowd, ScriptStageTimes};
use marionette::script::{load, HostOptions};
use serde::Serialize;

use super::args::CrowdArgs;
use super::figure::{figure, Figure};
use crate::cli::table::render;

/// The `bench crowd --script` report.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ScriptCrowdReport {
    /// The script as given.
    pub script: String,
    /// The rig it animates (a path, or "mannequin").
    pub rig: String,
    /// Joints per character.
    pub joints: usize,
    /// Characters.
    pub count: usize,
    /// Timed frames.
    pub frames: usize,
    /// Warm-up frames.
    pub warmup: usize,
    /// Bytes of one character's Lua state (the mean over the crowd), after the warm-up.
    pub lua_bytes_per_character: usize,
    /// Milliseconds to load the script and build one character's graph (the mean).
    pub load_ms_per_character: f64,
    /// Advancing and evaluating every graph, `post` included.
    pub evaluate: Figure,
    /// Local-to-model.
    pub local_to_model: Figure,
    /// Skin palette (zero without a skin).
    pub palette: Figure,
    /// The whole frame.
    pub total: Figure,
}

/// Measures the scripted crowd and returns the report (no printing).
pub fn measure(args: &CrowdArgs, script: &Path) -> anyhow::Result<ScriptCrowdReport> {
    if args.threads > 1 {
        anyhow::bail!(
            "--script runs on one thread (each character's Lua state stays on the thread that \
             made it): leave out --threads"
        );
    }
    if !args.clips.is_empty() {
        anyhow::bail!("--clips does not apply with --script (the script chooses its clips)");
    }
    let (loader, used) = crate::cli::run::rig_loader(script, args.rig.as_deref());
    let opts = HostOptions::new(loader);
    let start = Instant::now();
    let mut crowd = ScriptCrowd::new(args.count, || load(script, &opts))
        .map_err(|e| crate::cli::script_error(script, e))?;
    let load_s = start.elapsed().as_secs_f64();
    let model = used.borrow().clone();
    let skin = model.as_ref().and_then(|m| m.skins.first().cloned());
    crowd.set_skin(skin);
    let rig = crowd
        .graph(0)
        .map_or("mannequin".into(), |g| g.script().rig.source.clone());
    let dt = 1.0 / 60.0;
    let mut times: Vec<ScriptStageTimes> = Vec::with_capacity(args.frames);
    for f in 0..args.warmup + args.frames {
        let t = crowd.frame(dt);
        if f >= args.warmup {
            times.push(t);
        }
    }
    if let Some((i, e)) = crowd.runtime_error() {
        anyhow::bail!("{}: runtime error in character {i}: {e}", script.display());
    }
    let joints = crowd.joints();
    let per = (args.count * joints).max(1) as f64;
    let col = |f: fn(&ScriptStageTimes) -> f64| figure(times.iter().map(f).collect(), per);
    let n = args.count.max(1);
    Ok(ScriptCrowdReport {
        script: script.display().to_string(),
        rig,
        joints,
        count: args.count,
        frames: args.frames,
        warmup: args.warmup,
        lua_bytes_per_character: crowd.lua_memory() / n,
        load_ms_per_character: load_s * 1e3 / n as f64,
        evaluate: col(|s| s.evaluate),
        local_to_model: col(|s| s.local_to_model),
        palette: col(|s| s.palette),
        total: col(ScriptStageTimes::total),
    })
}

/// Runs `bench crowd --script` and prints the report.
pub fn crowd(args: &CrowdArgs, script: &Path) -> anyhow::Result<()> {
    let report = measure(args, script)?;
    if args.json {
        return crate::cli::print_json(&report);
    }
    crate::cli::print(&text(&report))
}

/// The human-readable report: one row per stage.
pub fn text(r: &ScriptCrowdReport) -> String {
    let head = format!(
        "crowd: {} x {} on {} ({} joints), {} frames after {} warm-up, one thread",
        r.count, r.script, r.rig, r.joints, r.frames, r.warmup
    );
    let stages = [
        ("evaluate (graph + post)", r.evaluate),
        ("local-to-model", r.local_to_model),
        ("palette", r.palette),
        ("total", r.total),
    ];
    let rows: Vec<Vec<String>> = stages
        .iter()
        .map(|(stage, f)| {
            let [ms, ns] = f.cells();
            vec![(*stage).into(), ms, ns]
        })
        .collect();
    let headers = ["stage", "ms/frame median (min)", "ns/joint median (min)"];
    let tail = format!(
        "one Lua state per character: {:.0} KiB each, {:.2} ms to load each",
        r.lua_bytes_per_character as f64 / 1024.0,
        r.load_ms_per_character
    );
    format!("{head}\n{}\n{tail}", render(&headers, &rows))
}
