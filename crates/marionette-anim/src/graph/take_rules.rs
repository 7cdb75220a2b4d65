//! The rules every take follows, whoever wrote it: a script's `takes { }` (checked as the
//! script runs, with its line) and a take stored in the editor's sidecar (checked when the file
//! is read). One set of functions serves both, so a take the editor accepts is one a script
//! could have written, and the other way round.
//!
//! - timing: a duration above 0, a rate in `1..1000` fps, at most [`time::MAX_FRAMES`] frames;
//! - per parameter: at most [`Take::MAX_KEYS`] keys (or trigger times), finite times that
//!   increase, inside the take (`0..=duration`), finite values, one track per parameter;
//! - markers: finite times inside the take, in time order (two may share a time).
//!
//! What a take's parameters must be (declared, of the key's kind) depends on the script it
//! plays with: [`Take::resolve`] checks that.

use std::collections::{BTreeMap, BTreeSet};

use super::{ParamValue, Take, TakeError};
use crate::time;

impl Take {
    /// The most keys a parameter's track may have, and the most times one trigger may fire in
    /// a take: as many as a take may have frames ([`time::MAX_FRAMES`]).
    pub const MAX_KEYS: usize = time::MAX_FRAMES as usize;

    /// Why a take of `duration` seconds at `fps` cannot be played (`None`: it can): a duration
    /// not above 0, a rate outside `1..1000` ([`time::rate_problem`]) or more frames than
    /// [`time::MAX_FRAMES`].
    pub fn timing_problem(duration: f32, fps: f32) -> Option<String> {
        if duration.is_nan() || duration <= 0.0 {
            return Some(format!("duration {duration} must be > 0"));
        }
        if let Some(problem) = time::rate_problem(fps) {
            return Some(problem);
        }
        time::steps_problem(f64::from(duration), fps)
            .map(|problem| format!("{problem}; shorten it or lower its fps"))
    }

    /// Why one parameter's key times (or a trigger's firing times), in the order given, are
    /// unusable in a take of `duration` seconds (`None`: usable): more than
    /// [`Take::MAX_KEYS`], a time that is not a finite number, times that do not increase, or
    /// a time outside `0..=duration`.
    pub fn times_problem(times: &[f32], duration: f32) -> Option<String> {
        if times.len() > Self::MAX_KEYS {
            return Some(format!(
                "{} keys, over the limit of {}",
                times.len(),
                Self::MAX_KEYS
            ));
        }
        if let Some(t) = times.iter().find(|t| !t.is_finite()) {
            return Some(format!("time {t} is not a finite number"));
        }
        if let Some(w) = times.windows(2).find(|w| w[1] <= w[0]) {
            return Some(format!(
                "key times must increase ({} comes after {})",
                w[1], w[0]
            ));
        }
        times
            .iter()
            .find(|t| **t < 0.0 || **t > duration)
            .map(|t| format!("time {t} is outside the take (0 to {duration} s)"))
    }

    /// Checks the take against the rules every take follows (see the module documentation),
    /// without a graph: the first rule broken, naming the take and the parameter.
    pub fn check(&self) -> Result<(), TakeError> {
        let invalid = |param: Option<&str>, problem: String| TakeError::Invalid {
            take: self.name.clone(),
            param: param.map(str::to_string),
            problem,
        };
        if let Some(problem) = Self::timing_problem(self.duration, self.fps) {
            return Err(invalid(None, problem));
        }
        let mut tracks: BTreeSet<&str> = BTreeSet::new();
        for track in &self.tracks {
            let param = Some(track.param.as_str());
            if !tracks.insert(&track.param) {
                return Err(invalid(param, "has two tracks of keys".into()));
            }
            let times: Vec<f32> = track.keys.iter().map(|k| k.0).collect();
            if let Some(problem) = Self::times_problem(&times, self.duration) {
                return Err(invalid(param, problem));
            }
            for (t, v) in &track.keys {
                let finite = match v {
                    ParamValue::Float(x) => x.is_finite(),
                    ParamValue::Vec3(v) => v.is_finite(),
                    ParamValue::Bool(_) => true,
                    ParamValue::Trigger(_) => {
                        return Err(invalid(param, "a trigger has times, not keys".into()))
                    }
                };
                if !finite {
                    return Err(invalid(param, format!("the value at {t} s is not finite")));
                }
            }
            if let Some(problem) = eases_problem(track) {
                return Err(invalid(param, problem));
            }
        }
        let mut triggers: BTreeMap<&str, Vec<f32>> = BTreeMap::new();
        for t in &self.triggers {
            triggers.entry(&t.param).or_default().push(t.time);
        }
        for (param, times) in &triggers {
            if let Some(problem) = Self::times_problem(times, self.duration) {
                return Err(invalid(Some(param), problem));
            }
        }
        match self.markers_problem() {
            Some(problem) => Err(invalid(Some("markers"), problem)),
            None => Ok(()),
        }
    }

    /// Why the take's markers are unusable (`None`: usable): a time that is not a finite
    /// number, outside `0..=duration`, or before the marker listed ahead of it.
    fn markers_problem(&self) -> Option<String> {
        let times: Vec<f32> = self.markers.iter().map(|m| m.0).collect();
        if let Some(t) = times.iter().find(|t| !t.is_finite()) {
            return Some(format!("time {t} is not a finite number"));
        }
        if let Some(t) = times.iter().find(|t| **t < 0.0 || **t > self.duration) {
            return Some(format!(
                "time {t} is outside the take (0 to {} s)",
                self.duration
            ));
        }
        times.windows(2).find(|w| w[1] < w[0]).map(|w| {
            format!(
                "markers must be in time order ({} comes after {})",
                w[1], w[0]
            )
        })
    }
}

/// What is wrong with a track's eases: not one per key, explicit slopes on keys that are not
/// floats, or a slope that is not finite.
fn eases_problem(track: &super::ParamTrack) -> Option<String> {
    use super::Ease;
    let (n, k) = (track.eases.len(), track.keys.len());
    if n != 0 && n != k {
        return Some(format!(
            "{n} eases for {k} keys (give one per key, or none)"
        ));
    }
    let float = matches!(track.keys.first(), Some((_, ParamValue::Float(_))));
    for (e, (t, _)) in track.eases.iter().zip(&track.keys) {
        if let Ease::Slopes {
            slope_in,
            slope_out,
        } = e
        {
            if !float {
                return Some(format!(
                    "the key at {t} s has explicit slopes: they are for float parameters"
                ));
            }
            if !(slope_in.is_finite() && slope_out.is_finite()) {
                return Some(format!("the key at {t} s has a slope that is not finite"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::graph::KeyInterpolation;

    fn problem(take: &Take) -> String {
        match take.check() {
            Ok(()) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    /// Timing: a duration above 0 (NaN refused), a rate in 1..1000, at most a million frames.
    #[test]
    fn timing() {
        assert_eq!(problem(&Take::new("t", 4.0).fps(30.0)), "ok");
        assert_eq!(
            problem(&Take::new("t", 0.0)),
            "take 't': duration 0 must be > 0"
        );
        assert_eq!(
            problem(&Take::new("t", f32::NAN)),
            "take 't': duration NaN must be > 0"
        );
        assert_eq!(
            problem(&Take::new("t", 1.0).fps(0.0)),
            "take 't': fps 0 is outside 1..1000"
        );
        let long = problem(&Take::new("t", 1e30));
        assert!(long.starts_with("take 't': 1000000"), "{long}");
        assert!(
            long.ends_with("frames, over the limit of 1000000; shorten it or lower its fps"),
            "{long}"
        );
        assert!(problem(&Take::new("t", f32::INFINITY)).contains("infinitely many frames"));
    }

    /// Key times: finite, increasing, inside the take, at most MAX_KEYS; values finite.
    #[test]
    fn keys() {
        let floats = |keys: &[(f32, f32)]| problem(&Take::new("t", 2.0).floats("speed", keys));
        assert_eq!(floats(&[(0.0, 1.0), (2.0, 3.0)]), "ok");
        assert_eq!(
            floats(&[(1.0, 1.0), (0.5, 3.0)]),
            "take 't', speed: key times must increase (0.5 comes after 1)"
        );
        assert_eq!(
            floats(&[(1.0, 1.0), (1.0, 3.0)]),
            "take 't', speed: key times must increase (1 comes after 1)"
        );
        assert_eq!(
            floats(&[(0.0, 1.0), (2.5, 3.0)]),
            "take 't', speed: time 2.5 is outside the take (0 to 2 s)"
        );
        assert_eq!(
            floats(&[(-0.1, 1.0)]),
            "take 't', speed: time -0.1 is outside the take (0 to 2 s)"
        );
        assert_eq!(
            floats(&[(f32::NAN, 1.0)]),
            "take 't', speed: time NaN is not a finite number"
        );
        assert_eq!(
            floats(&[(f32::INFINITY, 1.0)]),
            "take 't', speed: time inf is not a finite number"
        );
        assert_eq!(
            floats(&[(0.0, f32::NAN)]),
            "take 't', speed: the value at 0 s is not finite"
        );
        let look = Take::new("t", 2.0).track(
            "look",
            KeyInterpolation::Linear,
            vec![(1.0, ParamValue::Vec3(Vec3::new(0.0, f32::INFINITY, 0.0)))],
        );
        assert_eq!(
            problem(&look),
            "take 't', look: the value at 1 s is not finite"
        );
        let twice = Take::new("t", 2.0)
            .floats("speed", &[(0.0, 1.0)])
            .floats("speed", &[(1.0, 1.0)]);
        assert_eq!(problem(&twice), "take 't', speed: has two tracks of keys");
        let trigger_key = Take::new("t", 2.0).track(
            "jump",
            KeyInterpolation::Step,
            vec![(1.0, ParamValue::Trigger(true))],
        );
        assert_eq!(
            problem(&trigger_key),
            "take 't', jump: a trigger has times, not keys"
        );
    }

    /// Markers: finite times inside the take, in time order (two may share a time).
    #[test]
    fn markers() {
        let take = Take::new("t", 2.0)
            .marker(1.0, "b")
            .marker(0.5, "a")
            .marker(1.0, "c");
        assert_eq!(problem(&take), "ok");
        let names: Vec<&str> = take.markers.iter().map(|m| m.1.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let mut late = take.clone();
        late.markers.push((2.5, "late".into()));
        assert_eq!(
            problem(&late),
            "take 't', markers: time 2.5 is outside the take (0 to 2 s)"
        );
        let mut nan = take.clone();
        nan.markers[0].0 = f32::NAN;
        assert_eq!(
            problem(&nan),
            "take 't', markers: time NaN is not a finite number"
        );
        let mut unsorted = take;
        unsorted.markers.swap(0, 1);
        assert_eq!(
            problem(&unsorted),
            "take 't', markers: markers must be in time order (0.5 comes after 1)"
        );
    }

    /// A track of more keys than a take may have frames is refused; one at the limit is not.
    #[test]
    fn key_count() {
        let duration = 1000.0;
        let at_limit: Vec<f32> = (0..Take::MAX_KEYS)
            .map(|i| i as f32 * (duration / Take::MAX_KEYS as f32))
            .collect();
        assert_eq!(Take::times_problem(&at_limit, duration), None);
        let mut over = at_limit;
        over.push(duration);
        assert_eq!(
            Take::times_problem(&over, duration).as_deref(),
            Some("1000001 keys, over the limit of 1000000")
        );
    }

    /// Triggers: each parameter's times increase and stay inside the take; other parameters'
    /// triggers may come in between.
    #[test]
    fn triggers() {
        let take = Take::new("t", 2.0)
            .trigger("jump", 0.5)
            .trigger("land", 0.2)
            .trigger("jump", 1.0);
        assert_eq!(problem(&take), "ok");
        assert_eq!(
            problem(&take.clone().trigger("jump", 1.0)),
            "take 't', jump: key times must increase (1 comes after 1)"
        );
        assert_eq!(
            problem(&take.trigger("land", 3.0)),
            "take 't', land: time 3 is outside the take (0 to 2 s)"
        );
    }
}
