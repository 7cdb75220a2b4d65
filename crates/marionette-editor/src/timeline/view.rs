//! The visible time range and its mapping to screen x: zoom anchored at a time, pan, fit, and
//! the ruler's tick levels (pure math, unit-tested).

use serde::{Deserialize, Serialize};

/// Smallest visible span, seconds.
pub const MIN_SPAN: f32 = 0.05;
/// Largest visible span, seconds.
pub const MAX_SPAN: f32 = 3600.0;
/// Labels are drawn at the finest tick level at least this many points apart.
pub const LABEL_SPACING: f32 = 60.0;
/// Ticks closer than this (points) are not drawn; they fade in up to [`FULL_TICK_SPACING`].
pub const MIN_TICK_SPACING: f32 = 4.0;
/// Tick spacing (points) at which a level is drawn at full strength.
pub const FULL_TICK_SPACING: f32 = 40.0;

/// The visible time range, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeRange {
    /// Time at the left edge.
    pub start: f32,
    /// Time at the right edge.
    pub end: f32,
}

impl Default for TimeRange {
    /// An empty range, which the widget replaces by the take's fit on first draw.
    fn default() -> Self {
        Self {
            start: 0.0,
            end: 0.0,
        }
    }
}

impl TimeRange {
    /// Seconds shown.
    pub fn span(&self) -> f32 {
        self.end - self.start
    }

    /// A range that can be drawn (finite, positive span).
    pub fn is_valid(&self) -> bool {
        self.start.is_finite() && self.end.is_finite() && self.span() >= MIN_SPAN * 0.5
    }

    /// The whole take with a small margin each side.
    pub fn fit(duration: f32) -> Self {
        let duration = if duration.is_finite() && duration > 0.0 {
            duration
        } else {
            1.0
        };
        let pad = duration * 0.02;
        Self {
            start: -pad,
            end: duration + pad,
        }
    }

    /// Zoomed by `factor` (> 1 zooms in) keeping `anchor` at the same screen position; the span
    /// stays within [`MIN_SPAN`]..[`MAX_SPAN`].
    pub fn zoomed(&self, anchor: f32, factor: f32) -> Self {
        if !(factor.is_finite() && factor > 0.0) {
            return *self;
        }
        let span = (self.span() / factor).clamp(MIN_SPAN, MAX_SPAN);
        let s = span / self.span();
        Self {
            start: anchor - (anchor - self.start) * s,
            end: anchor + (self.end - anchor) * s,
        }
    }

    /// Shifted by `dt` seconds.
    pub fn panned(&self, dt: f32) -> Self {
        Self {
            start: self.start + dt,
            end: self.end + dt,
        }
    }
}

/// Maps times to x over a screen interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    /// The visible range.
    pub range: TimeRange,
    /// Screen x of `range.start`.
    pub left: f32,
    /// Screen x of `range.end`.
    pub right: f32,
}

impl TimeAxis {
    /// Points per second.
    pub fn px_per_sec(&self) -> f32 {
        (self.right - self.left) / self.range.span()
    }

    /// Screen x of time `t`.
    pub fn x(&self, t: f32) -> f32 {
        self.left + (t - self.range.start) * self.px_per_sec()
    }

    /// Time at screen x.
    pub fn t(&self, x: f32) -> f32 {
        self.range.start + (x - self.left) / self.px_per_sec()
    }
}

/// One tick of the ruler.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Time in seconds.
    pub time: f32,
    /// 0..1: how strongly to draw it (fades in with zoom).
    pub strength: f32,
    /// Text under labelled ticks.
    pub label: Option<String>,
}

/// Candidate tick steps in seconds, ascending: frame multiples below a second, then seconds.
fn steps(fps: f32) -> Vec<f64> {
    let mut out = Vec::new();
    if fps.is_finite() && fps > 0.0 {
        let fps = fps as f64;
        for frames in [1.0, 2.0, 5.0, 10.0, 15.0, 30.0] {
            if frames < fps * 0.75 {
                out.push(frames / fps);
            }
        }
    }
    for secs in [
        0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0,
    ] {
        if out.last().is_none_or(|&l| secs > l * 1.2) {
            out.push(secs);
        }
    }
    out
}

/// Text of a tick at time `t`: whole seconds as `2s`, others with their frame spelt out
/// (`1s 15f`, `15f` in the first second), so no label reads as minutes and seconds.
pub fn tick_label(t: f32, fps: f32) -> String {
    let frames = super::keys::frame_of(t, fps);
    if !(fps.is_finite() && fps > 0.0) {
        return format!("{t:.2}s");
    }
    let per_sec = fps.round().max(1.0) as i64;
    if (fps - fps.round()).abs() > 1e-3 {
        return format!("{frames}f");
    }
    let (s, f) = (frames.div_euclid(per_sec), frames.rem_euclid(per_sec));
    match (s, f) {
        (s, 0) => format!("{s}s"),
        (0, f) => format!("{f}f"),
        (s, f) => format!("{s}s {f}f"),
    }
}

/// The ticks to draw on `axis` at `fps`: each visible time once, at the strongest level it
/// belongs to; labels at the finest level at least [`LABEL_SPACING`] apart.
pub fn ticks(axis: &TimeAxis, fps: f32) -> Vec<Tick> {
    let pps = axis.px_per_sec() as f64;
    if !(pps.is_finite() && pps > 0.0) {
        return Vec::new();
    }
    let levels: Vec<f64> = steps(fps)
        .into_iter()
        .filter(|s| s * pps >= MIN_TICK_SPACING as f64)
        .collect();
    let label_step = levels
        .iter()
        .copied()
        .find(|s| s * pps >= LABEL_SPACING as f64);
    let (t0, t1) = (axis.range.start as f64, axis.range.end as f64);
    let mut out = Vec::new();
    for (li, &step) in levels.iter().enumerate() {
        let coarser = &levels[li + 1..];
        let first = (t0 / step - 1e-9).ceil() as i64;
        let last = (t1 / step + 1e-9).floor() as i64;
        if last - first > 4000 {
            continue;
        }
        for k in first..=last {
            let t = k as f64 * step;
            let on_coarser = coarser.iter().any(|c| {
                let q = t / c;
                (q - q.round()).abs() < 1e-6
            });
            if on_coarser {
                continue;
            }
            let strength = ((step * pps - MIN_TICK_SPACING as f64)
                / (FULL_TICK_SPACING - MIN_TICK_SPACING) as f64)
                .clamp(0.0, 1.0) as f32;
            let labelled = label_step.is_some_and(|l| {
                let q = t / l;
                (q - q.round()).abs() < 1e-6
            });
            out.push(Tick {
                time: t as f32,
                strength,
                label: labelled.then(|| tick_label(t as f32, fps)),
            });
        }
    }
    out.sort_by(|a, b| a.time.total_cmp(&b.time));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(start: f32, end: f32, width: f32) -> TimeAxis {
        TimeAxis {
            range: TimeRange { start, end },
            left: 100.0,
            right: 100.0 + width,
        }
    }

    /// x and t are inverse; zoom keeps the anchor's x; pan shifts; fit pads the take.
    #[test]
    fn mapping_zoom_pan_fit() {
        let a = axis(0.0, 2.0, 400.0);
        assert_eq!(a.x(1.0), 300.0);
        assert!((a.t(a.x(0.37)) - 0.37).abs() < 1e-6);
        let z = a.range.zoomed(0.5, 2.0);
        assert_eq!(
            z,
            TimeRange {
                start: 0.25,
                end: 1.25
            }
        );
        let za = TimeAxis { range: z, ..a };
        assert!((za.x(0.5) - a.x(0.5)).abs() < 1e-4);
        assert_eq!(
            a.range.panned(1.0),
            TimeRange {
                start: 1.0,
                end: 3.0
            }
        );
        let f = TimeRange::fit(2.0);
        assert!(f.start < 0.0 && f.end > 2.0 && f.span() < 2.1);
        assert!(a.range.zoomed(0.0, 1e9).span() >= MIN_SPAN * 0.999);
        assert!(!TimeRange::default().is_valid());
    }

    /// Ticks fade in with zoom: zoomed out only seconds are drawn, zoomed in every frame too.
    #[test]
    fn tick_levels_follow_zoom() {
        let out = ticks(&axis(0.0, 10.0, 500.0), 30.0);
        // the finest level drawn is 5 frames (8 points apart)
        let on_5_frames = |t: &Tick| ((t.time * 6.0) - (t.time * 6.0).round()).abs() < 1e-3;
        assert!(out.iter().all(on_5_frames));
        assert!(out.iter().any(|t| t.strength < 1.0));
        let labels: Vec<_> = out.iter().filter_map(|t| t.label.clone()).collect();
        assert_eq!(labels, vec!["0s", "2s", "4s", "6s", "8s", "10s"]);

        let out = ticks(&axis(0.0, 0.5, 300.0), 30.0);
        assert_eq!(out.len(), 16);
        let frame = out.iter().find(|t| t.time > 0.03 && t.time < 0.04).unwrap();
        assert!(frame.strength > 0.0 && frame.strength < 1.0);
        let labels: Vec<_> = out.iter().filter_map(|t| t.label.clone()).collect();
        assert_eq!(labels, vec!["0s", "5f", "10f", "15f"]);
    }

    /// Labels read seconds, or seconds and frames between them (never `1:15`, which reads as
    /// minutes to every new user so far).
    #[test]
    fn labels() {
        assert_eq!(tick_label(2.0, 30.0), "2s");
        assert_eq!(tick_label(1.5, 30.0), "1s 15f");
        assert_eq!(tick_label(0.5, 30.0), "15f");
        assert_eq!(tick_label(0.5, 29.97), "15f");
    }
}
