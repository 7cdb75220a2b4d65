//! The arguments of `marionette bench`.

use std::path::PathBuf;

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
