//! Subcommand handlers of the `marionette` binary (argument structs, printing, errors via
//! anyhow). Reports themselves are built by the library (`marionette::report`).

pub mod args;
pub mod bake;
mod bake_key;
pub mod batch;
pub mod bench;
pub mod check;
pub mod default_run;
pub mod edit;
pub mod inspect;
mod interrupt;
mod manifest;
pub mod mannequin;
mod progress;
pub mod render;
pub mod retarget_map;
pub mod run;
pub mod sample;
mod shard;
mod sidecar;
mod table;

use std::path::Path;

use anyhow::Context;
use marionette::Model;

/// The bundled mannequin, relative to the working folder: the character a script gets when
/// neither `--rig` nor the script names one (and it is there), and what `mannequin` writes.
pub const DEFAULT_RIG: &str = "assets/mannequin.glb";

/// The rig a script gets when it does not name one: `--rig`, else assets/mannequin.glb next to
/// the current directory, else the built-in mannequin (`None`).
/// The character of a script the command line runs: `--rig` (which wins over the script's own
/// `marionette.rig(file)`), else the script's, else `assets/mannequin.glb` when present, else
/// the built-in mannequin.
pub fn rig_choice(rig: Option<&Path>) -> marionette::rigs::RigChoice {
    let fallback = std::path::PathBuf::from(DEFAULT_RIG);
    marionette::rigs::RigChoice {
        given: rig.map(Path::to_path_buf),
        fallback: (rig.is_none() && fallback.is_file()).then_some(fallback),
    }
}

/// A model file to load: `rig`, else `assets/mannequin.glb` when present (`None`: the built-in
/// mannequin).
pub fn default_rig(rig: Option<&Path>) -> Option<std::path::PathBuf> {
    rig.map(Path::to_path_buf).or_else(|| {
        let p = std::path::PathBuf::from(DEFAULT_RIG);
        p.is_file().then_some(p)
    })
}

/// A `--turn-limit`, checked: a positive number of degrees per second.
pub fn turn_limit(limit: f32) -> anyhow::Result<f32> {
    if limit.is_finite() && limit > 0.0 {
        Ok(limit)
    } else {
        anyhow::bail!("--turn-limit must be a positive number of degrees per second, not {limit}")
    }
}

/// Imports a glTF file; the error already names the file and the glTF path.
pub fn load(path: &Path) -> anyhow::Result<Model> {
    if !path.exists() {
        anyhow::bail!("{}: no such file", path.display());
    }
    Ok(marionette::io::import(path)?)
}

/// [`load`], printing what the import fixed or read around (a BVH's unit, a texture left
/// behind) as notes on stderr: for commands whose output does not list them (`inspect` does).
pub fn load_noting(path: &Path) -> anyhow::Result<Model> {
    let model = load(path)?;
    for w in &model.warnings {
        eprintln!("note: {w}");
    }
    Ok(model)
}

/// A script's error for the command line: what the script printed before it failed goes to
/// stderr first (`script: line`, as a working script's output is shown), then the error (every
/// mistake found, each `file:line: message`).
pub fn script_error(script: &Path, e: marionette::script::ScriptError) -> anyhow::Error {
    for line in &e.printed {
        eprintln!("{}: {line}", script.display());
    }
    for w in &e.warnings {
        eprintln!("{w}");
    }
    anyhow::anyhow!("{e}")
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value).context("cannot serialise the report")?;
    print(&text)
}

/// Prints a line on stdout; a closed pipe (`marionette inspect F | head`) is not an error.
pub fn print(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("cannot write to stdout"))
        }
        _ => Ok(()),
    }
}
