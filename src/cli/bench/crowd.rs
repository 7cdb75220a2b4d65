//! `marionette bench crowd [RIG] [--clips A,B] [--count N] [--frames F] [--warmup W]
//! [--threads T] [--json]`: ozz-animation's crowd workload (N characters sampling two clips,
//! blending them 50/50, local-to-model and skin palette), timed per stage, with the scalar
//! reference path and the SoA path measured in the same run, frame by frame in turn.

use anyhow::Context;
use marionette::anim::crowd::{worker_pool, Crowd, Path, StageTimes};
use marionette::Model;
use serde::Serialize;

use super::args::CrowdArgs;
use super::figure::{figure, Figure};
use crate::cli::table::render;

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct PathReport {
    /// `scalar`, `soa` or `soa-1-thread`.
    pub path: String,
    /// Worker threads.
    pub threads: usize,
    /// Sampling every clip.
    pub sample: Figure,
    /// Blending.
    pub blend: Figure,
    /// Local-to-model (with the palette when `palette` is absent).
    pub local_to_model: Figure,
    /// Skin palette, when a stage of its own (the SoA path computes it inside local-to-model).
    pub palette: Option<Figure>,
    /// Local-to-model and palette together.
    pub local_to_model_palette: Figure,
    /// The whole frame, stage by stage over the crowd.
    pub total: Figure,
    /// The whole frame, every stage of a character in one pass (separate frames, in turn).
    pub one_pass: Figure,
}

/// The `bench crowd` report.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CrowdReport {
    /// The rig as given (or "mannequin").
    pub rig: String,
    /// Joints per character.
    pub joints: usize,
    /// Clip names.
    pub clips: Vec<String>,
    /// Characters.
    pub count: usize,
    /// Timed frames.
    pub frames: usize,
    /// Warm-up frames.
    pub warmup: usize,
    /// The SoA kernels' instruction set on this machine (`avx2` or `sse2`).
    pub simd: String,
    /// Each path measured, the scalar reference first.
    pub paths: Vec<PathReport>,
    /// Scalar total median over SoA total median (same run, stage by stage).
    pub speedup_soa: f64,
    /// The same for one-pass frames.
    pub speedup_soa_one_pass: f64,
    /// One-thread SoA one-pass median over the `threads`-thread one, when threads > 1.
    pub speedup_threads: Option<f64>,
    /// Largest difference between the two paths' model matrices after the last frame.
    pub max_difference: f32,
}

fn path_report(
    name: &str,
    threads: usize,
    frames: &[StageTimes],
    one_pass: &[f64],
    per: f64,
) -> PathReport {
    let col = |f: &dyn Fn(&StageTimes) -> f64| figure(frames.iter().map(f).collect(), per);
    let separate = frames.iter().all(|f| f.palette.is_some());
    PathReport {
        path: name.into(),
        threads,
        sample: col(&|s| s.sample),
        blend: col(&|s| s.blend),
        local_to_model: col(&|s| s.local_to_model),
        palette: separate.then(|| col(&|s| s.palette.unwrap_or(0.0))),
        local_to_model_palette: col(&|s| s.local_to_model + s.palette.unwrap_or(0.0)),
        total: col(&StageTimes::total),
        one_pass: figure(one_pass.to_vec(), per),
    }
}

/// The clips `spec` names, or walk and run, or the first two.
fn pick_clips(model: &Model, spec: &[String]) -> anyhow::Result<Vec<usize>> {
    if !spec.is_empty() {
        return spec
            .iter()
            .map(|s| model.find_clip(s).map_err(anyhow::Error::from))
            .collect();
    }
    let named = |n: &str| {
        model
            .clips
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(n))
    };
    if let (Some(w), Some(r)) = (named("walk"), named("run")) {
        return Ok(vec![w, r]);
    }
    if model.clips.is_empty() {
        anyhow::bail!("the rig has no clips: give one with clips (bench crowd RIG --clips A,B)");
    }
    Ok((0..model.clips.len().min(2)).collect())
}

/// Measures the crowd and returns the report (no printing).
pub fn measure(args: &CrowdArgs) -> anyhow::Result<CrowdReport> {
    let rig = crate::cli::default_rig(args.rig.as_deref());
    let model = match &rig {
        Some(p) => crate::cli::load(p)?,
        None => marionette::mannequin::build(),
    };
    let rig_name = rig.map_or("mannequin".into(), |p| p.display().to_string());
    let picked = pick_clips(&model, &args.clips)
        .with_context(|| format!("cannot pick clips of {rig_name}"))?;
    let clips: Vec<_> = picked.iter().map(|&i| &model.clips[i]).collect();
    let skin = model.skins.first();
    let sk = &model.skeleton;
    let threads = args.threads.max(1);
    // one pool for every multi-threaded crowd, as an application has (two pools would have
    // their idle workers spin against each other)
    let pool = worker_pool(threads).context("cannot start the worker threads")?;
    let build = |path, pool: &Option<std::sync::Arc<rayon::ThreadPool>>| {
        Crowd::with_pool(sk, clips.clone(), skin, args.count, path, pool.clone())
    };
    let mut crowds = vec![
        ("scalar", threads, build(Path::Scalar, &pool)),
        ("soa", threads, build(Path::Soa, &pool)),
    ];
    if threads > 1 {
        crowds.push(("soa-1-thread", 1, build(Path::Soa, &None)));
    }
    let dt = 1.0 / 60.0;
    let mut times = vec![Vec::with_capacity(args.frames); crowds.len()];
    let mut passes = vec![Vec::with_capacity(args.frames); crowds.len()];
    let mut run = || {
        for f in 0..args.warmup + args.frames {
            // the paths take turns frame by frame, so machine noise hits them alike
            for (k, (_, _, crowd)) in crowds.iter_mut().enumerate() {
                let t = crowd.frame(dt);
                let p = crowd.frame_one_pass(dt);
                if f >= args.warmup {
                    times[k].push(t);
                    passes[k].push(p);
                }
            }
        }
    };
    // the frame loop runs on one of the pool's workers, as an application's main loop would
    // on its job system: a parallel stage then wakes the other workers only
    match &pool {
        Some(pool) => pool.install(run),
        None => run(),
    }
    let per = (args.count * sk.len()).max(1) as f64;
    let paths: Vec<PathReport> = crowds
        .iter()
        .zip(times.iter().zip(&passes))
        .map(|((name, th, _), (t, p))| path_report(name, *th, t, p, per))
        .collect();
    let mut max_difference = 0.0f32;
    for i in 0..args.count {
        if let (Some(a), Some(b)) = (crowds[0].2.model(i), crowds[1].2.model(i)) {
            for (x, y) in a.iter().zip(b) {
                let d = (*x - *y).abs().to_cols_array();
                max_difference = d.iter().fold(max_difference, |m, v| m.max(*v));
            }
        }
    }
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    Ok(CrowdReport {
        rig: rig_name,
        joints: sk.len(),
        clips: clips.iter().map(|c| c.name.clone()).collect(),
        count: args.count,
        frames: args.frames,
        warmup: args.warmup,
        simd: marionette::anim::soa::simd_level().into(),
        speedup_soa: ratio(paths[0].total.ms_median, paths[1].total.ms_median),
        speedup_soa_one_pass: ratio(paths[0].one_pass.ms_median, paths[1].one_pass.ms_median),
        speedup_threads: paths
            .get(2)
            .map(|one| ratio(one.one_pass.ms_median, paths[1].one_pass.ms_median)),
        paths,
        max_difference,
    })
}

/// Runs the clip crowd and prints its report.
pub fn crowd(args: &CrowdArgs) -> anyhow::Result<()> {
    let report = measure(args)?;
    if args.json {
        return crate::cli::print_json(&report);
    }
    crate::cli::print(&text(&report))
}

/// The human-readable report: one row per stage and path, then the ratios.
pub fn text(r: &CrowdReport) -> String {
    let head = format!(
        "crowd: {} x {} ({} joints), clips {}, {} frames after {} warm-up, SoA kernels: {}",
        r.count,
        r.rig,
        r.joints,
        r.clips.join(" + "),
        r.frames,
        r.warmup,
        r.simd
    );
    let mut rows = Vec::new();
    let base = &r.paths[0];
    for p in &r.paths {
        let stages: [(&str, Option<Figure>, Option<Figure>); 7] = [
            ("sample", Some(p.sample), Some(base.sample)),
            ("blend", Some(p.blend), Some(base.blend)),
            match p.palette {
                Some(_) => (
                    "local-to-model",
                    Some(p.local_to_model),
                    Some(base.local_to_model),
                ),
                None => ("local-to-model", None, None),
            },
            ("palette", p.palette, base.palette),
            (
                "local-to-model + palette",
                Some(p.local_to_model_palette),
                Some(base.local_to_model_palette),
            ),
            ("total, stage by stage", Some(p.total), Some(base.total)),
            ("total, one pass", Some(p.one_pass), Some(base.one_pass)),
        ];
        for (stage, f, reference) in stages {
            let Some(f) = f else {
                rows.push(vec![
                    p.path.clone(),
                    p.threads.to_string(),
                    stage.into(),
                    "fused".into(),
                    String::new(),
                    String::new(),
                ]);
                continue;
            };
            let vs = reference.map_or(String::new(), |b| {
                format!("{:.2}x", b.ms_median / f.ms_median.max(1e-12))
            });
            let [ms, ns] = f.cells();
            rows.push(vec![
                p.path.clone(),
                p.threads.to_string(),
                stage.into(),
                ms,
                ns,
                vs,
            ]);
        }
    }
    let headers = [
        "path",
        "threads",
        "stage",
        "ms/frame median (min)",
        "ns/joint median (min)",
        "vs scalar",
    ];
    let mut tail = format!(
        "speed-up, SoA over scalar (medians, same run): {:.2}x stage by stage, {:.2}x one pass",
        r.speedup_soa, r.speedup_soa_one_pass
    );
    if let Some(s) = r.speedup_threads {
        tail += &format!(
            "\nspeed-up, {} threads over 1 (SoA path, one pass): {s:.2}x",
            r.paths[0].threads
        );
    }
    tail += &format!(
        "\nlargest model-matrix difference, SoA vs scalar: {:e}",
        r.max_difference
    );
    format!("{head}\n{}\n{tail}", render(&headers, &rows))
}
