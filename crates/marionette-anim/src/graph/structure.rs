//! The graph's shape, for drawing it (the editor's graph view): each node's inputs, the root,
//! the input that leads a synced blend space, and the joints a node's output animates.

use super::compiled::Node;
use super::lead::lead_input;
use super::node_id::NodeId;
use super::runtime::Graph;

impl Graph {
    /// The node whose pose is the graph's output.
    pub fn root_node(&self) -> NodeId {
        self.c.root
    }

    /// Node `id`'s inputs in the order its description lists them (a state machine's: one per
    /// state); empty for a clip player or an unknown id.
    pub fn node_inputs(&self, id: NodeId) -> &[NodeId] {
        self.c.inputs.get(id.index()).map_or(&[], Vec::as_slice)
    }

    /// For a blend space that keeps its members in step (`sync`), the member that leads now
    /// (the largest weight); `None` for any other node.
    pub fn sync_leader(&self, id: NodeId) -> Option<NodeId> {
        match self.c.nodes.get(id.index())? {
            Node::Space1D { sync: true, .. } | Node::Space2D { sync: true, .. } => {
                lead_input(&self.c, &self.s, id)
            }
            _ => None,
        }
    }

    /// Which joints of its rig node `id`'s output animates, by joint index: a clip player's
    /// tracked joints; a layer's or an additive node's base, and its layer's joints where the
    /// mask is above 0; a retarget node's mapped joints; any other node, the joints of all its
    /// inputs. (A mirror reports its input's joints, not their mirrored side.) Empty for an
    /// unknown id.
    pub fn joints_driven(&self, id: NodeId) -> Vec<bool> {
        let i = id.index();
        if i >= self.c.nodes.len() {
            return Vec::new();
        }
        let n = self.c.rig_of(i).skeleton.len();
        let mut out = vec![false; n];
        self.mark_driven(id, &mut out);
        out
    }

    fn mark_driven(&self, id: NodeId, out: &mut [bool]) {
        let i = id.index();
        let inputs = &self.c.inputs[i];
        match &self.c.nodes[i] {
            Node::Clip { spec, .. } => {
                for t in &spec.clip.tracks {
                    let any = t.translation.is_some() || t.rotation.is_some() || t.scale.is_some();
                    if let (true, Some(o)) = (any, out.get_mut(usize::from(t.joint))) {
                        *o = true;
                    }
                }
            }
            Node::Layer {
                mask: Some(mask), ..
            }
            | Node::Additive {
                mask: Some(mask), ..
            } => {
                if let Some(&base) = inputs.first() {
                    self.mark_driven(base, out);
                }
                let mut layer = vec![false; out.len()];
                for &k in inputs.iter().skip(1) {
                    self.mark_driven(k, &mut layer);
                }
                for (j, o) in out.iter_mut().enumerate() {
                    *o |= layer[j] && mask.get(j).is_some_and(|&m| m > 0.0);
                }
            }
            Node::Retarget { retargeter, .. } => {
                for (j, o) in out.iter_mut().enumerate() {
                    *o |= retargeter.source_for(j as u16).is_some();
                }
            }
            _ => {
                for &k in inputs {
                    self.mark_driven(k, out);
                }
            }
        }
    }
}
