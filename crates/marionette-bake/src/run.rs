//! The library entry point of baking: [`run`] a [`BakeJob`] to a [`BakeReport`].
//!
//! The CLI (`marionette bake`, and the default run), the editor's bake dialog and tests all
//! call [`run`]: it samples, applies root motion, reduces, exports and writes, reports progress
//! through a callback, and never prints or exits. A job is checked before anything is
//! evaluated, and the output is written last, atomically (see [`marionette_io::write_document`]).

use std::path::{Path, PathBuf};

use super::job::{
    BakeError, BakeJob, BakeProgress, BakeReport, BakeSource, TakeResult, WrittenFile,
};
use super::{sources, ReduceOptions};
use marionette_anim::time::rate_problem;
use marionette_io::{write_document, Format, GltfError};

/// Runs `job`: samples every selected take, applies root motion, reduces the keys under the
/// tolerance, exports and writes the output. `progress` hears where the bake is; nothing is
/// printed.
pub fn run(
    job: &BakeJob,
    progress: &mut dyn FnMut(BakeProgress<'_>),
) -> Result<BakeReport, BakeError> {
    check(job)?;
    progress(BakeProgress::Loading);
    let options = ReduceOptions {
        tolerance: job.tolerance_mm * 1e-3,
        curves: job.curves,
        morph_tolerance: job.morph_tolerance,
        quantize: job.quantize,
        ..Default::default()
    };
    let baked = match &job.source {
        BakeSource::Script { script, rig } => {
            sources::script_takes(job, script, rig, None, &options, progress)?
        }
        BakeSource::Retarget {
            source,
            character,
            map,
            rest,
        } => sources::retarget_takes(
            job,
            (source, character),
            map.as_deref(),
            *rest,
            &options,
            progress,
        )?,
        BakeSource::Clips { rig, into } => {
            sources::rig_clips(job, rig, into.as_deref(), &options, progress)?
        }
    };
    if job.cancel.is_cancelled() {
        return Err(BakeError::Cancelled);
    }
    progress(BakeProgress::Writing);
    refuse_existing(job, &baked.inputs)?;
    let written = write_document(&baked.doc, &job.output, job.force, &baked.inputs)?;
    let files = written
        .into_iter()
        .map(|path| {
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            WrittenFile { path, bytes }
        })
        .collect();
    let takes = baked
        .reduced
        .into_iter()
        .map(|r| TakeResult {
            name: r.name,
            stats: r.report,
            output: job.output.clone(),
        })
        .collect();
    Ok(BakeReport {
        takes,
        files,
        notes: baked.notes,
        log: baked.log,
        inputs: baked.inputs,
    })
}

/// Checks the settings that need no evaluation: rate, tolerance, output format, and that the
/// output does not exist (unless `force`).
fn check(job: &BakeJob) -> Result<(), BakeError> {
    if let Some(problem) = job.fps.and_then(rate_problem) {
        return Err(BakeError::Settings(problem));
    }
    if !(job.tolerance_mm.is_finite() && job.tolerance_mm >= 0.0) {
        return Err(BakeError::Settings(format!(
            "the tolerance (mm) must be zero or positive, got {}",
            job.tolerance_mm
        )));
    }
    if !(job.morph_tolerance.is_finite() && job.morph_tolerance >= 0.0) {
        return Err(BakeError::Settings(format!(
            "the morph tolerance must be zero or positive, got {}",
            job.morph_tolerance
        )));
    }
    if let Some(mm) = job.shell_mm {
        if !(mm.is_finite() && mm > 0.0) {
            return Err(BakeError::Settings(format!(
                "the shell distance (mm) must be a positive number, got {mm}"
            )));
        }
    }
    Format::of(&job.output)?;
    refuse_existing(job, &named_inputs(job))
}

/// The files the job names as its source: the script and the rig it defaults to, or the rig
/// and the rig written into (the bake adds what it reads: a rig the script names, buffers).
fn named_inputs(job: &BakeJob) -> Vec<PathBuf> {
    match &job.source {
        BakeSource::Script { script, rig } => std::iter::once(script)
            .chain(rig.files())
            .cloned()
            .collect(),
        BakeSource::Retarget {
            source,
            character,
            map,
            ..
        } => [Some(source), Some(character), map.as_ref()]
            .into_iter()
            .flatten()
            .cloned()
            .collect(),
        BakeSource::Clips { rig, into } => [Some(rig), into.as_ref()]
            .into_iter()
            .flatten()
            .cloned()
            .collect(),
    }
}

/// Without `force`, an existing output (or `.bin` of a `.gltf` output) is an error: the input
/// message when it is one of `inputs`, else [`BakeError::Exists`].
fn refuse_existing(job: &BakeJob, inputs: &[PathBuf]) -> Result<(), BakeError> {
    if job.force {
        return Ok(());
    }
    let mut files = vec![job.output.clone()];
    if Format::of(&job.output)? == Format::Gltf {
        files.push(job.output.with_extension("bin"));
    }
    let Some(existing) = files.iter().find(|f| f.symlink_metadata().is_ok()) else {
        return Ok(());
    };
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    let path = existing.display().to_string();
    if inputs.iter().any(|i| same(existing, i)) {
        return Err(GltfError::WouldOverwriteInput { path }.into());
    }
    Err(BakeError::Exists { path })
}
