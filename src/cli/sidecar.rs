//! The editor's sidecar (`SCRIPT.marionette.json`) on the command line: every command that
//! plays a script's takes (`run`, `check`, `render`, `bake`) plays the takes edited or recorded
//! in the editor instead of the script's takes of the same names, as the editor shows them,
//! and says so in one line on stderr. `--no-sidecar` plays the script as written. The file is
//! only read: a sidecar that cannot be used is an error naming it (fix it in the editor, or
//! pass `--no-sidecar`), never silently skipped.

use std::path::Path;

use marionette::anim::graph::Take;
use marionette::editor::{read_sidecar, sidecar_path, SidecarError};
use marionette::script::ScriptedGraph;

/// The sidecar's takes for `script` (none with `no_sidecar` or when there is no file), after
/// one line on stderr naming them and a warning for each take the script changed since it was
/// edited. Each take is checked as a script's take is (`graph`: the script, `None` checks
/// nothing) and a take the editor could not load is an error too: a command never plays the
/// script's take in place of an edit it cannot use without saying so and failing.
pub fn edited_takes(
    script: &Path,
    graph: Option<&ScriptedGraph>,
    no_sidecar: bool,
) -> anyhow::Result<Vec<Take>> {
    if no_sidecar {
        return Ok(Vec::new());
    }
    let path = sidecar_path(script);
    let file = match read_sidecar(&path) {
        Ok(Some(file)) => file,
        Ok(None) => return Ok(Vec::new()),
        Err(e @ SidecarError::Newer { .. }) => {
            anyhow::bail!("{e} (open it with that newer Marionette, or pass --no-sidecar)")
        }
        Err(e) => anyhow::bail!("{e} (fix or remove it, or pass --no-sidecar)"),
    };
    let fix = "fix it in the editor or by hand, or pass --no-sidecar";
    if let Some(k) = file.kept.first() {
        anyhow::bail!(
            "{}: edited take '{}' is not valid: {} ({fix})",
            path.display(),
            k.name,
            k.problem
        );
    }
    if file.takes.is_empty() {
        return Ok(Vec::new());
    }
    let mut takes: Vec<Take> = Vec::with_capacity(file.takes.len());
    for t in &file.takes {
        let take = t.take.clone();
        if takes.iter().any(|k| k.name == take.name) {
            anyhow::bail!(
                "{}: take '{}' is stored twice ({fix})",
                path.display(),
                take.name
            );
        }
        if let Some(problem) = graph.and_then(|g| g.take_problem(&take)) {
            anyhow::bail!("{}: {problem} ({fix})", path.display());
        }
        takes.push(take);
    }
    let n = takes.len();
    eprintln!(
        "using {n} edited take{} from {} (--no-sidecar ignores it)",
        if n == 1 { "" } else { "s" },
        path.display()
    );
    if let Some(spec) = graph.map(|g| &g.script().spec) {
        for (t, take) in file.takes.iter().zip(&takes) {
            if t.script.changed(spec.take(&take.name)) {
                eprintln!(
                    "warning: the script changed take '{}' since it was edited in the editor; \
                     the edited take is used (revert it in the editor, or pass --no-sidecar)",
                    take.name
                );
            }
        }
    }
    Ok(takes)
}

/// [`edited_takes`] set on `graph`, so its takes play as the editor shows them.
pub fn apply(graph: &mut ScriptedGraph, script: &Path, no_sidecar: bool) -> anyhow::Result<()> {
    let takes = edited_takes(script, Some(graph), no_sidecar)?;
    graph.set_edited_takes(takes);
    Ok(())
}
