//! The editor's sidecar (`SCRIPT.marionette.json`) on the command line: every command that
//! plays a script's takes (`run`, `check`, `render`, `bake`) plays the takes edited or recorded
//! in the editor instead of the script's takes of the same names, as the editor shows them,
//! and says so in one line on stderr. `--no-sidecar` plays the script as written. The file is
//! only read: a sidecar that cannot be used is an error naming it (fix it in the editor, or
//! pass `--no-sidecar`), never silently skipped.

use std::path::Path;

use marionette::anim::graph::Take;
use marionette::editor::sidecar::{self, fingerprint, ScriptBase};
use marionette::script::runtime::take_of;
use marionette::script::spec::GraphSpec;
use marionette::script::ScriptedGraph;

/// The sidecar's takes for `script` (none with `no_sidecar` or when there is no file), after
/// one line on stderr naming them and a warning for each take the script changed since it was
/// edited (`spec`: the script's own description; `None` checks nothing) and each invalid take
/// left out.
pub fn edited_takes(
    script: &Path,
    spec: Option<&GraphSpec>,
    no_sidecar: bool,
) -> anyhow::Result<Vec<Take>> {
    if no_sidecar {
        return Ok(Vec::new());
    }
    let path = sidecar::path_for(script);
    let file = match sidecar::read(&path) {
        Ok(Some(file)) => file,
        Ok(None) => return Ok(Vec::new()),
        Err(e) => anyhow::bail!("{e} (fix it in the editor, or pass --no-sidecar to ignore it)"),
    };
    for k in &file.kept {
        eprintln!(
            "warning: {}: take '{}' is not valid ({}) and is not used",
            path.display(),
            k.name,
            k.problem
        );
    }
    if file.takes.is_empty() {
        return Ok(Vec::new());
    }
    let n = file.takes.len();
    eprintln!(
        "using {n} edited take{} from {} (--no-sidecar ignores it)",
        if n == 1 { "" } else { "s" },
        path.display()
    );
    let mut takes = Vec::with_capacity(n);
    for t in &file.takes {
        let take = t.take();
        let changed = spec.is_some_and(|spec| {
            let script_take = spec.take(&take.name).map(take_of);
            t.script != ScriptBase::Unknown && t.script != fingerprint(script_take.as_ref())
        });
        if changed {
            eprintln!(
                "warning: the script changed take '{}' since it was edited in the editor; the \
                 edited take is used (revert it in the editor, or pass --no-sidecar)",
                take.name
            );
        }
        takes.push(take);
    }
    Ok(takes)
}

/// [`edited_takes`] set on `graph`, so its takes play as the editor shows them.
pub fn apply(graph: &mut ScriptedGraph, script: &Path, no_sidecar: bool) -> anyhow::Result<()> {
    let takes = edited_takes(script, Some(&graph.script().spec), no_sidecar)?;
    graph.set_edited_takes(takes);
    Ok(())
}
