//! Issue 12: take markers and clip events are authored in Lua and reach the bake's metadata and
//! the graph's event list; `sync = true` changes cadence continuously over a speed ramp.

use crate::script_common::{options, TempDir};
use marionette_bake::{bake_take, ScriptBake};
use marionette_script::{load, ScriptedGraph};

fn graph(body: &str) -> ScriptedGraph {
    let dir = TempDir::new("events");
    let path = dir.write("anim.lua", body);
    ScriptedGraph::new(load(&path, &options()).expect("loads")).expect("builds")
}

/// `markers = { ... }` on a take and `:event()` on a clip go into the baked take's markers and
/// events, in time order, next to the trigger's event.
#[test]
fn markers_and_clip_events_reach_the_bake() {
    let mut g = graph(
        "local rig = marionette.rig()\nparams { go = trigger() }\nreturn graph { root = rig.walk:event('foot_l', 0.25),\n  takes = { t = { duration = 1, fps = 20, go = { 0.5 }, markers = { {0.8, 'late'}, {0.1, 'early'} } } } }\n",
    );
    let take = bake_take(&mut g, "t", &ScriptBake::default(), &mut |_, _| {}).expect("bakes");
    let markers: Vec<(&str, f32)> = take
        .meta
        .markers
        .iter()
        .map(|m| (m.name.as_str(), m.time))
        .collect();
    assert_eq!(markers, vec![("early", 0.1), ("late", 0.8)]);
    let events: Vec<(&str, f32)> = take
        .meta
        .events
        .iter()
        .map(|e| (e.name.as_str(), e.time))
        .collect();
    assert_eq!(events, vec![("foot_l", 0.25), ("go", 0.5)]);
}

/// Markers outside the take and events outside the clip are errors naming the bad value.
#[test]
fn bad_markers_and_events() {
    let dir = TempDir::new("badev");
    let cases = [
        (
            "return graph { root = rig.walk, takes = { t = { duration = 1, markers = { {2, 'x'} } } } }",
            "take 't', markers: time 2 is outside the take (0 to 1 s)",
        ),
        (
            "return graph { root = rig.walk:event('x', 3) }",
            ":event('x', 3): the time is outside the clip (0 to 1 s)",
        ),
        (
            "return graph { root = blend { {rig.walk, 1} }:event('x', 0) }",
            ":event(name, seconds) applies to clips only",
        ),
    ];
    for (line, want) in cases {
        let path = dir.write("a.lua", &format!("local rig = marionette.rig()\n{line}\n"));
        let e = load(&path, &options())
            .and_then(ScriptedGraph::new)
            .err()
            .expect("fails");
        assert!(e.headline().contains(":2: "), "{}", e.headline());
        assert!(e.headline().contains(want), "{}", e.headline());
    }
}

/// With sync on, the phase advance per frame changes continuously while the speed ramps from
/// the walk (1 s cycle) to the run (0.6 s cycle): no jump where the heavier clip changes at 50%,
/// and it ends at the run's rate.
#[test]
fn sync_cadence_is_continuous_over_a_speed_ramp() {
    let mut g = graph(
        "local rig = marionette.rig()\nparams { speed = float(0, 0, 2) }\nreturn graph { root = blend1d('speed', { {0, rig.walk}, {1, rig.run} }, { sync = true }),\n  takes = { ramp = { duration = 4, fps = 60, speed = { {0, 0}, {3, 1} } } } }\n",
    );
    g.play(Some("ramp")).expect("take");
    g.seek(0.0);
    // both members share one phase; read it from the heavier one
    let phase = |g: &ScriptedGraph| {
        g.graph()
            .nodes()
            .filter(|n| matches!(n.name, Some("walk" | "run")) && n.weight > 0.0)
            .max_by(|a, b| a.weight.total_cmp(&b.weight))
            .and_then(|n| n.phase)
            .expect("a member has a phase")
    };
    let mut rates = Vec::new();
    let mut last = phase(&g);
    for frame in 1..=240 {
        g.seek(frame as f64 / 60.0);
        let p = phase(&g);
        rates.push((p - last).rem_euclid(1.0));
        last = p;
    }
    let walk_rate = 1.0 / 60.0;
    let run_rate = 1.0 / (0.6 * 60.0);
    assert!((rates[0] - walk_rate).abs() < 1e-3, "{}", rates[0]);
    assert!((rates[239] - run_rate).abs() < 1e-4, "{}", rates[239]);
    let biggest = rates
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0f32, f32::max);
    // the whole change (run - walk) spread over 180 frames is about 6e-5 per frame
    assert!(biggest < 2e-4, "phase rate jumps by {biggest} per frame");
}

/// The state machine the state-event tests share: `jump` entered on `go` and left on the next
/// `go`, with events on enter, 0.35 s in and on exit.
const STATES: &str = "local rig = marionette.rig()
params { go = trigger() }
local body = state_machine {
  start = 'idle',
  states = { idle = rig.idle, jump = rig.jump:once() },
  transitions = {
    { 'idle', 'jump', on = 'go', blend = 0 },
    { 'jump', 'idle', on = 'go', blend = 0 },
  },
  events = {
    jump = { {'enter', 'takeoff'}, {0.35, 'apex'}, {'exit', 'landed'} },
  },
}
return graph { root = body, takes = { t = { duration = 2, fps = 10, go = { 0.5, 1.2 } } } }
";

/// State events fire on enter, at a time in the state and on exit, and reach the bake's events
/// with their state: at 10 fps `go` (0.5 s) enters `jump` in frame 5, 0.35 s in is crossed in
/// frame 9 (state time 0.3 -> 0.4), and the second `go` (1.2 s) leaves it in frame 12, 0.7 s in.
#[test]
fn state_events_reach_the_bake() {
    let mut g = graph(STATES);
    let take = bake_take(&mut g, "t", &ScriptBake::default(), &mut |_, _| {}).expect("bakes");
    let events: Vec<(&str, f32)> = take
        .meta
        .events
        .iter()
        .map(|e| (e.name.as_str(), e.time))
        .collect();
    assert_eq!(
        events,
        vec![
            ("takeoff", 0.5),
            ("go", 0.5),
            ("apex", 0.9),
            ("landed", 1.2),
            ("go", 1.2)
        ]
    );
    let apex = &take.meta.events[2];
    let value = apex
        .value
        .as_ref()
        .expect("a state event carries its state");
    assert_eq!(value["state"], "jump");
    assert!((value["state_time"].as_f64().unwrap_or(0.0) - 0.35).abs() < 1e-6);
    assert_eq!(value["weight"], 1.0);
    let landed = take.meta.events[3].value.as_ref().expect("value");
    assert!((landed["state_time"].as_f64().unwrap_or(0.0) - 0.7).abs() < 1e-5);
}

/// The graph reports a state event in the step it fires, with its state, like a clip event.
#[test]
fn state_events_are_graph_events() {
    let mut g = graph(STATES);
    g.play(Some("t")).expect("take");
    let fired = |g: &ScriptedGraph| -> Vec<(String, Option<String>)> {
        g.graph()
            .events()
            .map(|e| (e.name.to_string(), e.state.map(str::to_string)))
            .collect()
    };
    g.seek(0.4);
    assert_eq!(fired(&g), vec![]);
    g.seek(0.5);
    assert_eq!(
        fired(&g),
        vec![("takeoff".to_string(), Some("jump".to_string()))]
    );
    g.seek(0.8);
    g.seek(0.9);
    assert_eq!(
        fired(&g),
        vec![("apex".to_string(), Some("jump".to_string()))]
    );
}

/// Bad state events are errors at the `events` entry's line, naming the state and the fix.
#[test]
fn bad_state_events() {
    let dir = TempDir::new("badstate");
    let cases = [
        (
            "jmp = { {'enter', 'x'} }",
            ":11: events: unknown state 'jmp' (did you mean 'jump'?)",
        ),
        (
            "jump = { {'entr', 'x'} }",
            ":11: events of state 'jump': event 1: 'entr' must be \"enter\", \"exit\" or a time in seconds (did you mean 'enter'?)",
        ),
        (
            "jump = { {0, 'x'} }",
            ":11: events of state 'jump': event 1: time 0 must be > 0 seconds after entering (use \"enter\" for the moment it is entered)",
        ),
        (
            "jump = { {0.2} }",
            ":11: events of state 'jump': event 1 needs a name string, got a nil",
        ),
    ];
    for (entry, want) in cases {
        let body = STATES.replace(
            "jump = { {'enter', 'takeoff'}, {0.35, 'apex'}, {'exit', 'landed'} },",
            &format!("{entry},"),
        );
        let path = dir.write("a.lua", &body);
        let e = load(&path, &options())
            .and_then(ScriptedGraph::new)
            .err()
            .expect("fails");
        let got = e.headlines().replace(&path.display().to_string(), "");
        assert_eq!(got, want);
    }
}
