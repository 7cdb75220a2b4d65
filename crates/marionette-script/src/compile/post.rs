//! Declarative post-process operations (`ik.*`, `adjust.*`, `morph.set` in
//! `graph { post = { ... } }`) to graph [`PostOp`]s: each lowers itself
//! ([`crate::post_kind`]); this looks up what it names in the graph being built.

use super::errors::{graph_err, param_id};
use crate::error::ScriptError;
use crate::host::LoadedScript;
use crate::lookup::Lookup;
use crate::spec::PostSpec;
use marionette_anim::graph::{self as g, GraphBuilder, ParamId, PostOp};
use marionette_anim::JointIndex;

/// Names looked up in the graph being built; errors at the script's `graph { }` call.
struct Names<'a> {
    b: &'a GraphBuilder,
    script: &'a LoadedScript,
}

impl Lookup for Names<'_> {
    type Error = ScriptError;

    fn param(&self, name: &str) -> Result<ParamId, ScriptError> {
        param_id(self.b, self.script, name)
    }

    fn joint(&self, name: &str) -> Result<JointIndex, ScriptError> {
        self.b.joint(name).map_err(|e| graph_err(self.script, e))
    }

    fn morphs(&self, name: &str) -> Result<Vec<u32>, ScriptError> {
        let found = self.b.skeleton().morphs().find(name);
        if found.is_empty() {
            let e = g::GraphError::UnknownMorph(name.to_string());
            return Err(graph_err(self.script, e));
        }
        // (exact: a rig has far fewer than 2^32 morph targets)
        Ok(found.into_iter().map(|k| k as u32).collect())
    }

    fn skeleton(&self) -> &marionette_anim::Skeleton {
        self.b.skeleton()
    }

    fn rest_height(&self, joint: JointIndex) -> f32 {
        marionette_anim::rest_positions(self.b.skeleton())
            .get(joint as usize)
            .map_or(0.0, |p| p.y)
    }
}

pub(super) fn post_op(
    b: &GraphBuilder,
    script: &LoadedScript,
    op: &PostSpec,
) -> Result<PostOp, ScriptError> {
    op.lower(&Names { b, script })
}
