//! [`NodeId`], the handle of a node: the one name every other file of the graph uses for a
//! node (its own file so that node descriptions and state machines, which both hold handles,
//! need not import each other for it).

/// Handle of a node in its graph (an index into the graph's arena; in a script's spec, an
/// index into the spec's nodes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The handle of the node at `index` in creation order (a spec's builder hands these out).
    pub fn new(index: u32) -> Self {
        NodeId(index)
    }

    /// Index of the node in creation order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
