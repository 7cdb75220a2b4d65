//! Running a manifest's bakes (`bake --manifest bakes.toml [--shard I/N] [--force]`): the
//! manifest's bakes (or the shard's share of them) in parallel on the cores, each skipped when
//! its output's content key ([`super::bake_key`]) still holds, each written with its key; a
//! line per bake as it ends, the per-take report of each in manifest order, and a failure of
//! one bake does not stop the others (the command fails at the end, naming them).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::bail;
use rayon::prelude::*;

use super::bake_key::{key_path, render, stale};
use super::manifest::{self, Entry, Manifest};
use super::shard::Shard;
use marionette::bake::{BakeError, BakeReport, Cancel};

/// How one bake of the batch ended.
enum Outcome {
    /// Its key held: nothing was baked.
    UpToDate,
    /// Baked and written, with its key, in this many seconds; why it was baked.
    Baked(BakeReport, f64, String),
    /// Failed: the message.
    Failed(String),
}

/// `bake --manifest FILE [--shard I/N] [--force] [--quiet]`: refuses a setting of one bake
/// given beside the manifest, then runs it.
pub fn run(args: &super::bake::Args) -> anyhow::Result<()> {
    if let Some(option) = with_manifest(args) {
        bail!(
            "{option} is a setting of one bake: with --manifest, give it in the manifest \
             ([defaults] or a [[bake]] table); only --shard, --force and --quiet go with it"
        );
    }
    let manifest = args.manifest.clone().unwrap_or_default();
    run_manifest(&manifest, args.shard, args.force, args.quiet)
}

/// The first setting of one bake given beside --manifest, by its option name.
fn with_manifest(args: &super::bake::Args) -> Option<&'static str> {
    let defaults = <manifest::EntryLine as clap::Parser>::try_parse_from(["x"]).ok()?;
    let d = &defaults.args;
    [
        ("--rig", args.rig.is_some()),
        ("--retarget-to", args.retarget_to.is_some()),
        ("--clip", !args.clips.is_empty()),
        ("--take", !args.takes.is_empty()),
        ("--all", args.all),
        ("--fps", args.fps.is_some()),
        ("--tolerance-mm", args.tolerance_mm != d.tolerance_mm),
        (
            "--morph-tolerance",
            args.morph_tolerance != d.morph_tolerance,
        ),
        ("--shell-mm", args.shell_mm.is_some()),
        ("-o", args.output.is_some()),
        ("--in-place", args.in_place),
        ("--animation-only", args.animation_only),
        ("--turn-limit", args.turn_limit != d.turn_limit),
        ("--no-sidecar", args.no_sidecar),
        ("--curves", args.curves != d.curves),
        ("--quantize", args.quantize != d.quantize),
        ("--no-passes", args.passes.no_passes),
    ]
    .into_iter()
    .find_map(|(name, given)| given.then_some(name))
}

/// Runs the bakes of the manifest at `path` (the `shard`'s share when given).
fn run_manifest(path: &Path, shard: Option<Shard>, force: bool, quiet: bool) -> anyhow::Result<()> {
    let m = manifest::read(path)?;
    let mine: Vec<&Entry> = m
        .entries
        .iter()
        .filter(|e| shard.is_none_or(|s| s.takes(e.index)))
        .collect();
    if !quiet {
        let of_shard = shard.map_or(String::new(), |s| {
            format!(" (shard {}/{} of {})", s.index, s.count, m.entries.len())
        });
        eprintln!(
            "{}: {} bake{}{of_shard} on {} threads",
            path.display(),
            mine.len(),
            if mine.len() == 1 { "" } else { "s" },
            rayon::current_num_threads()
        );
    }
    let cancel = Cancel::new();
    super::interrupt::cancel_on_ctrl_c(&cancel);
    let said = Mutex::new(());
    let outcomes: Vec<Outcome> = mine
        .par_iter()
        .map(|e| {
            let outcome = bake_one(&m, e, force, &cancel);
            if !quiet {
                let _held = said.lock();
                eprintln!("{}", status_line(&m, e, &outcome));
            }
            outcome
        })
        .collect();
    if cancel.is_cancelled() {
        bail!("bakes cancelled (Ctrl-C); the bakes not finished wrote nothing");
    }
    let mut failed = Vec::new();
    for (e, outcome) in mine.iter().zip(&outcomes) {
        match outcome {
            Outcome::Baked(report, ..) => {
                let input = e.args.input.clone().unwrap_or_default();
                super::bake::print_report(&input, report, quiet)?;
            }
            Outcome::Failed(_) => failed.push(format!("bake {} (line {})", e.index + 1, e.line)),
            Outcome::UpToDate => {}
        }
    }
    if !failed.is_empty() {
        bail!(
            "{} of {} bakes failed: {}",
            failed.len(),
            mine.len(),
            failed.join(", ")
        );
    }
    Ok(())
}

/// The line said when a bake ends.
fn status_line(m: &Manifest, e: &Entry, outcome: &Outcome) -> String {
    let out = e.args.output.clone().unwrap_or_default();
    let shown = out
        .strip_prefix(&m.base)
        .map_or_else(|_| out.display().to_string(), |p| p.display().to_string());
    match outcome {
        Outcome::UpToDate => format!("up to date  {shown} (its key holds; --force re-bakes)"),
        Outcome::Baked(_, secs, why) => format!("baked       {shown} in {secs:.1} s ({why})"),
        Outcome::Failed(message) => format!(
            "failed      {shown}: {}:{}: bake {}: {message}",
            m.path.display(),
            e.line,
            e.index + 1
        ),
    }
}

/// Bakes one entry unless its key holds (or `force`), then writes its key.
fn bake_one(m: &Manifest, e: &Entry, force: bool, cancel: &Cancel) -> Outcome {
    let Some(output) = e.args.output.clone() else {
        return Outcome::Failed("no output".into());
    };
    let key_file = key_path(&output);
    let known = std::fs::read_to_string(&key_file).ok();
    let why = match (&known, force) {
        (_, true) => "--force".to_string(),
        (None, _) => "no key yet".to_string(),
        (Some(text), false) => match stale(&m.base, &e.settings, text) {
            None => return Outcome::UpToDate,
            Some(why) => why,
        },
    };
    let start = Instant::now();
    let result = (|| -> anyhow::Result<BakeReport> {
        let mut job = super::bake::job(&e.args)?;
        job.cancel = cancel.clone();
        // a key beside the output says a bake made it: a re-bake replaces it
        job.force |= force || known.is_some();
        if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let report = match marionette::bake::run(&job, &mut |_| {}) {
            Err(BakeError::Cancelled) => bail!("cancelled"),
            r => r?,
        };
        let written: Vec<PathBuf> = report.files.iter().map(|f| f.path.clone()).collect();
        let (inputs, from_cwd) = inputs_of(e, &report);
        let text = render(&m.base, &e.settings, (&inputs, &from_cwd), &written);
        let tmp = PathBuf::from(format!("{}.tmp", key_file.display()));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &key_file)?;
        Ok(report)
    })();
    match result {
        Ok(report) => Outcome::Baked(report, start.elapsed().as_secs_f64(), why),
        Err(err) => Outcome::Failed(format!("{err:#}")),
    }
}

/// Every file the bake read or could have read: what it reports, the map file, the sidecar of
/// editor edits; for a script without `rig`, the mannequins its folder offers (which the script
/// gets when it names no rig file); and, apart, the working folder's `assets/mannequin.glb` (the
/// last fallback, whose key line is read against the working folder).
fn inputs_of(e: &Entry, report: &BakeReport) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut files = report.inputs.clone();
    let mut from_cwd = Vec::new();
    let input = e.args.input.clone().unwrap_or_default();
    files.push(input.clone());
    files.extend(e.args.map.clone());
    let script = input
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("lua"));
    if script {
        if !e.args.no_sidecar {
            files.push(marionette::editor::sidecar_path(&input));
        }
        if e.args.rig.is_none() {
            files.extend(marionette::rigs::beside(&input));
            from_cwd.push(PathBuf::from(super::DEFAULT_RIG));
        }
    }
    (files, from_cwd)
}
