//! Tests of [`Session`]: a take that does not fit, and runtime errors that match `run`.

use std::path::PathBuf;

use super::Session;
use marionette_anim::graph::{KeyInterpolation, ParamValue};
use marionette_script::preview::load_preview;

/// Goes from idle to run at 1 s, unless the second predicate (which throws from 0.5 s on)
/// has failed first: then every Lua predicate reads false and the take stays idle.
const PREDICATE: &str = "local rig = marionette.rig()
local sm = state_machine {
  start = 'idle', idle = rig.idle, run = rig.run, walk = rig.walk,
  transitions = {
{ 'idle', 'run', when = function(p) return p.state_time > 1 end, blend = 0 },
{ 'idle', 'walk', when = function(p)
    if p.state_time > 0.5 then error('no walking') end
    return false
  end, blend = 0 },
  },
}
return graph { root = sm, takes = { t = { duration = 2, fps = 10 } } }
";

/// A Lua predicate that throws: at every time, scrubbed forwards and back, the editor's
/// pose and error are those `run` shows for that time (the predicate reads false from its
/// first error on, and going back before it plays the take again without it).
#[test]
fn predicate_error_matches_run_at_every_time() {
    let dir = std::env::temp_dir().join(format!("marionette-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("pred.lua");
    std::fs::write(&script, PREDICATE).expect("write");
    let mut s = Session::open(&script, &Default::default()).expect("opens");
    assert!(s.is_loaded(), "{:?}", s.error());
    let times = [0.0, 0.3, 0.7, 1.2, 1.5, 0.4, 0.2, 1.6, 0.9, 1.9, 0.1];
    for t in times {
        s.seek(t);
        let mut run = load_preview(&script, &Default::default())
            .expect("loads")
            .graph;
        run.play(Some("t")).expect("plays");
        let pose = run.seek(t).to_vec();
        assert_eq!(s.pose(), pose.as_slice(), "pose at {t}");
        assert_eq!(
            s.runtime_error().map(|e| e.headline()),
            run.runtime_error().map(|e| e.headline()),
            "error at {t}"
        );
    }
    assert!(s.runtime_error().is_none());
    s.seek(1.0);
    let e = s.runtime_error().map(|e| e.headline()).unwrap_or_default();
    assert!(e.ends_with("pred.lua:7: no walking"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scratch folder holding `main.lua` with `source`, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, source: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("marionette-session-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        std::fs::write(dir.join("main.lua"), source).expect("script");
        Scratch(dir)
    }

    fn script(&self) -> PathBuf {
        self.0.join("main.lua")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A take (as a sidecar would carry it) that names a parameter the script no longer has is
/// an error naming the parameter; the session stays usable: it shows live parameters, seeks,
/// plays the script's takes again, and still reports a predicate's error afterwards.
#[test]
fn a_take_that_does_not_fit_is_an_error_and_the_session_goes_on() {
    let dir = Scratch::new(
        "misfit",
        "local rig = marionette.rig()\n\
         params { speed = float(0, 0, 2), go = bool(false) }\n\
         local sm = state_machine { start = 'a', states = { a = rig.idle, b = rig.walk },\n\
           transitions = { { 'a', 'b', when = function(p) if p.go then error('boom') end return false end } } }\n\
         return graph { root = sm, takes = {\n\
           t = { duration = 1, keys = { speed = { {0, 1} } } },\n\
           boom = { duration = 1, keys = { go = { {0, true} } } } } }\n",
    );
    let mut s = Session::open(&dir.script(), &Default::default()).expect("opens");
    let at = |s: &Session, name: &str| s.takes.iter().position(|t| t.name == name);
    let (t, boom) = (at(&s, "t").expect("t"), at(&s, "boom").expect("boom"));
    let mut stale = s.takes[t].clone();
    stale.name = "stale".into();
    let stale = stale.track(
        "gone",
        KeyInterpolation::Linear,
        vec![(0.0, ParamValue::Float(1.0))],
    );
    s.takes.push(stale);
    let e = s
        .select(Some(s.takes.len() - 1))
        .expect_err("a parameter the script lacks");
    assert!(e.to_string().contains("gone"), "{e}");
    assert_eq!(s.take_index(), None);
    s.seek(0.5);
    assert_eq!(s.pose().len(), s.model().skeleton.len());
    s.select(Some(t)).expect("the script's take still plays");
    s.seek(0.5);
    let graph = s.graph().expect("loaded");
    assert_eq!(graph.runtime_error().map(|e| e.to_string()), None);
    // after the failed switch, a predicate error is still reported
    s.select(Some(boom)).expect("boom plays");
    s.seek(0.5);
    let e = s
        .graph()
        .expect("loaded")
        .runtime_error()
        .expect("the predicate's error");
    assert!(e.to_string().contains("boom"), "{e}");
}
