//! The two sources of a [`BakeJob`]: a script's takes and a rig's clips, each sampled, reduced
//! and exported into a [`Document`] ready to write.

use std::path::{Path, PathBuf};

use super::job::{BakeError, BakeJob, BakeProgress, Selection};
use super::quality::assert_take;
use super::rebake::{earlier_bakes, keys_as_they_are, source_keys};
use super::script_take::{bake_take, ScriptBake};
use super::{
    bake_clip, bake_clip_keys, check_size, check_times, error_against, export_document,
    frame_count, reduce_until, BakedTake, ReduceOptions, ReduceStats, ReducedTake, Shells, Target,
};
use marionette_anim::root_motion::{keep_in_place, RootMotionMode, RootSpace};
use marionette_anim::Model;
use marionette_anim::{Clip, Skeleton};
use marionette_io::{import, Document};
use marionette_script::{load, HostOptions, ScriptError, ScriptedGraph};

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
                marionette_script::spec::unknown_take(name, all.iter().map(String::as_str)),
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
    rig: &marionette_script::rigs::RigChoice,
    text: Option<&str>,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(BakeProgress<'_>),
) -> Result<Baked, BakeError> {
    if text.is_none() && !script.is_file() {
        return Err(BakeError::Settings(format!(
            "{}: no such file",
            script.display()
        )));
    }
    let (loader, used) = marionette_script::rigs::rig_loader(script, rig);
    let opts = HostOptions::new(loader);
    let loaded = match text {
        Some(text) => marionette_script::load_text(script, text, &opts)?,
        None => load(script, &opts)?,
    };
    let mut graph = ScriptedGraph::new(loaded)?;
    graph.set_passes(job.passes);
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
    let shells = shells(job, &model, &skeleton);
    let takes = select_takes(&graph, script, &job.selection)?;
    let reducer = Reducer {
        skeleton: &skeleton,
        shells: &shells,
        options,
        cancel: &job.cancel,
        notes: Default::default(),
    };
    let mut pass_notes = Vec::new();
    let sampled = reducer.run(
        &takes,
        progress,
        |_, take, frame| {
            let baked = bake_take(&mut graph, take, &bake_options, frame)?;
            pass_notes.extend_from_slice(graph.pass_notes());
            assert_take(&mut graph, &baked, &bake_options, script)?;
            Ok(baked)
        },
        |_| None,
        |_| None,
        |_| None,
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
    let rig = (has_file && !job.animation_only).then_some((rig_file.as_path(), &*model));
    let mut inputs = graph.script().files.clone();
    if text.is_none() {
        inputs.push(script.to_path_buf());
    }
    inputs.extend(graph.script().sources.iter().filter_map(|r| r.path.clone()));
    if has_file {
        inputs.push(rig_file.clone());
    }
    let mut baked = export(reduced, &skeleton, rig, inputs)?;
    // what the script was warned about (a retarget's notes, say), once each
    notes.extend(graph.script().warnings.iter().map(|w| {
        w.split_once(": warning: ")
            .map_or(w.clone(), |(_, m)| m.to_string())
    }));
    notes.append(&mut baked.notes);
    notes.append(&mut pass_notes);
    baked.notes = notes;
    baked.log = graph.script().log();
    Ok(baked)
}

/// Every clip of `source` retargeted onto `character` (the pair), through the script
/// [`marionette_script::retarget_map::bake_script`] writes (as if it lay beside `source`).
/// Either may be `mannequin`, the built-in one.
pub(super) fn retarget_takes(
    job: &BakeJob,
    (source, character): (&Path, &Path),
    map: Option<&Path>,
    rest: Option<marionette_anim::retarget::ReferencePose>,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(BakeProgress<'_>),
) -> Result<Baked, BakeError> {
    use marionette_script::rigs::{import_rig, is_builtin};
    for f in [Some(source), Some(character), map].into_iter().flatten() {
        if !f.is_file() && !is_builtin(f) {
            return Err(BakeError::Settings(format!(
                "{}: no such file",
                f.display()
            )));
        }
    }
    let model = import_rig(source)?;
    if model.clips.is_empty() {
        return Err(selection_error(
            source,
            "the rig has no clips to retarget".into(),
        ));
    }
    // the clips named are the source's (the takes of the script underneath are named after them)
    if let Selection::Named(names) = &job.selection {
        let clips: Vec<&str> = model.clips.iter().map(|c| c.name.as_str()).collect();
        if let Some(bad) = names.iter().find(|n| !clips.contains(&n.as_str())) {
            let hint = marionette_script::spec::did_you_mean(bad, clips.iter().copied());
            return Err(selection_error(
                source,
                format!(
                    "unknown clip '{bad}'{hint} (the rig has: {})",
                    clips.join(", ")
                ),
            ));
        }
    }
    let rig = marionette_script::Rig::from_model(source.display().to_string(), &model);
    let whose = |p: &Path| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let mut file = match map {
        Some(m) => {
            let file = marionette_script::retarget_map::read_map_file(m)?;
            // checked once here, against both rigs, naming the map file
            let target = import_rig(character)?;
            marionette_script::retarget_map::resolve_map_file(
                m,
                &file,
                &target.skeleton,
                &model.skeleton,
                (
                    &format!("the character ({})", whose(character)),
                    &whose(source),
                ),
            )?;
            file
        }
        None => marionette_script::retarget_map::MapFile {
            map: marionette_script::spec::MapSpec::Auto,
            reference: None,
            scale: None,
            ik: None,
        },
    };
    if rest.is_some() {
        file.reference = rest;
    }
    let name = source
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| BakeError::Settings(format!("{}: not a file name", source.display())))?;
    let text = marionette_script::retarget_map::bake_script(&rig, name, &file, job.fps);
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("source");
    let script = source.with_file_name(format!("{stem}.retarget.lua"));
    let choice = marionette_script::rigs::RigChoice::given(Some(character));
    let mut baked = script_takes(job, &script, &choice, Some(&text), options, progress)?;
    let mut notes = glitch_notes(job, source, &model);
    notes.append(&mut baked.notes);
    baked.notes = notes;
    Ok(baked)
}

/// The shells a bake measures at: `--shell-mm` when given, else the rig's vertices (the
/// 10 cm floor for a skeleton the model does not match).
fn shells(job: &BakeJob, model: &Model, skeleton: &Skeleton) -> Shells {
    match job.shell_mm {
        Some(mm) => Shells::fixed(skeleton, mm * 1e-3),
        None if model.skeleton.names() == skeleton.names() => Shells::of_model(model),
        None => Shells::floor(skeleton),
    }
}

/// What every take of a bake is reduced with.
struct Reducer<'a> {
    skeleton: &'a Skeleton,
    shells: &'a Shells,
    options: &'a ReduceOptions,
    cancel: &'a super::Cancel,
    /// What the bake says about its takes (a take written with its source's keys).
    notes: std::cell::RefCell<Vec<String>>,
}

impl Reducer<'_> {
    /// Samples and reduces each take in turn, reporting progress; `sample(index, take,
    /// frame_progress)` bakes one; `source(index)` is the clip a take's keys are measured
    /// against as well, when it has one; `kept(index)`, keys written as they are (a re-bake of
    /// a bake, [`super::rebake`]); `exact(index)`, the source's own keys, written when the
    /// reduced keys miss the budget against the source (the float precision of joints far from
    /// the origin), with a note.
    fn run<'c>(
        &self,
        takes: &[String],
        progress: &mut dyn FnMut(BakeProgress<'_>),
        mut sample: impl FnMut(
            usize,
            &str,
            &mut dyn FnMut(usize, usize),
        ) -> Result<BakedTake, BakeError>,
        source: impl Fn(usize) -> Option<&'c Clip>,
        kept: impl Fn(usize) -> Option<ReducedTake>,
        exact: impl Fn(usize) -> Option<ReducedTake>,
    ) -> Result<Vec<ReducedTake>, BakeError> {
        let count = takes.len();
        let mut reduced = Vec::with_capacity(count);
        for (index, take) in takes.iter().enumerate() {
            if self.cancel.is_cancelled() {
                return Err(BakeError::Cancelled);
            }
            // a bake's keys kept as they are: measured against their clip like any bake
            if let (Some(mut r), Some(clip)) = (kept(index), source(index)) {
                let written = r.to_clip();
                if let Some(t) = error_against(self.skeleton, self.shells, clip, &written) {
                    r.report.max_error = t.error;
                    r.report.worst = Some(t);
                }
                if let Some(t) = self.morph_error(clip, &written) {
                    r.report.morphs.max_error = t.error;
                    r.report.morphs.worst = Some(t);
                }
                within_budget(&r.report, self.options)?;
                reduced.push(r);
                continue;
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
            let result = reduce_until(
                self.skeleton,
                self.shells,
                &baked,
                self.options,
                self.cancel,
            );
            let mut r = match result {
                Err(_) if self.cancel.is_cancelled() => return Err(BakeError::Cancelled),
                r => r?,
            };
            if let Some(clip) = source(index) {
                let written = r.to_clip();
                let truth = error_against(self.skeleton, self.shells, clip, &written);
                let weights = self.morph_error(clip, &written);
                let m = &mut r.report.morphs;
                if !baked.exact_between {
                    // resampled: what that costs against the clip, reported
                    r.report.against_source = truth;
                    m.against_source = weights;
                } else {
                    // at its own keys: the source is the reference, and this is its measure
                    if let Some(t) =
                        truth.filter(|t| t.error.total_cmp(&r.report.max_error).is_gt())
                    {
                        r.report.max_error = t.error;
                        r.report.worst = Some(t);
                    }
                    if let Some(t) = weights.filter(|t| t.error.total_cmp(&m.max_error).is_gt()) {
                        m.max_error = t.error;
                        m.worst = Some(t);
                    }
                }
            }
            if let Err(missed) = within_budget(&r.report, self.options) {
                let r = self.exactly(index, &source, &exact, &r).ok_or(missed)?;
                reduced.push(r);
                continue;
            }
            reduced.push(r);
        }
        Ok(reduced)
    }
}

impl Reducer<'_> {
    /// The source's own keys for take `index` when they meet the budget where the reduced
    /// ones (`missed`) did not, with a note saying why (how far from the origin the joints
    /// are, and what a 32-bit float's step is there).
    fn exactly<'c>(
        &self,
        index: usize,
        source: &impl Fn(usize) -> Option<&'c Clip>,
        exact: &impl Fn(usize) -> Option<ReducedTake>,
        missed: &ReducedTake,
    ) -> Option<ReducedTake> {
        let (clip, mut r) = (source(index)?, exact(index)?);
        let written = r.to_clip();
        if let Some(t) = error_against(self.skeleton, self.shells, clip, &written) {
            r.report.max_error = t.error;
            r.report.worst = Some(t);
        }
        within_budget(&r.report, self.options).ok()?;
        // how far out the joints are: the clip's first pose in the world
        let rest = self.skeleton.rest_pose();
        let mut pose = rest.to_vec();
        clip.sample(
            clip.start,
            rest,
            &mut marionette_anim::SamplingCache::new(),
            &mut pose,
        );
        let mut world = Vec::new();
        marionette_anim::world_matrices(self.skeleton, &pose, &mut world);
        let far = world
            .iter()
            .map(|m| m.w_axis.truncate().length())
            .fold(0.0f64, f64::max);
        // a 32-bit float's step at that distance
        let f = far as f32;
        let step = f64::from(f32::from_bits(f.to_bits() + 1) - f);
        self.notes.borrow_mut().push(format!(
            "take '{}': written with the source's own {} keys, not reduced: reduced keys were \
             {:.4} mm off, over the {:.4} mm budget, at the precision of a 32-bit float (what \
             glTF stores) {far:.0} m from the origin, where it steps by {:.3} mm; move the rig \
             near the origin to reduce its keys",
            r.name,
            r.report.keys,
            missed.report.max_error * 1e3,
            self.options.tolerance * 1e3,
            step * 1e3,
        ));
        Some(r)
    }

    /// The largest morph weight difference between `written` and its source `clip`, at every
    /// key time of either and between them ([`check_times`]).
    fn morph_error(&self, clip: &Clip, written: &Clip) -> Option<super::MorphErrorAt> {
        let morphs = self.skeleton.morphs();
        if morphs.is_empty() {
            return None;
        }
        super::morph::error_against(morphs, clip, written, &check_times(&[clip, written]))
    }
}

/// The reducer always meets the budget on finite, in-range input; a take that does not (a world
/// matrix overflowing, a NaN error) is an error, never written. A clip at its own keys is held
/// to the budget against the source clip itself (its `max_error` is that measure); resampled at
/// `--fps`, what that costs (`against_source`) is reported, not held. Morph weights are held
/// to the weight tolerance the same way.
fn within_budget(report: &ReduceStats, options: &ReduceOptions) -> Result<(), BakeError> {
    let m = &report.morphs;
    let weight_budget = options.morph_tolerance * (1.0 + 1e-3) + 1e-7;
    if m.max_error.is_nan() || m.max_error > weight_budget {
        let at = m.worst.as_ref();
        return Err(BakeError::MorphOverBudget {
            take: report.take.clone(),
            error: m.max_error,
            tolerance: options.morph_tolerance,
            time: at.map_or(0.0, |a| a.time),
            target: at.map_or_else(String::new, |a| a.target.clone()),
        });
    }
    let tolerance = options.tolerance;
    let budget = f64::from(tolerance) * (1.0 + 1e-3) + 1e-9;
    if report.max_error <= budget {
        return Ok(());
    }
    Err(BakeError::OverBudget {
        take: report.take.clone(),
        max_mm: report.max_error * 1e3,
        budget_mm: tolerance * 1e3,
        at: report
            .worst
            .as_ref()
            .map(|a| format!(" at {:.4} s on joint '{}'", a.time, a.joint))
            .unwrap_or_default(),
    })
}

/// Exports the reduced takes into a copy of `rig` (its file, whose model gives the node of
/// each joint and morph set), or with the skeleton alone when there is none (morph weights
/// then left out, with a note). `inputs` are the source files the output must not replace;
/// the files the document was read from are added.
fn export(
    mut reduced: Vec<ReducedTake>,
    skeleton: &Skeleton,
    rig: Option<(&Path, &Model)>,
    inputs: Vec<PathBuf>,
) -> Result<Baked, BakeError> {
    let morph_nodes = rig.map_or_else(Vec::new, |(_, m)| m.skeleton.morphs().source_nodes());
    let mut notes = Vec::new();
    let target = match rig {
        Some((source, model))
            if marionette_io::SourceFormat::of_file(source)
                == marionette_io::SourceFormat::Gltf =>
        {
            Target::Rig {
                source,
                joint_nodes: &model.joint_nodes,
                morph_nodes: &morph_nodes,
            }
        }
        Some((_, model)) => Target::Converted { model },
        None => {
            let channels: usize = reduced.iter().map(|r| r.morphs.len()).sum();
            if channels > 0 {
                notes.push(format!(
                    "{channels} morph weights channel(s) not written: a skeleton-only file has no \
                     mesh to carry them (to keep them, bake without --animation-only into a copy \
                     of the rig file, given with --rig when the script names none)"
                ));
            }
            // what is written is what is reported (and what the extras say)
            for r in &mut reduced {
                r.morphs.clear();
                r.report.morphs.channels = 0;
                r.report.morphs.keys = 0;
            }
            Target::AnimationOnly { skeleton }
        }
    };
    let doc = export_document(&reduced, target)?;
    let mut all = doc.inputs.clone();
    all.extend(inputs);
    notes.extend(doc.warnings.iter().cloned());
    Ok(Baked {
        reduced,
        doc,
        inputs: all,
        notes,
        log: Vec::new(),
    })
}

/// A note per run of keys in `model`'s clips turning faster than the job's limit: a capture's
/// glitches are baked as they are, and said.
fn glitch_notes(job: &BakeJob, rig: &Path, model: &Model) -> Vec<String> {
    let limit = job.turn_limit;
    marionette_anim::fast_turns::describe_fast_turns(&model.clips, &model.skeleton, limit)
        .into_iter()
        .map(|line| {
            format!(
                "{}: {line}: faster than {limit} degrees/s, a capture's glitch? (baked as it is; \
                 --turn-limit sets the limit)",
                rig.display()
            )
        })
        .collect()
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
        let i = model
            .find_clip(n)
            .map_err(|e| selection_error(rig, e.to_string()))?;
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

/// Keeps a baked clip in place ([`keep_in_place`] relative to its first frame), the poses
/// between frames with it.
fn in_place(
    space: &RootSpace,
    parents: &[Option<marionette_anim::JointIndex>],
    baked: &mut BakedTake,
) {
    let mut all = std::mem::take(&mut baked.frames);
    let n = all.len();
    all.append(&mut baked.inner);
    keep_in_place(
        RootMotionMode::Ground,
        space,
        parents,
        all.iter_mut().map(Vec::as_mut_slice),
    );
    baked.inner = all.split_off(n);
    baked.frames = all;
}

/// Bakes the rig's selected clips (at their own key times, or resampled at `--fps`) back into
/// `into` (default: the rig).
pub(super) fn rig_clips(
    job: &BakeJob,
    rig: &Path,
    into: Option<&Path>,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(BakeProgress<'_>),
) -> Result<Baked, BakeError> {
    if marionette_io::SourceFormat::from_extension(rig).is_none() {
        return Err(BakeError::Settings(format!(
            "{}: give a rig (.glb, .gltf, .bvh or .fbx) to bake its clips, or a .lua script to bake its takes",
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
    let layout = |m: &Model| -> Vec<(String, Vec<String>)> {
        let sets = m.skeleton.morphs().sets();
        sets.iter()
            .map(|s| (s.name.clone(), s.targets.clone()))
            .collect()
    };
    if layout(&target_model) != layout(&model) {
        return Err(BakeError::Settings(format!(
            "{}: its meshes' morph targets differ from {}'s (the weights channels would not \
             fit)",
            into_path.display(),
            rig.display()
        )));
    }
    let root_space = RootSpace::of(&model.skeleton);
    let converted = marionette_io::SourceFormat::of_file(rig) != marionette_io::SourceFormat::Gltf;
    if converted && model.clips.is_empty() && matches!(job.selection, Selection::All) {
        // a converter's job: the model alone when the file has no animation
        let into_rig = (!job.animation_only).then_some((into_path.as_path(), &target_model));
        let inputs = vec![rig.to_path_buf(), into_path.clone()];
        let mut baked = export(Vec::new(), &target_model.skeleton, into_rig, inputs)?;
        baked.notes.extend(model.warnings.iter().cloned());
        baked.notes.push(format!(
            "{}: no animation in the file: the glTF holds its model alone",
            rig.display()
        ));
        return Ok(baked);
    }
    let clips = select_clips(&model, rig, &job.selection)?;
    let names: Vec<String> = clips.iter().map(|&c| model.clips[c].name.clone()).collect();
    let shells = shells(job, &model, &model.skeleton);
    // clips this rig holds as Marionette baked them, at their own keys (kept key for key)
    let earlier = if job.fps.is_none() && !job.in_place {
        earlier_bakes(rig)
    } else {
        Default::default()
    };
    let reducer = Reducer {
        skeleton: &model.skeleton,
        shells: &shells,
        options,
        cancel: &job.cancel,
        notes: Default::default(),
    };
    let reduced = reducer.run(
        &names,
        progress,
        |i, _, frame| {
            let clip = &model.clips[clips[i]];
            if model.skeleton.is_empty() || (clip.tracks.is_empty() && clip.morphs.is_empty()) {
                return Err(BakeError::Settings(format!(
                    "{}: clip '{}' animates nothing (no translation, rotation, scale or morph \
                     weights channel): nothing to bake",
                    rig.display(),
                    clip.name
                )));
            }
            let mut baked = match job.fps {
                Some(fps) => {
                    check_size(&clip.name, frame_count(clip.end, fps), model.skeleton.len())?;
                    bake_clip(&model.skeleton, clip, fps, frame)
                }
                None => {
                    // refinement then stays within the sample limit (clip::max_frames)
                    let grid = super::clip_grid(clip);
                    check_size(&clip.name, grid.len(), model.skeleton.len())?;
                    bake_clip_keys(
                        &model.skeleton,
                        &shells,
                        clip,
                        (options.tolerance, options.morph_tolerance),
                        frame,
                    )
                }
            };
            if job.in_place {
                in_place(&root_space, model.skeleton.parents(), &mut baked);
            }
            Ok(baked)
        },
        // in place, the reference is no longer the source clip
        |i| (!job.in_place).then(|| &model.clips[clips[i]]),
        |i| {
            let clip = &model.clips[clips[i]];
            let earlier = earlier.get(&clip.name)?;
            keys_as_they_are(&model.skeleton, clip, earlier, options, shells.rule)
        },
        |i| {
            let at_own_keys = job.fps.is_none() && !job.in_place;
            at_own_keys
                .then(|| {
                    source_keys(
                        &model.skeleton,
                        &model.clips[clips[i]],
                        None,
                        options,
                        shells.rule,
                    )
                })
                .flatten()
        },
    )?;
    let into_rig = (!job.animation_only).then_some((into_path.as_path(), &target_model));
    let inputs = vec![rig.to_path_buf(), into_path.clone()];
    let mut baked = export(reduced, &target_model.skeleton, into_rig, inputs)?;
    // what the import fixed or read around, the source's glitches, then what the bake did
    let mut notes = model.warnings.clone();
    notes.extend(glitch_notes(job, rig, &model));
    notes.append(&mut baked.notes);
    notes.extend(reducer.notes.take());
    baked.notes = notes;
    Ok(baked)
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
            worst: None,
            shells: crate::ShellRule::Floor,
            against_source: None,
            passes: 1,
            morphs: crate::MorphStats::default(),
        };
        let options = ReduceOptions {
            tolerance: 1e-4,
            ..ReduceOptions::default()
        };
        assert!(within_budget(&stats(0.99e-4), &options).is_ok());
        for bad in [0.1, f64::NAN, f64::INFINITY] {
            let e = within_budget(&stats(bad), &options).unwrap_err();
            assert!(matches!(e, BakeError::OverBudget { .. }), "{e}");
            assert!(e.to_string().contains("over the 0.1000 mm budget"), "{e}");
        }
        let mut weights = stats(0.0);
        weights.morphs.max_error = 0.01;
        let e = within_budget(&weights, &options).unwrap_err();
        assert!(matches!(e, BakeError::MorphOverBudget { .. }), "{e}");
        weights.morphs.max_error = f32::NAN;
        assert!(within_budget(&weights, &options).is_err());
    }
}
