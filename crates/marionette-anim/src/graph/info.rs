//! Introspection for the CLI and UI: events crossed, node weights and phases, active states and
//! transition progress (the records, and the [`Graph`] methods that report them).

use super::compiled::Node;
use super::lead::phase_of;
use super::node_id::NodeId;
use super::runtime::Graph;
use super::state::NodeState;
use super::state_machine::StateMachine;

/// A clip event crossed, or a state event fired, during the last `advance`.
#[derive(Clone, Debug, PartialEq)]
pub struct EventInfo<'a> {
    /// The clip player, or the state machine.
    pub node: NodeId,
    /// Event name.
    pub name: &'a str,
    /// Event time in the clip, or for a state event the time in the state (seconds since it
    /// was entered: 0 on enter, the time spent in it on exit).
    pub time: f32,
    /// Effective weight of the player (or the state machine) when the event fired.
    pub weight: f32,
    /// The state, for a state event (`None`: a clip event).
    pub state: Option<&'a str>,
}

/// One node's status after the last step.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeInfo<'a> {
    /// The node.
    pub id: NodeId,
    /// Its name, if given.
    pub name: Option<&'a str>,
    /// Its kind (`clip`, `blend space 1D`, ...).
    pub kind: &'static str,
    /// Effective weight in the output.
    pub weight: f32,
    /// Normalised phase (clip players, and nodes that follow one).
    pub phase: Option<f32>,
    /// The clip a clip player plays (its name).
    pub clip: Option<&'a str>,
}

/// A running transition, for display.
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionInfo<'a> {
    /// The state it left.
    pub from: &'a str,
    /// The state it goes to.
    pub to: &'a str,
    /// Linear progress 0..1.
    pub progress: f32,
    /// Target weight (progress through the curve).
    pub weight: f32,
    /// True when the source is a frozen pose.
    pub frozen: bool,
    /// True when it is inertial (no source; the outgoing pose's offset decays).
    pub inertial: bool,
    /// True when it interrupted another transition.
    pub interrupted: bool,
}

/// A state machine's status, for display.
#[derive(Clone, Debug, PartialEq)]
pub struct StateMachineInfo<'a> {
    /// The state machine node.
    pub node: NodeId,
    /// Its name, if given.
    pub name: Option<&'a str>,
    /// The current (target) state.
    pub current: &'a str,
    /// Seconds in the current state.
    pub state_time: f32,
    /// The running transition, if any.
    pub transition: Option<TransitionInfo<'a>>,
}

/// A retarget node, for display: what it reads and how (see [`Graph::retargets`]).
#[derive(Clone, Debug)]
pub struct RetargetInfo<'a> {
    /// The retarget node.
    pub node: NodeId,
    /// Its name, if given.
    pub name: Option<&'a str>,
    /// Its effective weight in the output (0: not evaluated in the last step).
    pub weight: f32,
    /// The source rig's skeleton.
    pub source: &'a crate::Skeleton,
    /// The source pose it last read, model space (empty before its first evaluation).
    pub source_pose: &'a [crate::Transform],
    /// The retargeter (its map and notes).
    pub retargeter: &'a crate::retarget::Retargeter,
}

/// Introspection.
impl Graph {
    /// Every retarget node reachable from the root, in evaluation order, with the source pose
    /// each read in the last evaluation (the editor draws it beside the character).
    pub fn retargets(&self) -> Vec<RetargetInfo<'_>> {
        self.c
            .order
            .iter()
            .filter_map(|&id| {
                let i = id.index();
                let Node::Retarget { from, retargeter } = &self.c.nodes[i] else {
                    return None;
                };
                Some(RetargetInfo {
                    node: id,
                    name: self.c.names[i].as_deref(),
                    weight: self.s.weights[i],
                    source: &self.c.rigs.get(from.index())?.skeleton,
                    source_pose: self.x.retarget.get(i).map_or(&[][..], |x| x.source_model()),
                    retargeter,
                })
            })
            .collect()
    }

    /// Events crossed during the last [`Graph::advance`].
    pub fn events(&self) -> impl Iterator<Item = EventInfo<'_>> {
        self.x.events.iter().filter_map(|e| {
            let (name, state) = match &self.c.nodes[e.node.index()] {
                Node::Clip { spec, .. } => (spec.events.get(e.event)?.name.as_str(), None),
                Node::StateMachine(sm) => {
                    let ev = sm.events().get(e.event)?;
                    let state = sm.states().get(ev.state.index())?;
                    (ev.name.as_str(), Some(state.name.as_str()))
                }
                _ => return None,
            };
            Some(EventInfo {
                node: e.node,
                name,
                time: e.time,
                weight: e.weight,
                state,
            })
        })
    }

    /// Finds a node by name.
    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.c
            .names
            .iter()
            .position(|n| n.as_deref() == Some(name))
            .map(|i| NodeId(i as u32))
    }

    /// Effective weight of a node after the last step (0 for unknown or inactive nodes).
    pub fn node_weight(&self, id: NodeId) -> f32 {
        self.s.weights.get(id.index()).copied().unwrap_or(0.0)
    }

    /// Every node reachable from the root, in evaluation order.
    pub fn nodes(&self) -> impl Iterator<Item = NodeInfo<'_>> {
        self.c.order.iter().map(|&id| NodeInfo {
            id,
            name: self.c.names[id.index()].as_deref(),
            kind: self.c.kinds[id.index()],
            weight: self.s.weights[id.index()],
            phase: phase_of(&self.c, &self.s, id),
            clip: match &self.c.nodes[id.index()] {
                Node::Clip { spec, .. } => Some(spec.clip.name.as_str()),
                _ => None,
            },
        })
    }

    /// The definition of state machine node `id` (states, transitions and their conditions),
    /// e.g. to show why a transition has not fired; `None` when `id` is not a state machine.
    pub fn state_machine(&self, id: NodeId) -> Option<&StateMachine> {
        match self.c.nodes.get(id.index())? {
            Node::StateMachine(sm) => Some(sm),
            _ => None,
        }
    }

    /// Every state machine reachable from the root.
    pub fn state_machines(&self) -> impl Iterator<Item = StateMachineInfo<'_>> {
        self.c.order.iter().filter_map(|&id| {
            let (Node::StateMachine(sm), NodeState::Machine(st)) =
                (&self.c.nodes[id.index()], &self.s.nodes[id.index()])
            else {
                return None;
            };
            let name = |i: u16| sm.states()[i as usize].name.as_str();
            Some(StateMachineInfo {
                node: id,
                name: self.c.names[id.index()].as_deref(),
                current: name(st.current),
                state_time: st.state_time,
                transition: st.transition.as_ref().map(|t| TransitionInfo {
                    from: name(t.from),
                    to: name(st.current),
                    progress: if t.duration > 0.0 {
                        (t.elapsed / t.duration).min(1.0)
                    } else {
                        1.0
                    },
                    weight: t.weight,
                    frozen: !t.playing && !t.inertial,
                    inertial: t.inertial,
                    interrupted: t.interrupted,
                }),
            })
        })
    }
}

impl Graph {
    /// What the editor draws for the post-process operations over `pose` (a local pose of this
    /// graph, as shown): in model space, the targets, links, chains and colliders of each
    /// operation whose weight is above 0 (a look-at's and a two-bone IK's target too).
    pub fn gizmos(&self, pose: &[crate::Transform]) -> Vec<super::rig_op::Gizmo> {
        use super::post::PostOp;
        use super::rig_op::Gizmo;
        let parents = self.c.skeleton.parents();
        let params = &self.s.params;
        let mut out = Vec::new();
        if pose.len() != parents.len() {
            return out;
        }
        let at = |j: crate::JointIndex| crate::ik::model_transform(parents, pose, j).translation;
        for op in &self.c.post {
            if op.weight().get(params) <= 0.0 {
                continue;
            }
            match op {
                PostOp::Rig { op, .. } => op.gizmos(parents, pose, params, &mut out),
                PostOp::LookAt { joint, target, .. } => {
                    let t = target.get(params);
                    out.push(Gizmo::Target(t));
                    out.push(Gizmo::Link(at(*joint), t));
                }
                PostOp::TwoBoneIk { target, pole, .. } => {
                    out.push(Gizmo::Target(target.get(params)));
                    out.push(Gizmo::Target(pole.get(params)));
                }
                _ => {}
            }
        }
        out
    }
}
