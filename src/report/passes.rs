//! The bake passes a take ran, as `run --json` and `check --report` list them.

use serde::Serialize;

use marionette_script::ScriptedGraph;

/// `passes` in `run --json` and, per take, in `check --report`.
#[derive(Debug, Clone, Serialize)]
pub struct PassesReport {
    /// How many passes the take has (its own `passes`, else the graph's; 0 live).
    pub count: usize,
    /// Their names in order (`pass.despike`, `function(frames)`).
    pub names: Vec<String>,
    /// True when the frame shown is after them (false live, without passes, with
    /// `--no-passes`, or when a Lua pass failed).
    pub applied: bool,
    /// A line per thing they did (`take 'walk': despike: ...`).
    pub notes: Vec<String>,
}

impl PassesReport {
    /// The passes of the take `g` plays (none live), as it shows it now.
    pub fn of(g: &ScriptedGraph) -> PassesReport {
        let specs = g.take().map_or(&[][..], |t| g.script().spec.passes_for(t));
        PassesReport {
            count: specs.len(),
            names: specs.iter().map(|p| p.name()).collect(),
            applied: g.shows_passes(),
            notes: g.pass_notes().to_vec(),
        }
    }
}
