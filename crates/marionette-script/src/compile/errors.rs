//! Where a compile error is placed: at the node's line, or at the script's `graph { }` call, and
//! what the script calls a node in it.

use crate::error::ScriptError;
use crate::host::LoadedScript;
use crate::spec::{self, GraphSpec, NodeSpec};
use marionette_anim::graph::{GraphBuilder, ParamId};

/// What the script calls spec node `id` (`blend2d`, `clip`, ...).
pub(super) fn lua_name(spec: &GraphSpec, id: spec::NodeId) -> String {
    match spec.nodes.get(id.index()) {
        Some(NodeSpec::Invalid) | None => format!("node {}", id.index()),
        Some(n) => n.lua_name().to_string(),
    }
}

/// An error not tied to one node: at the script's `graph { }` call.
pub(crate) fn graph_err(script: &LoadedScript, e: impl std::fmt::Display) -> ScriptError {
    ScriptError {
        location: script.graph_line.clone(),
        message: e.to_string(),
        ..ScriptError::default()
    }
}

/// `e` placed at the line that made spec node `id` (kept where that is unknown).
pub(super) fn at_node(script: &LoadedScript, id: spec::NodeId, e: ScriptError) -> ScriptError {
    match script.spec.sources.node(id) {
        Some(loc) => ScriptError {
            location: Some(loc.clone()),
            ..e
        },
        None => e,
    }
}

/// The id of a declared parameter; errors name it.
pub(crate) fn param_id(
    b: &GraphBuilder,
    script: &LoadedScript,
    name: &str,
) -> Result<ParamId, ScriptError> {
    b.param(name)
        .ok_or_else(|| graph_err(script, format!("unknown parameter '{name}'")))
}
