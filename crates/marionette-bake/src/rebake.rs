//! Re-baking a bake: a clip Marionette already baked at its own key times, under a budget no
//! looser than this one, with the same key profile and shells (its `extras.marionette` say so),
//! is written back key for key. Reducing it again would spend the budget twice: each
//! generation could drift another budget away from the first source. So a re-bake of an
//! unchanged bake reproduces it, byte for byte.

use std::collections::HashMap;
use std::path::Path;

use super::fitted::Fitted;
use super::reduced::{ReduceStats, ReducedJoint, ReducedTake};
use super::{Grid, MorphStats, ReduceOptions, ReducedMorph, ShellRule, TakeMeta};
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
    /// Its morph weight tolerance (`None`: it wrote no weights channel, or predates them).
    morph_tolerance: Option<f32>,
}

impl Earlier {
    /// True when a bake with these settings would keep the earlier keys: a budget no looser, the
    /// same profile and shells, and for a clip with weights channels (`weights`) a weight
    /// tolerance no looser.
    pub fn covers(&self, options: &ReduceOptions, shells: ShellRule, weights: bool) -> bool {
        let shell_mm = shells.fixed_mm().map(f64::from);
        let morphs_ok = !weights
            || self
                .morph_tolerance
                .is_some_and(|m| m <= options.morph_tolerance * (1.0 + 1e-6));
        self.tolerance_mm <= f64::from(options.tolerance * 1e3) * (1.0 + 1e-6)
            && self.curves == options.curves.name()
            && self.shell_mm == shell_mm
            && morphs_ok
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
                morph_tolerance: m["morph_tolerance"].as_f64().map(|f| f as f32),
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
    if !earlier.covers(options, shells, !clip.morphs.is_empty()) {
        return None;
    }
    source_keys(
        skeleton,
        clip,
        Some((earlier.fps, earlier.frames)),
        options,
        shells,
    )
}

/// `clip`'s own keys as a reduced take on its key times, every value as it is: exactly the
/// source (a clip whose reduced keys f32 cannot hold within the budget, far from the origin).
/// `rate` is the rate and frame count to record (default: the clip's key grid's).
pub(super) fn source_keys(
    skeleton: &Skeleton,
    clip: &Clip,
    rate: Option<(Option<f32>, usize)>,
    options: &ReduceOptions,
    shells: ShellRule,
) -> Option<ReducedTake> {
    let mut grid = super::clip_grid(clip);
    let frames = match rate {
        Some((fps, frames)) => {
            grid.rate = fps;
            frames
        }
        None => grid.len(),
    };
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
    let mut morphs = Vec::with_capacity(clip.morphs.len());
    for t in &clip.morphs {
        let Some(Some(f)) = keyed(
            &Some(Track {
                interpolation: t.interpolation,
                times: t.times.clone(),
                values: t.values.clone(),
            }),
            grid,
        ) else {
            return None;
        };
        morphs.push(ReducedMorph {
            set: t.set,
            interpolation: f.interpolation,
            frames: f.frames,
            values: f.values,
        });
    }
    let morph_stats = MorphStats {
        channels: morphs.len(),
        keys: morphs.iter().map(|m| m.frames.len()).sum(),
        raw_keys: grid.len() * skeleton.morphs().sets().len(),
        tolerance: options.morph_tolerance,
        ..MorphStats::default()
    };
    let n = grid.len();
    Some(ReducedTake {
        name: clip.name.clone(),
        grid: grid.clone(),
        source_times: true,
        tolerance: options.tolerance,
        curves: options.curves,
        quantized: options.quantize,
        joints,
        morphs,
        meta: TakeMeta::default(),
        report: ReduceStats {
            take: clip.name.clone(),
            frames,
            raw_keys: n * skeleton.len() * 3,
            keys,
            channels,
            max_error: 0.0,
            p99_error: 0.0,
            worst: None,
            shells,
            against_source: None,
            passes: 0,
            morphs: morph_stats,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Curves;

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
            morph_tolerance: Some(1e-3),
        };
        let o = |tolerance, curves| ReduceOptions {
            tolerance,
            curves,
            ..ReduceOptions::default()
        };
        let linear = Curves::Linear;
        assert!(e.covers(&o(1e-4, linear), ShellRule::Vertices, true));
        assert!(e.covers(&o(2e-4, linear), ShellRule::Floor, false));
        assert!(!e.covers(&o(5e-5, linear), ShellRule::Vertices, false));
        assert!(!e.covers(&o(1e-4, Curves::Cubic), ShellRule::Vertices, false));
        assert!(!e.covers(&o(1e-4, linear), ShellRule::Fixed(0.1), false));
        // weights reduced under a looser tolerance, or never recorded, are reduced again
        let tight = ReduceOptions {
            morph_tolerance: 1e-4,
            ..o(1e-4, linear)
        };
        assert!(!e.covers(&tight, ShellRule::Vertices, true));
        assert!(e.covers(&tight, ShellRule::Vertices, false));
        let older = Earlier {
            morph_tolerance: None,
            ..e
        };
        assert!(!older.covers(&o(1e-4, linear), ShellRule::Vertices, true));
    }
}
