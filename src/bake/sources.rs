//! The two sources of a [`BakeJob`]: a script's takes and a rig's clips, each sampled, reduced
//! and exported into a [`Document`] ready to write.

use std::path::{Path, PathBuf};

use super::job::{BakeError, BakeJob, BakeProgress, Selection};
use super::script_take::{bake_take, ScriptBake};
use super::{
    bake_clip, check_size, export_document, frame_count, reduce, BakedTake, ReduceOptions,
    ReduceStats, ReducedTake, Target,
};
use crate::anim::root_motion::{keep_in_place, RootMotionMode, RootSpace};
use crate::anim::Skeleton;
use crate::io::{import, Document};
use crate::script::{load, HostOptions, ScriptError, ScriptedGraph};
use crate::Model;

/// A bake ready to write.
pub(super) struct Baked {
    /// The reduced takes, in the order baked.
    pub reduced: Vec<ReducedTake>,
    /// The output document.
    pub doc: Document,
    /// Files the output must not replace without `force`.
    pub inputs: Vec<PathBuf>,
    /// Notes for the user.
    pub notes: Vec<String>,
    /// What the script printed.
    pub log: Vec<String>,
}

fn selection_error(source: &Path, message: String) -> BakeError {
    BakeError::Selection {
        input: source.display().to_string(),
        message,
    }
}

/// The takes to bake: those named (in the order given, once each), or all the script's followed
/// by the edited takes the script does not have ([`ScriptedGraph::take_names`]).
fn select_takes(
    graph: &ScriptedGraph,
    script: &Path,
    sel: &Selection,
) -> Result<Vec<String>, BakeError> {
    let all = graph.take_names();
    let Selection::Named(names) = sel else {
        if all.is_empty() {
            return Err(selection_error(
                script,
                "the script defines no takes to bake (add `takes = { ... }` to graph { })".into(),
            ));
        }
        return Ok(all);
    };
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !all.contains(name) {
            return Err(selection_error(
                script,
                crate::script::spec::unknown_take(name, all.iter().map(String::as_str)),
            ));
        }
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    Ok(out)
}

/// Loads the script and bakes its selected takes through the preview's evaluation.
pub(super) fn script_takes(
    job: &BakeJob,
    script: &Path,
    default_rig: Option<&Path>,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(BakeProgress<'_>),
) -> Result<Baked, BakeError> {
    if !script.is_file() {
        return Err(BakeError::Settings(format!(
            "{}: no such file",
            script.display()
        )));
    }
    let (loader, used) = crate::rigs::rig_loader(script, default_rig);
    let loaded = load(script, &HostOptions::new(loader))?;
    let mut graph = ScriptedGraph::new(loaded)?;
    graph.set_cancel(Some(job.cancel.clone()));
    // the editor's edited and recorded takes (or the sidecar's, from the CLI)
    graph.set_edited_takes(job.takes.clone());
    let model = used.borrow().clone().ok_or_else(|| {
        ScriptError::msg(format!("{}: the script loaded no rig", script.display()))
    })?;
    let rig_file = PathBuf::from(&graph.script().rig.source);
    let bake_options = ScriptBake {
        fps: job.fps,
        in_place: job.in_place,
    };
    let skeleton = graph.script().rig.skeleton.clone();
    let takes = select_takes(&graph, script, &job.selection)?;
    let sampled = sample_and_reduce(
        &takes,
        &skeleton,
        options,
        progress,
        &job.cancel,
        |_, take, frame| Ok(bake_take(&mut graph, take, &bake_options, frame)?),
    );
    let reduced = match sampled {
        Err(_) if job.cancel.is_cancelled() => return Err(BakeError::Cancelled),
        r => r?,
    };
    let has_file = rig_file.is_file();
    let mut notes = Vec::new();
    if !has_file && !job.animation_only {
        notes.push(
            "the rig is the built-in mannequin (no file to copy): writing the skeleton and \
             animations only"
                .to_string(),
        );
    }
    let rig =
        (has_file && !job.animation_only).then_some((rig_file.as_path(), &model.joint_nodes[..]));
    let mut inputs = graph.script().files.clone();
    inputs.push(script.to_path_buf());
    if has_file {
        inputs.push(rig_file.clone());
    }
    let mut baked = export(reduced, &skeleton, rig, inputs)?;
    baked.notes = notes;
    baked.log = graph.script().log();
    Ok(baked)
}

/// Samples and reduces each take in turn, reporting progress; `sample(index, take,
/// frame_progress)` bakes one.
fn sample_and_reduce(
    takes: &[String],
    skeleton: &Skeleton,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(BakeProgress<'_>),
    cancel: &super::Cancel,
    mut sample: impl FnMut(usize, &str, &mut dyn FnMut(usize, usize)) -> Result<BakedTake, BakeError>,
) -> Result<Vec<ReducedTake>, BakeError> {
    let count = takes.len();
    let mut reduced = Vec::with_capacity(count);
    for (index, take) in takes.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(BakeError::Cancelled);
        }
        let baked = sample(index, take, &mut |done, total| {
            progress(BakeProgress::Sampling {
                take,
                index,
                count,
                done,
                total,
            })
        })?;
        progress(BakeProgress::Reducing { take, index, count });
        let r = reduce(skeleton, &baked, options)?;
        within_budget(&r.report, options.tolerance)?;
        reduced.push(r);
    }
    Ok(reduced)
}

/// The reducer always meets the budget on finite, in-range input; a take that does not (a world
/// matrix overflowing, a NaN error) is an error, never written.
fn within_budget(report: &ReduceStats, tolerance: f32) -> Result<(), BakeError> {
    let budget = f64::from(tolerance) * (1.0 + 1e-3) + 1e-9;
    if report.max_error <= budget {
        return Ok(());
    }
    Err(BakeError::OverBudget {
        take: report.take.clone(),
        max_mm: report.max_error * 1e3,
        budget_mm: tolerance * 1e3,
    })
}

/// Exports the reduced takes into a copy of `rig` (its file and the node of each joint), or
/// with the skeleton alone when there is none. `inputs` are the source files the output must
/// not replace; the files the document was read from are added.
fn export(
    reduced: Vec<ReducedTake>,
    skeleton: &Skeleton,
    rig: Option<(&Path, &[usize])>,
    inputs: Vec<PathBuf>,
) -> Result<Baked, BakeError> {
    let target = match rig {
        Some((source, joint_nodes)) => Target::Rig {
            source,
            joint_nodes,
        },
        None => Target::AnimationOnly { skeleton },
    };
    let doc = export_document(&reduced, target)?;
    let mut all = doc.inputs.clone();
    all.extend(inputs);
    Ok(Baked {
        reduced,
        doc,
        inputs: all,
        notes: Vec::new(),
        log: Vec::new(),
    })
}

/// Clip indices to bake: those named (by name or index), or all.
fn select_clips(model: &Model, rig: &Path, sel: &Selection) -> Result<Vec<usize>, BakeError> {
    let Selection::Named(names) = sel else {
        if model.clips.is_empty() {
            return Err(selection_error(rig, "has no clips to bake".into()));
        }
        return Ok((0..model.clips.len()).collect());
    };
    let mut out = Vec::new();
    for n in names {
        let i =
            crate::report::find_clip(model, n).map_err(|e| selection_error(rig, e.to_string()))?;
        if !out.contains(&i) {
            out.push(i);
        }
    }
    Ok(out)
}

/// Imports a rig, with a plain error when the file is missing.
fn import_rig(path: &Path) -> Result<Model, BakeError> {
    if !path.exists() {
        return Err(BakeError::Settings(format!(
            "{}: no such file",
            path.display()
        )));
    }
    Ok(import(path)?)
}

/// Resamples the rig's selected clips and bakes them back into `into` (default: the rig).
pub(super) fn rig_clips(
    job: &BakeJob,
    rig: &Path,
    into: Option<&Path>,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(BakeProgress<'_>),
) -> Result<Baked, BakeError> {
    let fps = job.fps.unwrap_or(30.0);
    let ext = rig
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("glb" | "gltf")) {
        return Err(BakeError::Settings(format!(
            "{}: give a .glb/.gltf rig to bake its clips, or a .lua script to bake its takes",
            rig.display()
        )));
    }
    let model = import_rig(rig)?;
    let into_path = into.unwrap_or(rig).to_path_buf();
    let target_model = if into_path == rig {
        model.clone()
    } else {
        import_rig(&into_path)?
    };
    if target_model.skeleton.names() != model.skeleton.names() {
        return Err(BakeError::Settings(format!(
            "{}: its skeleton differs from {}'s",
            into_path.display(),
            rig.display()
        )));
    }
    let root_space = RootSpace::of(&model.skeleton);
    let clips = select_clips(&model, rig, &job.selection)?;
    let names: Vec<String> = clips.iter().map(|&c| model.clips[c].name.clone()).collect();
    let reduced = sample_and_reduce(
        &names,
        &model.skeleton,
        options,
        progress,
        &job.cancel,
        |i, _, frame| {
            let clip = &model.clips[clips[i]];
            check_size(&clip.name, frame_count(clip.end, fps), model.skeleton.len())?;
            let mut baked = bake_clip(&model.skeleton, clip, fps, frame);
            if job.in_place {
                let parents = model.skeleton.parents();
                keep_in_place(
                    RootMotionMode::Ground,
                    &root_space,
                    parents,
                    &mut baked.frames,
                );
            }
            Ok(baked)
        },
    )?;
    let into_rig =
        (!job.animation_only).then_some((into_path.as_path(), &target_model.joint_nodes[..]));
    let inputs = vec![rig.to_path_buf(), into_path.clone()];
    export(reduced, &target_model.skeleton, into_rig, inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A take over its budget, or with a NaN error, is refused; one within it passes.
    #[test]
    fn over_budget_is_an_error() {
        let stats = |max_error| ReduceStats {
            take: "t".into(),
            frames: 2,
            raw_keys: 6,
            keys: 2,
            channels: 1,
            max_error,
            p99_error: 0.0,
            passes: 1,
        };
        assert!(within_budget(&stats(0.99e-4), 1e-4).is_ok());
        for bad in [0.1, f64::NAN, f64::INFINITY] {
            let e = within_budget(&stats(bad), 1e-4).unwrap_err();
            assert!(matches!(e, BakeError::OverBudget { .. }), "{e}");
            assert!(e.to_string().contains("over the 0.1000 mm budget"), "{e}");
        }
    }
}
