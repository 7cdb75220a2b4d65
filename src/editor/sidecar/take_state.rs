//! A take as the sidecar stores it, and its conversion to and from the graph's [`Take`].

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::anim::graph::{KeyInterpolation, ParamTrack, ParamValue, Take, TakeTrigger};

/// A take as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TakeState {
    name: String,
    duration: f32,
    fps: f32,
    tracks: Vec<TrackState>,
    triggers: Vec<TriggerState>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TrackState {
    param: String,
    step: bool,
    keys: Vec<(f32, KeyValue)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TriggerState {
    param: String,
    time: f32,
}

/// A key's value: a float, a bool or a vector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum KeyValue {
    Bool(bool),
    Float(f32),
    Vec3([f32; 3]),
}

impl From<&Take> for TakeState {
    fn from(t: &Take) -> Self {
        TakeState {
            name: t.name.clone(),
            duration: t.duration,
            fps: t.fps,
            tracks: t
                .tracks
                .iter()
                .map(|tr| TrackState {
                    param: tr.param.clone(),
                    step: tr.interpolation == KeyInterpolation::Step,
                    keys: tr
                        .keys
                        .iter()
                        .map(|(time, v)| {
                            let v = match v {
                                ParamValue::Float(x) => KeyValue::Float(*x),
                                ParamValue::Bool(b) | ParamValue::Trigger(b) => KeyValue::Bool(*b),
                                ParamValue::Vec3(v) => KeyValue::Vec3(v.to_array()),
                            };
                            (*time, v)
                        })
                        .collect(),
                })
                .collect(),
            triggers: t
                .triggers
                .iter()
                .map(|tr| TriggerState {
                    param: tr.param.clone(),
                    time: tr.time,
                })
                .collect(),
        }
    }
}

impl TakeState {
    /// The take.
    pub fn take(&self) -> Take {
        Take {
            name: self.name.clone(),
            duration: self.duration,
            fps: self.fps,
            tracks: self
                .tracks
                .iter()
                .map(|tr| ParamTrack {
                    param: tr.param.clone(),
                    interpolation: if tr.step {
                        KeyInterpolation::Step
                    } else {
                        KeyInterpolation::Linear
                    },
                    keys: tr
                        .keys
                        .iter()
                        .map(|(t, v)| {
                            let v = match v {
                                KeyValue::Float(x) => ParamValue::Float(*x),
                                KeyValue::Bool(b) => ParamValue::Bool(*b),
                                KeyValue::Vec3(a) => ParamValue::Vec3(Vec3::from_array(*a)),
                            };
                            (*t, v)
                        })
                        .collect(),
                })
                .collect(),
            triggers: self
                .triggers
                .iter()
                .map(|t| TakeTrigger {
                    param: t.param.clone(),
                    time: t.time,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A take survives the round trip through the sidecar's JSON.
    #[test]
    fn take_round_trip() {
        let take = Take::new("t", 2.0)
            .fps(30.0)
            .floats("speed", &[(0.0, 1.0), (1.0, 2.5)])
            .track(
                "look",
                KeyInterpolation::Step,
                vec![(0.5, ParamValue::Vec3(Vec3::new(1.0, 2.0, 3.0)))],
            )
            .track(
                "on",
                KeyInterpolation::Step,
                vec![(0.0, ParamValue::Bool(true))],
            )
            .trigger("jump", 1.5);
        let text = serde_json::to_string(&TakeState::from(&take)).unwrap();
        let back: TakeState = serde_json::from_str(&text).unwrap();
        assert_eq!(back.take(), take);
    }
}
