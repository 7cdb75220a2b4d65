//! Re-baking a bake: a clip Marionette already baked at its own key times, under a budget no
//! looser than this one, with the same key profile and shells (its `extras.marionette` say so),
//! is written back key for key. Reducing it again would spend the budget twice: each
//! generation could drift another budget away from the first source. So a re-bake of an
//! unchanged bake reproduces it, byte for byte.

use std::collections::HashMap;
use std::path::Path;

use super::fitted::Fitted;
use super::reduced::{ReduceStats, ReducedJoint, ReducedTake};
use super::{Curves, Grid, ReduceOptions, ShellRule, TakeMeta};
use marionette_anim::{Clip, Skeleton, Track};
use marionette_io::Document;

/// What an earlier bake of a clip recorded about itself.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Earlier {
    /// Its budget, in millimetres.
    tolerance_mm: f64,
    /// Its key profile.
    curves: String,
    /// Its `--shell-mm` (`None`: each joint's farthest vertex).
    shell_mm: Option<f64>,
    /// Its rate (`None`: irregular times) and frame count, written back as they were.
    fps: Option<f32>,
    frames: usize,
}

impl Earlier {
    /// True when a bake with these settings would keep the earlier keys: a budget no looser, the
    /// same profile and shells.
    pub fn covers(&self, tolerance: f32, curves: Curves, shells: ShellRule) -> bool {
        let shell_mm = shells.fixed_mm().map(f64::from);
        self.tolerance_mm <= f64::from(tolerance * 1e3) * (1.0 + 1e-6)
            && self.curves == curves.name()
            && self.shell_mm == shell_mm
    }
}

/// The clips of `file` Marionette baked at their own key times, by animation name (empty when
/// the file cannot be read, or has none).
pub(super) fn earlier_bakes(file: &Path) -> HashMap<String, Earlier> {
    let Ok(doc) = Document::read(file) else {
        return HashMap::new();
    };
    let mut out = HashMap::new();
    for a in doc.json["animations"].as_array().into_iter().flatten() {
        let m = &a["extras"]["marionette"];
        if m["time_base"].as_str() != Some("source") {
            continue;
        }
        let (Some(name), Some(tolerance_mm), Some(curves), Some(frames)) = (
            a["name"].as_str(),
            m["tolerance_mm"].as_f64(),
            m["curves"].as_str(),
            m["frames"].as_u64().and_then(|f| usize::try_from(f).ok()),
        ) else {
            continue;
        };
        out.insert(
            name.to_string(),
            Earlier {
                tolerance_mm,
                curves: curves.to_string(),
                shell_mm: m["shell_mm"].as_f64(),
                fps: m["fps"].as_f64().map(|f| f as f32),
                frames,
            },
        );
    }
    out
}

/// `clip`'s own keys as a reduced take on its key times, every value as it is, with the rate and
/// frame count its `earlier` bake recorded; `None` when the earlier bake does not cover these
/// settings ([`Earlier::covers`]).
pub(super) fn keys_as_they_are(
    skeleton: &Skeleton,
    clip: &Clip,
    earlier: &Earlier,
    options: &ReduceOptions,
    shells: ShellRule,
) -> Option<ReducedTake> {
    if !earlier.covers(options.tolerance, options.curves, shells) {
        return None;
    }
    let mut grid = super::clip_grid(clip);
    grid.rate = earlier.fps;
    let grid = &grid;
    fn keyed<T: Copy>(track: &Option<Track<T>>, grid: &Grid) -> Option<Option<Fitted<T>>> {
        let Some(track) = track else {
            return Some(None);
        };
        let frames = track
            .times
            .iter()
            .map(|t| {
                let i = grid.times().partition_point(|x| x < t);
                (grid.times().get(i) == Some(t)).then_some(i as u32)
            })
            .collect::<Option<Vec<u32>>>()?;
        Some(Some(Fitted {
            interpolation: track.interpolation,
            frames,
            values: track.values.clone(),
        }))
    }
    let mut joints = Vec::with_capacity(clip.tracks.len());
    let (mut keys, mut channels) = (0, 0);
    for t in &clip.tracks {
        let j = ReducedJoint {
            joint: t.joint,
            translation: keyed(&t.translation, grid)?,
            rotation: keyed(&t.rotation, grid)?,
            scale: keyed(&t.scale, grid)?,
        };
        for n in j.key_counts() {
            keys += n;
            channels += 1;
        }
        joints.push(j);
    }
    let n = grid.len();
    Some(ReducedTake {
        name: clip.name.clone(),
        grid: grid.clone(),
        source_times: true,
        tolerance: options.tolerance,
        curves: options.curves,
        joints,
        meta: TakeMeta::default(),
        report: ReduceStats {
            take: clip.name.clone(),
            frames: earlier.frames,
            raw_keys: n * skeleton.len() * 3,
            keys,
            channels,
            max_error: 0.0,
            p99_error: 0.0,
            worst: None,
            shells,
            against_source: None,
            passes: 0,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bake at 0.1 mm is kept by a re-bake at 0.1 mm or looser, not by a tighter one, another
    /// profile or other shells.
    #[test]
    fn what_an_earlier_bake_covers() {
        let e = Earlier {
            tolerance_mm: 0.1,
            curves: "linear".into(),
            shell_mm: None,
            fps: Some(24.0),
            frames: 25,
        };
        assert!(e.covers(1e-4, Curves::Linear, ShellRule::Vertices));
        assert!(e.covers(2e-4, Curves::Linear, ShellRule::Floor));
        assert!(!e.covers(5e-5, Curves::Linear, ShellRule::Vertices));
        assert!(!e.covers(1e-4, Curves::Cubic, ShellRule::Vertices));
        assert!(!e.covers(1e-4, Curves::Linear, ShellRule::Fixed(0.1)));
    }
}
