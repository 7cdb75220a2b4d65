//! The blend graph allocates nothing per frame once its buffers are sized (design property 3):
//! a counting allocator watches 600 frames of the mannequin's locomotion graph, jumps included.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::Vec3;
use marionette_anim::graph::{
    BlendSpace1D, ClipNode, Curve, GraphBuilder, LayerNode, PostOp, StateMachine, Transition,
};
use marionette_anim::ik::LookAt;
use marionette_anim::root_motion::RootMotionMode;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(|c| c.get()) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// From the first frame after building, 600 frames (speed sweeps, three jumps) allocate nothing.
#[test]
fn no_allocation_per_frame() {
    let model = marionette_anim::mannequin::build();
    let clip = |name: &str| {
        model
            .clips
            .iter()
            .find(|c| c.name == name)
            .cloned()
            .unwrap()
    };
    let mut b = GraphBuilder::new(model.skeleton.clone());
    let speed = b.float("speed", 1.0, 0.0, 6.0).unwrap();
    let jump = b.trigger("jump").unwrap();
    let look = b.vec3("look", Vec3::new(0.5, 1.6, 2.0)).unwrap();
    let idle = b.clip(clip("idle"));
    let walk = b.clip(clip("walk"));
    let run = b.clip(clip("run"));
    let moving = b.add(
        BlendSpace1D::new(speed)
            .sample(0.0, idle)
            .sample(1.4, walk)
            .sample(4.0, run)
            .sync(true),
    );
    let hop = b.add(ClipNode::new(clip("jump")).once().event("land", 0.5));
    let mut sm = StateMachine::new();
    let (m, j) = (sm.state("move", moving), sm.state("jump", hop));
    sm.transition(
        Transition::new(m, j)
            .on(jump)
            .blend(0.15, Curve::SmoothStep),
    );
    sm.transition(Transition::new(j, m).at_end().blend(0.25, Curve::EaseInOut));
    let body = b.add(sm);
    let wave = b.clip(clip("wave"));
    let mask = b.mask().subtree(b.skeleton(), "R_clavicle", 1.0).unwrap();
    let root = b.add(LayerNode::new(body, wave).weight(0.8).mask(mask));
    let head = b.joint("head").unwrap();
    b.post(PostOp::LookAt {
        joint: head,
        target: look.into(),
        settings: LookAt::default(),
        weight: 0.7.into(),
    });
    b.root_motion("root", RootMotionMode::Ground);
    let mut g = b.build(root).unwrap();
    let (mut landed, mut jumping) = (0, 0);
    COUNTING.with(|c| c.set(true));
    for f in 0..600 {
        if f % 200 == 10 {
            g.params_mut().fire(jump).unwrap();
        }
        g.params_mut()
            .set_float(speed, (f as f32 / 100.0) % 6.0)
            .unwrap();
        g.advance(1.0 / 60.0);
        let pose = g.evaluate();
        assert!(pose[0].is_finite());
        landed += g.events().filter(|e| e.name == "land").count();
        if g.state_machines()
            .next()
            .is_some_and(|s| s.current == "jump")
        {
            jumping += 1;
        }
    }
    COUNTING.with(|c| c.set(false));
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 0);
    assert_eq!(landed, 3, "three jumps, each landing once");
    assert!(jumping > 30, "{jumping} frames in the jump state");
}
