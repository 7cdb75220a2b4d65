//! Procedural rigging in the editor (issue 34): on the creature, the viewport draws the post
//! operations' targets, the chains and springs they move and their colliders (toolbar: Rig),
//! and the outliner says which operation last moved a joint, with its weight.

use egui_kittest::kittest::Queryable;

use super::{harness, options, project};

/// The creature's script in a folder of its own, with its rig.
struct Creature(std::path::PathBuf);

impl Creature {
    fn new() -> Creature {
        let dir =
            std::env::temp_dir().join(format!("marionette-editor-rig-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        for f in ["creature.lua", "creature.glb"] {
            std::fs::copy(project(&format!("scripts/{f}")), dir.join(f)).expect("copy");
        }
        Creature(dir)
    }
}

impl Drop for Creature {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_viewport_draws_targets_chains_and_colliders() {
    let c = Creature::new();
    let mut opts = options(&c.0.join("creature.lua"), false);
    opts.take = Some("look_and_walk".into());
    opts.time = Some(1.0);
    opts.select = Some("tail_04".into());
    let mut h = harness(&opts);
    h.run_steps(3);
    let session = h.state().session();
    let g = session.running().expect("running").graph();
    let gizmos = g.gizmos(session.pose());
    use marionette::anim::graph::Gizmo;
    let count = |f: fn(&Gizmo) -> bool| gizmos.iter().filter(|g| f(g)).count();
    // the aim's target, the tail's five bones and its end, two ears of two bones, the thighs'
    // capsules and the head's sphere (once per ear spring)
    assert_eq!(count(|g| matches!(g, Gizmo::Target(_))), 1, "{gizmos:?}");
    assert_eq!(count(|g| matches!(g, Gizmo::Bone(..))), 6 + 2 * 2);
    assert_eq!(count(|g| matches!(g, Gizmo::Capsule(..))), 2);
    assert_eq!(count(|g| matches!(g, Gizmo::Sphere(..))), 2);
    // the outliner: the spring moved the selected tail joint, at full weight
    assert!(
        h.query_by_label_contains("post op 3 (spring, weight 1.00)")
            .is_some(),
        "the outliner does not name the spring"
    );
    if let Ok(dir) = std::env::var("MARIONETTE_SCREENSHOTS") {
        let image = h.render().expect("renders");
        image
            .save(std::path::Path::new(&dir).join("editor_rigging.png"))
            .expect("save");
    }
    // the toggle hides them
    h.get_by_label("Rig").click();
    h.run_steps(2);
    assert!(!h.state().viewport().overlays.rig);
}
