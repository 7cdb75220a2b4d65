//! `--select NAME`: what a name given on the command line selects when the editor opens — a
//! joint, a mesh with morph targets, a graph node (by its name; a clip player's is its clip's)
//! or a state (its node) — and the message when nothing is called so.

use super::action::Action;
use super::app::Editor;
use super::console::Level;

impl Editor {
    /// Selects the joint, the mesh with morph targets or the node called `name` (`--select`).
    pub(crate) fn select_named(&mut self, name: &str) -> Result<(), String> {
        let skeleton = &self.session.model().skeleton;
        if let Some(j) = skeleton.find(name) {
            self.apply(Action::SelectJoint(Some(j)));
            return Ok(());
        }
        let sets = skeleton.morphs().sets();
        if let Some(s) = sets.iter().position(|s| s.name == name) {
            self.apply(Action::SelectMorphSet(Some(s)));
            return Ok(());
        }
        let found = self.session.running().map(|g| named_nodes(g, name));
        if let Some((first, count, nodes)) = found {
            if let Some(node) = first {
                if count > 1 {
                    let at = self
                        .session
                        .running()
                        .and_then(|g| g.node_location(node))
                        .map_or(String::new(), |l| {
                            format!(" (made at {}:{})", l.file, l.line)
                        });
                    self.console.push(
                        Level::Warn,
                        format!(
                            "--select: {count} graph nodes are called '{name}': the first{at} \
                             is selected; name the one you mean in the script ({{ name = ... }})"
                        ),
                    );
                }
                self.apply(Action::SelectNode(Some(node)));
                return Ok(());
            }
            let names = skeleton
                .names()
                .iter()
                .map(String::as_str)
                .chain(sets.iter().map(|s| s.name.as_str()))
                .chain(nodes.iter().map(String::as_str));
            let near = marionette_script::spec::did_you_mean(name, names);
            let listed: Vec<&str> = nodes.iter().take(12).map(String::as_str).collect();
            let more = if nodes.len() > 12 { ", ..." } else { "" };
            return Err(format!(
                "--select: no joint, mesh with morph targets, graph node or state called \
                 '{name}'{near} (graph nodes and states: {}{more})",
                listed.join(", ")
            ));
        }
        let names = skeleton
            .names()
            .iter()
            .map(String::as_str)
            .chain(sets.iter().map(|s| s.name.as_str()));
        Err(format!(
            "--select: no joint or mesh with morph targets called '{name}'{}",
            marionette_script::spec::did_you_mean(name, names)
        ))
    }
}

/// The graph node called `name` — by its own name (a clip player's is its clip's), else a state
/// of a state machine (its node) — with how many are so called, and every name there is (nodes
/// then states, each once) for the message when none is.
fn named_nodes(
    g: &marionette_script::ScriptedGraph,
    name: &str,
) -> (Option<marionette_anim::graph::NodeId>, usize, Vec<String>) {
    let graph = g.graph();
    let mut matches: Vec<marionette_anim::graph::NodeId> = graph
        .nodes()
        .filter(|n| n.name == Some(name))
        .map(|n| n.id)
        .collect();
    let mut names: Vec<String> = Vec::new();
    for n in graph.nodes() {
        if let Some(nm) = n.name {
            if !names.iter().any(|x| x == nm) {
                names.push(nm.to_string());
            }
        }
    }
    for info in graph.state_machines() {
        if let Some(sm) = graph.state_machine(info.node) {
            for st in sm.states() {
                if st.name == name && matches.is_empty() {
                    matches.push(st.node);
                }
                if !names.contains(&st.name) {
                    names.push(st.name.clone());
                }
            }
        }
    }
    (matches.first().copied(), matches.len(), names)
}
