//! Lua overhead: `scripts/locomotion.lua` evaluated per frame through the script runtime versus
//! the same graph built directly in Rust (same nodes, parameters, mask, look-at and root motion).
//! A third variant replaces the declarative look-at with a Lua `post(pose, ctx)` function, to
//! show the cost of running Lua every frame. One iteration is one 60 Hz frame: advance(1/60) +
//! evaluate (+ post). Prints ns/joint/frame and the Lua/Rust ratio after criterion's output.
//!
//! `lua_sandbox`: what the sandbox costs Lua code itself. The same work (an arithmetic loop;
//! pattern matching over a 1.7 KB text) run in a plain Lua state (no hook, Lua's C matcher) and
//! as a script's `post` (budget hook, the budgeted matcher port), minus the same script with an
//! empty `post`; prints the ratios.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::Vec3;
use marionette::anim::graph::{
    BlendSpace1D, ClipNode, Curve, Graph, GraphBuilder, LayerNode, ParamValue, PostOp, SourceMode,
    StateMachine, Transition,
};
use marionette::anim::ik::LookAt;
use marionette::anim::root_motion::RootMotionMode;
use marionette::anim::WrapMode;
use marionette::script::{load, HostOptions, Rig, ScriptedGraph};
use marionette::Model;

const SPEED: f32 = 2.0;
const WAVE: f32 = 0.8;

/// locomotion.lua, written directly against the graph API.
fn rust_graph(model: &Model) -> Graph {
    let clip = |name: &str| {
        let c = model.clips.iter().find(|c| c.name == name).cloned();
        c.unwrap_or_else(|| panic!("mannequin has no '{name}' clip"))
    };
    let mut b = GraphBuilder::new(model.skeleton.clone());
    let jump = b.trigger("jump").expect("param");
    let look = b.vec3("look", Vec3::new(0.0, 1.6, 2.0)).expect("param");
    let speed = b.float("speed", 0.0, 0.0, 6.0).expect("param");
    let wave = b.float("wave", 0.0, 0.0, 1.0).expect("param");
    let player =
        |b: &mut GraphBuilder, name: &str| b.add(ClipNode::new(clip(name)).wrap(WrapMode::Loop));
    let (idle, walk, run) = (
        player(&mut b, "idle"),
        player(&mut b, "walk"),
        player(&mut b, "run"),
    );
    let moving = b.add(
        BlendSpace1D::new(speed)
            .sample(0.0, idle)
            .sample(1.4, walk)
            .sample(4.0, run)
            .sync(true),
    );
    let hop = b.add(ClipNode::new(clip("jump")).once());
    let mut sm = StateMachine::new();
    let (j, m) = (sm.state("jump", hop), sm.state("move", moving));
    sm.initial(m);
    sm.transition(
        Transition::new(m, j)
            .on(jump)
            .blend(0.15, Curve::SmoothStep)
            .source(SourceMode::Playing),
    );
    sm.transition(
        Transition::new(j, m)
            .at_end()
            .blend(0.25, Curve::EaseInOut)
            .source(SourceMode::Frozen),
    );
    let body = b.add(sm);
    let waving = player(&mut b, "wave");
    let mask = b
        .mask()
        .subtree(b.skeleton(), "R_clavicle", 1.0)
        .expect("joint");
    let root = b.add(LayerNode::new(body, waving).weight(wave).mask(mask));
    let head = b.joint("head").expect("joint");
    b.post(PostOp::LookAt {
        joint: head,
        target: look.into(),
        settings: LookAt {
            limit: 60f32.to_radians(),
            weight: 1.0,
            ..LookAt::default()
        },
        weight: 0.7.into(),
    });
    b.root_motion("root", RootMotionMode::Ground);
    let mut g = b.build(root).expect("graph builds");
    g.params_mut().set_float(speed, SPEED).expect("speed");
    g.params_mut().set_float(wave, WAVE).expect("wave");
    g
}

fn lua_graph(model: &Model, source: &str) -> ScriptedGraph {
    let dir = std::env::temp_dir().join(format!("mrn-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("locomotion.lua");
    std::fs::write(&path, source).expect("write script");
    let opts = HostOptions::with_rig(Rig::from_model("mannequin", model));
    let loaded = load(&path, &opts).unwrap_or_else(|e| panic!("{e}"));
    let mut g = ScriptedGraph::new(loaded).unwrap_or_else(|e| panic!("{e}"));
    g.set("speed", ParamValue::Float(SPEED)).expect("speed");
    g.set("wave", ParamValue::Float(WAVE)).expect("wave");
    g
}

/// ns per frame over `frames` frames, jumping every 4 s.
fn time_frames(frames: u32, mut frame: impl FnMut(u32)) -> f64 {
    let start = Instant::now();
    for f in 0..frames {
        frame(f);
    }
    start.elapsed().as_nanos() as f64 / f64::from(frames)
}

fn bench(c: &mut Criterion) {
    let model = marionette::mannequin::build();
    let joints = model.skeleton.len();
    let script = std::fs::read_to_string(Path::new("scripts/locomotion.lua"))
        .expect("scripts/locomotion.lua");
    let with_fn = script.replace(
        "  post = {\n    ik.look_at(\"head\", \"look\", { weight = 0.7, limit = 60 }),\n  },",
        "  post = function(pose, ctx)\n    pose:look_at(\"head\", ctx.look, { weight = 0.7, limit = 60 })\n  end,",
    );
    assert_ne!(
        with_fn, script,
        "the post block of locomotion.lua changed; update the bench"
    );
    // the same with the options table made once, outside `post` (no table per frame)
    let hoisted = with_fn
        .replace(
            "return graph {",
            "local look_opts = { weight = 0.7, limit = 60 }\n\nreturn graph {",
        )
        .replace("{ weight = 0.7, limit = 60 })\n  end", "look_opts)\n  end");
    assert_eq!(hoisted.matches("look_opts").count(), 2, "{hoisted}");

    let mut group = c.benchmark_group("lua");
    group.throughput(Throughput::Elements(joints as u64));
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(3));
    let mut g = rust_graph(&model);
    let jump = g.param("jump").expect("jump");
    let mut n = 0u64;
    group.bench_function("rust_built", |b| {
        b.iter(|| {
            n += 1;
            if n.is_multiple_of(240) {
                let _ = g.params_mut().fire(jump);
            }
            g.advance(1.0 / 60.0);
            black_box(g.evaluate()[0]);
        })
    });
    for (name, src) in [
        ("locomotion_lua", &script),
        ("locomotion_lua_post_fn", &with_fn),
        ("locomotion_lua_post_fn_hoisted", &hoisted),
    ] {
        let mut s = lua_graph(&model, src);
        let mut n = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                if n.is_multiple_of(240) {
                    let _ = s.fire("jump");
                }
                black_box(s.advance(1.0 / 60.0)[0]);
            })
        });
    }
    group.finish();

    // plain table, 7 alternating rounds of 8 000 frames each, best round kept (more rounds
    // than frames: the machine's slow spells last seconds, so a variant gets a quiet round)
    let (rounds, frames) = (7, 8_000);
    let (mut rust, mut lua, mut lua_fn, mut lua_hoisted) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let mut g = rust_graph(&model);
        rust = rust.min(time_frames(frames, |f| {
            if f.is_multiple_of(240) {
                let _ = g.params_mut().fire(jump);
            }
            g.advance(1.0 / 60.0);
            black_box(g.evaluate()[0]);
        }));
        for (src, best) in [
            (&script, &mut lua),
            (&with_fn, &mut lua_fn),
            (&hoisted, &mut lua_hoisted),
        ] {
            let mut s = lua_graph(&model, src);
            *best = best.min(time_frames(frames, |f| {
                if f.is_multiple_of(240) {
                    let _ = s.fire("jump");
                }
                black_box(s.advance(1.0 / 60.0)[0]);
            }));
        }
    }
    let per = |ns: f64| ns / joints as f64;
    println!("\nlocomotion, {joints} joints, ns/joint/frame (best of {rounds} x {frames} frames):");
    println!("  Rust-built graph            {:8.1}", per(rust));
    println!(
        "  locomotion.lua (ik.look_at) {:8.1}   ratio {:.3}x",
        per(lua),
        lua / rust
    );
    println!(
        "  locomotion.lua (post fn)    {:8.1}   ratio {:.3}x",
        per(lua_fn),
        lua_fn / rust
    );
    println!(
        "  post fn, options made once   {:8.1}   ratio {:.3}x",
        per(lua_hoisted),
        lua_hoisted / rust
    );
}

/// Lua bodies of `work()`, compared plain and sandboxed.
const WORK: [(&str, &str); 2] = [
    (
        "loop",
        "local x = 0 for i = 1, 20000 do x = x + i * 0.5 end return x",
    ),
    (
        "patterns",
        r#"local n = 0
  for k, v in TEXT:gmatch("(%w+)%s*=%s*(%w+)") do n = n + #k + #v end
  local t = TEXT:gsub("%s+", " ")
  local a = TEXT:find("key42", 1, true) or 0
  local m = TEXT:match("^%s*(.-)%s*$")
  local c = select(2, TEXT:gsub("value(%d+)", "%1"))
  return n + #t + a + #m + c"#,
    ),
];

fn text() -> String {
    (0..100).map(|i| format!("key{i} = value{i}\\n")).collect()
}

fn plain_work(body: &str) -> mlua::Function {
    let lua = mlua::Lua::new();
    lua.load(format!(
        "TEXT = \"{}\"\nfunction work()\n  {body}\nend",
        text()
    ))
    .exec()
    .expect("plain state");
    let f: mlua::Function = lua.globals().get("work").expect("work");
    // The function keeps its state alive.
    std::mem::forget(lua);
    f
}

fn sandboxed_work(model: &Model, body: &str) -> ScriptedGraph {
    let src = format!(
        "local rig = marionette.rig()\nTEXT = \"{}\"\nlocal function work()\n  {body}\nend\n\
         return graph {{ root = rig.idle, post = function(pose, ctx) work() end }}\n",
        text()
    );
    lua_graph_plain(model, &src)
}

fn lua_graph_plain(model: &Model, source: &str) -> ScriptedGraph {
    let dir = std::env::temp_dir().join(format!("mrn-bench-sandbox-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("work.lua");
    std::fs::write(&path, source).expect("write script");
    let opts = HostOptions::with_rig(Rig::from_model("mannequin", model));
    let loaded = load(&path, &opts).unwrap_or_else(|e| panic!("{e}"));
    ScriptedGraph::new(loaded).unwrap_or_else(|e| panic!("{e}"))
}

fn bench_sandbox(c: &mut Criterion) {
    let model = marionette::mannequin::build();
    let mut group = c.benchmark_group("lua_sandbox");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(3));
    let mut empty = sandboxed_work(&model, "return 0");
    group.bench_function("empty_post", |b| {
        b.iter(|| black_box(empty.advance(1.0 / 60.0)[0]))
    });
    for (name, body) in WORK {
        let plain = plain_work(body);
        group.bench_function(format!("{name}_plain"), |b| {
            b.iter(|| black_box(plain.call::<f64>(()).expect("runs")))
        });
        let mut s = sandboxed_work(&model, body);
        group.bench_function(format!("{name}_sandboxed"), |b| {
            b.iter(|| black_box(s.advance(1.0 / 60.0)[0]))
        });
        assert!(s.runtime_error().is_none(), "{:?}", s.runtime_error());
    }
    group.finish();

    let frames = 2_000;
    println!("\nsandbox cost, us per call (best of 3 x {frames} calls):");
    let mut base = f64::MAX;
    for _ in 0..3 {
        let mut e = sandboxed_work(&model, "return 0");
        base = base.min(time_frames(frames, |_| {
            black_box(e.advance(1.0 / 60.0)[0]);
        }));
    }
    println!("  empty post (graph + call)   {:8.2}", base / 1e3);
    for (name, body) in WORK {
        let (mut plain, mut boxed) = (f64::MAX, f64::MAX);
        for _ in 0..3 {
            let f = plain_work(body);
            plain = plain.min(time_frames(frames, |_| {
                black_box(f.call::<f64>(()).expect("runs"));
            }));
            let mut s = sandboxed_work(&model, body);
            boxed = boxed.min(time_frames(frames, |_| {
                black_box(s.advance(1.0 / 60.0)[0]);
            }));
        }
        let work = boxed - base;
        println!(
            "  {name:<10} plain {:8.2}   sandboxed {:8.2} (minus empty post)   ratio {:.3}x",
            plain / 1e3,
            work / 1e3,
            work / plain
        );
    }
}

criterion_group!(benches, bench, bench_sandbox);
criterion_main!(benches);
