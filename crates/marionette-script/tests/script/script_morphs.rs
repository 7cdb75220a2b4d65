//! Morph targets from Lua (the small test rig's `face`: `smile` and `blink`, following `head`):
//! `rig.morphs`, `morph.set` from a parameter or a constant with a blend weight, `pose:set_morph`
//! and `pose:morph` in a `post` function (clamped to 0..1; NaN is an error), masks that cover
//! the face through the head or by name, takes that key a morph-driving parameter, and every
//! mistake an error at its line with the closest name. Messages are asserted verbatim.

use crate::script_common::{options, small_rig, TempDir};
use marionette_script::{load, HostOptions, ScriptedGraph};

const HEAD: &str =
    "local rig = marionette.rig()\nparams { grin = float(0, 0, 1), mix = float(1, 0, 1) }\n";

fn build_with(body: &str, opts: &HostOptions) -> Result<ScriptedGraph, String> {
    let dir = TempDir::new("morphs");
    let path = dir.write("anim.lua", body);
    load(&path, opts).and_then(ScriptedGraph::new).map_err(|e| {
        e.headlines()
            .replace(&path.display().to_string(), "anim.lua")
    })
}

fn build(body: &str) -> Result<ScriptedGraph, String> {
    build_with(body, &options())
}

/// The weights (smile, blink) after seeking to `t`.
fn weights_at(g: &mut ScriptedGraph, t: f64) -> Vec<f32> {
    g.seek(t);
    assert!(g.runtime_error().is_none(), "{:?}", g.runtime_error());
    g.morphs().to_vec()
}

/// `rig.morphs` lists the names; `morph.set` drives a target from a parameter (and a take keys
/// it), a constant blends by its weight; without `post` the weights are the defaults.
#[test]
fn morph_set_drives_weights() {
    let mut g = build(&format!(
        "{HEAD}print(table.concat(rig.morphs, ','))\n\
         return graph {{ root = rig.idle,\n\
           post = {{ morph.set('smile', 'grin'), morph.set('face.blink', 0.8, {{ weight = 'mix' }}) }},\n\
           takes = {{ t = {{ duration = 1, grin = {{ {{0, 0}}, {{1, 1}} }}, mix = {{ {{0, 0.5}} }} }} }} }}\n"
    ))
    .unwrap();
    assert_eq!(g.script().log(), vec!["smile,blink".to_string()]);
    assert_eq!(weights_at(&mut g, 0.0), vec![0.0, 0.8]);
    g.set("grin", marionette_anim::graph::ParamValue::Float(0.25))
        .unwrap();
    assert_eq!(weights_at(&mut g, 0.1), vec![0.25, 0.8]);
    g.play(Some("t")).unwrap();
    let w = weights_at(&mut g, 0.5);
    assert!(
        (w[0] - 0.5).abs() < 1e-6 && (w[1] - 0.4).abs() < 1e-6,
        "{w:?}"
    );
    let mut plain =
        build("local rig = marionette.rig()\nreturn graph { root = rig.idle }\n").unwrap();
    assert_eq!(weights_at(&mut plain, 0.5), vec![0.0, 0.0]);
}

/// In a `post` function: `pose:morph` reads, `pose:set_morph` writes (clamped to 0..1), a NaN
/// is a runtime error naming the call.
#[test]
fn pose_set_morph_and_morph() {
    let mut g = build(&format!(
        "{HEAD}return graph {{ root = rig.idle,\n  post = function(pose, ctx)\n    \
         pose:set_morph('smile', 1.5)\n    pose:set_morph('blink', pose:morph('smile') * 0.5)\n  end }}\n"
    ))
    .unwrap();
    assert_eq!(weights_at(&mut g, 0.1), vec![1.0, 0.5]);
    let mut bad = build(&format!(
        "{HEAD}return graph {{ root = rig.idle,\n  post = function(pose, ctx)\n    pose:set_morph('smile', 0/0)\n  end }}\n"
    ))
    .unwrap();
    bad.seek(0.1);
    let e = bad.runtime_error().expect("NaN refused").headline();
    assert!(
        e.ends_with(":5: pose:set_morph weight: expected a number, got NaN"),
        "{e}"
    );
}

/// A mask from the head covers the face (it follows the head), `mask.morphs` names targets
/// only; both combine with the other masks.
#[test]
fn masks_cover_the_face() {
    let g = build(&format!(
        "{HEAD}local head = mask.subtree('head')\n\
         local smile = mask.morphs('smile', 0.5)\n\
         local both = head + smile\n\
         print(head:weight('head'), smile:weight('head'), both:weight('spine'))\n\
         return graph {{ root = layer(rig.idle, {{ rig.wave, mask = both }}) }}\n"
    ))
    .unwrap();
    assert_eq!(g.script().log(), vec!["1\t0\t0".to_string()]);
}

/// Every mistake is an error at its line: an unknown target (with the closest name), a
/// constant outside 0..1, an unknown option, a wrong type, and a rig without morph targets.
#[test]
fn mistakes_name_their_line() {
    let err = |line: &str| {
        build(&format!(
            "{HEAD}{line}\nreturn graph {{ root = rig.idle }}\n"
        ))
        .err()
        .expect("fails")
    };
    assert_eq!(
        err("local op = morph.set('smil', 1)"),
        "anim.lua:3: morph.set: unknown morph target 'smil' (did you mean 'smile'?)"
    );
    assert_eq!(
        err("local op = morph.set('smile', 2)"),
        "anim.lua:3: morph.set: value 2 is outside [0, 1] (a morph weight is 0..1)"
    );
    assert!(err("local op = morph.set('smile', 1, { wieght = 1 })").contains("wieght"));
    assert!(err("local op = morph.set('smile', true)").contains("morph.set value"));
    assert_eq!(
        err("local m = mask.morphs('blinks')"),
        "anim.lua:3: mask.morphs: unknown morph target 'blinks' (did you mean 'blink'?)"
    );
    assert!(err("local m = mask.morphs(3)").contains("mask.morphs: give a morph target"));
    // a rig without morph targets says so
    let mut bare = small_rig();
    bare.skeleton = std::sync::Arc::new(
        marionette_anim::Skeleton::clone(&bare.skeleton)
            .with_morphs(marionette_anim::Morphs::default()),
    );
    let e = build_with(
        "local rig = marionette.rig()\nlocal op = morph.set('smile', 1)\nreturn graph { root = rig.idle }\n",
        &HostOptions::with_rig(bare),
    )
    .err()
    .expect("fails");
    assert_eq!(
        e,
        "anim.lua:2: morph.set: unknown morph target 'smile' (the rig has no morph targets: its meshes have no blend shapes)"
    );
}

/// Names of the wrong kind say what they are: a joint where a morph target is wanted (and the
/// meshes that follow it), a mesh where a joint is, a reversed `target.mesh`; `pose:morph`
/// refuses a mesh's name; `mask:weight` reads a target; a parameter ranging beyond 0..1 that
/// drives a target warns that its values are clamped.
#[test]
fn names_of_the_wrong_kind() {
    let err = |line: &str| {
        build(&format!(
            "{HEAD}{line}\nreturn graph {{ root = rig.idle }}\n"
        ))
        .err()
        .expect("fails")
    };
    assert_eq!(
        err("local op = morph.set('head', 1)"),
        "anim.lua:3: morph.set: 'head' is a joint, not a morph target: the meshes with morph \
         targets under it are face (name a target, e.g. 'face.smile')"
    );
    assert_eq!(
        err("local m = mask.subtree('face')"),
        "anim.lua:3: 'face' is a mesh with morph targets, not a joint (it follows joint 'head'): \
         use mask.morphs('face') for its targets"
    );
    assert_eq!(
        err("local m = mask.subtree('smile')"),
        "anim.lua:3: 'smile' is a morph target, not a joint: use mask.morphs('smile'), morph.set \
         or pose:set_morph"
    );
    assert_eq!(
        err("local op = morph.set('smile.face', 1)"),
        "anim.lua:3: morph.set: unknown morph target 'smile.face' (did you mean 'face.smile'? a \
         qualified name is mesh.target)"
    );
    let mut g = build(&format!(
        "{HEAD}return graph {{ root = rig.idle,\n  post = function(pose, ctx)\n    pose:morph('face')\n  end }}\n"
    ))
    .unwrap();
    g.seek(0.1);
    let e = g.runtime_error().expect("mesh refused").headline();
    assert!(
        e.ends_with(
            ":5: pose:morph: 'face' is a mesh: read one of its targets ('face.smile', ...)"
        ),
        "{e}"
    );
    let g = build(
        "local rig = marionette.rig()\nparams { big = float(0, 0, 2) }\n\
         print(mask.morphs('blink'):weight('blink'), mask.morphs('blink'):weight('face.smile'))\n\
         return graph { root = rig.idle, post = { morph.set('smile', 'big') } }\n",
    )
    .unwrap();
    assert_eq!(g.script().log(), vec!["1\t0".to_string()]);
    let warnings = g.script().warnings.join("\n");
    assert!(
        warnings.contains(
            "morph.set('smile', 'big'): 'big' ranges over [0, 2]; a morph weight is \
         0..1, so its values outside are clamped"
        ),
        "{warnings}"
    );
}
