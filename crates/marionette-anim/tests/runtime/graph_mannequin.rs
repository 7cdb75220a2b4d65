//! The blend graph on the bundled mannequin: walk/run sync, root motion on the run clip,
//! mirroring twice, and a deterministic take.

use glam::Vec3;
use marionette_anim::graph::{
    BlendSpace1D, ClipNode, Curve, Graph, GraphBuilder, LayerNode, MirrorNode, PostOp, Simulation,
    StateMachine, Take, Transition,
};
use marionette_anim::ik::LookAt;
use marionette_anim::mirror::MirrorMap;
use marionette_anim::root_motion::RootMotionMode;
use marionette_anim::Model;
use marionette_anim::{Clip, Transform};

fn clip(model: &Model, name: &str) -> Clip {
    model
        .clips
        .iter()
        .find(|c| c.name == name)
        .cloned()
        .expect("mannequin clip")
}

fn locomotion(model: &Model) -> Graph {
    let mut b = GraphBuilder::new(model.skeleton.clone());
    let speed = b.float("speed", 0.0, 0.0, 6.0).unwrap();
    let jump = b.trigger("jump").unwrap();
    let look = b.vec3("look", Vec3::new(0.5, 1.6, 2.0)).unwrap();
    let idle = b.clip(clip(model, "idle"));
    let walk = b.add_named("walk", ClipNode::new(clip(model, "walk")));
    let run = b.add_named("run", ClipNode::new(clip(model, "run")));
    let moving = b.add(
        BlendSpace1D::new(speed)
            .sample(0.0, idle)
            .sample(1.4, walk)
            .sample(4.0, run)
            .sync(true),
    );
    let hop = b.add(ClipNode::new(clip(model, "jump")).once());
    let mut sm = StateMachine::new();
    let (m, j) = (sm.state("move", moving), sm.state("jump", hop));
    sm.transition(
        Transition::new(m, j)
            .on(jump)
            .blend(0.15, Curve::SmoothStep),
    );
    sm.transition(Transition::new(j, m).at_end().blend(0.25, Curve::EaseInOut));
    let body = b.add(sm);
    let wave = b.clip(clip(model, "wave"));
    let mask = b.mask().subtree(b.skeleton(), "R_clavicle", 1.0).unwrap();
    let root = b.add(LayerNode::new(body, wave).weight(0.8).mask(mask));
    let head = b.joint("head").unwrap();
    b.post(PostOp::LookAt {
        joint: head,
        target: look.into(),
        settings: LookAt {
            limit: 60f32.to_radians(),
            ..LookAt::default()
        },
        weight: 0.7.into(),
    });
    b.root_motion("root", RootMotionMode::Ground);
    b.build(root).unwrap()
}

/// Walk and run blended half and half stay at one normalised phase (feet in step).
#[test]
fn walk_and_run_stay_in_step() {
    let model = marionette_anim::mannequin::build();
    let mut g = locomotion(&model);
    let speed = g.param("speed").unwrap();
    g.params_mut().set_float(speed, 2.7).unwrap();
    for _ in 0..200 {
        g.advance(1.0 / 60.0);
        let walk = g.nodes().find(|n| n.name == Some("walk")).unwrap();
        let run = g.nodes().find(|n| n.name == Some("run")).unwrap();
        assert!((walk.weight - 0.5).abs() < 1e-5 && (run.weight - 0.5).abs() < 1e-5);
        assert!(
            (walk.phase.unwrap() - run.phase.unwrap()).abs() < 1e-4,
            "{walk:?} {run:?}"
        );
    }
    assert!(g.evaluate().iter().all(Transform::is_finite));
}

/// Run's root motion: accumulated motion times the in-place root equals the clip's root over the
/// first cycle, and the character keeps moving forward (+Z) across loop wraps.
#[test]
fn run_root_motion() {
    let model = marionette_anim::mannequin::build();
    let run = clip(&model, "run");
    let build = |rm: bool, once: bool| {
        let mut b = GraphBuilder::new(model.skeleton.clone());
        let mut node = ClipNode::new(run.clone());
        if once {
            node = node.once();
        }
        let n = b.add(node);
        if rm {
            b.root_motion("root", RootMotionMode::Ground);
        }
        b.build(n).unwrap()
    };
    let (mut g, mut reference) = (build(true, true), build(false, true));
    let root = model.skeleton.find("root").unwrap() as usize;
    let steps = ((run.end - run.start) * 60.0) as usize;
    for _ in 0..steps {
        g.advance(1.0 / 60.0);
        reference.advance(1.0 / 60.0);
        let world = g.root_motion_world().mul_transform(&g.evaluate()[root]);
        let expected = reference.evaluate()[root];
        assert!(
            world.abs_diff_eq(&expected, 1e-4),
            "{world:?} vs {expected:?}"
        );
    }
    let mut g = build(true, false);
    let mut z = g.root_motion_world().translation.z;
    for _ in 0..180 {
        g.advance(1.0 / 60.0);
        let now = g.root_motion_world().translation.z;
        assert!(now > z, "root motion went backwards: {z} -> {now}");
        assert!(g.root_motion_delta().translation.z < 0.2);
        z = now;
    }
}

/// Mirroring a walk pose twice gives it back; the mirror node swaps the legs.
#[test]
fn mirror_twice_on_mannequin() {
    let model = marionette_anim::mannequin::build();
    let mut b = GraphBuilder::new(model.skeleton.clone());
    let walk = b.clip(clip(&model, "walk"));
    let mirrored = b.add(MirrorNode { input: walk });
    let mut g = b.build(mirrored).unwrap();
    g.advance(0.3);
    let once = g.evaluate().to_vec();
    let map = MirrorMap::new(&model.skeleton);
    let mut twice = once.clone();
    map.mirror(&once, &mut twice);
    let mut b = GraphBuilder::new(model.skeleton.clone());
    let walk = b.clip(clip(&model, "walk"));
    let mut plain = b.build(walk).unwrap();
    plain.advance(0.3);
    for (a, b) in plain.evaluate().iter().zip(&twice) {
        assert!(a.abs_diff_eq(b, 1e-5), "{a:?} vs {b:?}");
    }
    let l = model.skeleton.find("L_thigh").unwrap() as usize;
    let r = model.skeleton.find("R_thigh").unwrap() as usize;
    let q = plain.pose()[l].rotation;
    assert!(
        map.is_symmetric(),
        "the mannequin's rest pose is its own mirror image"
    );
    let expected = glam::Quat::from_xyzw(q.x, -q.y, -q.z, q.w);
    assert!(
        once[r].rotation.abs_diff_eq(expected, 1e-5),
        "{:?} vs {expected:?}",
        once[r].rotation
    );
}

/// A take on the mannequin is reproducible bit for bit, also after scrubbing back.
#[test]
fn mannequin_take_is_deterministic() {
    let model = marionette_anim::mannequin::build();
    let take = Take::new("walk_to_run", 4.0)
        .floats("speed", &[(0.0, 0.0), (1.0, 1.4), (3.0, 4.0)])
        .trigger("jump", 2.0);
    let mut a = Simulation::new(locomotion(&model), &take).unwrap();
    let mut b = Simulation::new(locomotion(&model), &take).unwrap();
    let bits = |p: &[Transform]| {
        p.iter()
            .flat_map(|t| t.rotation.to_array())
            .map(f32::to_bits)
            .collect::<Vec<_>>()
    };
    let late = bits(a.pose_at(3.2));
    let early = bits(a.pose_at(2.1));
    assert_eq!(early, bits(b.pose_at(2.1)));
    assert_eq!(late, bits(b.pose_at(3.2)));
}
