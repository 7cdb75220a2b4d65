//! What every subcommand checks up front, before loading or rendering anything: value parsers
//! for the numeric arguments (clap prints their message as `invalid value 'X' for '--arg':
//! message` and exits 2), the limits they enforce, and the one overwrite rule for output files.
//!
//! The overwrite rule: a command never replaces an existing file unless `--force` is given, and
//! the error says so (`'out.png' exists; pass --force to replace it`). The headless tour is the
//! one exception: `marionette-out/` is its own folder, refreshed on every run.

use std::path::{Path, PathBuf};

use marionette::anim::time;

/// The most onion-skin ghosts on each side of the frame (`render --ghosts`).
pub const MAX_GHOSTS: u32 = 32;

/// The smallest cell of a contact sheet, in pixels per side (`render --sheet`).
pub const MIN_CELL: u32 = 16;

/// The most cells of a contact sheet (`render --sheet`): each is a frame rendered.
pub const MAX_CELLS: u32 = 1024;

/// The most frames `edit --screenshot` runs before saving (about 28 minutes at 60 fps).
pub const MAX_EDIT_FRAMES: u32 = 100_000;

/// A number, or what it is not.
fn float(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| format!("'{s}' is not a number"))
}

/// `--time`: finite seconds, at least 0 (negative numbers reach this parser, which says why
/// they are refused, rather than clap's `use '-- -1'`).
pub fn seconds(s: &str) -> Result<f64, String> {
    let t = float(s)?;
    if !(t.is_finite() && t >= 0.0 && (t as f32).is_finite()) {
        return Err(format!(
            "a time must be a finite number of seconds >= 0, got {}",
            s.trim()
        ));
    }
    Ok(t)
}

/// `--time` as the renderer's 32-bit seconds.
pub fn seconds_f32(s: &str) -> Result<f32, String> {
    seconds(s).map(|t| t as f32)
}

/// `--fps`: a rate in [`time::MIN_FPS`]`..=`[`time::MAX_FPS`], the limit of a take's `fps`.
pub fn fps(s: &str) -> Result<f32, String> {
    let f = float(s)? as f32;
    match time::rate_problem(f) {
        Some(problem) => Err(problem),
        None => Ok(f),
    }
}

/// The smallest `--tolerance-mm` (the editor's too): below it 32-bit key values cannot follow
/// the source on any rig (a budget of 0 can never be met).
pub const MIN_TOLERANCE_MM: f32 = 0.001;

/// `--tolerance-mm`: a finite number of millimetres, at least [`MIN_TOLERANCE_MM`].
pub fn millimetres(s: &str) -> Result<f32, String> {
    at_least_min_mm(s, "the tolerance")
}

/// A finite number of millimetres, at least [`MIN_TOLERANCE_MM`]; the error names `what`.
fn at_least_min_mm(s: &str, what: &str) -> Result<f32, String> {
    let mm = float(s)? as f32;
    if !(mm.is_finite() && mm >= MIN_TOLERANCE_MM) {
        return Err(format!(
            "{what} must be a finite number of millimetres >= {MIN_TOLERANCE_MM}, got {}",
            s.trim()
        ));
    }
    Ok(mm)
}

/// The smallest `--morph-tolerance` (the editor's too): below it 32-bit weights cannot follow
/// a source between frames.
pub const MIN_MORPH_TOLERANCE: f32 = 1e-6;

/// `--morph-tolerance`: a finite weight difference in [`MIN_MORPH_TOLERANCE`]`..=1`.
pub fn morph_tolerance(s: &str) -> Result<f32, String> {
    let w = float(s)? as f32;
    if !(w.is_finite() && (MIN_MORPH_TOLERANCE..=1.0).contains(&w)) {
        return Err(format!(
            "the morph tolerance must be a weight difference from {MIN_MORPH_TOLERANCE} to 1, got {}",
            s.trim()
        ));
    }
    Ok(w)
}

/// `--shell-mm`: a finite distance in millimetres, at least 0.001.
pub fn shell_millimetres(s: &str) -> Result<f32, String> {
    at_least_min_mm(s, "the shell distance")
}

/// `--ghost-step`: finite seconds above 0.
pub fn step(s: &str) -> Result<f32, String> {
    let t = float(s)? as f32;
    if !(t.is_finite() && t > 0.0) {
        return Err(format!(
            "the ghost step must be a finite number of seconds > 0, got {}",
            s.trim()
        ));
    }
    Ok(t)
}

/// A whole number in `min..=max`, named `what` in the message.
fn count(s: &str, what: &str, min: u32, max: u32) -> Result<u32, String> {
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number >= {min}"))?;
    if n < u64::from(min) || n > u64::from(max) {
        return Err(format!("{what} must be {min} to {max}, got {n}"));
    }
    Ok(n as u32)
}

/// `--ghosts`: 0 to [`MAX_GHOSTS`].
pub fn ghosts(s: &str) -> Result<u32, String> {
    count(s, "ghosts", 0, MAX_GHOSTS)
}

/// Most characters, frames or worker threads `bench crowd` takes (each at least 1).
pub const MAX_BENCH_COUNT: u32 = 1_000_000;

/// `bench crowd --count`, `--frames` and `--threads`: 1 to [`MAX_BENCH_COUNT`].
pub fn bench_count(s: &str) -> Result<usize, String> {
    count(s, "the number", 1, MAX_BENCH_COUNT).map(|n| n as usize)
}

/// `bench crowd --warmup`: 0 to [`MAX_BENCH_COUNT`].
pub fn bench_warmup(s: &str) -> Result<usize, String> {
    count(s, "warm-up frames", 0, MAX_BENCH_COUNT).map(|n| n as usize)
}

/// `edit --frames`: 1 to [`MAX_EDIT_FRAMES`].
pub fn edit_frames(s: &str) -> Result<u32, String> {
    count(s, "frames", 1, MAX_EDIT_FRAMES)
}

/// An image to write: `.png`, or `.jpg` / `.jpeg` (written as RGB; JPEG has no alpha).
pub fn image_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("png" | "jpg" | "jpeg") => Ok(path),
        _ => Err(format!("'{s}': give a .png or .jpg file")),
    }
}

/// A PNG to write (`edit --screenshot`).
pub fn png_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => Ok(path),
        _ => Err(format!("'{s}': give a .png file")),
    }
}

/// The overwrite rule: an existing `path` is an error unless `force`.
pub fn refuse_existing(path: &Path, force: bool) -> anyhow::Result<()> {
    if !force && path.symlink_metadata().is_ok() {
        anyhow::bail!("'{}' exists; pass --force to replace it", path.display());
    }
    Ok(())
}

/// A live run (no take) simulates every step up to `t` at `rate` steps per second: refuse
/// what would take more than [`time::MAX_FRAMES`] steps.
pub fn live_time(t: f64, rate: f32) -> anyhow::Result<()> {
    let hz = f64::from(rate).round();
    let steps = (t * f64::from(rate)).round();
    if steps > time::MAX_FRAMES as f64 {
        anyhow::bail!(
            "--time {t}: live parameters are simulated step by step from 0 at {hz} Hz, which \
             is {steps:.0} steps, over the limit of {} ({:.0} s); give a smaller --time or \
             play a --take",
            time::MAX_FRAMES,
            time::MAX_FRAMES as f64 / hz
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times: finite and non-negative; rates: 1..1000; counts: within their limits.
    #[test]
    fn parsers() {
        assert_eq!(seconds("1.5"), Ok(1.5));
        assert_eq!(seconds("0"), Ok(0.0));
        for bad in ["-1", "NaN", "inf", "1e39"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(
            seconds("-1").unwrap_err(),
            "a time must be a finite number of seconds >= 0, got -1"
        );
        assert_eq!(seconds("x").unwrap_err(), "'x' is not a number");
        assert_eq!(fps("30"), Ok(30.0));
        assert_eq!(fps("1001").unwrap_err(), "fps 1001 is outside 1..1000");
        assert_eq!(fps("0").unwrap_err(), "fps 0 is outside 1..1000");
        assert_eq!(ghosts("32"), Ok(32));
        assert_eq!(ghosts("33").unwrap_err(), "ghosts must be 0 to 32, got 33");
        assert_eq!(
            edit_frames("0").unwrap_err(),
            "frames must be 1 to 100000, got 0"
        );
        assert!(millimetres("-0.1").is_err());
        assert_eq!(
            millimetres("0").unwrap_err(),
            "the tolerance must be a finite number of millimetres >= 0.001, got 0"
        );
        assert!(step("0").is_err());
        assert!(image_path("a.JPG").is_ok());
        assert_eq!(
            image_path("a.gif").unwrap_err(),
            "'a.gif': give a .png or .jpg file"
        );
    }
}

/// `--no-passes`, on every command that plays a script's takes.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Passes {
    /// Show the raw graph: skip the takes' bake passes (`passes = { ... }`), which otherwise
    /// run everywhere a take plays, so what is seen is what is baked.
    #[arg(long)]
    pub no_passes: bool,
}

impl Passes {
    /// Makes the choice for every script this process loads.
    pub fn apply(self) {
        marionette::script::runtime::set_passes_by_default(!self.no_passes);
    }
}
