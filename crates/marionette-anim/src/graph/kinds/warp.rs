//! `warp(node, { target, window = { from, to } })`: motion warping (Unreal's skew warp). Over a
//! window of its own time (seconds since its input started), its input's root motion is bent so
//! that at the window's end the character stands on `target`, a vec3 parameter in the world the
//! character walks in (where it stood at the graph's start is the origin, as `run` reports it),
//! which may move while the window runs: a jump or a vault lands where the game says.
//!
//! How: when the window opens, the input is run ahead to the window's end on a copy of the
//! state (no event, no transition kept) to measure where its own root motion would take the
//! character; each step in the window then adds to the input's motion the gap between that
//! landing and the target, spread over the window's remaining time (the last step closes it),
//! the gap measured again every step so a moving target is followed. Outside the window the
//! motion is the input's own. With ground root motion only the ground-plane gap is closed.

use super::kind::{Kind, LowerCx, Refs, Resolve, Walk};
use crate::graph::node_id::NodeId;
use crate::graph::params::{check_vec, ParamId, Vec3Value};
use crate::graph::share::Share;
use crate::graph::state::NodeState;
use crate::graph::GraphError;

/// Bends its input's root motion over a window so the character lands on a target.
#[derive(Clone, Debug, PartialEq)]
pub struct WarpNode<P = ParamId> {
    /// The input (usually a clip player: a jump, a vault).
    pub input: NodeId,
    /// Where the character should stand at the window's end (world, metres).
    pub target: Vec3Value<P>,
    /// The window, seconds of the node's own time: `[from, to]`.
    pub window: [f32; 2],
}

impl<P> Refs<P> for WarpNode<P> {
    type Graph = WarpNode;

    fn inputs(&self) -> Vec<NodeId> {
        vec![self.input]
    }

    fn resolve<R: Resolve<P>>(&self, r: &mut R) -> Result<WarpNode, R::Error> {
        let input = r.input(self.input)?;
        let target = self.target.try_map(|p| r.param(p))?;
        Ok(WarpNode {
            input,
            target,
            window: self.window,
        })
    }
}

impl Kind for WarpNode {
    const NAME: &'static str = "warp";
    const SCRIPT: &'static str = "warp";
    const SAME_JOINTS: bool = true;
    type Data = WarpNode;

    fn lower(self, cx: &LowerCx) -> Result<WarpNode, GraphError> {
        let [from, to] = self.window;
        if !(from.is_finite() && to.is_finite() && 0.0 <= from && from < to) {
            return Err((cx.invalid)(format!(
                "window {{{from}, {to}}}: give {{from, to}} in seconds, 0 <= from < to"
            )));
        }
        check_vec(&self.target, cx.params)?;
        Ok(self)
    }

    fn state(_: &WarpNode) -> NodeState {
        NodeState::Warp {
            time: 0.0,
            landing: None,
        }
    }

    fn update<W: Walk>(d: &WarpNode, w: &mut W, dt: f32, share: Share) {
        let (time, landing) = match w.state() {
            NodeState::Warp { time, landing } => (*time, *landing),
            _ => (0.0, None),
        };
        let [from, to] = d.window;
        let end = time + dt;
        let inside = dt > 0.0 && share.motion > 0.0 && end > from && time < to;
        if !inside || !w.has_root_motion() {
            w.input(0, dt, share);
            if let NodeState::Warp { time, landing } = w.state() {
                *time = end.max(0.0);
                if end >= to {
                    *landing = None;
                }
            }
            return;
        }
        // where the input's own motion lands the character (measured once, as the window opens)
        let landing = match landing {
            Some(l) => l,
            None => {
                let steps = ((to - time) / dt).ceil().max(1.0) as u32;
                w.placement() + w.run_ahead(0, dt, steps, share)
            }
        };
        // this step of the input, its motion apart
        let outer = std::mem::take(w.motion());
        w.input(0, dt, share);
        let mut inner = std::mem::replace(w.motion(), outer);
        // the gap left at the window's end, closed over the time the window has left
        let target = d.target.get(w.params());
        let mut gap = target - landing;
        if w.ground_only() {
            gap.y = 0.0;
        }
        let k = (dt / (to - time).max(dt)).min(1.0);
        let shift = gap * k * share.motion;
        inner.shift(w.world_to_step(shift));
        w.motion().merge(&inner);
        // the landing moves with what was added
        let landing = landing + shift;
        if let NodeState::Warp { time, landing: l } = w.state() {
            *time = end;
            *l = if end >= to { None } else { Some(landing) };
        }
    }
}
