//! `marionette bake INPUT [--rig FILE] [--clip NAME ... | --take NAME ... | --all] [--fps N]
//! [--tolerance-mm 0.1] [--morph-tolerance 0.001] [--curves linear|cubic] [--quantize on|off]
//! [-o OUT.glb|OUT.gltf] [--in-place] [--animation-only] [--force] [--quiet]`.
//!
//! INPUT is a glTF rig (`.glb`/`.gltf`): its clips are sampled at their own key times (or
//! resampled at `--fps`) and reduced under the world-space tolerance, measured against the
//! clips themselves on every joint's shell (`--shell-mm`, default its farthest vertex), then written back as animations (into a copy of the rig, or with
//! `--animation-only` into a skeleton-only file). One animation per clip, named after it; a
//! clip of the same name in the output is replaced.
//!
//! INPUT may also be a Lua script (`.lua`): its takes are baked through the preview's
//! evaluation path. The rig is `--rig`, else assets/mannequin.glb, else the built-in
//! mannequin (`marionette.rig("file")` names its own); the rate is the take's own fps unless
//! `--fps` is given; the default output is `<script stem>.glb` in the current folder.
//!
//! An existing output (given with `-o` or the default) is replaced only with `--force`, checked
//! before anything is evaluated; so is an input. `--fps` is limited like a take's fps (1..1000)
//! and every take to [`marionette::anim::time::MAX_FRAMES`] frames and
//! [`marionette::bake::MAX_SAMPLES`] frames × joints, checked before it is sampled.
//!
//! Morph target weights (`weights` channels) are baked beside the joints, reduced under
//! `--morph-tolerance` (a weight difference, default 0.001) at frames and between them.
//!
//! With `--retarget-to CHARACTER [--map MAP.lua]`, INPUT's clips are put on CHARACTER (a
//! script underneath: each clip retargeted, one take each) and written into a copy of it
//! (default output `<INPUT stem>.on.<CHARACTER stem>.glb` beside INPUT).
//!
//! This file only parses and prints: the bake itself is [`marionette::bake::run`].

use std::path::{Path, PathBuf};

use anyhow::bail;
use marionette::bake::{BakeJob, BakeReport, BakeSource, Curves, ErrorAt, ReduceStats, Selection};

/// Arguments of `bake`.
#[derive(clap::Args)]
pub struct Args {
    /// The rig whose clips are baked (`.glb`, `.gltf`, or a `.bvh` / `.fbx` converted to glTF),
    /// or a Lua script whose takes are (not with --manifest).
    #[arg(required_unless_present = "manifest", conflicts_with = "manifest")]
    pub input: Option<PathBuf>,
    /// Bake every bake a TOML manifest lists, in parallel on the cores; each output gets a
    /// content key beside it (OUT.key) and is skipped while the key holds (see the guide's
    /// "Batch bakes"). The settings are the manifest's: only --shard, --force and --quiet go
    /// with it.
    #[arg(long, value_name = "BAKES.toml")]
    pub manifest: Option<PathBuf>,
    /// With --manifest: bake only the I-th of N shards of it (I from 0, as Kubernetes'
    /// completion index): every N-th bake from the I-th.
    #[arg(long, value_name = "I/N", requires = "manifest", value_parser = super::shard::parse_shard)]
    pub shard: Option<super::shard::Shard>,
    #[command(flatten)]
    pub passes: super::args::Passes,
    /// The rig to write into (default: INPUT). For a script: the character `marionette.rig()`
    /// gives, whatever file the script names itself (default: the script's own
    /// `marionette.rig(file)`, else assets/mannequin.glb).
    #[arg(long, conflicts_with = "retarget_to")]
    pub rig: Option<PathBuf>,
    /// Put INPUT's clips on this character (retargeted: each clip a take), and write them into
    /// a copy of it.
    #[arg(long = "retarget-to", value_name = "CHARACTER")]
    pub retarget_to: Option<PathBuf>,
    /// With --retarget-to: the joint map file (what `marionette retarget-map` prints, edited;
    /// it may also set `rest`, `scale` and `ik`); default: the proposed map.
    #[arg(long, requires = "retarget_to")]
    pub map: Option<PathBuf>,
    /// With --retarget-to: what both rigs are aligned in: `auto` (each rig's rest, or a T-pose
    /// made from each when the rests differ by more than 15 degrees at a limb, with a note),
    /// `rest` or `tpose`; default: the map file's, else `auto`.
    #[arg(long, requires = "retarget_to", value_parser = ["auto", "rest", "tpose"])]
    pub rest: Option<String>,
    /// Clip to bake (repeatable; name or index).
    #[arg(long = "clip", conflicts_with = "all")]
    pub clips: Vec<String>,
    /// Take to bake (repeatable; for a rig, the same as --clip; for a script, default all).
    #[arg(long = "take", conflicts_with = "all")]
    pub takes: Vec<String>,
    /// Bake every clip (the default when none is named).
    #[arg(long)]
    pub all: bool,
    /// Frames per second of the bake, 1 to 1000 (default: a clip's own key times, a script
    /// take's own fps). A clip resampled at a rate reports what that costs against it.
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::fps)]
    pub fps: Option<f32>,
    /// World-space error budget in millimetres (at least 0.001).
    #[arg(long = "tolerance-mm", default_value_t = 0.1, allow_negative_numbers = true,
          value_parser = super::args::millimetres)]
    pub tolerance_mm: f32,
    /// Morph weight tolerance: the largest difference in any morph target's weight the
    /// reduced keys may have from the source, at frames and between them (0.000001 to 1).
    #[arg(long = "morph-tolerance", default_value_t = marionette::bake::DEFAULT_MORPH_TOLERANCE,
          allow_negative_numbers = true, value_parser = super::args::morph_tolerance)]
    pub morph_tolerance: f32,
    /// Measure every joint's rotation error this far out, in millimetres (default: each
    /// joint's farthest skinned vertex, so the budget bounds every vertex; 100 for a rig
    /// without a mesh).
    #[arg(long = "shell-mm", allow_negative_numbers = true, value_parser = super::args::shell_millimetres)]
    pub shell_mm: Option<f32>,
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
    /// Replace the output if it exists (even when it is an input: re-baking into the rig); with
    /// --manifest, re-bake every bake even where its key holds.
    #[arg(long)]
    pub force: bool,
    /// Note the input rig's joints that turn faster than this many degrees per second between
    /// two keys (a capture's glitches, baked as they are).
    #[arg(long, value_name = "DEG_PER_S", default_value_t = marionette::anim::fast_turns::DEFAULT_TURN_LIMIT)]
    pub turn_limit: f32,
    /// Bake the script's takes as written: leave out the takes edited or recorded in the
    /// editor (the sidecar SCRIPT.marionette.json), which are baked by default.
    #[arg(long)]
    pub no_sidecar: bool,
    /// Key profile: `linear` (LINEAR keys, STEP only where the source is stepped: plays the
    /// same in Blender, three.js and engines) or `cubic` (fewest keys, CUBICSPLINE tangents for
    /// clients that honour them; Blender 3.4 does not).
    #[arg(long, default_value = "linear", value_parser = ["linear", "cubic"])]
    pub curves: String,
    /// Rotation keys as normalized 16-bit integers (half the bytes of floats) wherever the
    /// budget allows, measured as clients decode them: `on` (the default) or `off` (every key
    /// a float, as bakes before 16-bit keys wrote).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub quantize: String,
    /// No progress and no report.
    #[arg(long)]
    pub quiet: bool,
}

/// One line per take: frames, keys written vs raw, the largest vertex error (a bound on every
/// vertex: each joint at its shell) and where it is; for a clip resampled at `--fps`, what the
/// resampling costs against the clip itself; for a rig with morph targets, the same figures
/// of its weights channels.
pub fn report_line(r: &ReduceStats) -> String {
    let at = |w: &Option<ErrorAt>| match w {
        Some(w) => format!(" at {:.4} s '{}'", w.time, w.joint),
        None => String::new(),
    };
    let source = match &r.against_source {
        Some(s) => format!(
            "  resampling costs {:.4} mm{}",
            s.error * 1e3,
            at(&r.against_source)
        ),
        None => String::new(),
    };
    let m = &r.morphs;
    let morphs = if m.raw_keys > 0 {
        let at = |w: &Option<marionette::bake::MorphErrorAt>| match w {
            Some(w) => format!(" at {:.4} s '{}'", w.time, w.target),
            None => String::new(),
        };
        let source = match &m.against_source {
            Some(s) => format!(
                " (resampling costs {:.5}{})",
                s.error,
                at(&m.against_source)
            ),
            None => String::new(),
        };
        format!(
            "  morph weights: {} / {} keys, {} channels, max {:.5}{}{source}",
            m.keys,
            m.raw_keys,
            m.channels,
            m.max_error,
            at(&m.worst)
        )
    } else {
        String::new()
    };
    format!(
        "{:<20} {:>6} frames  {:>7} / {:>8} keys ({:>5.1}%)  {:>4} channels  max {:.4} mm{}  p99 {:.4} mm{source}{morphs}",
        r.take,
        r.frames,
        r.keys,
        r.raw_keys,
        100.0 * r.keys as f64 / r.raw_keys.max(1) as f64,
        r.channels,
        r.max_error * 1e3,
        at(&r.worst),
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

/// Default output of a retarget: `<source stem>.on.<character stem>.glb` beside the source.
fn default_retarget_output(source: &Path, character: &Path) -> PathBuf {
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "rig".into())
    };
    source.with_file_name(format!("{}.on.{}.glb", stem(source), stem(character)))
}

/// Default output of a script: `<script stem>.glb` in the current folder.
fn default_script_output(script: &Path) -> PathBuf {
    let stem = script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bake".into());
    PathBuf::from(format!("{stem}.glb"))
}

/// The job the arguments describe.
pub fn job(args: &Args) -> anyhow::Result<BakeJob> {
    let input = args.input.clone().unwrap_or_default();
    let script = is_script(&input);
    if script && !args.clips.is_empty() {
        bail!(
            "{}: a script has takes, not clips; name them with --take",
            input.display()
        );
    }
    let names: Vec<String> = args.clips.iter().chain(&args.takes).cloned().collect();
    // a script's takes as the editor shows them: the sidecar's edits (the editor's Bake passes
    // the same takes, so both write the same bytes)
    let takes = if script {
        script_edits(args, &input)?
    } else {
        Vec::new()
    };
    let (source, output) = if let Some(character) = &args.retarget_to {
        if script {
            bail!(
                "{}: --retarget-to puts a rig's clips on another rig; a script retargets with retarget(clip, {{ from = rig }})",
                input.display()
            );
        }
        let output = args
            .output
            .clone()
            .unwrap_or_else(|| default_retarget_output(&input, character));
        let source = BakeSource::Retarget {
            source: input.clone(),
            character: character.clone(),
            map: args.map.clone(),
            rest: args
                .rest
                .as_deref()
                .and_then(marionette::anim::retarget::ReferencePose::from_name),
        };
        (source, output)
    } else if script {
        let output = args
            .output
            .clone()
            .unwrap_or_else(|| default_script_output(&input));
        let source = BakeSource::Script {
            script: input.clone(),
            rig: super::rig_choice(args.rig.as_deref()),
        };
        (source, output)
    } else {
        let output = args
            .output
            .clone()
            .unwrap_or_else(|| default_output(&input));
        let source = BakeSource::Clips {
            rig: input.clone(),
            into: args.rig.clone(),
        };
        (source, output)
    };
    Ok(BakeJob {
        source,
        selection: if names.is_empty() {
            Selection::All
        } else {
            Selection::Named(names)
        },
        fps: args.fps,
        tolerance_mm: args.tolerance_mm,
        morph_tolerance: args.morph_tolerance,
        output,
        animation_only: args.animation_only,
        force: args.force,
        in_place: args.in_place,
        curves: Curves::parse(&args.curves).unwrap_or_default(),
        quantize: args.quantize != "off",
        shell_mm: args.shell_mm,
        takes,
        cancel: marionette::bake::Cancel::new(),
        turn_limit: super::turn_limit(args.turn_limit)?,
        passes: !args.passes.no_passes,
    })
}

/// The sidecar's takes for the script being baked (see [`super::sidecar`]); the script is
/// read once more for its own takes only when there is a sidecar (a script that does not load
/// is reported by the bake itself).
fn script_edits(args: &Args, input: &Path) -> anyhow::Result<Vec<marionette::anim::graph::Take>> {
    let path = marionette::editor::sidecar_path(input);
    if args.no_sidecar || !path.exists() {
        return Ok(Vec::new());
    }
    let rig = super::rig_choice(args.rig.as_deref());
    let loaded = marionette::preview::load_preview(input, &rig).ok();
    super::sidecar::edited_takes(input, loaded.as_ref().map(|p| &p.graph), false)
}

/// Prints a bake's report: the script's log and notes on stderr, a line per take and the files
/// written on stdout (unless `quiet`).
pub fn print_report(input: &Path, report: &BakeReport, quiet: bool) -> anyhow::Result<()> {
    for line in &report.log {
        eprintln!("{}: {line}", input.display());
    }
    if quiet {
        return Ok(());
    }
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    for t in &report.takes {
        super::print(&report_line(&t.stats))?;
    }
    let files: Vec<String> = report
        .files
        .iter()
        .map(|f| f.path.display().to_string())
        .collect();
    super::print(&format!("wrote {}", files.join(", ")))
}

/// Bakes, reduces and writes (through [`marionette::bake::run`]) and prints the report.
pub fn run(args: &Args) -> anyhow::Result<()> {
    args.passes.apply();
    if args.shard.is_some() {
        bail!("--shard splits a manifest's bakes: give it with --manifest BAKES.toml");
    }
    let job = job(args)?;
    super::interrupt::cancel_on_ctrl_c(&job.cancel);
    let mut progress = super::progress::Progress::new(args.quiet);
    let result = marionette::bake::run(&job, &mut |p| progress.update(p));
    progress.finish();
    if let Err(marionette::bake::BakeError::Cancelled) = &result {
        anyhow::bail!("bake cancelled (Ctrl-C); nothing was written");
    }
    print_report(&job_input(args), &result?, args.quiet)
}

/// INPUT (given unless --manifest is).
fn job_input(args: &Args) -> PathBuf {
    args.input.clone().unwrap_or_default()
}
