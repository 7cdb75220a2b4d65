//! A graph with a foot lock evaluates its pose at every step; the frame shown at that step
//! reuses that evaluation (one evaluation a frame, not two) and equals a fresh one, bit for bit.

use crate::graph::*;

/// The mannequin walking (its walk clip), both feet locked.
fn walking() -> Graph {
    let model = crate::mannequin::build();
    let walk = model.clips[model.find_clip("walk").unwrap()].clone();
    let mut b = GraphBuilder::new(model.skeleton.clone());
    let rest = crate::rest_positions(b.skeleton());
    let feet = ["L_foot", "R_foot"]
        .iter()
        .map(|name| {
            let tip = b.joint(name).unwrap();
            LockedFoot {
                tip,
                height: rest[tip as usize].y + 0.04,
                speed: 0.35,
                pole: None,
            }
        })
        .collect();
    b.post(PostOp::FootLock {
        lock: FootLock { feet, release: 0.1 },
        weight: 1.0.into(),
    });
    let root = b.clip(walk);
    b.build(root).unwrap()
}

#[test]
fn the_frame_reuses_the_steps_evaluation_and_equals_a_fresh_one() {
    let mut g = walking();
    for frame in 0..90 {
        g.advance(1.0 / 60.0);
        let reused = g.evaluate().to_vec();
        // (asking for the parameters drops the reuse: the pose is evaluated again)
        let _ = g.params_mut();
        let fresh = g.evaluate().to_vec();
        assert_eq!(reused, fresh, "frame {frame}");
        let mut out = Vec::new();
        g.evaluate_into(&mut out);
        assert_eq!(out, fresh, "frame {frame}: evaluate_into");
        // after evaluate_into the graph no longer holds the pose: evaluated again
        assert_eq!(
            g.evaluate(),
            &fresh[..],
            "frame {frame}: after evaluate_into"
        );
    }
}
