//! `marionette render FILE|SCRIPT [--clip NAME | --take NAME] --time SECONDS [--size WxH]
//! [--overlay skeleton,axes] [--heatmap JOINT] [--ghosts N] [--sheet COLSxROWS] -o OUT.png
//! [--force]`.
//!
//! Every argument is checked before anything is loaded or rendered (sizes against the device
//! once it is open); an existing output is replaced only with `--force`; a script whose `post`
//! fails still gets its image written (drawn without `post`) but the exit status is non-zero.

use std::path::PathBuf;

use anyhow::{bail, Context};

use super::args;
use marionette::preview::{load_preview, ScriptPoses};
use marionette::render::{
    render_model, render_source, GpuContext, PoseSource, RenderError, RenderRequest, ViewOptions,
};
use marionette::Model;

/// Debug overlays drawn on top of the character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Overlay {
    /// Bones and joints (the `--select`ed joint highlighted).
    Skeleton,
    /// Joint local axes, RGB = XYZ.
    Axes,
}

/// Arguments of `render`.
#[derive(clap::Args)]
pub struct Args {
    /// The .gltf / .glb / .bvh / .fbx file, or a .lua script (renders its graph's pose).
    pub file: PathBuf,
    #[command(flatten)]
    pub passes: super::args::Passes,
    /// Character for a script that does not name one (default: assets/mannequin.glb, or the
    /// built-in mannequin).
    #[arg(long)]
    pub rig: Option<PathBuf>,
    /// Clip name or index (default: the first clip, or the rest pose if there is none).
    #[arg(long, conflicts_with = "take")]
    pub clip: Option<String>,
    /// Take of a script (parameter keys over time; default: its first take); needs a script.
    #[arg(long)]
    pub take: Option<String>,
    /// Play the script's takes as written: leave out the takes edited or recorded in the
    /// editor (the sidecar SCRIPT.marionette.json), which are used by default.
    #[arg(long)]
    pub no_sidecar: bool,
    /// Set a live parameter of a script (renders live parameters, not a take): NAME=VALUE,
    /// e.g. speed=2.5, look=0,1.6,2. Repeatable; needs --time.
    #[arg(long = "set", value_name = "NAME=VALUE", conflicts_with = "take")]
    pub set: Vec<String>,
    /// Time in seconds (glTF key time), at least 0; past a take's end shows its last frame.
    #[arg(long, allow_negative_numbers = true, value_parser = args::seconds_f32,
          required_unless_present = "sheet")]
    pub time: Option<f32>,
    /// Image size, WIDTHxHEIGHT (each side at most the device's largest texture, e.g. 16384).
    #[arg(long, default_value = "512x512", value_parser = parse_pair)]
    pub size: (u32, u32),
    /// Overlays, comma separated: skeleton, axes.
    #[arg(long, value_delimiter = ',')]
    pub overlay: Vec<Overlay>,
    /// Joint (name or index) whose skin weights are shown as a heatmap (warm = 1).
    #[arg(long)]
    pub heatmap: Option<String>,
    /// Joint (name or index) highlighted in the skeleton overlay.
    #[arg(long)]
    pub select: Option<String>,
    /// Onion-skin ghosts: N past and N future frames, translucent (0 to 32).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = args::ghosts)]
    pub ghosts: u32,
    /// Seconds between ghost frames (> 0).
    #[arg(long, default_value_t = 1.0 / 6.0, allow_negative_numbers = true,
          value_parser = args::step)]
    pub ghost_step: f32,
    /// Contact sheet COLSxROWS: frames evenly spaced over the clip (at most 1024 cells, each
    /// at least 16x16 pixels of --size).
    #[arg(long, value_parser = parse_pair)]
    pub sheet: Option<(u32, u32)>,
    /// Hide the ground grid.
    #[arg(long)]
    pub no_grid: bool,
    /// Output image: `.png`, or `.jpg` (RGB: JPEG has no alpha).
    #[arg(short = 'o', long = "output", value_parser = args::image_path)]
    pub output: PathBuf,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Parses `AxB` (e.g. `512x512`, `4x3`) into two positive integers.
pub fn parse_pair(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WxH (e.g. 512x512), got '{s}'"))?;
    let a: u32 = a
        .trim()
        .parse()
        .map_err(|_| format!("'{a}' is not a positive integer"))?;
    let b: u32 = b
        .trim()
        .parse()
        .map_err(|_| format!("'{b}' is not a positive integer"))?;
    if a == 0 || b == 0 {
        return Err(format!("'{s}': both numbers must be at least 1"));
    }
    Ok((a, b))
}

/// Finds a joint by exact name or index.
fn find_joint(model: &Model, spec: &str) -> anyhow::Result<u16> {
    if let Some(j) = model.skeleton.find(spec) {
        return Ok(j);
    }
    match spec.trim().parse::<usize>() {
        Ok(i) if i < model.skeleton.len() => Ok(i as u16),
        _ => bail!(
            "no joint '{spec}' (joints: {})",
            model.skeleton.names().join(", ")
        ),
    }
}

/// Debug views asked for on the command line.
fn view_options(args: &Args, model: &Model) -> anyhow::Result<ViewOptions> {
    Ok(ViewOptions {
        grid: !args.no_grid,
        // a model without meshes (a BVH) is its skeleton
        skeleton: args.overlay.contains(&Overlay::Skeleton) || model.meshes.is_empty(),
        axes: args.overlay.contains(&Overlay::Axes),
        selected_joint: args
            .select
            .as_deref()
            .map(|s| find_joint(model, s))
            .transpose()?,
        heatmap_joint: args
            .heatmap
            .as_deref()
            .map(|s| find_joint(model, s))
            .transpose()?,
        ghosts: args.ghosts,
        ghost_step: args.ghost_step,
        joint_colors: Vec::new(),
        compare: None,
    })
}

/// Checks what needs neither a file nor a device: the overwrite rule and the sheet's cells.
fn check_args(args: &Args) -> anyhow::Result<()> {
    args::refuse_existing(&args.output, args.force)?;
    if let Some((cols, rows)) = args.sheet {
        let (w, h) = args.size;
        let cells = u64::from(cols) * u64::from(rows);
        if cells > u64::from(args::MAX_CELLS) {
            bail!(
                "--sheet {cols}x{rows} is {cells} cells; a contact sheet has at most {}",
                args::MAX_CELLS
            );
        }
        let min = args::MIN_CELL;
        if w / cols < min || h / rows < min {
            bail!(
                "--sheet {cols}x{rows} at --size {w}x{h} gives cells of {}x{} pixels; cells need \
                 at least {min}x{min} (at most {}x{} cells fit, or raise --size)",
                w / cols,
                h / rows,
                w / min,
                h / min
            );
        }
    }
    Ok(())
}

/// Checks the image size against the device: each side within its largest texture, and a frame
/// (a sheet's cell) within what it can read back. One line instead of wgpu's errors.
fn check_device_size(ctx: &GpuContext, args: &Args) -> anyhow::Result<()> {
    let (w, h) = args.size;
    let (cols, rows) = args.sheet.unwrap_or((1, 1));
    let max = ctx.device.limits().max_texture_dimension_2d;
    let result = if w > max || h > max {
        Err(RenderError::Size {
            width: w,
            height: h,
            max,
        })
    } else {
        ctx.check_image_size(w / cols, h / rows)
    };
    result.map_err(|e| anyhow::anyhow!("--size {w}x{h}: {e} on {}", ctx.info.name))
}

/// Renders a script's graph (a take, or live parameters up to `--time`) and writes the image.
fn run_script(args: &Args) -> anyhow::Result<()> {
    if let Some(clip) = &args.clip {
        bail!("--clip {clip}: a script renders its graph; pick a --take instead");
    }
    check_args(args)?;
    let rig = super::rig_choice(args.rig.as_deref());
    let mut loaded =
        load_preview(&args.file, &rig).map_err(|e| super::script_error(&args.file, e))?;
    super::sidecar::apply(&mut loaded.graph, &args.file, args.no_sidecar)?;
    let view = view_options(args, &loaded.model)?;
    let live_rate = loaded.graph.graph().step_rate();
    let has_takes = !loaded.graph.take_names().is_empty();
    let mut poses = if args.set.is_empty() {
        if let (false, Some(t)) = (has_takes, args.time) {
            args::live_time(f64::from(t), live_rate)?;
        }
        ScriptPoses::new(loaded.graph, args.take.as_deref(), args.time)
    } else {
        let Some(end) = args.time else {
            bail!("--set: give --time SECONDS (live parameters play from 0 to it)");
        };
        args::live_time(f64::from(end), live_rate)?;
        let mut sets = Vec::new();
        for s in &args.set {
            let (n, v) =
                marionette::script::set::split_assignment(s).map_err(|e| anyhow::anyhow!("{e}"))?;
            sets.push((n.to_string(), v.to_string()));
        }
        ScriptPoses::live(loaded.graph, end, |g| {
            sets.iter().try_for_each(|(n, v)| {
                if let Some(w) = g.set_text(n, v)? {
                    eprintln!("warning: {w}");
                }
                Ok(())
            })
        })
    }
    .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    if let (Some(take), Some(t), None) = (poses.take(), args.time, args.sheet) {
        let end = poses.range().1;
        if t > end {
            eprintln!(
                "note: --time {t} is past the end of take '{take}' ({end} s): drawing its last frame"
            );
        }
    }
    let req = RenderRequest {
        width: args.size.0,
        height: args.size.1,
        clip: None,
        time: args.time.unwrap_or(0.0),
        view,
        sheet: args.sheet,
    };
    let ctx = GpuContext::headless()?;
    check_device_size(&ctx, args)?;
    let image = render_source(&ctx, &loaded.model, &mut poses, &req)
        .with_context(|| format!("cannot render {}", args.file.display()))?;
    for line in poses.graph().script().log() {
        eprintln!("{}: {line}", args.file.display());
    }
    marionette::render::save_image(&image, &args.output)?;
    eprintln!(
        "wrote {} ({}x{}, take {})",
        args.output.display(),
        image.width(),
        image.height(),
        poses.take().unwrap_or("(live)")
    );
    if let Some(e) = poses.graph().runtime_error() {
        let instead = if poses.graph().pass_error().is_some() {
            "the image was drawn without the take's passes"
        } else {
            "the image was drawn without post"
        };
        bail!("{}: runtime error ({instead}): {e}", args.file.display());
    }
    Ok(())
}

/// Renders the file headlessly and writes the image.
pub fn run(args: &Args) -> anyhow::Result<()> {
    args.passes.apply();
    let is_script = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lua"));
    if is_script {
        return run_script(args);
    }
    if let Some(take) = &args.take {
        bail!("--take {take}: takes come from scripts; give a .lua script, or --clip for a glTF");
    }
    if args.rig.is_some() {
        bail!("--rig: only scripts take a rig; a glTF file is its own character");
    }
    if let Some(first) = args.set.first() {
        bail!("--set {first}: only scripts have parameters; give a .lua script");
    }
    check_args(args)?;
    let model = super::load_noting(&args.file)?;
    let clip = match &args.clip {
        Some(spec) => Some(model.find_clip(spec)?),
        None => (!model.clips.is_empty()).then_some(0),
    };
    let view = view_options(args, &model)?;
    let req = RenderRequest {
        width: args.size.0,
        height: args.size.1,
        clip,
        time: args.time.unwrap_or(0.0),
        view,
        sheet: args.sheet,
    };
    let ctx = GpuContext::headless()?;
    check_device_size(&ctx, args)?;
    let image = render_model(&ctx, &model, &req)
        .with_context(|| format!("cannot render {}", args.file.display()))?;
    marionette::render::save_image(&image, &args.output)?;
    eprintln!(
        "wrote {} ({}x{})",
        args.output.display(),
        image.width(),
        image.height()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes parse as WxH and reject zeros and garbage.
    #[test]
    fn pairs() {
        assert_eq!(parse_pair("640x480"), Ok((640, 480)));
        assert_eq!(parse_pair("4X3"), Ok((4, 3)));
        assert!(parse_pair("0x3").is_err());
        assert!(parse_pair("640").is_err());
        assert!(parse_pair("ax3").is_err());
    }
}
