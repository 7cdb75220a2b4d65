//! Hot reload end to end on real files: good -> edited -> broken -> fixed (saved by rename, as
//! editors do) -> a required module edited. Checks kept state, error text, that the last good
//! graph keeps evaluating, and measures the time from write to new pose.

use std::time::{Duration, Instant};

use crate::script_common::{options, TempDir};
use marionette_anim::graph::ParamValue;
use marionette_script::{LiveScript, Reload};

const GOOD: &str = "local rig = marionette.rig()
local gait = require('gait')
params { speed = float(0, 0, 6) }
return graph {
  root = blend1d('speed', { {0, rig.idle}, {gait.walk_at, rig.walk}, {4, rig.run} }),
  takes = { go = { duration = 2, speed = { {0, 0}, {2, 4} } } },
}
";

/// Writes, then waits for the reload it causes; returns the outcome and the write-to-pose time.
fn save_and_wait(live: &mut LiveScript, write: impl FnOnce()) -> (Reload, Duration) {
    let start = Instant::now();
    write();
    loop {
        if let Some(r) = live.wait(Duration::from_millis(20)) {
            let t = live.current().time();
            live.current().seek(t);
            return (r, start.elapsed());
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "no reload within 5 s"
        );
    }
}

fn speed(live: &mut LiveScript) -> f32 {
    let g = live.current().graph();
    let id = g.param("speed").expect("speed param");
    g.params().float(id)
}

/// Good -> edited -> broken -> fixed -> module edited, with state kept and timings printed.
#[test]
fn good_edited_broken_fixed() {
    let dir = TempDir::new("reload");
    dir.write("gait.lua", "return { walk_at = 1.4 }\n");
    let path = dir.write("anim.lua", GOOD);
    let mut live = LiveScript::open(&path, options()).unwrap_or_else(|e| panic!("{e}"));
    live.current()
        .set("speed", ParamValue::Float(2.0))
        .expect("param");
    let before = live.current().seek(1.0).to_vec();
    let mut times = Vec::new();

    // edited: walk now sits at speed 2.0, so the pose at speed 2.0 is pure walk
    let (r, dt) = save_and_wait(&mut live, || {
        std::fs::write(&path, GOOD.replace("gait.walk_at", "2.0")).expect("write");
    });
    assert!(matches!(r, Reload::Loaded { .. }), "{r:?}");
    times.push(("edited", dt));
    assert_eq!(live.generation(), 1);
    assert_eq!(live.current().time(), 1.0, "playhead kept");
    assert_eq!(speed(&mut live), 2.0, "parameter kept by name");
    let edited = live.current().pose().to_vec();
    assert_ne!(edited, before, "the edit changed the pose");

    // broken: the error names the line; the last good graph keeps running
    let (r, dt) = save_and_wait(&mut live, || {
        std::fs::write(&path, GOOD.replace("float(0, 0, 6)", "float(9, 0, 6)")).expect("write");
    });
    times.push(("broken", dt));
    let Reload::Failed(e) = r else {
        panic!("broken script must fail")
    };
    assert!(e.headline().contains("anim.lua:3:"), "{}", e.headline());
    assert!(live.error().is_some());
    assert_eq!(live.generation(), 1);
    let still = live.current().advance(0.5).to_vec();
    assert!(still.iter().all(|t| t.is_finite()));
    assert_eq!(live.current().time(), 1.5);

    // fixed, saved the way many editors do: write a temp file, rename it over the script
    let (r, dt) = save_and_wait(&mut live, || {
        let tmp = dir.write(".anim.lua.swp", GOOD);
        std::fs::rename(tmp, &path).expect("rename");
    });
    assert!(matches!(r, Reload::Loaded { .. }), "{r:?}");
    times.push(("fixed (rename)", dt));
    assert!(live.error().is_none());
    assert_eq!(live.generation(), 2);
    assert_eq!(live.current().time(), 1.5);
    assert_eq!(speed(&mut live), 2.0);

    // a required module edited triggers a reload too
    let (r, dt) = save_and_wait(&mut live, || {
        std::fs::write(dir.path().join("gait.lua"), "return { walk_at = 1.0 }\n").expect("write");
    });
    assert!(matches!(r, Reload::Loaded { .. }), "{r:?}");
    times.push(("module edited", dt));
    assert_eq!(live.generation(), 3);

    for (what, dt) in &times {
        println!(
            "hot reload {what}: write -> new pose {:.1} ms",
            dt.as_secs_f64() * 1e3
        );
    }
    let worst = times.iter().map(|t| t.1).max().unwrap_or_default();
    assert!(worst < Duration::from_millis(1000), "reload took {worst:?}");
}

/// A take keeps playing across a reload at the same time.
#[test]
fn take_and_playhead_survive_reload() {
    let dir = TempDir::new("reload-take");
    dir.write("gait.lua", "return { walk_at = 1.4 }\n");
    let path = dir.write("anim.lua", GOOD);
    let mut live = LiveScript::open(&path, options()).unwrap_or_else(|e| panic!("{e}"));
    live.current().play(Some("go")).expect("take");
    live.current().seek(1.25);
    let (r, _) = save_and_wait(&mut live, || {
        std::fs::write(&path, format!("{GOOD}\n-- comment\n")).expect("write");
    });
    assert!(matches!(r, Reload::Loaded { .. }), "{r:?}");
    assert_eq!(live.current().take(), Some("go"));
    assert_eq!(live.current().time(), 1.25);
    assert!(
        (speed(&mut live) - 2.5).abs() < 1e-5,
        "take keys drive speed"
    );
}

/// Reloading the shipped locomotion.lua on the mannequin: time from write to new pose.
#[test]
fn locomotion_reload_time() {
    let model = marionette_anim::mannequin::build();
    let opts = marionette_script::HostOptions::with_rig(marionette_script::Rig::from_model(
        "mannequin",
        &model,
    ));
    let dir = TempDir::new("reload-loco");
    let source = std::fs::read_to_string(marionette_testkit::repo_path("scripts/locomotion.lua"))
        .expect("script");
    let path = dir.write("locomotion.lua", &source);
    let mut live = LiveScript::open(&path, opts).unwrap_or_else(|e| panic!("{e}"));
    live.current().play(Some("walk_to_run")).expect("take");
    live.current().seek(2.5);
    let mut worst = Duration::ZERO;
    for i in 0..5 {
        let edited = source.replace("blend = 0.15", &format!("blend = 0.1{i}"));
        let (r, dt) = save_and_wait(&mut live, || std::fs::write(&path, &edited).expect("write"));
        assert!(matches!(r, Reload::Loaded { .. }), "{r:?}");
        assert_eq!(live.current().time(), 2.5);
        worst = worst.max(dt);
    }
    println!("hot reload locomotion.lua on the mannequin (take at 2.5 s): worst of 5 write -> new pose {:.1} ms", worst.as_secs_f64() * 1e3);
    assert!(worst < Duration::from_millis(1000));
}
