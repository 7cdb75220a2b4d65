//! The Lua API: error text names file:line, Rust-side misuse names the calling line, the shipped
//! scripts load on the mannequin, takes are deterministic through Lua, and Lua-built graphs
//! match hand-computed poses.

use crate::script_common;

use std::rc::Rc;

use crate::script_common::{options, TempDir};
use marionette_anim::graph::ParamValue;
use marionette_script::{load, HostOptions, Rig, ScriptedGraph};

fn headline(dir: &TempDir, body: &str) -> String {
    let path = dir.write("anim.lua", body);
    match load(&path, &options()).and_then(ScriptedGraph::new) {
        Ok(_) => panic!("script should fail:\n{body}"),
        Err(e) => e.headline(),
    }
}

/// A syntax error and a runtime error read `file:line: message`; the runtime one has a traceback.
#[test]
fn errors_name_file_and_line() {
    let dir = TempDir::new("errs");
    let got = headline(&dir, "local rig = marionette.rig()\nlocal x = = 2\n");
    assert!(got.contains("anim.lua:2:"), "{got}");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nlocal t = nil\nprint(t.x)\n",
    );
    let e = load(&path, &options()).err().expect("fails");
    assert!(
        e.headline()
            .contains("anim.lua:3: attempt to index a nil value"),
        "{}",
        e.headline()
    );
    assert!(e.to_string().contains("stack traceback:"), "{e}");
}

/// Unknown clip, joint, parameter and bad ranges are reported at the script line that caused them.
#[test]
fn api_misuse_names_the_line() {
    let dir = TempDir::new("misuse");
    let cases = [
        ("local a = rig.wlak", 3, "unknown clip 'wlak'"),
        ("local m = mask.subtree('hed')", 3, "unknown joint 'hed'"),
        ("local b = blend1d('sped', { {0, rig.idle} })", 3, "unknown parameter 'sped'"),
        ("params { bad = float(5, 0, 1) }", 3, "bad range"),
        ("local b = blend1d('speed', { {1, rig.idle}, {0, rig.walk} })", 3, "positions must increase"),
        ("local l = layer(rig.idle, { rig.wave, weight = 2 })", 3, "outside [0, 1]"),
        (
            "local s = state_machine { start = 'a', a = rig.idle, transitions = { { 'a', 'b', on = 'go' } } }",
            3,
            "unknown state 'b'",
        ),
        ("takes { t = { duration = 1, speed = { {0, 9} } } }", 3, "outside the range"),
    ];
    for (line, n, want) in cases {
        let body = format!(
            "local rig = marionette.rig()\nparams {{ speed = float(0, 0, 6), go = trigger() }}\n{line}\nreturn graph {{ root = rig.idle }}\n"
        );
        let got = headline(&dir, &body);
        assert!(got.contains(&format!("anim.lua:{n}:")), "{line}: {got}");
        assert!(got.contains(want), "{line}: {got}");
    }
}

/// A script that does not return a graph says so.
#[test]
fn must_return_graph() {
    let dir = TempDir::new("noret");
    let got = headline(&dir, "local rig = marionette.rig()\n");
    assert!(got.contains("return graph"), "{got}");
}

/// A Lua-built 1D blend at speed 0.5 between two clips is their half-way pose (hand-computed).
#[test]
fn blend1d_matches_hand_computed_pose() {
    let dir = TempDir::new("b1d");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nparams { speed = float(0.5, 0, 1) }\nreturn graph { root = blend1d('speed', { {0, rig.idle}, {1, rig.walk} }) }\n",
    );
    let mut g = ScriptedGraph::new(load(&path, &options()).expect("loads")).expect("builds");
    // walk: pelvis yaw 0 -> 0.3 over 0.5 s; idle: 0 -> 0.05 over 1 s. At t = 0.25 s:
    // walk = 0.15 rad, idle = 0.0125 rad; half-way blend (nlerp of yaws) ~ 0.08125 rad.
    let pose = g.seek(0.25).to_vec();
    let (axis, angle) = pose[1].rotation.to_axis_angle();
    assert!((angle - 0.08125).abs() < 2e-3, "angle {angle} axis {axis}");
}

/// The shipped scripts load on the mannequin and evaluate every take (with post) without error.
#[test]
fn shipped_scripts_run_on_the_mannequin() {
    let model = marionette_anim::mannequin::build();
    let opts = HostOptions::with_rig(Rig::from_model("mannequin", &model));
    for script in ["scripts/locomotion.lua", "scripts/procedural.lua"] {
        let path = marionette_testkit::repo_path(script);
        let loaded = load(&path, &opts).unwrap_or_else(|e| panic!("{e}"));
        let takes: Vec<String> = loaded.spec.takes.iter().map(|t| t.name.clone()).collect();
        assert!(!takes.is_empty(), "{script} has takes");
        let mut g = ScriptedGraph::new(loaded).unwrap_or_else(|e| panic!("{e}"));
        for take in &takes {
            g.play(Some(take)).unwrap_or_else(|e| panic!("{e}"));
            let pose = g.seek(1.0).to_vec();
            assert!(pose.iter().all(|t| t.is_finite()));
            assert!(
                g.runtime_error().is_none(),
                "{script}: {:?}",
                g.runtime_error()
            );
        }
    }
}

/// In locomotion.lua the jump trigger at 2.0 s of walk_to_run starts the jump state.
#[test]
fn locomotion_take_jumps_at_two_seconds() {
    let model = marionette_anim::mannequin::build();
    let opts = HostOptions::with_rig(Rig::from_model("mannequin", &model));
    let loaded = load(
        &marionette_testkit::repo_path("scripts/locomotion.lua"),
        &opts,
    )
    .expect("loads");
    let mut g = ScriptedGraph::new(loaded).expect("builds");
    g.play(Some("walk_to_run")).expect("take");
    g.seek(1.9);
    let state = |g: &ScriptedGraph| {
        g.graph()
            .state_machines()
            .next()
            .map(|s| s.current.to_string())
    };
    assert_eq!(state(&g).as_deref(), Some("move"));
    g.seek(2.1);
    assert_eq!(state(&g).as_deref(), Some("jump"));
}

/// A take through Lua (with a Lua post function) is bit-identical when evaluated twice, also
/// after scrubbing backwards.
#[test]
fn take_is_deterministic_through_lua() {
    let model = marionette_anim::mannequin::build();
    let rig = Rig::from_model("mannequin", &model);
    let run = |rig: Rig| {
        let opts = HostOptions::with_rig(rig);
        let loaded = load(
            &marionette_testkit::repo_path("scripts/procedural.lua"),
            &opts,
        )
        .expect("loads");
        let mut g = ScriptedGraph::new(loaded).expect("builds");
        g.play(Some("breathe")).expect("take");
        let mut frames = Vec::new();
        for i in 0..120 {
            frames.push(g.seek(i as f64 / 30.0).to_vec());
        }
        let back = g.seek(1.0).to_vec();
        (frames, back)
    };
    let (a, back) = run(rig.clone());
    let (b, _) = run(rig);
    let bits = |p: &[marionette_anim::Transform]| -> Vec<u32> {
        p.iter()
            .flat_map(|t| {
                t.translation
                    .to_array()
                    .into_iter()
                    .chain(t.rotation.to_array())
                    .chain(t.scale.to_array())
            })
            .map(f32::to_bits)
            .collect()
    };
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(bits(x), bits(y));
    }
    assert_eq!(bits(&back), bits(&a[30]));
}

/// A Lua predicate transition fires when the function says so, and live parameters drive it.
#[test]
fn lua_predicate_and_live_params() {
    let dir = TempDir::new("pred");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nparams { speed = float(0, 0, 6) }\nlocal sm = state_machine {\n  start = 'idle', idle = rig.idle, run = rig.run,\n  transitions = { { 'idle', 'run', when = function(p) return p.speed > 2 end, blend = 0 } },\n}\nreturn graph { root = sm }\n",
    );
    let mut g = ScriptedGraph::new(load(&path, &options()).expect("loads")).expect("builds");
    g.advance(0.1);
    let state = |g: &ScriptedGraph| {
        g.graph()
            .state_machines()
            .next()
            .map(|s| s.current.to_string())
    };
    assert_eq!(state(&g).as_deref(), Some("idle"));
    g.set("speed", ParamValue::Float(3.0)).expect("param");
    g.advance(0.1);
    assert_eq!(state(&g).as_deref(), Some("run"));
    assert!(g.runtime_error().is_none());
}

/// An error inside post is reported with its line and the frame still evaluates (without post).
#[test]
fn post_error_keeps_evaluating() {
    let dir = TempDir::new("posterr");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nreturn graph {\n  root = rig.idle,\n  post = function(pose, ctx)\n    pose:look_at('nose', {0, 1, 1})\n  end,\n}\n",
    );
    let mut g = ScriptedGraph::new(load(&path, &options()).expect("loads")).expect("builds");
    let pose = g.advance(0.1).to_vec();
    assert!(pose.iter().all(|t| t.is_finite()));
    let e = g.runtime_error().expect("post error kept").headline();
    assert!(
        e.contains("anim.lua:5:") && e.contains("unknown joint 'nose'"),
        "{e}"
    );
}

/// `marionette.rig(path)` goes through the host's loader (a fixed-rig host refuses it clearly).
#[test]
fn named_rig_goes_through_loader() {
    let dir = TempDir::new("rigname");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig('other.glb')\nreturn graph { root = rig.idle }\n",
    );
    let e = load(&path, &options()).err().expect("fails").headline();
    assert!(e.contains("anim.lua:1:") && e.contains("fixed rig"), "{e}");
    let small = script_common::small_rig();
    let opts = HostOptions::new(marionette_script::rigs_from_fn(
        move |_name: Option<&str>| Ok(Rc::new(small.clone())),
    ));
    load(&path, &opts).expect("custom loader accepts the name");
}

/// The LuaLS stubs parse as Lua and declare every global the API registers.
#[test]
fn stubs_cover_the_api() {
    let stubs = std::fs::read_to_string(marionette_testkit::repo_path("scripts/marionette.d.lua"))
        .expect("stubs");
    assert!(stubs.starts_with("---@meta"));
    let dir = TempDir::new("stubs");
    dir.write("marionette.d.lua", &stubs);
    // the script compiles the stubs (without running them) and lists the API's globals
    let path = dir.write(
        "anim.lua",
        "assert(load(io.open('marionette.d.lua'):read('a'), '=stubs'))\nlocal names = {}\nfor _, n in ipairs({ 'marionette', 'params', 'float', 'bool', 'trigger', 'vec3', 'blend', 'blend1d', 'blend2d', 'additive', 'layer', 'mirror', 'stepped', 'mask', 'state_machine', 'clip', 'ik', 'takes', 'graph' }) do\n  assert(_G[n] ~= nil, n)\n  names[#names + 1] = n\nend\nfor _, g in ipairs({ 'spring', 'sphere', 'capsule' }) do names[#names + 1] = g end\nprint(table.concat(names, ' '))\nreturn graph { root = marionette.rig().idle }\n",
    );
    let loaded = load(&path, &options()).unwrap_or_else(|e| panic!("{e}"));
    for name in loaded.log()[0].split(' ') {
        let declared = stubs.contains(&format!("function {name}("))
            || stubs.contains(&format!("\n{name} = {{}}"));
        assert!(declared, "stubs do not declare '{name}'");
    }
    for method in [
        "function mask.subtree(",
        "function ik.look_at(",
        "function Pose:look_at(",
        "function Node:once(",
        "function marionette.rig(",
    ] {
        assert!(stubs.contains(method), "{method}");
    }
}

/// Every node kind, mask operation, curve form and post op builds and evaluates to finite poses.
#[test]
fn every_construct_builds() {
    let dir = TempDir::new("all");
    let path = dir.write(
        "anim.lua",
        r#"local rig = marionette.rig()
params { x = float(0.2, -1, 1), y = float(0.3, -1, 1), go = trigger(), on = bool(true), aim = vec3(0, 1, 1) }
local space = blend2d("x", "y", { {0, 0, rig.idle}, {1, 0, rig.walk}, {0, 1, rig.run} }, { sync = true })
local mixed = blend { { space, 0.5 }, { stepped(rig.walk:mirror():speed(1.5), 12), "x" } }
local added = additive(mixed, rig.wave:at(0.2), { weight = 0.5, reference = rig.wave })
local upper = (mask.subtree("spine") - mask.subtree("L_upperarm")) + mask.joints { "head", L_hand = 0.5 }
local m = state_machine {
  start = "a", a = added, b = mirror(rig.run), c = rig.jump:once(),
  transitions = {
    { "a", "b", when = "x > 0.1 and on", blend = 0.1, curve = { 0.4, 0, 0.6, 1 } },
    { "b", "c", on = "go", curve = function(t) return t * t end },
    { "*", "a", when = { on = false } },
    { "c", "a", at_end = true, source = "frozen" },
    { "a", "c", exit_time = 0.9, curve = "ease_out" },
  },
}
return graph {
  root = layer(m, { rig.wave, mask = upper * 0.8, weight = "y" }, { rig.idle, additive = true, mask = mask.side("left") }),
  post = { ik.look_at("head", "aim", { limit = 45, axis = "z" }), ik.two_bone("L_hand", { 0.5, 1.5, 0.2 }, { pole = { 0, 1, -1 } }),
           ik.rotate("spine", { 0, 10, 0 }), ik.translate("pelvis", { 0, -0.1, 0 }, { space = "model", weight = "y" }) },
  root_motion = "whole",
}
"#,
    );
    let mut g = ScriptedGraph::new(load(&path, &options()).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..30 {
        assert!(g.advance(1.0 / 30.0).iter().all(|t| t.is_finite()));
    }
    g.fire("go").expect("trigger");
    g.advance(0.5);
    assert!(g.runtime_error().is_none());
}

/// `root_motion` takes the runtime's mode names: each one builds a graph that reports it, "off"
/// is the default, and an unknown name is an error at the script's line listing the names.
#[test]
fn root_motion_mode_names() {
    use marionette_anim::root_motion::RootMotionMode;
    let dir = TempDir::new("rootmotion");
    for mode in RootMotionMode::ALL {
        let path = dir.write(
            "rm.lua",
            &format!(
                "local rig = marionette.rig()\nreturn graph {{ root = rig.walk, root_motion = \"{}\" }}\n",
                mode.name()
            ),
        );
        let g = ScriptedGraph::new(load(&path, &options()).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.script().spec.root_motion, mode);
        assert_eq!(g.graph().root_motion_mode(), mode);
    }
    let path = dir.write("rm.lua", script_common::MINIMAL);
    let loaded = load(&path, &options()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.spec.root_motion, RootMotionMode::Off);
    let path = dir.write(
        "rm.lua",
        "local rig = marionette.rig()\nreturn graph { root = rig.walk, root_motion = \"masked\" }\n",
    );
    let e = load(&path, &options()).err().expect("fails").headline();
    assert!(
        e.contains("rm.lua:2:") && e.contains(r#"must be one of "off", "ground", "whole""#),
        "{e}"
    );
}

/// The checklist of a node kind and a post op stays true: every kind's Lua name (the core
/// kinds and those the graph declares once) and every `ik.*`, `adjust.*`, `morph.*`, `pass.*` and
/// `constrain.*` function, and `spring`, `sphere` and `capsule`,
/// the API registers has its stub in `scripts/marionette.d.lua` and shows in the guide (a
/// deprecated alias only in the stubs).
#[test]
fn every_kind_and_post_op_is_in_the_stubs_and_the_guide() {
    let stubs = std::fs::read_to_string(marionette_testkit::repo_path("scripts/marionette.d.lua"))
        .expect("stubs");
    let mut guide = String::new();
    let docs = marionette_testkit::repo_path("docs/src");
    for e in std::fs::read_dir(&docs).expect("docs/src") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "md") {
            guide.push_str(&std::fs::read_to_string(&p).expect("chapter"));
        }
    }
    let kinds: Vec<&str> = marionette_script::spec::NodeSpec::lua_names().collect();
    assert!(kinds.contains(&"stepped") && kinds.contains(&":speed") && kinds.contains(&"blend"));
    for name in kinds {
        let (stub, used) = match name.strip_prefix(':') {
            Some(m) => (format!("function Node:{m}("), vec![format!(":{m}(")]),
            None => (
                format!("function {name}("),
                vec![format!("{name}("), format!("{name} {{")],
            ),
        };
        assert!(
            stubs.contains(&stub),
            "node kind '{name}': no `{stub}` in the stubs"
        );
        assert!(
            used.iter().any(|u| guide.contains(u.as_str())),
            "node kind '{name}' is not in the guide (docs/src/*.md)"
        );
    }
    // the post ops the API really registers, listed by Lua
    let dir = TempDir::new("post-ops");
    let path = dir.write(
        "anim.lua",
        "local names = {}\nfor _, ns in ipairs({ 'ik', 'adjust', 'morph', 'pass', 'constrain' }) do\n  for k, v in pairs(_G[ns]) do\n    if type(v) == 'function' then names[#names + 1] = ns .. '.' .. k end\n  end\nend\ntable.sort(names)\nfor _, g in ipairs({ 'spring', 'sphere', 'capsule' }) do names[#names + 1] = g end\nprint(table.concat(names, ' '))\nreturn graph { root = marionette.rig().idle }\n",
    );
    let loaded = load(&path, &options()).unwrap_or_else(|e| panic!("{e}"));
    let log = loaded.log();
    let ops: Vec<&str> = log[0].split(' ').collect();
    assert!(
        ops.contains(&"ik.look_at") && ops.contains(&"morph.set"),
        "{ops:?}"
    );
    for op in ops {
        let stub = format!("function {op}(");
        let at = stubs
            .find(&stub)
            .unwrap_or_else(|| panic!("post op '{op}': no `{stub}` in the stubs"));
        // the stub's own comment block: a deprecated alias need not be in the guide
        let block = stubs[..at].rsplit("\nfunction ").next().unwrap_or("");
        if !block.contains("---@deprecated") {
            // (`pass.smooth { ... }` is called with a table, as a guide writes it)
            assert!(
                guide.contains(&format!("{op}(")) || guide.contains(&format!("{op} {{")),
                "post op '{op}' is not in the guide (docs/src/*.md)"
            );
        }
    }
}
