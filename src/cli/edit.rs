//! `marionette edit [SCRIPT] [--rig FILE] [--screenshot OUT.png --frames N --time T
//! --take NAME --size WxH] [--panel graph] [--stats]`: opens the editor window on a script (default: the
//! bundled mannequin with scripts/locomotion.lua). `--screenshot` runs N frames, saves the
//! whole window as a PNG and exits — on the real window when a display exists, else headless
//! through the same UI code. `--stats` prints the frame time split at exit; `--play` starts
//! playback (e.g. `--play --frames 300 --screenshot x.png --stats` measures playing frames).
//! A script that does not load opens too: the error banner over the rig at rest, loaded by the
//! save that fixes it (`--screenshot` writes that window and exits 0).

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{anyhow, Context};
use marionette::editor::{self as shell, ShellOptions};
use marionette::editor::{Editor, EditorOptions, Msaa, Panel};
use marionette::render::GpuContext;

/// Arguments of `edit`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// The Lua script (default: scripts/locomotion.lua of the project).
    pub script: Option<PathBuf>,
    #[command(flatten)]
    pub passes: super::args::Passes,
    /// The character when the script names none (default: assets/mannequin.glb, else the
    /// built-in mannequin).
    #[arg(long)]
    pub rig: Option<PathBuf>,
    /// Save the whole window as a PNG after `--frames` frames and exit (an existing file is
    /// replaced only with `--force`).
    #[arg(long, value_name = "OUT.png", value_parser = super::args::png_path)]
    pub screenshot: Option<PathBuf>,
    /// Replace the `--screenshot` file if it exists.
    #[arg(long, requires = "screenshot")]
    pub force: bool,
    /// Frames to run before the screenshot (1 to 100000).
    #[arg(long, default_value_t = 5, allow_negative_numbers = true,
          value_parser = super::args::edit_frames)]
    pub frames: u32,
    /// Start at this time (seconds, at least 0).
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::seconds)]
    pub time: Option<f64>,
    /// Start on this take.
    #[arg(long)]
    pub take: Option<String>,
    /// Select a joint, a mesh with morph targets (the outliner then shows its weights) or a
    /// named node of the graph (the graph view shows where it is made, the viewport the
    /// joints it drives).
    #[arg(long, value_name = "JOINT|MESH|NODE")]
    pub select: Option<String>,
    /// Open a panel whatever the sidecar says: outliner, inspector, console or graph (the
    /// graph view); repeat for more.
    #[arg(long, value_name = "PANEL", value_parser = parse_panel)]
    pub panel: Vec<Panel>,
    /// Window size in pixels, WxH.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Print the frame time split (script, graph, render, UI) at exit.
    #[arg(long)]
    pub stats: bool,
    /// Leave the sidecar (SCRIPT.marionette.json) alone: neither load its takes, camera and
    /// view nor save anything to it; the script's takes as written.
    #[arg(long)]
    pub no_sidecar: bool,
    /// Start playing (with `--screenshot --frames N --stats`: measure playback).
    #[arg(long)]
    pub play: bool,
    /// Viewport multisampling: auto (4x on a GPU, off on a CPU rasteriser such as lavapipe),
    /// on or off.
    #[arg(long, default_value = "auto", value_parser = parse_msaa)]
    pub msaa: Msaa,
}

fn parse_msaa(s: &str) -> Result<Msaa, String> {
    match s {
        "auto" => Ok(Msaa::Auto),
        "on" => Ok(Msaa::On),
        "off" => Ok(Msaa::Off),
        _ => Err(format!("'{s}': expected auto, on or off")),
    }
}

fn parse_panel(s: &str) -> Result<Panel, String> {
    Panel::NAMES
        .iter()
        .find(|(name, _)| *name == s)
        .map(|&(_, p)| p)
        .ok_or_else(|| {
            let names: Vec<&str> = Panel::NAMES.iter().map(|(n, _)| *n).collect();
            format!("'{s}': expected one of {}", names.join(", "))
        })
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("'{s}': expected WxH, e.g. 1280x720"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|&v| (16..=8192).contains(&v))
            .ok_or_else(|| format!("'{s}': each side must be 16..=8192 pixels"))
    };
    Ok((n(w)?, n(h)?))
}

/// The bundled script: scripts/locomotion.lua here, else in the source tree.
fn default_script() -> PathBuf {
    let here = PathBuf::from("scripts/locomotion.lua");
    if here.is_file() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomotion.lua")
}

/// The editor options for `args` (script and rig defaults resolved).
pub fn options(args: &Args) -> anyhow::Result<EditorOptions> {
    let script = args.script.clone().unwrap_or_else(default_script);
    if !script.is_file() {
        anyhow::bail!("{}: no such file", script.display());
    }
    let mut rig = super::rig_choice(args.rig.as_deref());
    if rig.given.is_none() && rig.fallback.is_none() {
        let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join(super::DEFAULT_RIG);
        rig.fallback = bundled.is_file().then_some(bundled);
    }
    Ok(EditorOptions {
        script,
        rig,
        take: args.take.clone(),
        time: args.time,
        play: args.play,
        msaa: args.msaa,
        sidecar: !args.no_sidecar,
        save_sidecar: args.screenshot.is_none() && !args.no_sidecar,
        select: args.select.clone(),
        panels: args.panel.clone(),
    })
}

/// Runs `edit`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    args.passes.apply();
    if let Some(shot) = &args.screenshot {
        super::args::refuse_existing(shot, args.force)?;
    }
    let opts = options(args)?;
    match shell::event_loop() {
        Ok(el) => run_window(el, args, opts),
        Err(why) if args.screenshot.is_some() => {
            super::print(&format!(
                "marionette: {why}; rendering the screenshot headless"
            ))?;
            headless_screenshot(args, &opts)
        }
        Err(why) => Err(anyhow!(
            "{why}: the editor needs a window (try `xvfb-run -a marionette edit`, or \
             `marionette edit --screenshot OUT.png` to render it without one)"
        )),
    }
}

/// Opens the window on an event loop that already exists (the no-argument entry uses this
/// after checking for a display).
pub fn run_window(
    el: winit::event_loop::EventLoop<()>,
    args: &Args,
    opts: EditorOptions,
) -> anyhow::Result<()> {
    let outcome = shell::run_window(
        el,
        ShellOptions {
            editor: opts,
            size: [args.size.0, args.size.1],
            screenshot: args.screenshot.clone(),
            frames: args.frames,
        },
    )
    .map_err(|e| anyhow!(e))?;
    if let Some(p) = &args.screenshot {
        super::print(&format!("wrote {}", p.display()))?;
    }
    if args.stats {
        super::print(&format!(
            "{} at {}x{} on {}",
            outcome.stats.report(),
            args.size.0,
            args.size.1,
            outcome.adapter
        ))?;
    }
    Ok(())
}

/// `--screenshot` with no display: the same editor UI rendered offscreen.
fn headless_screenshot(args: &Args, opts: &EditorOptions) -> anyhow::Result<()> {
    let out = args.screenshot.as_ref().context("no screenshot path")?;
    let gpu = Rc::new(GpuContext::headless()?);
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let renderer = Arc::new(egui::mutex::RwLock::new(egui_wgpu::Renderer::new(
        &gpu.device,
        format,
        egui_wgpu::RendererOptions::default(),
    )));
    // (its message already holds its source's, as the window shows it: not chained again)
    let mut editor =
        Editor::new(gpu.clone(), renderer.clone(), opts).map_err(|e| anyhow!("{e}"))?;
    let ctx = egui::Context::default();
    let start = std::time::Instant::now();
    let img = marionette::editor::headless_screenshot(
        &gpu,
        &renderer,
        &ctx,
        [args.size.0, args.size.1],
        args.frames,
        1.0 / 60.0,
        &mut |ui| editor.ui(ui),
    )?;
    marionette::render::save_image(&img, out)?;
    super::print(&format!("wrote {}", out.display()))?;
    if args.stats {
        let mut stats = editor.stats().clone();
        stats.wall = start.elapsed();
        super::print(&format!(
            "{} (headless) on {}",
            stats.report(),
            gpu.info.name
        ))?;
    }
    Ok(())
}
