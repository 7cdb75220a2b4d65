//! `ScriptCrowd` (`bench crowd --script`): every character runs its own instance of the script —
//! its own Lua state, so what `post` keeps between frames is its own — at its own phase.

use crate::script_common::{options, TempDir};
use marionette_anim::local_to_model;
use marionette_script::crowd::ScriptCrowd;
use marionette_script::load;

/// `post` counts its calls in an upvalue and moves the pelvis by the count along x.
const COUNTER: &str = "local rig = marionette.rig()
local calls = 0
return graph {
  root = rig.idle,
  post = function(pose, ctx)
    calls = calls + 1
    pose:translate('pelvis', { calls, 0, 0 })
  end,
}
";

#[test]
fn each_character_has_its_own_script_state() {
    let dir = TempDir::new("crowd");
    let path = dir.write("counter.lua", COUNTER);
    let opts = options();
    let mut crowd = ScriptCrowd::new(3, || load(&path, &opts)).expect("crowd loads");
    assert_eq!((crowd.len(), crowd.joints()), (3, 9));
    for _ in 0..4 {
        let t = crowd.frame(1.0 / 60.0);
        assert!(t.total() >= t.evaluate && t.evaluate > 0.0, "{t:?}");
    }
    assert!(crowd.runtime_error().is_none());
    for i in 0..3 {
        let g = crowd.graph(i).expect("character");
        // one call when the character was placed at its phase, then one per frame: a state
        // shared by the crowd would have counted every character's calls
        assert_eq!(g.pose()[1].translation.x, 5.0, "character {i}");
        let mut model = vec![glam::Mat4::IDENTITY; 9];
        local_to_model(&g.script().rig.skeleton, g.pose(), 0..9, &mut model);
        assert_eq!(crowd.model(i), Some(model.as_slice()));
        assert_eq!(crowd.palette(i), Some(&[][..]));
    }
    // the characters are at different phases of idle (pelvis yaw)
    let yaw = |i| crowd.graph(i).map(|g| g.pose()[1].rotation);
    assert_ne!(yaw(0), yaw(1));
    assert_ne!(yaw(1), yaw(2));
    assert!(crowd.lua_memory() > 3 * 1024);
}

/// A script that fails to load stops the crowd with its error.
#[test]
fn a_broken_script_is_an_error() {
    let dir = TempDir::new("crowd-broken");
    let path = dir.write(
        "broken.lua",
        "local rig = marionette.rig()\nreturn graph { root = rig.nope }\n",
    );
    let opts = options();
    let e = ScriptCrowd::new(2, || load(&path, &opts))
        .err()
        .expect("fails");
    assert!(
        e.headline().contains("unknown clip 'nope'"),
        "{}",
        e.headline()
    );
}
