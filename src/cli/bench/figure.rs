//! One stage's timing figures, as both benchmarks report them.

use serde::Serialize;

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
