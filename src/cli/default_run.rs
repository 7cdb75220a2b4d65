//! `marionette` with no arguments: a quick tour of the whole product on the bundled default,
//! headless. Inspects the mannequin (short), loads scripts/locomotion.lua and lists its
//! parameters and takes, bakes every take to `marionette-out/locomotion.glb`, renders a contact
//! sheet per take to `marionette-out/<take>.png` (skipped, with a hint, when no wgpu adapter
//! exists) and prints where everything went and what to try next.
//!
//! `marionette-out/` is the tour's own folder: every run refreshes what it wrote there (the one
//! exception to "an existing file is replaced only with `--force`"); nothing else is written.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use marionette::anim::graph::ParamValue;
use marionette::bake::{BakeJob, BakeSource};
use marionette::preview::{load_preview, ScriptPoses};
use marionette::render::{render_source, GpuContext, RenderError, RenderRequest, ADAPTER_ENV};
use marionette::report::inspect;

/// The bundled mannequin, relative to the project root.
const ASSET: &str = super::DEFAULT_RIG;
/// The bundled example script, relative to the project root.
const SCRIPT: &str = "scripts/locomotion.lua";
/// Where the tour writes (relative to the current directory).
pub const OUT_DIR: &str = "marionette-out";

/// The project root holding the bundled files: the current directory when it has them, else
/// the source tree this binary was built from.
fn locate() -> Option<PathBuf> {
    let has = |root: &Path| root.join(ASSET).is_file() && root.join(SCRIPT).is_file();
    let here = PathBuf::from(".");
    if has(&here) {
        return Some(here);
    }
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    has(&built).then_some(built)
}

fn print(text: &str) -> anyhow::Result<()> {
    super::print(text)
}

fn value(v: &ParamValue) -> String {
    match v {
        ParamValue::Float(x) => format!("{x}"),
        ParamValue::Bool(b) => format!("{b}"),
        ParamValue::Trigger(_) => "trigger".into(),
        ParamValue::Vec3(v) => format!("({}, {}, {})", v.x, v.y, v.z),
    }
}

/// Runs the tour.
pub fn run() -> anyhow::Result<()> {
    let started = Instant::now();
    let Some(root) = locate() else {
        anyhow::bail!(
            "the bundled files ({ASSET}, {SCRIPT}) are missing here and in {}; run from the \
             project folder (regenerate the mannequin with `marionette mannequin`)",
            env!("CARGO_MANIFEST_DIR")
        );
    };
    let (asset, script) = (root.join(ASSET), root.join(SCRIPT));
    let fallback = marionette::rigs::RigChoice {
        given: None,
        fallback: Some(asset.clone()),
    };
    let out = PathBuf::from(OUT_DIR);
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;

    // (a) The character.
    let model = super::load(&asset)?;
    let r = inspect(&model);
    let tris: usize = r.meshes.iter().map(|m| m.triangles).sum();
    print(&format!(
        "character {}: {} joints, {} skin(s), {} mesh(es) ({tris} triangles), clips: {}",
        asset.display(),
        r.joint_count,
        r.skins.len(),
        r.meshes.len(),
        r.clips
            .iter()
            .map(|c| format!("{} {:.2}s", c.name, c.duration))
            .collect::<Vec<_>>()
            .join(", ")
    ))?;

    // (b) The script.
    let mut loaded = load_preview(&script, &fallback).map_err(|e| anyhow::anyhow!("{e}"))?;
    // takes edited in the editor play here too (the sidecar beside the script, if any)
    super::sidecar::apply(&mut loaded.graph, &script, false)?;
    let edited = loaded.graph.edited_takes().to_vec();
    let params = loaded.graph.graph().params();
    print(&format!("\nscript {}", script.display()))?;
    print("  params:")?;
    for d in params.defs() {
        let range = match d.default {
            ParamValue::Float(_) => format!(" in [{}, {}]", d.min, d.max),
            _ => String::new(),
        };
        print(&format!("    {} = {}{range}", d.name, value(&d.default)))?;
    }
    let takes: Vec<(String, f32, f32)> = loaded
        .graph
        .takes()
        .into_iter()
        .map(|t| (t.name, t.duration, t.fps))
        .collect();
    print("  takes:")?;
    for (name, duration, fps) in &takes {
        print(&format!("    {name}: {duration}s at {fps} fps"))?;
    }
    drop(loaded);

    // (c) Bake every take, through the same code as `marionette bake SCRIPT`.
    let glb = out.join("locomotion.glb");
    let mut job = BakeJob::new(
        BakeSource::Script {
            script: script.clone(),
            rig: fallback.clone(),
        },
        &glb,
    );
    // the tour's own folder: refreshed on every run
    job.force = true;
    job.takes = edited.clone();
    let mut progress = super::progress::Progress::new(false);
    let report = marionette::bake::run(&job, &mut |p| progress.update(p));
    progress.finish();
    super::bake::print_report(&script, &report.context("baking the takes")?, false)?;
    print(&format!(
        "\nbaked {} take(s) -> {}",
        takes.len(),
        glb.display()
    ))?;

    // (d) A contact sheet per take.
    let mut sheets = Vec::new();
    match GpuContext::headless() {
        Ok(ctx) => {
            for (name, _, _) in &takes {
                let mut loaded =
                    load_preview(&script, &fallback).map_err(|e| anyhow::anyhow!("{e}"))?;
                loaded.graph.set_edited_takes(edited.clone());
                let mut poses = ScriptPoses::new(loaded.graph, Some(name), None)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                let req = RenderRequest {
                    width: 1024,
                    height: 512,
                    sheet: Some((4, 2)),
                    ..Default::default()
                };
                let img = render_source(&ctx, &loaded.model, &mut poses, &req)
                    .with_context(|| format!("cannot render take {name}"))?;
                let png = out.join(format!("{name}.png"));
                marionette::render::save_image(&img, &png)?;
                sheets.push(png);
            }
            print(&format!(
                "rendered {} contact sheet(s): {}",
                sheets.len(),
                sheets
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))?;
        }
        Err(RenderError::NoAdapter(msg)) => {
            let hint = if std::env::var_os(ADAPTER_ENV).is_some() {
                format!("unset {ADAPTER_ENV} or set it to one of the adapters listed")
            } else {
                "install a Vulkan driver, e.g. `apt-get install mesa-vulkan-drivers` (lavapipe, \
                 CPU only), and run again"
                    .to_string()
            };
            print(&format!("skipped the contact sheets: {msg}; {hint}"))?
        }
        Err(e) => return Err(e).context("cannot start the renderer"),
    }

    // (e) Where things went and what next.
    let first = takes.first().map_or("walk_to_run", |t| t.0.as_str());
    print(&format!(
        "\ndone in {:.2}s; everything is in {}/\n\nnext:\n  \
         marionette inspect {asset}\n  \
         marionette check {script}\n  \
         marionette run {script} --take {first} --time 1.5\n  \
         marionette render {script} --take {first} --time 1.5 --ghosts 2 -o {first}.png\n  \
         marionette bake {script} --take {first} -o {first}.glb\n  \
         marionette --help   (every command)",
        started.elapsed().as_secs_f64(),
        out.display(),
        asset = asset.display(),
        script = script.display(),
    ))
}
