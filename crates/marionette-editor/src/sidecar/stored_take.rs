//! A take as the sidecar stores it ([`StoredTake`]: the graph's [`Take`] and the script's take
//! its edit started from) and the fingerprint of a script's take ([`fingerprint`]).
//!
//! The file keeps its own JSON layout for a take (older files must read as they always have,
//! and a fingerprint is a hash of that layout): a private serde shape maps it to and from
//! [`Take`], which is the only take type. The layout has no markers: markers are the script's
//! (a bake takes them from the script's take of the same name), so a stored take has none.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use marionette_anim::graph::{Ease, KeyInterpolation, ParamTrack, ParamValue, Take, TakeTrigger};

/// A take as stored: an edited or recorded take, and the script's take it was edited from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "TakeShape", into = "TakeShape")]
pub struct StoredTake {
    /// The take, without markers (the file stores none).
    pub take: Take,
    /// The script's take this edit started from (version 2 on; see [`ScriptBase`]).
    pub script: ScriptBase,
}

impl StoredTake {
    /// `take` as stored (its markers left out), with the script's take it was edited from.
    pub fn new(take: &Take, script: ScriptBase) -> Self {
        StoredTake {
            take: Take {
                markers: Vec::new(),
                ..take.clone()
            },
            script,
        }
    }

    /// This take stored with the script's take it was edited from.
    pub fn with_script(mut self, script: ScriptBase) -> Self {
        self.script = script;
        self
    }
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
/// FNV-1a of its stored form (markers left out), in hex. Equal takes give equal fingerprints
/// in any build.
pub fn fingerprint(take: Option<&Take>) -> ScriptBase {
    let Some(take) = take else {
        return ScriptBase::Absent;
    };
    let stored = StoredTake::new(take, ScriptBase::Unknown);
    let text = serde_json::to_string(&stored).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    ScriptBase::Take(format!("{h:016x}"))
}

/// The file's layout of a take (fields in this order; `script` left out when unknown).
#[derive(Clone, Serialize, Deserialize)]
struct TakeShape {
    name: String,
    duration: f32,
    fps: f32,
    tracks: Vec<TrackShape>,
    triggers: Vec<TriggerShape>,
    #[serde(default, skip_serializing_if = "ScriptBase::is_unknown")]
    script: ScriptBase,
}

/// One parameter's keys: `step` for [`KeyInterpolation::Step`].
#[derive(Clone, Serialize, Deserialize)]
struct TrackShape {
    param: String,
    step: bool,
    keys: Vec<(f32, KeyShape)>,
    /// Each key's ease (version 3; absent: every key follows `step`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    eases: Vec<EaseShape>,
}

/// A key's ease: its name (`"flat"`), or `[slope_in, slope_out]`.
#[derive(Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum EaseShape {
    Name(String),
    Slopes([f32; 2]),
}

impl From<Ease> for EaseShape {
    fn from(e: Ease) -> Self {
        match e {
            Ease::Slopes {
                slope_in,
                slope_out,
            } => EaseShape::Slopes([slope_in, slope_out]),
            named => EaseShape::Name(named.name().to_string()),
        }
    }
}

impl TryFrom<EaseShape> for Ease {
    type Error = String;
    fn try_from(e: EaseShape) -> Result<Self, String> {
        match e {
            EaseShape::Slopes([slope_in, slope_out]) => Ok(Ease::Slopes {
                slope_in,
                slope_out,
            }),
            EaseShape::Name(n) => Ease::from_name(&n).ok_or_else(|| {
                format!(
                    "unknown ease '{n}' (expected {} or [slope_in, slope_out])",
                    Ease::NAMES.join(", ")
                )
            }),
        }
    }
}

#[derive(Clone, Serialize, Deserialize)]
struct TriggerShape {
    param: String,
    time: f32,
}

/// A key's value: a float, a bool or a vector `[x, y, z]`.
#[derive(Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum KeyShape {
    Bool(bool),
    Float(f32),
    Vec3([f32; 3]),
}

impl From<StoredTake> for TakeShape {
    fn from(s: StoredTake) -> Self {
        let t = s.take;
        let key = |v: ParamValue| match v {
            ParamValue::Float(x) => KeyShape::Float(x),
            ParamValue::Bool(b) | ParamValue::Trigger(b) => KeyShape::Bool(b),
            ParamValue::Vec3(v) => KeyShape::Vec3(v.to_array()),
        };
        TakeShape {
            name: t.name,
            duration: t.duration,
            fps: t.fps,
            tracks: t
                .tracks
                .into_iter()
                .map(|tr| TrackShape {
                    param: tr.param,
                    step: tr.interpolation == KeyInterpolation::Step,
                    keys: tr.keys.into_iter().map(|(t, v)| (t, key(v))).collect(),
                    eases: tr.eases.into_iter().map(EaseShape::from).collect(),
                })
                .collect(),
            triggers: t
                .triggers
                .into_iter()
                .map(|tr| TriggerShape {
                    param: tr.param,
                    time: tr.time,
                })
                .collect(),
            script: s.script,
        }
    }
}

impl TryFrom<TakeShape> for StoredTake {
    type Error = String;
    fn try_from(s: TakeShape) -> Result<Self, String> {
        let value = |v: KeyShape| match v {
            KeyShape::Float(x) => ParamValue::Float(x),
            KeyShape::Bool(b) => ParamValue::Bool(b),
            KeyShape::Vec3(a) => ParamValue::Vec3(Vec3::from_array(a)),
        };
        let take = Take {
            name: s.name,
            duration: s.duration,
            fps: s.fps,
            tracks: s
                .tracks
                .into_iter()
                .map(|tr| {
                    Ok(ParamTrack {
                        param: tr.param,
                        interpolation: if tr.step {
                            KeyInterpolation::Step
                        } else {
                            KeyInterpolation::Linear
                        },
                        keys: tr.keys.into_iter().map(|(t, v)| (t, value(v))).collect(),
                        eases: tr
                            .eases
                            .into_iter()
                            .map(Ease::try_from)
                            .collect::<Result<_, _>>()?,
                    })
                })
                .collect::<Result<_, String>>()?,
            triggers: s
                .triggers
                .into_iter()
                .map(|t| TakeTrigger {
                    param: t.param,
                    time: t.time,
                })
                .collect(),
            markers: Vec::new(),
        };
        Ok(StoredTake {
            take,
            script: s.script,
        })
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
        let text = serde_json::to_string(&StoredTake::new(&take, ScriptBase::Unknown)).unwrap();
        let back: StoredTake = serde_json::from_str(&text).unwrap();
        assert_eq!(back.take, take);
    }

    /// The file's layout of a take, as every version wrote it: markers are left out, and a
    /// script take's fingerprint does not depend on them.
    #[test]
    fn layout() {
        let take = Take::new("t", 2.0)
            .fps(30.0)
            .floats("speed", &[(0.0, 1.0)])
            .track(
                "look",
                KeyInterpolation::Linear,
                vec![(0.5, ParamValue::Vec3(Vec3::new(1.0, 2.0, 3.0)))],
            )
            .track(
                "on",
                KeyInterpolation::Step,
                vec![(0.0, ParamValue::Bool(true))],
            )
            .trigger("jump", 1.5)
            .marker(1.0, "contact");
        let text = serde_json::to_string(&StoredTake::new(&take, ScriptBase::Absent)).unwrap();
        assert_eq!(
            text,
            r#"{"name":"t","duration":2.0,"fps":30.0,"tracks":[{"param":"speed","step":false,"keys":[[0.0,1.0]]},{"param":"look","step":false,"keys":[[0.5,[1.0,2.0,3.0]]]},{"param":"on","step":true,"keys":[[0.0,true]]}],"triggers":[{"param":"jump","time":1.5}],"script":null}"#
        );
        let unmarked = Take {
            markers: Vec::new(),
            ..take.clone()
        };
        assert_eq!(fingerprint(Some(&take)), fingerprint(Some(&unmarked)));
        // FNV-1a of that layout without `script`: the fingerprints in files written before
        assert_eq!(
            fingerprint(Some(&take)),
            ScriptBase::Take("c7e70290fe36d6a9".into())
        );
    }
}
