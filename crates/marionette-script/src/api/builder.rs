//! The state a script builds while its main chunk runs ([`Builder`]): the rigs, the spec's nodes
//! with the rig each animates and where each was made, and the mistakes found so far.

use std::rc::Rc;

use mlua::RegistryKey;

use crate::rig::{Rig, RigLoader};
use crate::spec::{GraphSpec, NodeId, NodeSpec};

/// State collected while a script's main chunk runs.
pub(crate) struct Builder {
    /// Loads the character and the files the script names.
    pub loader: RigLoader,
    /// The character, loaded on first need.
    pub rig: Option<Rc<Rig>>,
    /// Other rigs the script named (`marionette.rig("other.glb")`): rig `k` of a clip is
    /// `sources[k - 1]` (0 is the character).
    pub sources: Vec<Rc<Rig>>,
    /// Set once the character is settled by the script: its first `marionette.rig(file)` (the
    /// file, unless `--rig` named one) or `marionette.rig()` ran.
    pub named_character: bool,
    /// Set once the script named any file with `marionette.rig(file)`.
    pub named_file: bool,
    /// The rig each node animates (`None` for a placeholder or a node mixing rigs).
    pub node_rigs: Vec<Option<usize>>,
    /// The description being built.
    pub spec: GraphSpec,
    /// Lua predicates of transitions (`Condition::Predicate(i)` is entry `i`).
    pub predicates: Vec<RegistryKey>,
    /// Lua bake passes (`PassKind::Lua(i)` is entry `i`).
    pub pass_fns: Vec<RegistryKey>,
    /// Where `graph { ... }` was called (build errors point here).
    pub graph_line: Option<crate::Location>,
    /// The `post(pose, ctx)` function, if any.
    pub post: Option<RegistryKey>,
    /// Set once a mask, an ik/adjust operation or side pairs were made from the rig: like a
    /// clip node, they hold its joints, so `marionette.rig(path)` may no longer replace it.
    pub rig_used: bool,
    /// Set once `graph { ... }` ran.
    pub finished: bool,
    /// Warnings (`file:line: warning: ...`) for things that load but likely do nothing.
    pub warnings: Vec<String>,
    /// Mistakes found so far (see [`record`]); the script is rejected with all of them.
    pub errors: Vec<crate::ScriptError>,
}

impl Builder {
    /// A builder that loads rigs with `loader`.
    pub fn new(loader: RigLoader) -> Self {
        Builder {
            loader,
            rig: None,
            sources: Vec::new(),
            named_character: false,
            named_file: false,
            node_rigs: Vec::new(),
            spec: GraphSpec::default(),
            predicates: Vec::new(),
            pass_fns: Vec::new(),
            graph_line: None,
            post: None,
            rig_used: false,
            finished: false,
            warnings: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Adds a node made at `at` (the script line of the call) and returns its id (its index in
    /// the spec's nodes).
    pub fn push(&mut self, node: NodeSpec, at: Option<crate::Location>) -> NodeId {
        let rig = self.rig_of_new(&node, &at);
        self.node_rigs.push(rig);
        self.spec.nodes.push(node);
        self.spec.sources.nodes.push(at);
        // (exact: each node costs a Lua call; far fewer than 2^32 fit in a load budget or memory)
        NodeId::new((self.spec.nodes.len() - 1).min(u32::MAX as usize) as u32)
    }
}

impl Builder {
    /// The rig `k` (0: the character, once loaded).
    pub fn rig_at(&self, k: usize) -> Option<&Rc<Rig>> {
        match k {
            0 => self.rig.as_ref(),
            k => self.sources.get(k - 1),
        }
    }

    /// How messages name rig `k`: `the character (mannequin)`, `RobotExpressive.glb`.
    pub fn rig_name(&self, k: usize) -> String {
        match (k, self.rig_at(k)) {
            (0, Some(r)) => format!("the character ({})", r.short_name()),
            (0, None) => "the character".to_string(),
            (_, Some(r)) => r.short_name().to_string(),
            (k, None) => format!("rig #{k}"),
        }
    }

    /// The rig a new node animates: a clip's, the character for a retarget, else its inputs'
    /// (a node mixing rigs is a mistake, recorded at `at`).
    fn rig_of_new(&mut self, node: &NodeSpec, at: &Option<crate::Location>) -> Option<usize> {
        match node {
            NodeSpec::Clip(c) => return Some(c.rig),
            NodeSpec::Retarget(_) => return Some(0),
            NodeSpec::Invalid => return None,
            _ => {}
        }
        let mut found: Option<usize> = None;
        for input in node.inputs() {
            let r = self.node_rigs.get(input.index()).copied().flatten()?;
            match found {
                Some(f) if f != r => {
                    let (a, b) = (self.rig_name(f.min(r)), self.rig_name(f.max(r)));
                    let other = self.rig_name(f.max(r).max(1));
                    self.errors.push(crate::ScriptError {
                        location: at.clone(),
                        message: format!(
                            "{} mixes poses of {a} and of {b}: one node animates one rig; put {other}'s on the character with retarget(node, {{ from = ... }}) first",
                            node.lua_name()
                        ),
                        ..Default::default()
                    });
                    return None;
                }
                _ => found = Some(r),
            }
        }
        found
    }
}
