//! Bake passes (issue 33): what a take's passes make is what every command sees and what the
//! bake writes, bit for bit; a loop closes at its seam; a Lua pass reads and writes the frames
//! and its mistakes stop the bake; a capture's spike is repaired and listed; re-bakes are
//! byte-identical.

use std::path::Path;

use crate::script_common::TempDir;
use marionette_anim::motion::joints::angle_deg;
use marionette_anim::Transform;
use marionette_bake::{bake_take, BakedTake, ScriptBake};
use marionette_script::{load, HostOptions, ScriptedGraph};

fn bundled() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomotion.lua");
    std::fs::read_to_string(path).expect("scripts/locomotion.lua")
}

/// The bundled locomotion with `passes` added to the graph.
fn with_passes(passes: &str) -> String {
    let text = bundled();
    let anchor = "  root_motion = \"ground\",\n";
    assert!(
        text.contains(anchor),
        "the bundled script no longer has {anchor}"
    );
    text.replace(anchor, &format!("{anchor}  passes = {{ {passes} }},\n"))
}

/// `text` written as `dir/name`, loaded (its rigs beside it) and built.
pub(crate) fn graph(dir: &TempDir, name: &str, text: &str) -> ScriptedGraph {
    let path = dir.write(name, text);
    let (loader, _) = marionette_script::rigs::rig_loader(&path, &Default::default());
    ScriptedGraph::new(load(&path, &HostOptions::new(loader)).expect("loads")).expect("builds")
}

fn bake(g: &mut ScriptedGraph, take: &str) -> BakedTake {
    bake_take(g, take, &ScriptBake::default(), &mut |_, _| {}).expect("bakes")
}

fn joint(g: &ScriptedGraph, name: &str) -> usize {
    g.script().rig.skeleton.find(name).expect("joint") as usize
}

/// Every baked frame is the frame `run`, `render` and the editor show at that time (seeking
/// forwards and backwards), and differs from the raw graph where the passes change it.
#[test]
fn the_baked_frames_are_the_frames_shown() {
    let dir = TempDir::new("passes-shown");
    let text = with_passes("pass.smooth { window = 0.2 }, pass.loop_close { blend = 0.3 }");
    let mut g = graph(&dir, "smooth.lua", &text);
    let baked = bake(&mut g, "walk_to_run");
    assert!(g.shows_passes());
    assert_eq!(g.pass_notes().len(), 2, "{:?}", g.pass_notes());
    let n = g.script().rig.skeleton.len();
    let mut shown = vec![Transform::IDENTITY; n];
    g.play(Some("walk_to_run")).unwrap();
    for i in [0usize, 120, 239, 240, 60, 3] {
        g.seek(f64::from(baked.grid.time(i)));
        g.pose_with_root_motion(&mut shown);
        assert_eq!(shown, baked.frames[i], "frame {i}");
    }
    g.set_passes(false);
    assert!(!g.shows_passes());
    let raw = bake(&mut g, "walk_to_run");
    let head = joint(&g, "head");
    let moved = (0..raw.frames.len())
        .map(|i| angle_deg(raw.frames[i][head].rotation, baked.frames[i][head].rotation))
        .fold(0.0, f32::max);
    assert!(moved > 0.5, "the passes changed nothing: {moved}");
}

/// `pass.loop_close`: the take's last frame is its first (every joint but the root's travel),
/// where the raw take ends far from its start.
#[test]
fn loop_close_meets_at_the_seam() {
    let dir = TempDir::new("passes-loop");
    let mut g = graph(
        &dir,
        "loop.lua",
        &with_passes("pass.loop_close { blend = 0.3 }"),
    );
    // (idle at the start, running at the end: far apart)
    let closed = bake(&mut g, "walk_to_run");
    g.set_passes(false);
    let raw = bake(&mut g, "walk_to_run");
    let last = closed.frames.len() - 1;
    let thigh = joint(&g, "L_thigh");
    let gap = angle_deg(
        raw.frames[0][thigh].rotation,
        raw.frames[last][thigh].rotation,
    );
    println!("walk_to_run: L_thigh's seam {gap:.2} degrees raw");
    assert!(gap > 10.0, "the raw take is already closed: {gap}");
    let skeleton = g.script().rig.skeleton.clone();
    for j in 0..skeleton.len() {
        if skeleton.parent(j as u16).is_none() {
            continue;
        }
        let (a, b) = (closed.frames[0][j], closed.frames[last][j]);
        let seam = angle_deg(a.rotation, b.rotation);
        assert!(
            seam < 0.01,
            "{}: {seam} degrees at the seam",
            skeleton.name(j as u16)
        );
        assert!(a.translation.distance(b.translation) < 1e-5);
    }
    // the frames before the last 0.3 s (18 frames) are untouched
    assert_eq!(closed.frames[..last - 18], raw.frames[..last - 18]);
}

/// A Lua pass writes a spike into a joint; `pass.despike` after it finds and repairs it,
/// listing the repair; the frames are read and written through `frames`.
#[test]
fn a_lua_pass_writes_frames_and_despike_repairs_a_spike() {
    let dir = TempDir::new("passes-lua");
    let spike = r#"function(frames)
      local arm = frames:joint("L_forearm")
      assert(frames.count == 241 and frames.fps == 60 and frames.joints == 24)
      for f = 31, 32 do                            -- frames 30 and 31 counted from 0
        local x, y, z, w = frames:rotation(f, arm)
        -- turned 100 degrees about Y: q * (0, sin 50, 0, cos 50)
        local s, c = math.sin(math.rad(50)), math.cos(math.rad(50))
        frames:set_rotation(f, arm, x * c - z * s, y * c + w * s, z * c + x * s, w * c - y * s)
      end
    end"#;
    let text = with_passes(&format!(
        "{spike}, pass.despike {{ joints = {{ \"L_forearm\" }} }}"
    ));
    let mut g = graph(&dir, "spike.lua", &text);
    let baked = bake(&mut g, "walk_to_run");
    assert_eq!(
        g.pass_notes().len(),
        1,
        "one repair listed: {:?}",
        g.pass_notes()
    );
    assert!(
        g.pass_notes()[0].starts_with(
            "take 'walk_to_run': despike: 'L_forearm' frames 30-31 (0.500-0.517 s) turned at"
        ),
        "{:?}",
        g.pass_notes()
    );
    g.set_passes(false);
    let raw = bake(&mut g, "walk_to_run");
    let arm = joint(&g, "L_forearm");
    let (a, b) = (raw.frames[29][arm].rotation, raw.frames[32][arm].rotation);
    for (k, f) in [30, 31].into_iter().enumerate() {
        let want = a.slerp(b, (k + 1) as f32 / 3.0);
        let got = baked.frames[f][arm].rotation;
        assert!(angle_deg(got, want) < 0.01, "frame {f}");
    }
    assert_eq!(baked.frames[40], raw.frames[40]);
}

/// A Lua pass's error is the take's error at the pass's line: `check` exits 1 and `bake`
/// writes nothing.
#[test]
fn a_failing_lua_pass_stops_check_and_bake_at_its_line() {
    let dir = TempDir::new("passes-error");
    let text = with_passes("function(frames) local x = frames:rotation(0, \"head\") end");
    dir.write("broken.lua", &text);
    let line = text
        .lines()
        .position(|l| l.contains("frames:rotation(0"))
        .unwrap()
        + 1;
    for args in [
        &["check", "broken.lua"][..],
        &["bake", "broken.lua", "-o", "out.glb"][..],
    ] {
        let out = crate::common::marionette_in(dir.path(), args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains(&format!("broken.lua:{line}:"))
                && err.contains("take 'hello': bake pass: frames: frame 0 is outside 1..91"),
            "{args:?}: {err}"
        );
    }
    assert!(!dir.path().join("out.glb").exists());
}

/// Baking a script with passes twice writes the same bytes.
#[test]
fn rebake_with_passes_is_byte_identical() {
    let dir = TempDir::new("passes-rebake");
    // (the pass locks the feet instead of the live lock: one lock, as the guide advises)
    let live =
        "    ik.foot_lock({ \"L_foot\", \"R_foot\" }),  -- planted feet stay put (world space)\n";
    let text = with_passes("pass.despike {}, pass.loop_close {}, pass.foot_lock {}");
    assert!(
        text.contains(live),
        "the bundled script no longer has {live}"
    );
    let text = text.replace(live, "");
    dir.write("p.lua", &text);
    for out in ["a.glb", "b.glb"] {
        let o = crate::common::marionette_in(dir.path(), &["bake", "p.lua", "-o", out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let (a, b) = (
        std::fs::read(dir.path().join("a.glb")).unwrap(),
        std::fs::read(dir.path().join("b.glb")).unwrap(),
    );
    assert!(a == b, "re-bake differs");
}

/// A Lua pass reads and writes every part of a joint's transform: scale too.
#[test]
fn a_lua_pass_writes_scale_and_translation() {
    let dir = TempDir::new("passes-trs");
    let pass = r#"function(frames)
      local head = frames:joint("head")
      for f = 1, frames.count do
        local sx, sy, sz = frames:scale(f, head)
        frames:set_scale(f, head, sx * 1.25, sy, sz)
        local x, y, z = frames:translation(f, head)
        frames:set_translation(f, head, x, y + 0.01, z)
      end
    end"#;
    let mut g = graph(&dir, "trs.lua", &with_passes(pass));
    let baked = bake(&mut g, "hello");
    g.set_passes(false);
    let raw = bake(&mut g, "hello");
    let head = joint(&g, "head");
    for f in [0, 45, 90] {
        let (a, b) = (raw.frames[f][head], baked.frames[f][head]);
        assert_eq!(b.scale.x, a.scale.x * 1.25, "frame {f}");
        assert_eq!(b.translation.y, a.translation.y + 0.01, "frame {f}");
    }
}
