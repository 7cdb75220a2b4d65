//! Issue 12, error locations and all errors at once: errors found when the graph is built point
//! at the line of the call that made the node, a script's independent mistakes are all
//! reported in one load (capped), and what the script printed before failing is still shown.
//! Messages are asserted verbatim: they are the product.

use std::rc::Rc;

use crate::script_common::{options, small_rig, TempDir, MINIMAL};
use marionette_anim::Skeleton;
use marionette_script::spec::NodeSpec;
use marionette_script::{load, HostOptions, Rig, RigLoader, ScriptError, ScriptedGraph};

/// Loads and builds `body`, which must fail; returns the error with the path cut.
fn error_of(body: &str) -> (ScriptError, String) {
    let dir = TempDir::new("errors");
    let path = dir.write("anim.lua", body);
    match load(&path, &options()).and_then(ScriptedGraph::new) {
        Ok(_) => panic!("script should fail:\n{body}"),
        Err(e) => {
            let text = e
                .headlines()
                .replace(&path.display().to_string(), "anim.lua");
            (e, text)
        }
    }
}

/// The multi-line script the location tests share; `ROOT` is replaced by the graph's root.
const NODES: &str = "local rig = marionette.rig()
params { speed = float(0, 0, 6), dir = float(0, -1, 1), look = vec3(0, 1, 1) }
local flat = blend2d('speed', 'dir', {
  {0, 0, rig.idle},
  {1, 0, rig.walk},
  {2, 0, rig.run},
})
local added = additive(rig.idle,
  rig.wave, { reference = blend { {rig.walk, 1} } })
local good = blend1d('speed', { {0, rig.idle}, {1, rig.walk} })
return graph {
  root = ROOT,
}
";

/// Errors found while the graph is built are reported at the line that made the node, not at
/// `graph {`.
#[test]
fn build_errors_point_at_the_node() {
    let cases = [
        (
            "flat",
            "anim.lua:3: blend2d: a 2D blend space needs three samples not all on one line",
        ),
        (
            "added",
            "anim.lua:8: additive: the reference must be a clip",
        ),
        (
            "layer(good,\n    { flat })",
            "anim.lua:3: blend2d: a 2D blend space needs three samples not all on one line",
        ),
    ];
    for (root, want) in cases {
        let (_, got) = error_of(&NODES.replace("ROOT", root));
        assert_eq!(got, want, "root = {root}");
    }
}

/// Mistakes found by the API point at the call's own line inside a multi-line expression: an
/// unknown clip, a bad mask joint, an IK chain that is not one.
#[test]
fn api_errors_point_at_their_own_line() {
    let body = "local rig = marionette.rig()
params { speed = float(0, 0, 6), look = vec3(0, 1, 1) }
local move = blend1d('speed', {
  {0, rig.idle},
  {1, rig.wlak},
})
return graph {
  root = layer(move, {
    rig.wave,
    mask = mask.subtree('haed'),
  }),
  post = {
    ik.look_at('head', 'look'),
    ik.two_bone('pelvis', 'look', { pole = {0, 0, 1} }),
  },
}
";
    let (e, got) = error_of(body);
    assert_eq!(
        got,
        "anim.lua:5: unknown clip 'wlak' (did you mean 'walk'?) (the rig small test rig has: idle, walk, run, wave, jump)
anim.lua:10: unknown joint 'haed' in rig small test rig (did you mean 'head'?)
anim.lua:14: ik.two_bone: 'pelvis' is a child of 'root', which has no parent: give the end joint of a three-joint chain (a hand or foot, whose parent and grandparent bend)"
    );
    assert_eq!(e.count(), 3);
}

/// Three independent mistakes (an unknown clip, a bad transition option, a missing state) are
/// all reported by one load, each at its line, in line order; the first leads (the editor's
/// banner shows it).
#[test]
fn every_mistake_is_reported() {
    let body = "local rig = marionette.rig()
params { go = trigger() }
local idle = rig.Idel
local body = state_machine {
  start = 'stand',
  states = { idle = idle, walk = rig.walk },
  transitions = {
    { 'idle', 'walk', on = 'go' },
    { 'walk', 'idle', on = 'go', blnd = 0.2 },
  },
}
return graph { root = body }
";
    let (e, got) = error_of(body);
    assert_eq!(
        got,
        "anim.lua:3: unknown clip 'Idel' (did you mean 'idle'?) (the rig small test rig has: idle, walk, run, wave, jump)
anim.lua:5: start: unknown state 'stand' (states: idle, walk)
anim.lua:9: transition 2: unknown option 'blnd' (did you mean 'blend'?)"
    );
    // the first leads: the banner's headline is the first mistake alone
    assert_eq!(e.location.as_ref().map(|l| l.line), Some(3));
    assert!(!e.headline().contains('\n'), "{}", e.headline());
    assert_eq!(e.more.len(), 2);
    // the full text (console, `check`) lists all three
    assert_eq!(e.to_string().lines().count(), 3, "{e}");
}

/// A script with more mistakes than the cap stops at the cap and says so.
#[test]
fn errors_are_capped() {
    let body = "local rig = marionette.rig()
for i = 1, 30 do local n = rig['nope' .. i] end
return graph { root = rig.idle }
";
    let (e, got) = error_of(body);
    assert_eq!(e.count(), 21, "{got}");
    let last = got.lines().last().unwrap_or_default();
    assert_eq!(last, "anim.lua:2: stopped after 20 errors; fix these first");
}

/// A Lua runtime error still stops the script; the mistakes recorded before it come first.
#[test]
fn a_runtime_error_stops_after_the_recorded_mistakes() {
    let body = "local rig = marionette.rig()
local a = rig.wlak
local x = nil + 1
local b = rig.rnu
return graph { root = rig.idle }
";
    let (_, got) = error_of(body);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), 2, "{got}");
    assert!(
        lines[0].starts_with("anim.lua:2: unknown clip 'wlak'"),
        "{got}"
    );
    assert!(
        lines[1].starts_with("anim.lua:3: attempt to perform arithmetic on a nil value"),
        "{got}"
    );
}

/// What a script printed before it failed travels with the error.
#[test]
fn printed_lines_travel_with_the_error() {
    let (e, _) = error_of("local rig = marionette.rig()\nprint('before', 1)\nlocal a = rig.wlak\nprint('after')\nreturn graph { root = a }\n");
    assert_eq!(
        e.printed.to_vec(),
        vec!["before\t1".to_string(), "after".to_string()]
    );
    let (e, _) = error_of("print('at build')\nlocal rig = marionette.rig()\nparams { s = float(0, 0, 1) }\nreturn graph { root = blend2d('s', 's', { {0, 0, rig.idle}, {1, 1, rig.walk} }) }\n");
    assert_eq!(e.printed.to_vec(), vec!["at build".to_string()]);
}

/// The small rig with every joint renamed `x_NAME`: the same joints in the same order.
fn renamed_rig() -> Rig {
    let rig = small_rig();
    let s = &rig.skeleton;
    let names = s.names().iter().map(|n| format!("x_{n}")).collect();
    let parents = s.parents().iter().map(|p| p.map(usize::from)).collect();
    let built = Skeleton::new(names, parents, s.rest_pose().to_vec(), glam::Mat4::IDENTITY)
        .expect("valid skeleton");
    let clips = rig.clips.iter().map(|c| (**c).clone()).collect();
    Rig::new("renamed.glb", built.skeleton, clips)
}

/// `marionette.rig(path)` does not replace the character once something was made from it: a
/// mask's weights are per joint of the rig it was made on, so on the renamed rig `mask.subtree
/// ('L_upperarm')` would weigh `x_L_upperarm`'s subtree by index, silently. The file becomes a
/// source rig instead, and playing its clip on the character is an error that says to retarget
/// it. Before anything was made from (or asked of) the character, the first named rig is the
/// character.
#[test]
fn the_rig_is_not_replaced_under_what_was_made_from_it() {
    let (small, renamed) = (Rc::new(small_rig()), Rc::new(renamed_rig()));
    let loader: RigLoader = marionette_script::rigs_from_fn(move |name: Option<&str>| match name {
        None => Ok(small.clone()),
        Some(_) => Ok(renamed.clone()),
    });
    let opts = HostOptions::new(loader);
    let dir = TempDir::new("rig-swap");
    for made in [
        "local m = mask.subtree('L_upperarm')",
        "local op = ik.two_bone('L_hand', {0, 1, 0}, { pole = {0, 0, 1} })",
        "marionette.sides { pairs = { L_hand = 'R_hand' } }",
    ] {
        let body = format!(
            "{made}\nlocal rig = marionette.rig('renamed.glb')\nreturn graph {{ root = rig.idle }}\n"
        );
        let path = dir.write("anim.lua", &body);
        let e = match load(&path, &opts) {
            Ok(_) => panic!("should fail: {made}"),
            Err(e) => e
                .headline()
                .replace(&path.display().to_string(), "anim.lua"),
        };
        assert!(
            e.starts_with("anim.lua:3: graph: root plays renamed.glb's clips")
                && e.contains("retarget(node, { from = rig })"),
            "{made}: {e}"
        );
    }
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig('renamed.glb')\n\
         return graph { root = layer(rig.idle, { rig.wave, mask = mask.subtree('x_L_upperarm') }) }\n",
    );
    let g = load(&path, &opts)
        .and_then(ScriptedGraph::new)
        .expect("loads");
    assert_eq!(g.script().rig.source, "renamed.glb");
    // marionette.rig() is the character: asked for first, it is the default one, and the file
    // named next is another rig (not a silent replacement of the first)
    let path = dir.write(
        "anim.lua",
        "local me = marionette.rig()\nlocal other = marionette.rig('renamed.glb')\n\
         return graph { root = me.idle }\n",
    );
    let g = load(&path, &opts)
        .and_then(ScriptedGraph::new)
        .expect("loads");
    assert_eq!(g.script().rig.source, "small test rig");
    assert_eq!(g.script().sources.len(), 1);
    assert_eq!(g.script().sources[0].source, "renamed.glb");
}

/// A spec whose clip or state indices do not fit its rig (a `LoadedScript` changed by Rust, or
/// a script that got one past the API) is an error naming the node, not a panic.
#[test]
fn indices_that_do_not_fit_are_errors() {
    let dir = TempDir::new("indices");
    let path = dir.write("anim.lua", MINIMAL);
    let mut script = load(&path, &options()).expect("loads");
    let root = script.spec.root.index();
    let NodeSpec::Clip(c) = &mut script.spec.nodes[root] else {
        panic!("the root is a clip");
    };
    c.clip = 99;
    let e = ScriptedGraph::new(script)
        .err()
        .expect("an error")
        .headline();
    assert!(
        e.ends_with("anim.lua:2: clip 99 does not exist in rig small test rig"),
        "{e}"
    );

    let body = "local rig = marionette.rig()
params { go = trigger() }
local sm = state_machine {
  start = 'a', states = { a = rig.idle, b = rig.walk },
  transitions = { { 'a', 'b', on = 'go' } },
}
return graph { root = sm }
";
    let path = dir.write("sm.lua", body);
    for bad in ["start", "from", "to"] {
        let mut script = load(&path, &options()).expect("loads");
        let root = script.spec.root.index();
        let NodeSpec::StateMachine(m) = &mut script.spec.nodes[root] else {
            panic!("the root is a state machine");
        };
        match bad {
            "start" => m.start = 7,
            "from" => m.transitions[0].from = Some(7),
            _ => m.transitions[0].to = 7,
        }
        let e = ScriptedGraph::new(script)
            .err()
            .expect("an error")
            .headline();
        assert!(
            e.ends_with("sm.lua:3: state_machine: state 7 does not exist"),
            "{bad}: {e}"
        );
    }
}
