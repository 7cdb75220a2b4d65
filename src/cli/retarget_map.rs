//! `marionette retarget-map SOURCE CHARACTER [-o MAP.lua] [--force]`: the joint map proposed
//! between two rigs, as a Lua file to edit and pass to `retarget(clip, { map = ... })` or
//! `bake --retarget-to --map`. Each pair names the body part it is; the character's joints left
//! unmapped and what could not be found are comments at the end. Either rig may be the built-in
//! mannequin (`mannequin`).

use std::path::{Path, PathBuf};

use marionette::anim::retarget::JointMap;
use marionette::anim::Model;

/// Arguments of `retarget-map`.
#[derive(clap::Args)]
pub struct Args {
    /// The rig whose clips would be retargeted (`.glb`/`.gltf`/`.bvh`/`.fbx`, or `mannequin`).
    pub source: PathBuf,
    /// The character they would be put on (`.glb`/`.gltf`, or `mannequin`).
    pub character: PathBuf,
    /// Write the map to this file instead of printing it.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
}

/// A rig file, or the built-in mannequin for `mannequin`.
fn rig(path: &Path) -> anyhow::Result<Model> {
    if path == Path::new("mannequin") && !path.exists() {
        return Ok(marionette::mannequin::build());
    }
    super::load(path)
}

/// Runs `retarget-map`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (source, character) = (rig(&args.source)?, rig(&args.character)?);
    let auto = JointMap::auto(&character.skeleton, &source.skeleton);
    let shown = |p: &Path| p.display().to_string();
    let text = marionette::script::retarget_map::to_lua(
        &character.skeleton,
        &source.skeleton,
        &auto,
        (&shown(&args.character), &shown(&args.source)),
    );
    match &args.output {
        Some(out) => {
            super::args::refuse_existing(out, args.force)?;
            std::fs::write(out, text)
                .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", out.display()))?;
            eprintln!(
                "wrote {} ({} of {} joints mapped)",
                out.display(),
                auto.map.len(),
                character.skeleton.len()
            );
            // what the file says at its end, said here too
            for n in &auto.notes {
                eprintln!("note: {n}");
            }
        }
        None => print!("{text}"),
    }
    Ok(())
}
