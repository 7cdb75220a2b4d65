//! `marionette mannequin [--puppet | --creature] [-o PATH] [--force]`: regenerates the bundled
//! default character (or, with `--puppet`, the second rig the retargeting example takes clips
//! from, `scripts/puppet.glb`; with `--creature`, the mannequin with a tail and ears the
//! procedural-rigging example uses, `scripts/creature.glb`: each beside the example that names it). Like every command it replaces an existing file (the defaults
//! included) only with `--force`.

use std::path::PathBuf;

use anyhow::Context;
use marionette::io::{to_document, write_document, Format};

/// Arguments of `mannequin`.
#[derive(clap::Args)]
pub struct Args {
    /// Output file: `.glb`, or `.gltf` (then the buffer is written next to it as `NAME.bin`);
    /// default assets/mannequin.glb (scripts/puppet.glb with --puppet, scripts/creature.glb
    /// with --creature).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The puppet instead: another rig made by project code (Mixamo-style names, no root
    /// joint, a two-joint spine, other proportions and bone rolls, an A-pose rest, a Z-up
    /// armature in centimetres) with its own clips, for the retargeting example.
    #[arg(long, conflicts_with = "creature")]
    pub puppet: bool,
    /// The creature instead: the mannequin with a six-joint tail and two-joint ears, for the
    /// procedural-rigging example (springs, constraints, chain IK).
    #[arg(long)]
    pub creature: bool,
    /// Replace the output (and for `.gltf` its `.bin`) if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Builds the mannequin and writes it through the codec (temporary files renamed into place).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (model, default) = if args.puppet {
        (marionette::mannequin::puppet::build(), "scripts/puppet.glb")
    } else if args.creature {
        (
            marionette::mannequin::creature::build(),
            "scripts/creature.glb",
        )
    } else {
        (marionette::mannequin::build(), "assets/mannequin.glb")
    };
    let out = &args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(default));
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
