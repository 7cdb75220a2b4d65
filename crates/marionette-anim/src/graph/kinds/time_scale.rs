//! `node:speed(k)`: its input's time runs `scale` times as fast (0 pauses it, below 0 it runs
//! backwards).

use super::kind::{Kind, LowerCx, Refs, Resolve, Walk};
use crate::graph::node_id::NodeId;
use crate::graph::params::{ParamId, Params, Value};
use crate::graph::share::Share;
use crate::graph::GraphError;

/// Runs its input's time `scale` times as fast (0 pauses it).
#[derive(Clone, Debug, PartialEq)]
pub struct TimeScaleNode<P = ParamId> {
    /// The input.
    pub input: NodeId,
    /// Time multiplier.
    pub scale: Value<P>,
}

impl<P> Refs<P> for TimeScaleNode<P> {
    type Graph = TimeScaleNode;

    fn inputs(&self) -> Vec<NodeId> {
        vec![self.input]
    }

    fn resolve<R: Resolve<P>>(&self, r: &mut R) -> Result<TimeScaleNode, R::Error> {
        let input = r.input(self.input)?;
        let scale = self.scale.try_map(|p| r.param(p))?;
        Ok(TimeScaleNode { input, scale })
    }
}

impl Kind for TimeScaleNode {
    const NAME: &'static str = "time scale";
    const SCRIPT: &'static str = ":speed";
    const SAME_JOINTS: bool = true;
    type Data = Value;

    fn lower(self, cx: &LowerCx) -> Result<Value, GraphError> {
        cx.number(&self.scale, "scale")?;
        Ok(self.scale)
    }

    fn update<W: Walk>(scale: &Value, w: &mut W, dt: f32, share: Share) {
        let k = scale.get(w.params());
        w.input(0, dt * k, share);
    }

    fn rate(scale: &Value, params: &Params) -> Option<f32> {
        Some(scale.get(params))
    }
}
