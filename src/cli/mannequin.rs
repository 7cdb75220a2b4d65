//! `marionette mannequin [-o PATH]`: regenerates the bundled default character.

use std::path::PathBuf;

use anyhow::Context;
use marionette::io::{to_document, write_document};

/// Arguments of `mannequin`.
#[derive(clap::Args)]
pub struct Args {
    /// Output file: `.glb`, or `.gltf` (then the buffer is written next to it as `NAME.bin`).
    #[arg(short, long, default_value = "assets/mannequin.glb")]
    pub output: PathBuf,
}

/// Builds the mannequin and writes it through the codec (temporary files renamed into place).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let model = marionette::mannequin::build();
    let out = &args.output;
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
