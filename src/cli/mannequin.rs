//! `marionette mannequin [-o PATH]`: regenerates the bundled default character.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// Arguments of `mannequin`.
#[derive(clap::Args)]
pub struct Args {
    /// Output file: `.glb`, or `.gltf` (then the buffer is written next to it as `NAME.bin`).
    #[arg(short, long, default_value = "assets/mannequin.glb")]
    pub output: PathBuf,
}

/// Builds the mannequin and writes it (to a temporary file first, then renamed into place).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let model = marionette::mannequin::build();
    let out = &args.output;
    let is_gltf = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
    if is_gltf {
        let bin_path = out.with_extension("bin");
        let bin_name = bin_path
            .file_name()
            .and_then(|n| n.to_str())
            .context("output file name is not valid UTF-8")?
            .to_string();
        let (json, bin) = marionette::io::to_gltf(&model, &bin_name)?;
        write_atomic(&bin_path, &bin)?;
        write_atomic(out, json.as_bytes())?;
        println!("wrote {} and {}", out.display(), bin_path.display());
    } else {
        let glb = marionette::io::to_glb(&model)?;
        write_atomic(out, &glb)?;
        println!("wrote {} ({} bytes)", out.display(), glb.len());
    }
    Ok(())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}
