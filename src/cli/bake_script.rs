//! `marionette bake SCRIPT.lua [--rig FILE] [--take NAME ... | --all] [--fps N]
//! [--tolerance-mm 0.1] [-o OUT.glb|OUT.gltf] [--in-place] [--animation-only] [--force]
//! [--quiet]`: bakes a script's takes.
//!
//! The script is loaded as `marionette run` loads it (same rig resolution: `--rig`, else
//! assets/mannequin.glb, else the built-in mannequin; `marionette.rig("file")` names its own)
//! and each take is evaluated frame by frame by the preview's [`ScriptedGraph`]
//! (`marionette::script::bake`). One animation per take, named after it; every take when none
//! is named. The rate is the take's own fps unless `--fps` is given. The output (default
//! `<script stem>.glb` in the current folder, never replaced without `--force`; inputs are
//! never replaced without it either) is a copy of the rig file with the animations appended,
//! or with `--animation-only` (or a built-in rig with no file) the skeleton alone.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use marionette::io::bake::{
    export_document, reduce, write_document, Format, ReduceOptions, Target,
};
use marionette::script::bake::{bake_take, take_frames, ScriptBake};
use marionette::script::{load, HostOptions, ScriptedGraph};

use super::bake::{report_line, Args, Progress};

/// The takes to bake: those named (in the order given, once each), or all the script's.
fn selected(graph: &ScriptedGraph, args: &Args) -> anyhow::Result<Vec<String>> {
    let all: Vec<String> = graph
        .script()
        .spec
        .takes
        .iter()
        .map(|t| t.name.clone())
        .collect();
    if !args.clips.is_empty() {
        bail!(
            "{}: a script has takes, not clips; name them with --take ({})",
            args.input.display(),
            all.join(", ")
        );
    }
    if args.takes.is_empty() {
        if all.is_empty() {
            bail!(
                "{}: the script defines no takes to bake (add `takes = {{ ... }}` to graph {{ }})",
                args.input.display()
            );
        }
        return Ok(all);
    }
    let mut out: Vec<String> = Vec::new();
    for name in &args.takes {
        if !all.contains(name) {
            bail!(
                "{}: unknown take '{name}' (the script has: {})",
                args.input.display(),
                all.join(", ")
            );
        }
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    Ok(out)
}

/// Default output: `<script stem>.glb` in the current folder.
fn default_output(script: &Path) -> PathBuf {
    let stem = script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bake".into());
    PathBuf::from(format!("{stem}.glb"))
}

/// Fails when the default output already exists: a bake with no `-o` never replaces a file
/// without `--force` (an explicit `-o` may, unless it is an input).
fn refuse_existing(output: &Path) -> anyhow::Result<()> {
    let mut files = vec![output.to_path_buf()];
    if matches!(Format::of(output)?, Format::Gltf) {
        files.push(output.with_extension("bin"));
    }
    if let Some(f) = files.iter().find(|f| f.exists()) {
        bail!(
            "'{}' exists; refusing to overwrite it (use --force)",
            f.display()
        );
    }
    Ok(())
}

/// Loads the script, bakes its takes, reduces and writes.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| default_output(&args.input));
    Format::of(&output)?;
    if !args.input.is_file() {
        bail!("{}: no such file", args.input.display());
    }
    let (loader, used) = super::run::rig_loader(&args.input, args.rig.as_deref());
    let loaded = load(&args.input, &HostOptions::new(loader)).map_err(|e| anyhow!("{e}"))?;
    let mut graph = ScriptedGraph::new(loaded).map_err(|e| anyhow!("{e}"))?;
    let model = used
        .borrow()
        .clone()
        .ok_or_else(|| anyhow!("{}: the script loaded no rig", args.input.display()))?;
    let rig_file = PathBuf::from(&graph.script().rig.source);
    let options = ScriptBake {
        fps: args.fps,
        in_place: args.in_place,
    };
    let reduce_options = ReduceOptions {
        tolerance: args.tolerance_mm * 1e-3,
        ..Default::default()
    };
    let skeleton = graph.script().rig.skeleton.clone();
    let mut reduced = Vec::new();
    for take in selected(&graph, args)? {
        let (_, frames) = take_frames(&graph, &take, &options).map_err(|e| anyhow!("{e}"))?;
        let mut progress = Progress::new(args.quiet, format!("baking {take}"));
        let baked = bake_take(&mut graph, &take, &options, &mut |d, t| {
            progress.update(d, t)
        })
        .map_err(|e| anyhow!("{e}"))?;
        progress.finish();
        debug_assert_eq!(baked.frames.len(), frames);
        reduced.push(reduce(&skeleton, &baked, &reduce_options)?);
    }
    for line in graph.script().log() {
        eprintln!("{}: {line}", args.input.display());
    }
    let has_file = rig_file.is_file();
    if !has_file && !args.animation_only && !args.quiet {
        eprintln!(
            "note: the rig is the built-in mannequin (no file to copy): writing the skeleton and \
             animations only"
        );
    }
    let target = if args.animation_only || !has_file {
        Target::AnimationOnly {
            skeleton: &skeleton,
        }
    } else {
        Target::Rig {
            source: &rig_file,
            joint_nodes: &model.joint_nodes,
        }
    };
    let doc = export_document(&reduced, target)?;
    let mut inputs = doc.inputs.clone();
    inputs.extend(graph.script().files.iter().cloned());
    inputs.push(args.input.clone());
    if has_file {
        inputs.push(rig_file.clone());
    }
    if args.output.is_none() && !args.force {
        refuse_existing(&output)?;
    }
    let written = write_document(&doc, &output, args.force, &inputs)?;
    if !args.quiet {
        for r in &reduced {
            super::print(&report_line(&r.report))?;
        }
        let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        super::print(&format!("wrote {}", files.join(", ")))?;
    }
    Ok(())
}
