//! A joint map as a script or map file writes it (a [`MapSpec`]: joint names), resolved against
//! both skeletons ([`resolve`]); a mistake names the joint, the closest name, and the names
//! that place it in a file ([`MapMistake`]).

use marionette_anim::retarget::{ChainMap, JointMap, MapError};
use marionette_anim::{JointIndex, Skeleton};

use crate::spec::MapSpec;

/// A map that cannot be used: the message, and the names that find the mistake's line in a
/// map file (`keys`, character joints written as keys, the last written of them is the
/// mistake; `value`, a joint written as a string).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapMistake {
    /// What is wrong, naming the joints.
    pub message: String,
    /// The character joints whose entries are wrong (two for a source joint given twice).
    pub keys: Vec<String>,
    /// The joint named as a string (a source joint, or a chain's joint).
    pub value: Option<String>,
}

impl std::fmt::Display for MapMistake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl MapMistake {
    fn at(message: String, keys: &[&str], value: Option<&str>) -> MapMistake {
        MapMistake {
            message,
            keys: keys.iter().map(|k| k.to_string()).collect(),
            value: value.map(str::to_string),
        }
    }
}

/// The joint of `skeleton` called `name`, or an error naming it with the closest name.
fn joint(skeleton: &Skeleton, name: &str, whose: &str) -> Result<JointIndex, String> {
    skeleton.find(name).ok_or_else(|| {
        let hint = crate::spec::did_you_mean(name, skeleton.names().iter().map(String::as_str));
        format!("unknown joint '{name}'{hint} in {whose}")
    })
}

/// The map a script gave (or the proposed one), checked against the character (`target`) and
/// the source skeleton; `whose` names them in messages.
pub fn resolve(
    map: &MapSpec,
    target: &Skeleton,
    source: &Skeleton,
    whose: (&str, &str),
) -> Result<JointMap, MapMistake> {
    match map {
        MapSpec::Auto => Ok(JointMap::auto(target, source).map),
        MapSpec::Joints { pairs, chains } => {
            let mut p = Vec::with_capacity(pairs.len());
            for (t, s) in pairs {
                let at = |m| MapMistake::at(m, &[t], Some(s));
                p.push((
                    joint(target, t, whose.0).map_err(at)?,
                    joint(source, s, whose.1).map_err(at)?,
                ));
            }
            let mut c = Vec::with_capacity(chains.len());
            for (ts, ss) in chains {
                let side = |names: &[String], sk: &Skeleton, who: &str| {
                    names
                        .iter()
                        .map(|n| joint(sk, n, who).map_err(|m| MapMistake::at(m, &[], Some(n))))
                        .collect::<Result<Vec<_>, _>>()
                };
                c.push(ChainMap {
                    target: side(ts, target, whose.0)?,
                    source: side(ss, source, whose.1)?,
                });
            }
            JointMap::new(p, c, target, source).map_err(|e| {
                let (keys, value): (Vec<&str>, _) = match &e {
                    MapError::SourceTwice {
                        source_joint,
                        first,
                        second,
                    } => (vec![first, second], Some(source_joint.as_str())),
                    MapError::TargetTwice(t) => (vec![], Some(t.as_str())),
                    MapError::NotAChain { joint, .. } => (vec![], Some(joint.as_str())),
                    MapError::EmptyChain | MapError::NoJoint(_) => (vec![], None),
                };
                MapMistake::at(e.to_string(), &keys, value)
            })
        }
    }
}
