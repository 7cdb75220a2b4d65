//! Issue 12, silent mistakes and types: every options table rejects unknown keys with a
//! did-you-mean at the right line, reserved keys do not swallow user names, bools take only
//! booleans. Messages are asserted verbatim: they are the product.

use crate::script_common::{options, TempDir};
use marionette_anim::graph::ParamValue;
use marionette_script::{load, ScriptedGraph};

const HEAD: &str = "local rig = marionette.rig()\nparams { speed = float(0, 0, 6), go = trigger(), crouch = bool(false), look = vec3(0, 1, 1) }\n";

/// The headline (`file:line: message`) of a script that must fail, with the file name cut.
fn fails(body: &str) -> String {
    let dir = TempDir::new("strict");
    let path = dir.write("anim.lua", body);
    match load(&path, &options()).and_then(ScriptedGraph::new) {
        Ok(_) => panic!("script should fail:\n{body}"),
        Err(e) => {
            // every error found, the path cut everywhere, so each reads `:line: message`
            e.headlines().replace(&path.display().to_string(), "")
        }
    }
}

/// Line 3 of a script made of [`HEAD`], `line` and a graph returning `root`.
fn at_line3(line: &str) -> String {
    fails(&format!(
        "{HEAD}{line}\nreturn graph {{ root = rig.idle }}\n"
    ))
}

/// A misspelt option of each options table is an error at its line, naming the key and the fix.
#[test]
fn unknown_options_are_errors_with_did_you_mean() {
    let cases = [
        (
            "local b = blend1d('speed', { {0, rig.idle}, {1, rig.walk} }, { synch = true })",
            ":3: blend1d: unknown option 'synch' (did you mean 'sync'?)",
        ),
        (
            "local b = blend2d('speed', 'speed', { {0, 0, rig.idle} }, { snyc = true })",
            ":3: blend2d: unknown option 'snyc' (did you mean 'sync'?)",
        ),
        (
            "local a = additive(rig.idle, rig.wave, { wieght = 0.5 })",
            ":3: additive: unknown option 'wieght' (did you mean 'weight'?)",
        ),
        (
            "local l = layer(rig.idle, { rig.wave, masks = mask.all() })",
            ":3: layer 1: unknown option 'masks' (did you mean 'mask'?)",
        ),
        (
            "local p = ik.look_at('head', 'look', { limt = 30 })",
            ":3: ik.look_at: unknown option 'limt' (did you mean 'limit'?)",
        ),
        (
            "local p = ik.two_bone('L_hand', 'look', { pole = {0, 0, 1}, wight = 1 })",
            ":3: ik.two_bone: unknown option 'wight' (did you mean 'weight'?)",
        ),
        (
            "local p = ik.rotate('head', {0, 1, 0}, { spaec = 'model' })",
            ":3: ik.rotate: unknown option 'spaec' (did you mean 'space'?)",
        ),
        (
            "local s = state_machine { states = { a = rig.idle }, strat = 'a' }",
            ":3: state_machine: unknown option 'strat' (did you mean 'start'?)",
        ),
        (
            "local s = state_machine { states = { a = rig.idle, b = rig.walk }, start = 'a', transitions = { { 'a', 'b', on = 'go', blnd = 0.1 } } }",
            ":3: transition 1: unknown option 'blnd' (did you mean 'blend'?)",
        ),
    ];
    for (line, want) in cases {
        assert_eq!(at_line3(line), want, "{line}");
    }
}

/// `graph { rootmotion = ... }` names the key and suggests `root_motion`, at the graph's line.
#[test]
fn graph_rejects_unknown_keys() {
    let got = fails(&format!(
        "{HEAD}\nreturn graph {{ root = rig.idle, rootmotion = 'ground' }}\n"
    ));
    assert_eq!(
        got,
        ":4: graph: unknown option 'rootmotion' (did you mean 'root_motion'?)"
    );
    let got = fails(&format!(
        "{HEAD}return graph {{ root = rig.idle, zzz = 1 }}\n"
    ));
    assert_eq!(
        got,
        ":3: graph: unknown option 'zzz' (known: root, post, takes, root_motion, passes)"
    );
}

/// A state named `start` or `transitions` is rejected in the flat form and works in `states`.
#[test]
fn reserved_state_names() {
    let got = at_line3("local s = state_machine { start = rig.idle, walk = rig.walk }");
    assert_eq!(
        got,
        ":3: state_machine: a state cannot be called 'start' here ('start' is a reserved key); put the states in states = { start = ..., ... }"
    );
    let got = at_line3("local s = state_machine { transitions = rig.idle }");
    assert!(
        got.contains("a state cannot be called 'transitions'"),
        "{got}"
    );
    let got = at_line3("local s = state_machine { start = 'a', a = rig.idle, transition = {} }");
    assert_eq!(
        got,
        ":3: state_machine: state 'transition' must be a node, got a table (did you mean 'transitions'?)"
    );
    let dir = TempDir::new("states");
    let path = dir.write(
        "anim.lua",
        &format!(
            "{HEAD}local s = state_machine {{ start = 'start', states = {{ start = rig.idle, transitions = rig.walk }},\n  transitions = {{ {{ 'start', 'transitions', on = 'go', blend = 0 }} }} }}\nreturn graph {{ root = s }}\n"
        ),
    );
    let mut g = ScriptedGraph::new(load(&path, &options()).expect("loads")).expect("builds");
    g.seek(0.1);
    let state = |g: &ScriptedGraph| {
        g.graph()
            .state_machines()
            .next()
            .map(|s| s.current.to_string())
    };
    assert_eq!(state(&g).as_deref(), Some("start"));
    g.fire("go").expect("trigger");
    g.advance(0.1);
    assert_eq!(state(&g).as_deref(), Some("transitions"));
}

/// Parameters named like take options are keyed under `keys = { }`; an unknown take key says so.
#[test]
fn take_keys_do_not_collide() {
    let dir = TempDir::new("takekeys");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nparams { fps = float(0, 0, 10), duration = float(0, 0, 10) }\nreturn graph { root = blend1d('fps', { {0, rig.idle}, {10, rig.walk} }),\n  takes = { t = { duration = 2, fps = 30, keys = { fps = { {0, 0}, {2, 10} }, duration = { {0, 5} } } } } }\n",
    );
    let mut g = ScriptedGraph::new(load(&path, &options()).expect("loads")).expect("builds");
    g.play(Some("t")).expect("take");
    g.seek(1.0);
    let p = g.graph().params();
    let value = |name: &str| {
        let i = p.defs().iter().position(|d| d.name == name).expect("param");
        p.values()[i]
    };
    assert_eq!(value("fps"), ParamValue::Float(5.0));
    assert_eq!(value("duration"), ParamValue::Float(5.0));
    let got = fails(&format!(
        "{HEAD}return graph {{ root = rig.idle, takes = {{ t = {{ duration = 1, sped = {{ {{0, 1}} }} }} }} }}\n"
    ));
    assert_eq!(
        got,
        ":3: take 't': 'sped' is neither a take option (duration, fps, keys, markers, assert_motion, passes) nor a declared parameter (did you mean 'speed'?)"
    );
}

/// `bool(0)` and a bool take key `{0, 0}` are errors, not `true`.
#[test]
fn bools_accept_only_booleans() {
    assert_eq!(
        fails("local rig = marionette.rig()\nparams { crouch = bool(0) }\nreturn graph { root = rig.idle }\n"),
        ":2: bool(default): the default must be true or false, got the number 0"
    );
    assert_eq!(
        fails(&format!(
            "{HEAD}takes {{ t = {{ duration = 1, crouch = {{ {{0, 0}} }} }} }}\nreturn graph {{ root = rig.idle }}\n"
        )),
        ":3: take 't', crouch: a bool key's value must be true or false, got the number 0"
    );
    assert_eq!(
        at_line3("local b = blend1d('speed', { {0, rig.idle} }, { sync = 1 })"),
        ":3: blend1d: sync must be true or false, got the number 1"
    );
    assert_eq!(
        at_line3("local l = layer(rig.idle, { rig.wave, additive = 'yes' })"),
        ":3: layer 1: additive must be true or false, got the string \"yes\""
    );
}

/// Unknown states and parameters suggest the near name.
#[test]
fn near_names_are_suggested() {
    assert_eq!(
        at_line3("local b = blend1d('sped', { {0, rig.idle} })"),
        ":3: blend1d: unknown parameter 'sped' (did you mean 'speed'?) (declared: crouch, go, look, speed)"
    );
    assert_eq!(
        at_line3("local s = state_machine { start = 'Idle', states = { idle = rig.idle } }"),
        ":3: start: unknown state 'Idle' (did you mean 'idle'?)"
    );
}

/// Errors in transitions and takes point at their own lines, and every bad one is reported.
#[test]
fn errors_point_at_their_entry_and_all_are_reported() {
    let body = format!(
        "{HEAD}local s = state_machine {{\n  start = 'a',\n  states = {{ a = rig.idle, b = rig.walk }},\n  transitions = {{\n    {{ 'a', 'b', on = 'go' }},\n    {{ 'b', 'c', on = 'go' }},\n    {{ 'a', 'b', on = 'go', blend = -1 }},\n  }},\n}}\nreturn graph {{ root = s }}\n"
    );
    assert_eq!(
        fails(&body),
        ":8: transition 2: unknown state 'c' (states: a, b)\n:9: transition 3: blend -1 must be >= 0 seconds"
    );
    let body = format!(
        "{HEAD}return graph {{\n  root = rig.idle,\n  takes = {{\n    good = {{ duration = 1 }},\n    bad = {{ duration = -1 }},\n    worse = {{\n      duration = 1, speed = {{ {{0, 99}} }} }},\n  }},\n}}\n"
    );
    assert_eq!(
        fails(&body),
        ":7: take 'bad': duration -1 must be > 0\n:8: take 'worse', speed: value 99 at 0 s is outside the range [0, 6]"
    );
}

/// Issue 20's small untruths: an argument nothing reads, a trigger keyed like a float, an
/// unknown field in a key table, an unknown joint with no near name: each an error that says
/// what to write, verbatim.
#[test]
fn small_untruths_are_errors() {
    let cases = [
        (
            "rig.jump:once(true)",
            ":3: node:once() takes no arguments, 1 given",
        ),
        (
            "local m = mask.subtree('pelvis', 1, 'extra')",
            ":3: mask.subtree(joint, weight) takes 2 arguments, 3 given",
        ),
        (
            "takes { t = { duration = 3, go = { {2.0, true} } } }",
            ":3: take 't', go: a trigger's keys are a list of times ({ 0.5, 2 }), got a table",
        ),
        (
            "takes { t = { duration = 3, speed = { { 0, 0, bogus = 12 } } } }",
            ":3: take 't', speed: a key { time, value }: unknown option 'bogus' (known: ease, slope_in, slope_out)",
        ),
        (
            "takes { t = { duration = 3, speed = { { 0, 0 }, { 1, 2, 3 } } } }",
            ":3: take 't', speed: a key { time, value }: unexpected entry [3] (only 2 positional entries)",
        ),
        (
            "takes { t = { duration = 3, speed = { { 0, 0 }, stpe = true } } }",
            ":3: take 't', speed: unknown option 'stpe' (did you mean 'step'?)",
        ),
    ];
    for (line, want) in cases {
        assert_eq!(at_line3(line), want, "{line}");
    }
    let joint = at_line3("local m = mask.subtree('RightShoulder')");
    assert!(
        joint.starts_with(":3: unknown joint 'RightShoulder' in rig small test rig (it has: root, pelvis, spine, head,"),
        "{joint}"
    );
}

/// `--set` outside a float's range is clamped, as the graph does, and says so with the range.
#[test]
fn set_outside_the_range_warns() {
    let dir = TempDir::new("strict-set");
    let path = dir.write(
        "anim.lua",
        &format!(
            "{HEAD}return graph {{ root = rig.idle, takes = {{ walk_to_run = {{ duration = 1 }} }} }}\n"
        ),
    );
    let mut g = load(&path, &options())
        .and_then(ScriptedGraph::new)
        .expect("loads");
    let w = g.set_text("speed", "99").expect("sets");
    assert_eq!(
        w.as_deref(),
        Some("--set speed=99: outside speed's range [0, 6]; using 6")
    );
    assert_eq!(g.set_text("speed", "2").expect("sets"), None);
    let e = g.play(Some("walk_2_run")).expect_err("no such take");
    assert_eq!(
        e.to_string(),
        "unknown take 'walk_2_run' (the script has: walk_to_run) (did you mean 'walk_to_run'?)"
    );
}

/// Key tangents (issue 35): an ease by name or explicit slopes load into the take; a misspelt
/// ease, slopes on a vector, an ease with slopes, a bad slope and an ease on a bool are errors
/// at the take's line, naming the key and the fix.
#[test]
fn key_eases_load_and_their_mistakes_are_errors() {
    use marionette_anim::graph::Ease;
    let dir = TempDir::new("eases");
    let body = format!(
        "{HEAD}takes {{ t = {{ duration = 2,\n  speed = {{ {{0, 0, ease = 'flat'}}, {{1, 2, slope_out = 3}}, {{2, 1}} }},\n  look = {{ {{0, {{0, 1, 1}}, ease = 'auto'}}, {{2, {{1, 1, 1}}}} }} }} }}\nreturn graph {{ root = rig.idle }}\n"
    );
    let path = dir.write("anim.lua", &body);
    let g = load(&path, &options())
        .and_then(ScriptedGraph::new)
        .unwrap_or_else(|e| panic!("{e}"));
    let take = g.take_data("t").expect("take t");
    let speed = take
        .tracks
        .iter()
        .find(|t| t.param == "speed")
        .expect("speed");
    assert_eq!(
        speed.eases,
        vec![
            Ease::Flat,
            Ease::Slopes {
                slope_in: 3.0,
                slope_out: 3.0
            },
            Ease::Linear
        ]
    );
    let look = take
        .tracks
        .iter()
        .find(|t| t.param == "look")
        .expect("look");
    assert_eq!(look.eases, vec![Ease::Auto, Ease::Linear]);
    let take_line = |keys: &str| {
        fails(&format!(
            "{HEAD}takes {{ t = {{ duration = 2, {keys} }} }}\nreturn graph {{ root = rig.idle }}\n"
        ))
    };
    assert_eq!(
        take_line("speed = { {0, 0, ease = 'flta'} }"),
        ":3: take 't', speed: the key at 0 s has ease 'flta': expected one of auto, flat, linear, step (did you mean 'flat'?)"
    );
    assert_eq!(
        take_line("look = { {0, {0, 1, 1}, slope_in = 1} }"),
        ":3: take 't', look: the key at 0 s has slopes: explicit slopes (slope_in, slope_out) are for float parameters; give a vector key an ease (auto, flat, linear, step)"
    );
    assert_eq!(
        take_line("speed = { {0, 0, ease = 'flat', slope_in = 1} }"),
        ":3: take 't', speed: the key at 0 s gives both an ease and slopes: give one or the other"
    );
    assert_eq!(
        take_line("speed = { {0, 0, slope_out = 'steep'} }"),
        ":3: take 't', speed: the key at 0 s: slope_out: expected a number, got string"
    );
    assert_eq!(
        take_line("crouch = { {0, true, ease = 'flat'} }"),
        ":3: take 't', crouch: the key at 0 s has an ease: a bool key takes none (bools always step: each value holds until the next key)"
    );
    assert_eq!(
        take_line("speed = { {0, 0, ease = 'smooth'} }"),
        ":3: take 't', speed: the key at 0 s has ease 'smooth': expected one of auto, flat, linear, step (for a smooth curve through the key use 'auto')"
    );
}
