//! `marionette mannequin [--puppet | --creature | --production [--joints N]] [-o PATH] [--force]`:
//! regenerates the bundled
//! default character (or, with `--puppet`, the second rig the retargeting example takes clips
//! from, `scripts/puppet.glb`; with `--creature`, the mannequin with a tail and ears the
//! procedural-rigging example uses, `scripts/creature.glb`: each beside the example that names it;
//! with `--production`, the production-size test rig, never shipped, into `marionette-out/`).
//! Like every command it replaces an existing file (the defaults included) only with `--force`.

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
    #[arg(long, conflicts_with = "production")]
    pub creature: bool,
    /// The production-size test rig instead (not shipped; default output
    /// marionette-out/production.glb): fingers, twist bones, a face, hair and skirt chains, 256
    /// joints (see --joints) and twenty clips, for measuring cost against rig size.
    #[arg(long, conflicts_with = "puppet")]
    pub production: bool,
    /// Joints of the production rig (with --production): 256 by default, at least the named
    /// ones (fingers, twists, face) and at most 10000.
    #[arg(long, requires = "production", value_parser = joints)]
    pub joints: Option<usize>,
    /// Replace the output (and for `.gltf` its `.bin`) if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `--joints N`: the named joints' count up to 10000.
fn joints(s: &str) -> Result<usize, String> {
    let min = marionette::mannequin::production::min_joints();
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}': expected a whole number of joints"))?;
    if (min..=10_000).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} joints: a production rig has {min} to 10000 (its named joints are {min})"
        ))
    }
}

/// Builds the mannequin and writes it through the codec (temporary files renamed into place).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (model, default) = if args.puppet {
        (
            marionette::mannequin::puppet::build(),
            "scripts/puppet.glb".to_string(),
        )
    } else if args.creature {
        (
            marionette::mannequin::creature::build(),
            "scripts/creature.glb".to_string(),
        )
    } else if args.production {
        let n = args
            .joints
            .unwrap_or(marionette::mannequin::production::JOINTS);
        let default = match args.joints {
            Some(n) => format!("marionette-out/production_{n}.glb"),
            None => "marionette-out/production.glb".to_string(),
        };
        (marionette::mannequin::production::build(n), default)
    } else {
        (
            marionette::mannequin::build(),
            super::DEFAULT_RIG.to_string(),
        )
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
