//! The time model: fixed steps (frames) at a rate, and every conversion between seconds and
//! step indices, in one place.
//!
//! Step `n` of a simulation at `fps` steps per second ends at [`step_time`]`(n, fps)` =
//! `n / fps` seconds; step 0 is the start. A time between two steps shows the **nearest** one
//! ([`step_at`]), so `run --time 1.01` at 30 fps shows step 30 (1.0 s). The other two questions
//! the runtime asks are answered here too, with the same tolerance [`STEP_SLACK`] (a fraction of
//! one step that absorbs float noise, e.g. in `2.0 * 30.0` or a frame time of `1/60` s):
//! [`step_reaching`] (the first step that reaches a time: when a trigger fires) and
//! [`holds_step`] (whether accumulated real time holds one more whole step).
//!
//! ```
//! use marionette_anim::time::{step_at, step_time};
//!
//! assert_eq!(step_at(1.01, 30.0), 30);
//! assert_eq!(step_at(1.02, 30.0), 31);
//! assert_eq!(step_time(31, 30.0), 31.0 / 30.0);
//! assert_eq!(step_at(f64::from(step_time(31, 30.0)), 30.0), 31);
//! ```

/// The slowest rate of a take, a bake or `--fps`, in frames (steps) per second.
pub const MIN_FPS: f32 = 1.0;

/// The fastest rate of a take, a bake or `--fps`, in frames (steps) per second.
pub const MAX_FPS: f32 = 1000.0;

/// The rates a take, a bake or `--fps` may have: [`MIN_FPS`]`..=`[`MAX_FPS`] (what
/// [`rate_problem`] accepts; the editor's bake dialog offers this range).
pub const FPS_RANGE: std::ops::RangeInclusive<f32> = MIN_FPS..=MAX_FPS;

/// The most frames a take may have (`round(duration × fps) + 1`, frame 0 included), and the
/// most steps a live run may simulate to reach a time: 1,000,000 (4 h 37 min at 60 fps, 16 min
/// 40 s at 1000 fps). Beyond it a bake needs gigabytes and a seek minutes, so it is refused up
/// front.
pub const MAX_FRAMES: u64 = 1_000_000;

/// Why a rate is unusable: not a finite number in [`MIN_FPS`]`..=`[`MAX_FPS`] (`None`: usable).
pub fn rate_problem(fps: f32) -> Option<String> {
    if fps.is_nan() {
        return Some("fps must be a number, got NaN".into());
    }
    (!FPS_RANGE.contains(&fps)).then(|| format!("fps {fps} is outside {MIN_FPS}..{MAX_FPS}"))
}

/// Why a take of `seconds` at `fps` has too many frames (over [`MAX_FRAMES`]), e.g.
/// `10000000 s at 60 fps is 600000001 frames, over the limit of 1000000`; `None`: within.
pub fn steps_problem(seconds: f64, fps: f32) -> Option<String> {
    let frames = (seconds * f64::from(fps)).round() + 1.0;
    (frames.is_nan() || frames > MAX_FRAMES as f64).then(|| {
        format!(
            "{seconds} s at {fps} fps is {} frames, over the limit of {MAX_FRAMES}",
            if frames.is_finite() {
                format!("{frames:.0}")
            } else {
                "infinitely many".into()
            }
        )
    })
}

/// Fraction of a step by which a time may fall short and still count as reaching it.
pub const STEP_SLACK: f64 = 1e-4;

/// The step shown at `t` seconds: the nearest, `round(t × fps)` (halfway rounds up). A negative
/// or NaN time is step 0; a huge one saturates at `u64::MAX`.
pub fn step_at(t: f64, fps: f32) -> u64 {
    let n = frame_nearest(t, fps);
    if n.is_nan() || n < 0.0 {
        0
    } else {
        n as u64
    }
}

/// The frame (step) nearest `t` seconds at `fps`, as a float: `round(t × fps)` (halfway rounds
/// away from zero), signed and unclamped (NaN stays NaN). [`step_at`] clamps it to a step; the
/// editor snaps times, steps the playhead and numbers frames with it.
///
/// ```
/// use marionette_anim::time::frame_nearest;
///
/// assert_eq!(frame_nearest(1.01, 30.0), 30.0);
/// assert_eq!(frame_nearest(-0.1, 30.0), -3.0);
/// ```
pub fn frame_nearest(t: f64, fps: f32) -> f64 {
    (t * f64::from(fps)).round()
}

/// The frames (steps) that cover `start..=end` seconds at `fps`: `floor(start × fps)` and
/// `ceil(end × fps)`, signed and unclamped (the editor draws a per-frame graph between them).
pub fn frames_covering(start: f64, end: f64, fps: f32) -> (f64, f64) {
    let fps = f64::from(fps);
    ((start * fps).floor(), (end * fps).ceil())
}

/// The time of step `n` in seconds: `n / fps`, correctly rounded to f32 (the same bits as
/// `n as f32 / fps` for every `n` below 2^24). Every key time a bake writes is one of these.
pub fn step_time(n: u64, fps: f32) -> f32 {
    (n as f64 / f64::from(fps)) as f32
}

/// The first step that reaches `t` seconds: the smallest `n` with `n / fps >= t` (less
/// [`STEP_SLACK`] of a step); 0 for a time at or before the start, or NaN. A take fires a
/// trigger at `t` in this step (at least step 1: a trigger at 0 fires in the first step), so one
/// at exactly 2 s (at 30 fps) fires in step 60; a bake covering `d` seconds has frames
/// `0..=step_reaching(d, fps)`.
pub fn step_reaching(t: f64, fps: f32) -> u64 {
    let n = (t * f64::from(fps) - STEP_SLACK).ceil();
    if n.is_nan() || n < 0.0 {
        0
    } else {
        n as u64
    }
}

/// Whether `seconds` of accumulated real time hold one more whole step at `fps` (less
/// [`STEP_SLACK`] of a step, so a frame of 1/60 s is one 60 Hz step).
pub fn holds_step(seconds: f64, fps: f32) -> bool {
    let step = 1.0 / f64::from(fps);
    seconds >= step * (1.0 - STEP_SLACK)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times round to the nearest step; halfway rounds up; negative and NaN are step 0.
    #[test]
    fn nearest_step() {
        assert_eq!(step_at(0.0, 60.0), 0);
        assert_eq!(step_at(4.0, 60.0), 240);
        assert_eq!(step_at(0.5 / 30.0, 30.0), 1);
        assert_eq!(step_at(0.49 / 30.0, 30.0), 0);
        assert_eq!(step_at(-1.0, 30.0), 0);
        assert_eq!(step_at(f64::NAN, 30.0), 0);
        assert_eq!(step_at(f64::INFINITY, 30.0), u64::MAX);
    }

    /// `step_time` is the inverse of `step_at` and has the bits of plain f32 division.
    #[test]
    fn step_time_inverts_and_matches_f32_division() {
        for fps in [24.0f32, 25.0, 29.97, 30.0, 60.0, 120.0, 7.0] {
            for n in 0..2000u64 {
                let t = step_time(n, fps);
                assert_eq!(t.to_bits(), (n as f32 / fps).to_bits(), "{n} at {fps}");
                assert_eq!(step_at(f64::from(t), fps), n, "{n} at {fps}");
            }
        }
    }

    /// The first step reaching a time, forgiving float noise; the start is step 0.
    #[test]
    fn reaching_step() {
        assert_eq!(step_reaching(0.0, 30.0), 0);
        assert_eq!(step_reaching(-1.0, 30.0), 0);
        assert_eq!(step_reaching(2.0, 30.0), 60);
        assert_eq!(step_reaching(2.0 + 1e-7, 30.0), 60);
        assert_eq!(step_reaching(2.01, 30.0), 61);
        assert_eq!(step_reaching(1.01, 10.0), 11);
        assert_eq!(step_reaching(f64::from(0.1f32 * 3.0), 10.0), 3);
        assert_eq!(step_reaching(f64::NAN, 30.0), 0);
    }

    /// Rates outside 1..1000 and NaN are refused; step counts over the limit are named.
    #[test]
    fn limits() {
        assert_eq!(rate_problem(30.0), None);
        assert_eq!(rate_problem(1000.0), None);
        assert_eq!(
            rate_problem(1001.0).as_deref(),
            Some("fps 1001 is outside 1..1000")
        );
        assert_eq!(
            rate_problem(f32::NAN).as_deref(),
            Some("fps must be a number, got NaN")
        );
        assert_eq!(steps_problem(3600.0, 60.0), None);
        assert_eq!(
            steps_problem(1e7, 60.0).as_deref(),
            Some("10000000 s at 60 fps is 600000001 frames, over the limit of 1000000")
        );
        assert!(steps_problem(f64::INFINITY, 60.0).is_some());
        assert!(steps_problem(f64::NAN, 60.0).is_some());
    }

    /// A 1/60 s frame holds one 60 Hz step (even rounded down a little); half a step does not.
    #[test]
    fn whole_steps() {
        assert!(holds_step(1.0 / 60.0, 60.0));
        assert!(holds_step(f64::from(1.0f32 / 60.0), 60.0));
        assert!(holds_step(1.0 / 60.0 - 1e-9, 60.0));
        assert!(!holds_step(0.5 / 60.0, 60.0));
    }
}
