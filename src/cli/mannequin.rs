//! `marionette mannequin [-o PATH] [--force]`: regenerates the bundled default character. Like
//! every command it replaces an existing file (the default assets/mannequin.glb included) only
//! with `--force`.

use std::path::PathBuf;

use anyhow::Context;
use marionette::io::{to_document, write_document, Format};

/// Arguments of `mannequin`.
#[derive(clap::Args)]
pub struct Args {
    /// Output file: `.glb`, or `.gltf` (then the buffer is written next to it as `NAME.bin`).
    #[arg(short, long, default_value = "assets/mannequin.glb")]
    pub output: PathBuf,
    /// Replace the output (and for `.gltf` its `.bin`) if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Builds the mannequin and writes it through the codec (temporary files renamed into place).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let model = marionette::mannequin::build();
    let out = &args.output;
    let format = Format::of(out)?;
    super::args::refuse_existing(out, args.force)?;
    if format == Format::Gltf {
        super::args::refuse_existing(&out.with_extension("bin"), args.force)?;
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let doc = to_document(&model)?;
    let written = write_document(&doc, out, true, &[])?;
    let sizes: Vec<String> = written
        .iter()
        .map(|p| {
            let bytes = std::fs::metadata(p).map_or(0, |m| m.len());
            format!("{} ({bytes} bytes)", p.display())
        })
        .collect();
    super::print(&format!("wrote {}", sizes.join(" and ")))
}
