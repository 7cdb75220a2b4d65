//! Takes: named, repeatable scenarios of parameter keys and triggers over time.
//!
//! A take has a duration, a frame rate (the graph's fixed-step rate while it plays), parameter
//! tracks (step or linear keys), triggers at times and named markers. Step `n` of a take ends
//! at `t = n / fps` ([`time::step_time`]): before it, every keyed parameter is set to its value
//! at `t`, and every trigger whose time is in `((n-1)/fps, n/fps]` fires
//! ([`time::step_reaching`]; a trigger at 0 fires in step 1). Markers do not change what plays:
//! they name points in time for a bake's metadata.
//!
//! [`Take`] is the one take type: a script's `takes { }` builds it, the editor edits and
//! records it, its sidecar stores it (in its own file format), and commands and bakes play it.
//! It derives serde in its own layout; a file format that must stay as it is maps to it.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::params::{ParamId, ParamKind, ParamValue, Params};
use crate::time;

/// How a parameter track interpolates between keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum KeyInterpolation {
    /// Hold each key until the next (bools always step).
    Step,
    /// Linear between keys (floats and vectors).
    #[default]
    Linear,
}

/// Keys of one parameter. Before the first key the first value holds, after the last the last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamTrack {
    /// Parameter name.
    pub param: String,
    /// Interpolation between keys.
    pub interpolation: KeyInterpolation,
    /// `(time, value)` keys (sorted by time when the take is resolved).
    pub keys: Vec<(f32, ParamValue)>,
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
            let mut keys = tr.keys.clone();
            for (t, v) in &keys {
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
            keys.sort_by(|a, b| a.0.total_cmp(&b.0));
            if !keys.is_empty() {
                tracks.push((id, tr.interpolation, keys));
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

/// Keys of one parameter, resolved.
pub(crate) type ResolvedTrack = (ParamId, KeyInterpolation, Vec<(f32, ParamValue)>);

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
        for (id, interp, keys) in &self.tracks {
            let _ = params.set(*id, value_at(keys, *interp, t));
        }
        let start = self.triggers.partition_point(|k| k.0 < n);
        for (_, id) in self.triggers[start..].iter().take_while(|k| k.0 == n) {
            let _ = params.fire(*id);
        }
    }
}

/// The value of a key list at time `t`.
fn value_at(keys: &[(f32, ParamValue)], interp: KeyInterpolation, t: f32) -> ParamValue {
    let i = keys.partition_point(|k| k.0 <= t);
    if i == 0 {
        return keys[0].1;
    }
    if i == keys.len() {
        return keys[i - 1].1;
    }
    let (t0, a) = keys[i - 1];
    let (t1, b) = keys[i];
    let s = (t - t0) / (t1 - t0);
    match (interp, a, b) {
        (KeyInterpolation::Linear, ParamValue::Float(a), ParamValue::Float(b)) => {
            ParamValue::Float(a + (b - a) * s)
        }
        (KeyInterpolation::Linear, ParamValue::Vec3(a), ParamValue::Vec3(b)) => {
            ParamValue::Vec3(Vec3::lerp(a, b, s))
        }
        _ => a,
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

    /// Linear keys interpolate, step keys hold, ends clamp.
    #[test]
    fn key_values() {
        let keys = [
            (0.0, ParamValue::Float(0.0)),
            (1.0, ParamValue::Float(1.4)),
            (3.0, ParamValue::Float(4.0)),
        ];
        let ParamValue::Float(v) = value_at(&keys, KeyInterpolation::Linear, 2.0) else {
            panic!("not a float")
        };
        assert!((v - 2.7).abs() < 1e-6);
        assert_eq!(
            value_at(&keys, KeyInterpolation::Step, 2.0),
            ParamValue::Float(1.4)
        );
        assert_eq!(
            value_at(&keys, KeyInterpolation::Linear, 9.0),
            ParamValue::Float(4.0)
        );
        assert_eq!(
            value_at(&keys, KeyInterpolation::Linear, -1.0),
            ParamValue::Float(0.0)
        );
    }
}
