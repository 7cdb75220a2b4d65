//! `marionette` with no arguments: inspect the bundled mannequin (the editor comes later).

use std::path::PathBuf;

/// The bundled mannequin, relative to the project root.
const ASSET: &str = "assets/mannequin.glb";

/// Finds the mannequin next to the current directory, else in the source tree this binary was
/// built from.
fn locate() -> Option<PathBuf> {
    let here = PathBuf::from(ASSET);
    if here.is_file() {
        return Some(here);
    }
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(ASSET);
    built.is_file().then_some(built)
}

/// Inspects the mannequin and prints a hint of the other commands.
pub fn run() -> anyhow::Result<()> {
    let Some(path) = locate() else {
        anyhow::bail!(
            "the bundled mannequin ({ASSET}) is missing; build it with `marionette mannequin` \
             (or `cargo run --release -- mannequin`)"
        );
    };
    let args = super::inspect::Args {
        file: path,
        json: false,
    };
    super::inspect::run(&args)?;
    super::print(
        "\nnext: `marionette inspect FILE [--json]`, `marionette sample FILE --time SECONDS \
         [--clip NAME] [--json]`, `marionette --help` for every command",
    )
}
