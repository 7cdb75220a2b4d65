//! `marionette bench crowd`: the clip crowd ([`crowd`], ozz-animation's workload) or, with
//! `--script`, a crowd of script instances ([`script`]); the arguments and the figures both
//! report.

mod args;
pub mod crowd;
mod figure;
pub mod script;

pub use args::Args;
use args::Bench;

/// Runs a benchmark.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.bench {
        Bench::Crowd(a) => match &a.script {
            Some(script) => script::crowd(a, script),
            None => crowd::crowd(a),
        },
    }
}
