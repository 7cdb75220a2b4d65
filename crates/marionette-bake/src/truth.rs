//! The error of written keys against the source clip itself: both clips played by the
//! runtime's sampler (what Marionette and glTF viewers play: slerp for LINEAR rotations) at
//! every key time of either, and at [`CLIP_INNER`](super::clip::CLIP_INNER) times between each
//! two consecutive ones, each joint measured at its shell.
//!
//! Every corner of either curve sits on one of those times, and between two of them each
//! curve is one polynomial piece (see [`super::clip`] for why the quarter points catch its
//! distance from the other). This is the figure a clip bake is held to, and what `--fps`
//! resampling costs.

use super::clip::CLIP_INNER;
use super::reduced::ErrorAt;
use super::shell::{shell_error, Shells};
use marionette_anim::world_matrices;
use marionette_anim::{Clip, SamplingCache, Skeleton};

/// Every key time of `clips` (joints' and morph weights'; and 0), sorted and deduplicated,
/// with [`CLIP_INNER`] evenly
/// spaced times between each two consecutive ones.
pub fn check_times(clips: &[&Clip]) -> Vec<f32> {
    let mut keys = vec![0.0f32];
    for clip in clips {
        keys.push(clip.end);
        let joint_times = clip.tracks.iter().flat_map(|t| t.key_times());
        let morph_times = clip.morphs.iter().map(|m| &m.times[..]);
        for times in joint_times.chain(morph_times) {
            keys.extend(times.iter().filter(|t| t.is_finite() && **t >= 0.0));
        }
    }
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    let mut out = Vec::with_capacity(keys.len() * (CLIP_INNER + 1));
    for w in keys.windows(2) {
        out.push(w[0]);
        for k in 1..=CLIP_INNER {
            let f = k as f32 / (CLIP_INNER + 1) as f32;
            let t = w[0] * (1.0 - f) + w[1] * f;
            if t > w[0] && t < w[1] {
                out.push(t);
            }
        }
    }
    out.extend(keys.last());
    out
}

/// The largest error of `written` against `source` at [`check_times`] of both, each joint at
/// its shell; `None` when they agree everywhere.
pub fn error_against(
    skeleton: &Skeleton,
    shells: &Shells,
    source: &Clip,
    written: &Clip,
) -> Option<ErrorAt> {
    let rest = skeleton.rest_pose();
    let (mut cache_a, mut cache_b) = (SamplingCache::new(), SamplingCache::new());
    let (mut pa, mut pb) = (rest.to_vec(), rest.to_vec());
    let (mut wa, mut wb) = (Vec::new(), Vec::new());
    let mut worst: Option<ErrorAt> = None;
    for t in check_times(&[source, written]) {
        pa.copy_from_slice(rest);
        pb.copy_from_slice(rest);
        source.sample(t, rest, &mut cache_a, &mut pa);
        written.sample(t, rest, &mut cache_b, &mut pb);
        world_matrices(skeleton, &pa, &mut wa);
        world_matrices(skeleton, &pb, &mut wb);
        for j in 0..wa.len() {
            // a NaN (a pose that does not compose) is the worst error there is
            let e = shell_error(&wa[j], &wb[j], shells.radius(j));
            let e = if e.is_nan() { f64::INFINITY } else { e };
            if e > worst.as_ref().map_or(0.0, |w| w.error) {
                worst = Some(ErrorAt {
                    error: e,
                    time: t,
                    joint: skeleton.names()[j].clone(),
                });
            }
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Vec3};
    use marionette_anim::{Interpolation, JointTracks, Track, Transform};

    fn slide(times: Vec<f32>, xs: Vec<f32>) -> Clip {
        let mut jt = JointTracks::new(0);
        jt.translation = Some(Track {
            interpolation: Interpolation::Linear,
            times,
            values: xs.into_iter().map(|x| Vec3::X * x).collect(),
        });
        Clip::new("slide", vec![jt])
    }

    /// Check times hold every key of both clips and three times between each two.
    #[test]
    fn check_times_cover_both_clips() {
        let a = slide(vec![0.0, 1.0], vec![0.0, 1.0]);
        let b = slide(vec![0.0, 0.5, 1.0], vec![0.0, 0.5, 1.0]);
        let t = check_times(&[&a, &b]);
        assert_eq!(
            t,
            vec![0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0]
        );
    }

    /// A corner of the source between the written keys is found at the source key: the error
    /// is the corner's height, at its time.
    #[test]
    fn a_cut_corner_is_measured_at_the_source_key() {
        let skeleton = Skeleton::new(
            vec!["root".into()],
            vec![None],
            vec![Transform::IDENTITY],
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton;
        let source = slide(vec![0.0, 0.37, 1.0], vec![0.0, 0.01, 0.0]);
        let written = slide(vec![0.0, 1.0], vec![0.0, 0.0]);
        let shells = Shells::floor(&skeleton);
        let w = error_against(&skeleton, &shells, &source, &written).unwrap();
        assert!((w.error - 0.01).abs() < 1e-7, "{w:?}");
        assert_eq!(w.time, 0.37);
        assert_eq!(w.joint, "root");
        assert!(error_against(&skeleton, &shells, &source, &source).is_none());
    }
}
