//! `mirror(node)` / `node:mirror()`: its input with left and right swapped ([`crate::mirror`]),
//! root motion and morph weights too.

use super::kind::{Kind, LowerCx, Refs, Resolve, Walk};
use crate::graph::node_id::NodeId;
use crate::graph::pool::Pool;
use crate::graph::share::Share;
use crate::graph::state::NodeState;
use crate::graph::GraphError;
use crate::mirror::MirrorMap;

/// Mirrors its input left/right (see [`crate::mirror`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MirrorNode {
    /// The input.
    pub input: NodeId,
}

impl<P> Refs<P> for MirrorNode {
    type Graph = MirrorNode;

    fn inputs(&self) -> Vec<NodeId> {
        vec![self.input]
    }

    fn resolve<R: Resolve<P>>(&self, r: &mut R) -> Result<MirrorNode, R::Error> {
        Ok(MirrorNode {
            input: r.input(self.input)?,
        })
    }
}

impl Kind for MirrorNode {
    const NAME: &'static str = "mirror";
    const SCRIPT: &'static str = "mirror";
    type Data = MirrorMap;

    fn lower(self, cx: &LowerCx) -> Result<MirrorMap, GraphError> {
        // the builder's pairs win on the graph's own rig; elsewhere, pairs found by name
        Ok(match cx.mirror_pairs {
            Some(pairs) => MirrorMap::with_pairs(cx.skeleton, pairs),
            None => MirrorMap::new(cx.skeleton),
        })
    }

    fn update<W: Walk>(_: &MirrorMap, w: &mut W, dt: f32, share: Share) {
        // the input's root motion is mirrored too
        let outer = std::mem::take(w.motion());
        w.input(0, dt, share);
        w.motion().reflect_x();
        let inner = std::mem::replace(w.motion(), outer);
        w.motion().merge(&inner);
    }

    fn eval(map: &MirrorMap, _: &NodeState, x: &mut Pool) {
        if let Some(top) = x.top.checked_sub(1) {
            map.mirror(&x.stack[top], &mut x.temp);
            std::mem::swap(&mut x.stack[top], &mut x.temp);
            map.mirror_morphs(&x.morphs[top], &mut x.temp_morphs);
            std::mem::swap(&mut x.morphs[top], &mut x.temp_morphs);
        }
    }
}
