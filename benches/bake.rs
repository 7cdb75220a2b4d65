//! Bake benchmarks.
//!
//! 1. Key reduction against `@gltf-transform/cli resample` (npm, tests/js): both reduce the
//!    same raw (unreduced, every channel keyed at every frame) bake of each clip of the
//!    mannequin and the public test rigs; keys kept and the max world-space error (joint origin
//!    and 10 cm virtual points, measured by importing each file and sampling every frame) are
//!    printed side by side. Skipped (with a message) when node or tests/js/node_modules is
//!    missing.
//! 2. Criterion: bake throughput (frames/s, "elem") on the mannequin, clip-driven (sampling
//!    only, and sampling + reduction), and how it grows with joint count on generated chains.
//! 3. Criterion: bake throughput (frames/s) of `scripts/locomotion.lua` on the mannequin, both
//!    takes (the preview's evaluation path: script -> graph -> post), evaluation alone and
//!    evaluation + reduction.
//! 4. Criterion (`deep_chain`): deep hierarchies stay linear: import of generated 10,000- and
//!    100,000-node chains and reduction of 1,000- and 10,000-joint chains, as joints/s ("elem"):
//!    equal throughput at both sizes means linear.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use criterion::{BenchmarkId, Criterion, Throughput};
use glam::{Mat4, Quat, Vec3};
use marionette::anim::{world_matrices, SamplingCache, Skeleton, Transform};
use marionette::bake::{
    bake_clip, bake_frames, bake_take, export_document, joint_error, reduce, take_frames,
    unreduced, BakedTake, ReduceOptions, ScriptBake, Target,
};
use marionette::io::{import, import_slice, write_document, Document};
use marionette::script::{load, HostOptions, Rig, ScriptedGraph};
use marionette::Model;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Keys written for animation `name` in a glTF file (sum of its samplers' input counts).
fn keys_in(doc: &Document, name: &str) -> usize {
    let Some(anims) = doc.json["animations"].as_array() else {
        return 0;
    };
    let Some(a) = anims.iter().find(|a| a["name"] == name) else {
        return 0;
    };
    let samplers = a["samplers"].as_array().cloned().unwrap_or_default();
    samplers
        .iter()
        .map(|s| {
            let acc = s["input"].as_u64().unwrap_or(0) as usize;
            doc.json["accessors"][acc]["count"].as_u64().unwrap_or(0) as usize
        })
        .sum()
}

/// Max world-space error of clip `take.name` in `back` against the bake, every frame.
fn max_error(model: &Model, take: &BakedTake, back: &Model) -> f64 {
    let Some(clip) = back.clips.iter().find(|c| c.name == take.name) else {
        return f64::NAN;
    };
    let map: Vec<(usize, usize)> = model
        .skeleton
        .names()
        .iter()
        .enumerate()
        .filter_map(|(j, n)| back.skeleton.find(n).map(|k| (j, k as usize)))
        .collect();
    let mut cache = SamplingCache::new();
    let mut pose = back.skeleton.rest_pose().to_vec();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut worst = 0.0f64;
    for (i, frame) in take.frames.iter().enumerate() {
        let t = take.grid.time(i);
        clip.sample(t, back.skeleton.rest_pose(), &mut cache, &mut pose);
        world_matrices(&model.skeleton, frame, &mut a);
        world_matrices(&back.skeleton, &pose, &mut b);
        for &(j, k) in &map {
            worst = worst.max(joint_error(&a[j], &b[k]));
        }
    }
    worst
}

/// One row of the comparison table.
fn row(stem: &str, clip: &str, frames: &str, raw: usize, k: [usize; 3], e: [f64; 3]) {
    println!(
        "{:<16} {:<12} {:>6} {:>9} | {:>7} {:>9.4} | {:>7} {:>9.4} | {:>7} {:>9.4}",
        stem,
        clip,
        frames,
        raw,
        k[0],
        e[0] * 1e3,
        k[1],
        e[1] * 1e3,
        k[2],
        e[2] * 1e3
    );
}

/// Prints the reduction comparison table for one rig.
fn compare_rig(rig: &Path, dir: &Path, tool: &Path) -> Result<(), String> {
    let model = import(rig).map_err(|e| e.to_string())?;
    let takes: Vec<BakedTake> = model
        .clips
        .iter()
        .map(|c| bake_clip(&model.skeleton, c, 30.0, &mut |_, _| {}))
        .collect();
    let target = Target::AnimationOnly {
        skeleton: &model.skeleton,
    };
    let raw: Vec<_> = takes
        .iter()
        .map(|t| unreduced(&model.skeleton, t))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let ours: Vec<_> = takes
        .iter()
        .map(|t| reduce(&model.skeleton, t, &ReduceOptions::default()))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let stem = rig
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let raw_path = dir.join(format!("{stem}.raw.glb"));
    let ours_path = dir.join(format!("{stem}.ours.glb"));
    let write = |takes: &[_], path: &Path| -> Result<(), String> {
        let doc = export_document(takes, target).map_err(|e| e.to_string())?;
        write_document(&doc, path, true, &[]).map_err(|e| e.to_string())?;
        Ok(())
    };
    write(&raw, &raw_path)?;
    write(&ours, &ours_path)?;
    // gltf-transform at its default per-value tolerance (1e-4) and at 1e-6; then ours
    let mut files = Vec::new();
    for (i, tol) in ["0.0001", "0.000001"].iter().enumerate() {
        let path = dir.join(format!("{stem}.resampled{i}.glb"));
        let out = Command::new(tool)
            .arg("resample")
            .arg(&raw_path)
            .arg(&path)
            .arg("--tolerance")
            .arg(tol)
            .output()
            .map_err(|e| format!("cannot run gltf-transform: {e}"))?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        files.push(path);
    }
    files.push(ours_path);
    let mut read = Vec::new();
    for f in &files {
        let doc = Document::read(f).map_err(|e| e.to_string())?;
        let back = import(f).map_err(|e| e.to_string())?;
        read.push((doc, back));
    }
    let mut sum = [0usize; 3];
    let mut sum_raw = 0;
    let mut worst = [0.0f64; 3];
    for (t, r) in takes.iter().zip(&raw) {
        let mut k = [0usize; 3];
        let mut e = [0.0f64; 3];
        for (i, (doc, back)) in read.iter().enumerate() {
            k[i] = keys_in(doc, &t.name);
            e[i] = max_error(&model, t, back);
            sum[i] += k[i];
            worst[i] = worst[i].max(e[i]);
        }
        let frames = t.frames.len().to_string();
        row(&stem, &t.name, &frames, r.report.raw_keys, k, e);
        sum_raw += r.report.raw_keys;
    }
    row(&stem, "(all)", "", sum_raw, sum, worst);
    Ok(())
}

/// Key reduction: Marionette vs `gltf-transform resample` (--tolerance 1e-4, its default, and 1e-6).
fn compare_with_gltf_transform() {
    let tool = root().join("tests/js/node_modules/.bin/gltf-transform");
    if !tool.exists() {
        println!(
            "skipped: key reduction comparison: {} is missing (run `npm ci --prefix tests/js`)",
            tool.display()
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("marionette-bench-bake-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        println!("skipped: key reduction comparison: {e}");
        return;
    }
    let mut rigs = vec![root().join("assets/mannequin.glb")];
    let testdata = std::env::var_os("MARIONETTE_TESTDATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/testdata/gltf"));
    for name in ["Fox.glb", "RobotExpressive.glb", "SimpleSkin.gltf"] {
        let p = testdata.join(name);
        if p.is_file() {
            rigs.push(p);
        }
    }
    println!("key reduction at 30 fps, raw = every channel of every joint at every frame");
    println!("error = max world-space displacement of a joint or its 10 cm virtual points, mm");
    println!("gt-4 / gt-6 = gltf-transform resample --tolerance 1e-4 (its default) / 1e-6");
    println!("ours = marionette, 0.1 mm world-space budget");
    println!(
        "{:<16} {:<12} {:>6} {:>9} | {:>7} {:>9} | {:>7} {:>9} | {:>7} {:>9}",
        "rig", "clip", "frames", "raw keys", "gt-4", "err mm", "gt-6", "err mm", "ours", "err mm"
    );
    for rig in rigs {
        if let Err(e) = compare_rig(&rig, &dir, &tool) {
            println!("{}: comparison failed: {e}", rig.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chain of `n` joints 5 cm apart (a tentacle), waving.
fn chain(n: usize) -> Skeleton {
    chain_spaced(n, 0.05)
}

/// A chain of `n` joints `step` metres apart.
fn chain_spaced(n: usize, step: f32) -> Skeleton {
    let names = (0..n).map(|i| format!("j{i}")).collect();
    let parents = (0..n).map(|i| i.checked_sub(1)).collect();
    let rest = (0..n)
        .map(|i| Transform::from_translation(Vec3::Y * if i == 0 { 0.0 } else { step }))
        .collect();
    match Skeleton::new(names, parents, rest, Mat4::IDENTITY) {
        Ok(b) => b.skeleton,
        Err(e) => panic!("chain: {e}"),
    }
}

fn wave_chain(s: &Skeleton, frames: usize) -> BakedTake {
    let r = bake_frames(
        s,
        "wave",
        30.0,
        frames,
        |_, t, pose| {
            for (j, p) in pose.iter_mut().enumerate() {
                p.rotation = Quat::from_rotation_z((t * 2.0 + j as f32 * 0.3).sin() * 0.2);
            }
            Ok::<(), ()>(())
        },
        &mut |_, _| {},
    );
    r.unwrap_or_else(|()| unreachable!())
}

fn benches(c: &mut Criterion) {
    let model = import(&root().join("assets/mannequin.glb")).unwrap_or_else(|e| panic!("{e}"));
    let clip = model
        .clips
        .iter()
        .find(|c| c.name == "walk")
        .unwrap_or(&model.clips[0]);
    let frames = bake_clip(&model.skeleton, clip, 30.0, &mut |_, _| {})
        .frames
        .len();
    let mut g = c.benchmark_group("bake_mannequin_walk");
    g.throughput(Throughput::Elements(frames as u64));
    g.bench_function("sample", |b| {
        b.iter(|| bake_clip(&model.skeleton, black_box(clip), 30.0, &mut |_, _| {}))
    });
    g.bench_function("sample+reduce", |b| {
        b.iter(|| {
            let t = bake_clip(&model.skeleton, black_box(clip), 30.0, &mut |_, _| {});
            reduce(&model.skeleton, &t, &ReduceOptions::default())
        })
    });
    g.finish();
    let mut g = c.benchmark_group("bake_chain_joints");
    g.sample_size(10);
    for n in [16usize, 64, 256] {
        let s = chain(n);
        let take = wave_chain(&s, 90);
        g.throughput(Throughput::Elements(90));
        g.bench_with_input(BenchmarkId::new("reduce", n), &n, |b, _| {
            b.iter(|| reduce(&s, black_box(&take), &ReduceOptions::default()))
        });
    }
    g.finish();
}

/// glTF JSON of a chain of `n` nodes 1 cm apart whose deepest `joints` nodes are skin joints.
fn chain_json(n: usize, joints: usize) -> Vec<u8> {
    let nodes: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut node =
                serde_json::json!({"name": format!("n{i}"), "translation": [0.0, 0.01, 0.0]});
            if i + 1 < n {
                node["children"] = serde_json::json!([i + 1]);
            }
            node
        })
        .collect();
    let skin: Vec<usize> = (n - joints..n).collect();
    serde_json::json!({"asset": {"version": "2.0"}, "nodes": nodes, "skins": [{"joints": skin}]})
        .to_string()
        .into_bytes()
}

/// Deep chains: import and reduction throughput per joint at two sizes ten times apart.
fn deep_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("deep_chain");
    g.sample_size(10);
    for n in [10_000usize, 100_000] {
        let json = chain_json(n, n / 2);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("import", n), &n, |b, _| {
            b.iter(|| import_slice(black_box(&json), None, "chain.gltf").map(|m| m.skeleton.len()))
        });
    }
    for n in [1_000usize, 10_000] {
        let s = chain_spaced(n, 0.001);
        let take = wave_chain(&s, 30);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("reduce", n), &n, |b, _| {
            b.iter(|| reduce(&s, black_box(&take), &ReduceOptions::default()))
        });
    }
    g.finish();
}

/// Bake throughput of scripts/locomotion.lua (every take) on the mannequin.
/// scripts/locomotion.lua on `model`: its graph, its takes, their frames in all, and the rig.
fn locomotion_on(
    model: &Model,
    name: &str,
) -> (ScriptedGraph, Vec<String>, usize, std::sync::Arc<Skeleton>) {
    let rig = Rig::from_model(name.to_string(), model);
    let script = root().join("scripts/locomotion.lua");
    let loaded = load(&script, &HostOptions::with_rig(rig)).unwrap_or_else(|e| panic!("{e}"));
    let graph = ScriptedGraph::new(loaded).unwrap_or_else(|e| panic!("{e}"));
    let takes: Vec<String> = graph
        .script()
        .spec
        .takes
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let frames: usize = takes
        .iter()
        .map(|t| take_frames(&graph, t, &ScriptBake::default()).map_or(0, |f| f.1))
        .sum();
    let skeleton = graph.script().rig.skeleton.clone();
    (graph, takes, frames, skeleton)
}

/// Bakes and reduces every take of `takes` once.
fn bake_and_reduce(graph: &mut ScriptedGraph, takes: &[String], skeleton: &Skeleton) {
    for t in takes {
        let baked = bake_take(graph, t, &ScriptBake::default(), &mut |_, _| {})
            .unwrap_or_else(|e| panic!("{e}"));
        black_box(reduce(skeleton, &baked, &ReduceOptions::default()))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

fn script_benches(c: &mut Criterion) {
    let path = root().join("assets/mannequin.glb");
    let model = import(&path).unwrap_or_else(|e| panic!("{e}"));
    let (mut graph, takes, frames, skeleton) = locomotion_on(&model, &path.display().to_string());
    let options = ScriptBake::default();
    let mut g = c.benchmark_group("bake_locomotion_lua");
    g.sample_size(20);
    g.throughput(Throughput::Elements(frames as u64));
    g.bench_function("evaluate", |b| {
        b.iter(|| {
            for t in &takes {
                let baked = bake_take(&mut graph, t, &options, &mut |_, _| {});
                black_box(baked.unwrap_or_else(|e| panic!("{e}")));
            }
        })
    });
    g.bench_function("evaluate+reduce", |b| {
        b.iter(|| bake_and_reduce(&mut graph, &takes, &skeleton))
    });
    g.finish();
}

/// Bake cost against rig size (issue 36's scaling table, the joints axis): the locomotion
/// script's two takes baked and reduced on the mannequin (24 joints) and the production test
/// rig at 256 and 1000 joints (`marionette mannequin --production`), throughput in
/// joint-frames.
fn scaling_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("bake_scaling_joints");
    g.sample_size(10);
    for joints in [24usize, 256, 1000] {
        let model = if joints == 24 {
            marionette::mannequin::build()
        } else {
            marionette::mannequin::production::build(joints)
        };
        let (mut graph, takes, frames, skeleton) =
            locomotion_on(&model, &format!("{joints} joints"));
        g.throughput(Throughput::Elements((frames * joints) as u64));
        g.bench_function(BenchmarkId::new("evaluate+reduce", joints), |b| {
            b.iter(|| bake_and_reduce(&mut graph, &takes, &skeleton))
        });
    }
    g.finish();
}

/// A take of `seconds` at 60 fps on the locomotion graph: the speed changes every 5 s, a jump
/// every 7 s (the take the issue measured long bakes with).
fn long_take_script(seconds: u32) -> String {
    format!(
        "local rig = marionette.rig()\n\
         params {{ speed = float(0, 0, 6), jump = trigger() }}\n\
         local move = blend1d(\"speed\", {{ {{ 0.0, rig.idle }}, {{ 1.4, rig.walk }}, {{ 4.0, rig.run }} }}, {{ sync = true }})\n\
         local body = state_machine {{ start = \"move\", states = {{ move = move, jump = rig.jump:once() }},\n\
           transitions = {{ {{ \"move\", \"jump\", on = \"jump\", blend = 0.15, mode = \"inertial\" }},\n\
                            {{ \"jump\", \"move\", at_end = true, blend = 0.25, mode = \"inertial\" }} }} }}\n\
         local speed, jump = {{}}, {{}}\n\
         for k = 0, {seconds} // 5 do speed[#speed + 1] = {{ k * 5, ({{ 0.0, 1.4, 4.0, 2.5, 0.7, 5.0 }})[k % 6 + 1] }} end\n\
         for t = 7, {seconds} - 1, 7 do jump[#jump + 1] = t end\n\
         return graph {{ root = body, root_motion = \"ground\",\n\
           takes = {{ long = {{ duration = {seconds}, fps = 60, speed = speed, jump = jump }} }} }}\n"
    )
}

/// [`long_take_script`] of `seconds` loaded on `model`.
fn long_take_graph(model: &Model, seconds: u32) -> ScriptedGraph {
    let rig = Rig::from_model("mannequin".to_string(), model);
    let path = root().join(format!("long_{seconds}.lua"));
    let loaded = marionette::script::load_text(
        &path,
        &long_take_script(seconds),
        &HostOptions::with_rig(rig),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    ScriptedGraph::new(loaded).unwrap_or_else(|e| panic!("{e}"))
}

/// Bake cost against take length (issue 36's scaling table, the length axis): the long take
/// at 1, 10 and 60 s on the mannequin, throughput in joint-frames (a flat figure is linear
/// growth; the 10-minute and hour-long figures are the CLI's, in the guide).
fn length_benches(c: &mut Criterion) {
    let model = marionette::mannequin::build();
    let mut g = c.benchmark_group("bake_scaling_length");
    g.sample_size(10);
    for seconds in [1u32, 10, 60] {
        let mut graph = long_take_graph(&model, seconds);
        let takes = vec!["long".to_string()];
        let skeleton = graph.script().rig.skeleton.clone();
        let frames = seconds as usize * 60 + 1;
        g.throughput(Throughput::Elements((frames * skeleton.len()) as u64));
        g.bench_function(
            BenchmarkId::new("evaluate+reduce", format!("{seconds}s")),
            |b| b.iter(|| bake_and_reduce(&mut graph, &takes, &skeleton)),
        );
    }
    g.finish();
}

/// The editor's seek against take length (issue 36's scaling table, the seek axis): the long
/// take played as the editor plays it (one simulation, a snapshot every 30 steps), first
/// simulated to its end once, as the editor's lanes do when a take opens (printed: that pass's
/// time), then scrubbed to times spread over the whole take (the figure: one scrub).
fn seek_benches(c: &mut Criterion) {
    let model = marionette::mannequin::build();
    let mut g = c.benchmark_group("seek_long_take");
    g.sample_size(20);
    for seconds in [60u32, 600, 3600] {
        let mut graph = long_take_graph(&model, seconds);
        let take = graph.take_data("long").unwrap_or_else(|| panic!("no take"));
        graph.play_take(&take).unwrap_or_else(|e| panic!("{e}"));
        let steps = u64::from(seconds) * 60;
        let start = std::time::Instant::now();
        for step in 0..=steps {
            graph.seek(step as f64 / 60.0);
        }
        println!(
            "seek_long_take/{seconds}s: the first pass over every frame (lanes, snapshots) took \
             {:.2} s",
            start.elapsed().as_secs_f64()
        );
        let mut x: u64 = 12345;
        g.bench_function(BenchmarkId::new("scrub", format!("{seconds}s")), |b| {
            b.iter(|| {
                // a deterministic spread of times over the whole take
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let t = (x >> 11) as f64 / (1u64 << 53) as f64 * f64::from(seconds);
                black_box(graph.seek(t).len())
            })
        });
    }
    g.finish();
}

fn main() {
    compare_with_gltf_transform();
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    script_benches(&mut c);
    deep_benches(&mut c);
    scaling_benches(&mut c);
    length_benches(&mut c);
    seek_benches(&mut c);
    c.final_summary();
}
