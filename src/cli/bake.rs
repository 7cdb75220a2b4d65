//! `marionette bake INPUT [--rig FILE] [--clip NAME ... | --take NAME ... | --all] [--fps N]
//! [--tolerance-mm 0.1] [-o OUT.glb|OUT.gltf] [--in-place] [--animation-only] [--force] [--quiet]`.
//!
//! INPUT is a glTF rig (`.glb`/`.gltf`): its clips are resampled at `--fps` and reduced under
//! the world-space tolerance, then written back as animations (into a copy of the rig, or with
//! `--animation-only` into a skeleton-only file). One animation per clip, named after it; a
//! clip of the same name in the output is replaced.
//!
//! INPUT may also be a Lua script (`.lua`): its takes are baked through the preview's
//! evaluation path (see [`super::bake_script`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use marionette::io::bake::{
    apply_root_motion, bake_clip, export_document, reduce, write_document, BakeReport, Format,
    ReduceOptions, ReducedTake, RootMotion, Target,
};
use marionette::io::Model;

/// Arguments of `bake`.
#[derive(clap::Args)]
pub struct Args {
    /// The glTF rig whose clips are baked (`.glb` or `.gltf`), or a Lua script whose takes are.
    pub input: PathBuf,
    /// The rig to write into (default: INPUT). For a script: the rig `marionette.rig()` gives
    /// (default assets/mannequin.glb; a rig the script names itself wins).
    #[arg(long)]
    pub rig: Option<PathBuf>,
    /// Clip to bake (repeatable; name or index).
    #[arg(long = "clip", conflicts_with = "all")]
    pub clips: Vec<String>,
    /// Take to bake (repeatable; for a rig, the same as --clip; for a script, default all).
    #[arg(long = "take", conflicts_with = "all")]
    pub takes: Vec<String>,
    /// Bake every clip (the default when none is named).
    #[arg(long)]
    pub all: bool,
    /// Frames per second of the bake (default 30 for clips; a script take's own fps).
    #[arg(long)]
    pub fps: Option<f32>,
    /// World-space error budget in millimetres.
    #[arg(long = "tolerance-mm", default_value_t = 0.1)]
    pub tolerance_mm: f32,
    /// Output file (`.glb` or `.gltf` + `.bin`); default `<INPUT stem>.baked.glb` beside a rig
    /// INPUT, `<script stem>.glb` in the current folder for a script.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Remove root motion (ground-plane travel and turning of the root joints) so the
    /// animations play in place; by default the root joint carries it (for a script with
    /// `root_motion`, the motion the graph accumulated).
    #[arg(long)]
    pub in_place: bool,
    /// Write the skeleton nodes and the animations only.
    #[arg(long)]
    pub animation_only: bool,
    /// Allow the output to replace an input file.
    #[arg(long)]
    pub force: bool,
    /// No progress and no report.
    #[arg(long)]
    pub quiet: bool,
}

/// A progress line on stderr for bakes that run over a second.
pub(super) struct Progress {
    start: Instant,
    last: Option<Instant>,
    quiet: bool,
    label: String,
}

impl Progress {
    pub(super) fn new(quiet: bool, label: String) -> Self {
        Self {
            start: Instant::now(),
            last: None,
            quiet,
            label,
        }
    }

    pub(super) fn update(&mut self, done: usize, total: usize) {
        let now = Instant::now();
        if self.quiet || now - self.start < Duration::from_secs(1) {
            return;
        }
        if self
            .last
            .is_some_and(|l| now - l < Duration::from_millis(100))
            && done < total
        {
            return;
        }
        self.last = Some(now);
        let width = 30;
        let filled = (done * width) / total.max(1);
        let bar: String = "#".repeat(filled) + &"-".repeat(width - filled);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{} [{bar}] {done}/{total} frames", self.label);
        let _ = err.flush();
    }

    pub(super) fn finish(&self) {
        if self.last.is_some() {
            eprintln!();
        }
    }
}

/// Clip indices to bake: those named by --clip/--take, or all.
fn selected(model: &Model, args: &Args) -> anyhow::Result<Vec<usize>> {
    let names: Vec<&String> = args.clips.iter().chain(&args.takes).collect();
    if names.is_empty() {
        if model.clips.is_empty() {
            bail!("{}: has no clips to bake", args.input.display());
        }
        return Ok((0..model.clips.len()).collect());
    }
    let mut out = Vec::new();
    for n in names {
        let i = marionette::report::find_clip(model, n)
            .with_context(|| format!("{}", args.input.display()))?;
        if !out.contains(&i) {
            out.push(i);
        }
    }
    Ok(out)
}

/// One line per take: frames, keys written vs raw, measured error.
pub fn report_line(r: &BakeReport) -> String {
    format!(
        "{:<20} {:>6} frames  {:>7} / {:>8} keys ({:>5.1}%)  {:>4} channels  max {:.4} mm  p99 {:.4} mm",
        r.take,
        r.frames,
        r.keys,
        r.raw_keys,
        100.0 * r.keys as f64 / r.raw_keys.max(1) as f64,
        r.channels,
        r.max_error * 1e3,
        r.p99_error * 1e3,
    )
}

/// True for a `.lua` input.
fn is_script(input: &Path) -> bool {
    input
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("lua"))
}

/// Default output: `<stem>.baked.glb` beside the input.
fn default_output(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bake".into());
    input.with_file_name(format!("{stem}.baked.glb"))
}

/// Bakes, reduces and writes.
pub fn run(args: &Args) -> anyhow::Result<()> {
    if let Some(fps) = args.fps {
        if !(fps.is_finite() && fps > 0.0) {
            bail!("--fps must be a positive number, got {fps}");
        }
    }
    if !(args.tolerance_mm.is_finite() && args.tolerance_mm >= 0.0) {
        bail!(
            "--tolerance-mm must be zero or positive, got {}",
            args.tolerance_mm
        );
    }
    if is_script(&args.input) {
        return super::bake_script::run(args);
    }
    let fps = args.fps.unwrap_or(30.0);
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| default_output(&args.input));
    Format::of(&output)?;
    let ext = args
        .input
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("glb" | "gltf")) {
        bail!(
            "{}: give a .glb/.gltf rig to bake its clips, or a .lua script to bake its takes",
            args.input.display()
        );
    }
    let model = super::load(&args.input)?;
    let rig_path = args.rig.clone().unwrap_or_else(|| args.input.clone());
    let rig = if rig_path == args.input {
        model.clone()
    } else {
        super::load(&rig_path)?
    };
    if rig.skeleton.names() != model.skeleton.names() {
        bail!(
            "{}: its skeleton differs from {}'s",
            rig_path.display(),
            args.input.display()
        );
    }
    let options = ReduceOptions {
        tolerance: args.tolerance_mm * 1e-3,
        ..Default::default()
    };
    let root_motion = if args.in_place {
        RootMotion::InPlace
    } else {
        RootMotion::Keep
    };
    let mut reduced: Vec<ReducedTake> = Vec::new();
    for ci in selected(&model, args)? {
        let clip = &model.clips[ci];
        let mut progress = Progress::new(args.quiet, format!("baking {}", clip.name));
        let mut take = bake_clip(&model.skeleton, clip, fps, &mut |d, t| {
            progress.update(d, t)
        });
        progress.finish();
        apply_root_motion(&model.skeleton, &mut take, root_motion);
        reduced.push(reduce(&model.skeleton, &take, &options)?);
    }
    let target = if args.animation_only {
        Target::AnimationOnly {
            skeleton: &rig.skeleton,
        }
    } else {
        Target::Rig {
            source: &rig_path,
            joint_nodes: &rig.joint_nodes,
        }
    };
    let doc = export_document(&reduced, target)?;
    let mut inputs = doc.inputs.clone();
    inputs.push(args.input.clone());
    inputs.push(rig_path.clone());
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
