//! Takes: named, repeatable scenarios of parameter keys and triggers over time.
//!
//! A take has a duration, a frame rate (the graph's fixed-step rate while it plays), parameter
//! tracks (step or linear keys, or each key with its own [`Ease`]: auto, flat, linear, step or
//! explicit slopes, `key_curve`), triggers at times and named markers. Step `n` of a take ends
//! at `t = n / fps` ([`time::step_time`]): before it, every keyed parameter is set to its value
//! at `t`, and every trigger whose time is in `((n-1)/fps, n/fps]` fires
//! ([`time::step_reaching`]; a trigger at 0 fires in step 1). Markers do not change what plays:
//! they name points in time for a bake's metadata.
//!
//! [`Take`] is the one take type: a script's `takes { }` builds it, the editor edits and
//! records it, its sidecar stores it (in its own file format), and commands and bakes play it.
//! It derives serde in its own layout; a file format that must stay as it is maps to it.

use serde::{Deserialize, Serialize};

use super::key_curve::{self, Ease, KeyInterpolation};
use super::params::{ParamId, ParamKind, ParamValue, Params};
use crate::time;

/// Keys of one parameter. Before the first key the first value holds, after the last the last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamTrack {
    /// Parameter name.
    pub param: String,
    /// Interpolation between keys.
    pub interpolation: KeyInterpolation,
    /// `(time, value)` keys (sorted by time when the take is resolved).
    pub keys: Vec<(f32, ParamValue)>,
    /// Each key's ease, in the order of `keys` (empty: every key follows `interpolation`;
    /// otherwise one per key, see [`Take::check`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eases: Vec<Ease>,
}

impl ParamTrack {
    /// Key `k`'s ease: its own, else what the track's interpolation gives every key.
    pub fn ease(&self, k: usize) -> Ease {
        self.eases
            .get(k)
            .copied()
            .unwrap_or(Ease::of_track(self.interpolation))
    }

    /// Sorts the keys by time, each key's ease with it.
    pub fn sort(&mut self) {
        if self.eases.len() == self.keys.len() {
            let mut pairs: Vec<((f32, ParamValue), Ease)> =
                self.keys.drain(..).zip(self.eases.drain(..)).collect();
            pairs.sort_by(|a, b| a.0 .0.total_cmp(&b.0 .0));
            (self.keys, self.eases) = pairs.into_iter().unzip();
        } else {
            self.keys.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
    }

    /// The value at time `t` as a take plays it (keys sorted; `None` without keys).
    pub fn value_at(&self, t: f32) -> Option<ParamValue> {
        if self.keys.is_empty() {
            return None;
        }
        Some(key_curve::value_at(&self.keys, |k| self.ease(k), t))
    }
}

/// A trigger fired at a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TakeTrigger {
    /// Trigger parameter name.
    pub param: String,
    /// Time in seconds.
    pub time: f32,
}

/// A named scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Take {
    /// Take name.
    pub name: String,
    /// Length in seconds.
    pub duration: f32,
    /// Frames (fixed steps) per second.
    pub fps: f32,
    /// Parameter tracks, one per parameter.
    pub tracks: Vec<ParamTrack>,
    /// Triggers.
    pub triggers: Vec<TakeTrigger>,
    /// Named points in time `(time, name)` (a script's `markers = { {0.5, "contact_l"} }`),
    /// sorted by time. They do not change what plays.
    #[serde(default)]
    pub markers: Vec<(f32, String)>,
}

/// A take that does not fit its graph.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TakeError {
    /// Duration or fps not positive and finite.
    #[error("take '{take}': {what} must be a positive number, got {value}")]
    BadNumber {
        /// Take name.
        take: String,
        /// `duration` or `fps`.
        what: &'static str,
        /// The value.
        value: f32,
    },
    /// More frames than a take may have ([`time::MAX_FRAMES`]).
    #[error("take '{take}': {what}; shorten it or lower its fps")]
    TooLong {
        /// Take name.
        take: String,
        /// Duration, rate and frames against the limit ([`time::steps_problem`]).
        what: String,
    },
    /// A parameter the graph does not declare.
    #[error("take '{take}': unknown parameter '{param}'")]
    UnknownParam {
        /// Take name.
        take: String,
        /// Parameter name.
        param: String,
    },
    /// A take that breaks a rule every take follows, a script's or the editor's
    /// ([`Take::check`]): its timing, its key times, counts or values.
    #[error("take '{take}'{}: {problem}", .param.as_ref().map(|p| format!(", {p}")).unwrap_or_default())]
    Invalid {
        /// Take name.
        take: String,
        /// The parameter whose keys or triggers are at fault (`None`: the take's timing).
        param: Option<String>,
        /// What is wrong.
        problem: String,
    },
    /// A key of the wrong kind, a non-finite time, or a trigger on a non-trigger parameter.
    #[error("take '{take}': parameter '{param}': {reason}")]
    BadKey {
        /// Take name.
        take: String,
        /// Parameter name.
        param: String,
        /// What is wrong.
        reason: String,
    },
}

impl Take {
    /// An empty take at 60 fps.
    pub fn new(name: impl Into<String>, duration: f32) -> Self {
        Self {
            name: name.into(),
            duration,
            fps: 60.0,
            tracks: Vec::new(),
            triggers: Vec::new(),
            markers: Vec::new(),
        }
    }

    /// Sets the frame rate.
    pub fn fps(mut self, fps: f32) -> Self {
        self.fps = fps;
        self
    }

    /// Adds a track.
    pub fn track(
        mut self,
        param: impl Into<String>,
        interpolation: KeyInterpolation,
        keys: Vec<(f32, ParamValue)>,
    ) -> Self {
        self.tracks.push(ParamTrack {
            param: param.into(),
            interpolation,
            keys,
            eases: Vec::new(),
        });
        self
    }

    /// Adds a linear float track.
    pub fn floats(self, param: impl Into<String>, keys: &[(f32, f32)]) -> Self {
        let keys = keys
            .iter()
            .map(|&(t, v)| (t, ParamValue::Float(v)))
            .collect();
        self.track(param, KeyInterpolation::Linear, keys)
    }

    /// Adds a trigger at `time`.
    pub fn trigger(mut self, param: impl Into<String>, time: f32) -> Self {
        self.triggers.push(TakeTrigger {
            param: param.into(),
            time,
        });
        self
    }

    /// Adds a marker named `name` at `time` (markers stay sorted by time; a marker at the
    /// time of another comes after it).
    pub fn marker(mut self, time: f32, name: impl Into<String>) -> Self {
        let at = self.markers.partition_point(|m| m.0 <= time);
        self.markers.insert(at, (time, name.into()));
        self
    }

    /// Number of steps: the step at the end, [`time::step_at`]`(duration, fps)`.
    pub fn steps(&self) -> u64 {
        time::step_at(f64::from(self.duration), self.fps)
    }

    /// Checks the take against a graph's parameters and resolves names.
    pub(crate) fn resolve(&self, params: &Params) -> Result<Resolved, TakeError> {
        for (what, value) in [("duration", self.duration), ("fps", self.fps)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(TakeError::BadNumber {
                    take: self.name.clone(),
                    what,
                    value,
                });
            }
        }
        if let Some(what) = time::steps_problem(f64::from(self.duration), self.fps) {
            return Err(TakeError::TooLong {
                take: self.name.clone(),
                what,
            });
        }
        let find = |name: &str| {
            params.find(name).ok_or_else(|| TakeError::UnknownParam {
                take: self.name.clone(),
                param: name.into(),
            })
        };
        let bad = |param: &str, reason: String| TakeError::BadKey {
            take: self.name.clone(),
            param: param.into(),
            reason,
        };
        let mut tracks = Vec::new();
        for tr in &self.tracks {
            let id = find(&tr.param)?;
            let kind = params.def(id).default.kind();
            let mut sorted = tr.clone();
            if !sorted.eases.is_empty() && sorted.eases.len() != sorted.keys.len() {
                return Err(bad(
                    &tr.param,
                    format!(
                        "{} eases for {} keys (give one per key, or none)",
                        sorted.eases.len(),
                        sorted.keys.len()
                    ),
                ));
            }
            for (t, v) in &sorted.keys {
                if !t.is_finite() {
                    return Err(bad(&tr.param, format!("key time {t} is not finite")));
                }
                if v.kind() != kind || kind == ParamKind::Trigger {
                    return Err(bad(
                        &tr.param,
                        format!("a {} key on a {} parameter", v.kind().name(), kind.name()),
                    ));
                }
            }
            sorted.sort();
            if !sorted.keys.is_empty() {
                let eases = (0..sorted.keys.len()).map(|k| sorted.ease(k)).collect();
                tracks.push((id, eases, sorted.keys));
            }
        }
        let mut triggers = Vec::new();
        for tr in &self.triggers {
            let id = find(&tr.param)?;
            if params.def(id).default.kind() != ParamKind::Trigger {
                return Err(bad(&tr.param, "triggers need a trigger parameter".into()));
            }
            if !tr.time.is_finite() {
                return Err(bad(
                    &tr.param,
                    format!("trigger time {} is not finite", tr.time),
                ));
            }
            // steps end at their time: a trigger at 0 fires in the first one
            let step = time::step_reaching(f64::from(tr.time), self.fps).max(1);
            triggers.push((step, id));
        }
        triggers.sort_by_key(|t| t.0);
        Ok(Resolved {
            fps: self.fps,
            steps: self.steps(),
            tracks,
            triggers,
        })
    }
}

/// Keys of one parameter, resolved: each key's ease, and the keys sorted by time.
pub(crate) type ResolvedTrack = (ParamId, Vec<Ease>, Vec<(f32, ParamValue)>);

/// A take with parameter names resolved.
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    pub fps: f32,
    pub steps: u64,
    pub tracks: Vec<ResolvedTrack>,
    /// `(step, trigger)` sorted by step.
    pub triggers: Vec<(u64, ParamId)>,
}

impl Resolved {
    /// Writes every keyed parameter's value at time `t` and fires the triggers of step `n`.
    pub fn apply(&self, params: &mut Params, n: u64) {
        let t = time::step_time(n, self.fps);
        for (id, eases, keys) in &self.tracks {
            let _ = params.set(*id, key_curve::value_at(keys, |k| eases[k], t));
        }
        let start = self.triggers.partition_point(|k| k.0 < n);
        for (_, id) in self.triggers[start..].iter().take_while(|k| k.0 == n) {
            let _ = params.fire(*id);
        }
    }
}

#[path = "take_rules.rs"]
mod rules;

#[cfg(test)]
mod tests {
    use super::*;

    /// A take over the frame limit is refused by name before it is simulated.
    #[test]
    fn too_many_frames() {
        let params = Params::default();
        let e = Take::new("long", 1e7).resolve(&params).unwrap_err();
        assert_eq!(
            e.to_string(),
            "take 'long': 10000000 s at 60 fps is 600000001 frames, over the limit of 1000000; \
             shorten it or lower its fps"
        );
        assert!(Take::new("hour", 3600.0).resolve(&params).is_ok());
    }

    /// Linear keys interpolate, step keys hold, ends clamp; eases sort with their keys.
    #[test]
    fn key_values() {
        let keys = vec![
            (3.0, ParamValue::Float(4.0)),
            (0.0, ParamValue::Float(0.0)),
            (1.0, ParamValue::Float(1.4)),
        ];
        let mut track = ParamTrack {
            param: "speed".into(),
            interpolation: KeyInterpolation::Linear,
            keys,
            eases: Vec::new(),
        };
        track.sort();
        let ParamValue::Float(v) = track.value_at(2.0).unwrap() else {
            panic!("not a float")
        };
        assert!((v - 2.7).abs() < 1e-6);
        assert_eq!(track.value_at(9.0), Some(ParamValue::Float(4.0)));
        assert_eq!(track.value_at(-1.0), Some(ParamValue::Float(0.0)));
        track.interpolation = KeyInterpolation::Step;
        assert_eq!(track.value_at(2.0), Some(ParamValue::Float(1.4)));
        // each key's own ease goes with it when the keys are sorted
        track.keys.swap(0, 2);
        track.eases = vec![Ease::Flat, Ease::Step, Ease::Auto];
        track.sort();
        assert_eq!(track.keys[0].0, 0.0);
        assert_eq!(track.eases, vec![Ease::Auto, Ease::Step, Ease::Flat]);
    }

    /// Eases that do not match the keys are refused by name.
    #[test]
    fn eases_must_match_keys() {
        let mut params = Params::default();
        params
            .declare(super::super::ParamDef::float("speed", 0.0, 0.0, 5.0))
            .unwrap();
        let mut take = Take::new("t", 2.0).floats("speed", &[(0.0, 0.0), (1.0, 2.0)]);
        take.tracks[0].eases = vec![Ease::Flat];
        let e = take.resolve(&params).unwrap_err();
        assert!(e.to_string().contains("1 eases for 2 keys"), "{e}");
        take.tracks[0].eases = vec![Ease::Flat; 2];
        assert!(take.resolve(&params).is_ok());
    }
}
