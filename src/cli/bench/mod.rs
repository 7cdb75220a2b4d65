//! `marionette bench crowd`: the clip crowd ([`crowd`], ozz-animation's workload) or, with
//! `--script`, a crowd of script instances ([`script`]); the arguments and the figures both
//! report.

use std::path::PathBuf;

use serde::Serialize;

pub mod crowd;
pub mod script;

/// Arguments of `bench`.
#[derive(clap::Args)]
pub struct Args {
    /// The benchmark.
    #[command(subcommand)]
    pub bench: Bench,
}

/// The benchmarks.
#[derive(clap::Subcommand)]
pub enum Bench {
    /// Crowd evaluation: sample two clips, blend, local-to-model, palette, per character.
    Crowd(CrowdArgs),
}

/// Arguments of `bench crowd`.
#[derive(clap::Args)]
pub struct CrowdArgs {
    /// The character (default: assets/mannequin.glb, or the built-in mannequin).
    pub rig: Option<PathBuf>,
    /// Clips to blend, by name or index, comma-separated (default: the clips named walk and
    /// run in any case, else the first two).
    #[arg(long, value_delimiter = ',')]
    pub clips: Vec<String>,
    /// Characters (1 or more).
    #[arg(long, default_value_t = 1000, value_parser = crate::cli::args::bench_count)]
    pub count: usize,
    /// Timed frames (60 fps playback; 1 or more).
    #[arg(long, default_value_t = 300, value_parser = crate::cli::args::bench_count)]
    pub frames: usize,
    /// Untimed frames first.
    #[arg(long, default_value_t = 30, value_parser = crate::cli::args::bench_warmup)]
    pub warmup: usize,
    /// Worker threads (one rayon pool); with more than one, the SoA path also runs on one
    /// thread for the speed-up.
    #[arg(long, default_value_t = 1, value_parser = crate::cli::args::bench_count)]
    pub threads: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Run this Lua script's whole graph per character instead (each its own Lua state; one
    /// thread; the rig is RIG or the script's).
    #[arg(long)]
    pub script: Option<PathBuf>,
}

/// Runs a benchmark.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.bench {
        Bench::Crowd(a) => match &a.script {
            Some(script) => script::crowd(a, script),
            None => crowd::crowd(a),
        },
    }
}

/// Median and minimum of one stage over the timed frames, in ms per frame and ns per joint.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// Median milliseconds per frame.
    pub ms_median: f64,
    /// Fastest frame, milliseconds.
    pub ms_min: f64,
    /// Median nanoseconds per joint (per character joint, all clips of the stage together).
    pub ns_per_joint_median: f64,
    /// Fastest frame, nanoseconds per joint.
    pub ns_per_joint_min: f64,
}

impl Figure {
    /// The table cells: ms per frame and ns per joint, each "median (fastest)".
    pub fn cells(&self) -> [String; 2] {
        [
            format!("{:.3} ({:.3})", self.ms_median, self.ms_min),
            format!(
                "{:.2} ({:.2})",
                self.ns_per_joint_median, self.ns_per_joint_min
            ),
        ]
    }
}

/// One path's figures per stage.
/// The median and fastest of per-frame seconds `v`, per frame and per `per` joints.
pub fn figure(mut v: Vec<f64>, per: f64) -> Figure {
    v.sort_by(f64::total_cmp);
    let median = v.get(v.len() / 2).copied().unwrap_or(0.0);
    let min = v.first().copied().unwrap_or(0.0);
    Figure {
        ms_median: median * 1e3,
        ms_min: min * 1e3,
        ns_per_joint_median: median * 1e9 / per,
        ns_per_joint_min: min * 1e9 / per,
    }
}
