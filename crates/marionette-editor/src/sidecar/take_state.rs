//! A take as the sidecar stores it, and its conversion to and from the graph's [`Take`].

use glam::Vec3;
use serde::{Deserialize, Serialize};

use marionette_anim::graph::{KeyInterpolation, ParamTrack, ParamValue, Take, TakeTrigger};

/// A take as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TakeState {
    name: String,
    duration: f32,
    fps: f32,
    tracks: Vec<TrackState>,
    triggers: Vec<TriggerState>,
    /// The script's take this edit started from (version 2 on; see [`ScriptBase`]).
    #[serde(default, skip_serializing_if = "ScriptBase::is_unknown")]
    pub script: ScriptBase,
}

/// What the script defined for a take when it was edited in the editor, so a later change of
/// the script's own definition is noticed (never silently overridden): a fingerprint of the
/// script's take ([`fingerprint`]), or `null` when the script had no take of that name (a
/// recorded take). Files of version 1 have none: the script's take when the file is opened
/// counts as the one edited.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum ScriptBase {
    /// Not recorded (a version 1 file).
    #[default]
    Unknown,
    /// The script had no take of this name.
    Absent,
    /// The fingerprint of the script's take.
    Take(String),
}

impl ScriptBase {
    fn is_unknown(&self) -> bool {
        *self == ScriptBase::Unknown
    }

    /// True when the script's take `now` (`None`: the script has none) is not the one this
    /// edit started from; never for an unknown base (a version 1 file).
    pub fn changed(&self, now: Option<&Take>) -> bool {
        !self.is_unknown() && *self != fingerprint(now)
    }
}

impl Serialize for ScriptBase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ScriptBase::Take(f) => s.serialize_str(f),
            ScriptBase::Unknown | ScriptBase::Absent => s.serialize_none(),
        }
    }
}

impl<'de> Deserialize<'de> for ScriptBase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<String>::deserialize(d)? {
            Some(f) => ScriptBase::Take(f),
            None => ScriptBase::Absent,
        })
    }
}

/// The [`ScriptBase`] of the script's take `take` (`None`: the script has no such take): 64-bit
/// FNV-1a of its stored form, in hex. Equal takes give equal fingerprints in any build.
pub fn fingerprint(take: Option<&Take>) -> ScriptBase {
    let Some(take) = take else {
        return ScriptBase::Absent;
    };
    let text = serde_json::to_string(&TakeState::from(take)).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    ScriptBase::Take(format!("{h:016x}"))
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
            script: ScriptBase::Unknown,
        }
    }
}

impl TakeState {
    /// This take stored with the script's take it was edited from.
    pub fn with_script(mut self, script: ScriptBase) -> Self {
        self.script = script;
        self
    }

    /// The take's name.
    pub fn name(&self) -> &str {
        &self.name
    }

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
