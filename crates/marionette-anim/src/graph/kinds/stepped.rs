//! `stepped(node, fps)`: its input's time runs in whole steps of `1 / fps` seconds, so its pose,
//! root motion and events move in steps and hold between them (12: animation "on twos" at 24
//! fps; 8: on threes). Parameters still act at once. The time not yet passed on is the node's
//! state, so snapshots and scrubbing reproduce it.

use super::kind::{Kind, LowerCx, Refs, Resolve, Walk};
use crate::graph::node_id::NodeId;
use crate::graph::params::{Input, ParamId, Value};
use crate::graph::share::Share;
use crate::graph::state::NodeState;
use crate::graph::GraphError;

/// Runs its input's time in whole steps of `1 / fps` seconds, so its pose holds between steps.
#[derive(Clone, Debug, PartialEq)]
pub struct SteppedNode<P = ParamId> {
    /// The input.
    pub input: NodeId,
    /// Steps per second: above 0 (a parameter at 0 or below runs the input continuously).
    pub fps: Value<P>,
}

impl<P> Refs<P> for SteppedNode<P> {
    type Graph = SteppedNode;

    fn inputs(&self) -> Vec<NodeId> {
        vec![self.input]
    }

    fn resolve<R: Resolve<P>>(&self, r: &mut R) -> Result<SteppedNode, R::Error> {
        let input = r.input(self.input)?;
        let fps = self.fps.try_map(|p| r.param(p))?;
        Ok(SteppedNode { input, fps })
    }
}

/// A step is due this close to it (in steps): five 1/60 s frames make one 1/12 s step although
/// their sum rounds below it.
const SLACK: f32 = 1e-3;

/// The whole steps in `x` steps' worth of time, towards zero (time running backwards steps
/// backwards).
fn whole_steps(x: f32) -> f32 {
    if x >= 0.0 {
        (x + SLACK).floor()
    } else {
        -(SLACK - x).floor()
    }
}

impl Kind for SteppedNode {
    const NAME: &'static str = "stepped";
    const SCRIPT: &'static str = "stepped";
    const SAME_JOINTS: bool = true;
    type Data = Value;

    fn lower(self, cx: &LowerCx) -> Result<Value, GraphError> {
        cx.number(&self.fps, "fps")?;
        if let Input::Const(k) = self.fps {
            if k <= 0.0 {
                return Err((cx.invalid)(format!("fps {k} must be above 0")));
            }
        }
        Ok(self.fps)
    }

    fn state(_: &Value) -> NodeState {
        // the time not yet passed on to the input, in seconds
        NodeState::Scalar(0.0)
    }

    fn update<W: Walk>(fps: &Value, w: &mut W, dt: f32, share: Share) {
        let fps = fps.get(w.params());
        let passed = match w.state() {
            NodeState::Scalar(held) if fps > 0.0 && fps.is_finite() => {
                *held += dt;
                let steps = whole_steps(*held * fps);
                *held -= steps / fps;
                steps / fps
            }
            NodeState::Scalar(held) => {
                *held = 0.0;
                dt
            }
            _ => dt,
        };
        w.input(0, passed, share);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::tests::{close, skel, slide};
    use crate::graph::{ClipNode, GraphBuilder, TimeScaleNode};

    /// A looping 1 s clip moving joint 1 from x = 0 to 1, under `stepped` at `fps` (a parameter
    /// `fps` when `None`), and the same clip alone.
    fn graphs(fps: Option<f32>) -> (crate::graph::Graph, crate::graph::Graph) {
        let clip = slide("walk", 1, 1.0, 0.0, 1.0);
        let mut b = GraphBuilder::new(skel());
        let p = b.float("fps", 12.0, 0.0, 60.0).unwrap();
        let c = b.add(ClipNode::new(clip.clone()));
        let fps = fps.map_or(Input::Param(p), Input::Const);
        let s = b.add(SteppedNode { input: c, fps });
        let stepped = b.build(s).unwrap();
        let mut b = GraphBuilder::new(skel());
        let c = b.add(ClipNode::new(clip));
        (stepped, b.build(c).unwrap())
    }

    fn x(g: &mut crate::graph::Graph) -> f32 {
        g.evaluate()[1].translation.x
    }

    /// At 60 Hz and 12 steps a second the pose changes every fifth frame, to where the clip
    /// alone is on that frame, and holds in between.
    #[test]
    fn holds_between_steps() {
        let (mut s, mut plain) = graphs(Some(12.0));
        for frame in 1..=30 {
            s.advance(1.0 / 60.0);
            plain.advance(1.0 / 60.0);
            let expected = (frame / 5) as f32 * 5.0 / 60.0;
            close(x(&mut s), expected);
            if frame % 5 == 0 {
                close(x(&mut s), x(&mut plain));
            }
        }
    }

    /// With the parameter at 0 the input runs continuously, bit for bit as the clip alone.
    #[test]
    fn zero_fps_runs_continuously() {
        let (mut s, mut plain) = graphs(None);
        let fps = s.param("fps").unwrap();
        s.params_mut().set_float(fps, 0.0).unwrap();
        for _ in 0..37 {
            s.advance(1.0 / 60.0);
            plain.advance(1.0 / 60.0);
            assert_eq!(x(&mut s).to_bits(), x(&mut plain).to_bits());
        }
    }

    /// The time held between steps is state: a snapshot taken mid-step replays identically.
    #[test]
    fn snapshots_keep_the_held_time() {
        let (mut s, _) = graphs(Some(12.0));
        s.advance(7.0 / 60.0);
        let snap = s.snapshot();
        let mut first = Vec::new();
        for _ in 0..20 {
            s.advance(1.0 / 60.0);
            first.push(x(&mut s).to_bits());
        }
        s.restore(&snap);
        let again: Vec<u32> = (0..20)
            .map(|_| {
                s.advance(1.0 / 60.0);
                x(&mut s).to_bits()
            })
            .collect();
        assert_eq!(first, again);
    }

    /// Under a time scale of -1 it steps backwards, a step every fifth frame.
    #[test]
    fn steps_backwards() {
        let clip = slide("walk", 1, 1.0, 0.0, 1.0);
        let mut b = GraphBuilder::new(skel());
        let c = b.add(ClipNode::new(clip).start(0.5));
        let s = b.add(SteppedNode {
            input: c,
            fps: Input::Const(12.0),
        });
        let r = b.add(TimeScaleNode {
            input: s,
            scale: Input::Const(-1.0),
        });
        let mut g = b.build(r).unwrap();
        let start = x(&mut g);
        for frame in 1..=10 {
            g.advance(1.0 / 60.0);
            close(x(&mut g), start - (frame / 5) as f32 / 12.0);
        }
    }

    /// A constant fps of 0 or below, or not finite, is refused at the node.
    #[test]
    fn bad_fps_is_refused() {
        for fps in [0.0, -12.0, f32::NAN] {
            let mut b = GraphBuilder::new(skel());
            let c = b.add(ClipNode::new(slide("walk", 1, 1.0, 0.0, 1.0)));
            let s = b.add(SteppedNode {
                input: c,
                fps: Input::Const(fps),
            });
            let e = b.build(s).unwrap_err().to_string();
            assert!(e.contains("stepped") && e.contains("fps"), "{e}");
        }
    }

    /// Whole steps count towards zero, with the slack for rounding.
    #[test]
    fn whole_steps_round_towards_zero() {
        assert_eq!(whole_steps(0.9995), 1.0);
        assert_eq!(whole_steps(0.99), 0.0);
        assert_eq!(whole_steps(-0.99), 0.0);
        assert_eq!(whole_steps(-1.0), -1.0);
        assert_eq!(whole_steps(2.5), 2.0);
    }
}
