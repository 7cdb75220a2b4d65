//! Which joint of the character takes its motion from which joint of the source: a
//! [`JointMap`] of one-to-one pairs and [`ChainMap`]s (a run of target joints driven by a run
//! of source joints of another length, e.g. a three-joint spine from a two-joint one), checked
//! on construction; and [`JointMap::auto`], the map proposed from both skeletons' body parts
//! ([`Humanoid`]) and, for the joints outside those, from equal names.

use crate::mirror::Side;
use crate::{JointIndex, Skeleton};

use super::humanoid::{Humanoid, Limb};
use super::names::parts;

/// A run of target joints (parent before child) driven by a run of source joints: each target
/// joint takes the rotation of the source chain at the same fraction of its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainMap {
    /// Target joints, top first.
    pub target: Vec<JointIndex>,
    /// Source joints, top first.
    pub source: Vec<JointIndex>,
}

/// Target joint -> source joint(s). See the [module docs](self).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JointMap {
    /// `(target, source)` pairs.
    pub pairs: Vec<(JointIndex, JointIndex)>,
    /// Chains of different lengths.
    pub chains: Vec<ChainMap>,
}

/// A map that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MapError {
    /// A source joint given to two target joints.
    #[error("source joint '{source_joint}' is mapped twice (to '{first}' and to '{second}'): each source joint drives one joint of the character")]
    SourceTwice {
        /// The source joint.
        source_joint: String,
        /// One target joint.
        first: String,
        /// The other.
        second: String,
    },
    /// A target joint given twice.
    #[error("target joint '{0}' is mapped twice")]
    TargetTwice(String),
    /// A chain without joints on one side.
    #[error("a chain needs at least one target and one source joint")]
    EmptyChain,
    /// A chain whose joints do not hang from each other.
    #[error("chain joint '{joint}' does not hang from '{above}': list a chain's joints top first, each below the one before")]
    NotAChain {
        /// The joint out of place.
        joint: String,
        /// The joint before it in the list.
        above: String,
    },
    /// An index past the skeleton.
    #[error("joint #{0} does not exist")]
    NoJoint(JointIndex),
}

/// What [`JointMap::auto`] proposes, with what it could not map.
#[derive(Clone, Debug, PartialEq)]
pub struct AutoMap {
    /// The map.
    pub map: JointMap,
    /// Target joints left unmapped (they keep the character's rest pose).
    pub unmapped: Vec<JointIndex>,
    /// Notes on either skeleton's body parts (missing or ambiguous joints).
    pub notes: Vec<String>,
}

fn check_chain(skeleton: &Skeleton, joints: &[JointIndex]) -> Result<(), MapError> {
    for w in joints.windows(2) {
        if !skeleton.is_descendant_of(w[1], w[0]) || w[0] == w[1] {
            return Err(MapError::NotAChain {
                joint: skeleton.name(w[1]).to_string(),
                above: skeleton.name(w[0]).to_string(),
            });
        }
    }
    Ok(())
}

impl JointMap {
    /// A checked map: every joint exists, no target joint is mapped twice, no source joint
    /// drives two target joints, chains run down their skeletons.
    pub fn new(
        pairs: Vec<(JointIndex, JointIndex)>,
        chains: Vec<ChainMap>,
        target: &Skeleton,
        source: &Skeleton,
    ) -> Result<JointMap, MapError> {
        let mut by_source: Vec<Option<JointIndex>> = vec![None; source.len()];
        let mut seen_target = vec![false; target.len()];
        let all = pairs.iter().copied().chain(
            chains
                .iter()
                .flat_map(|c| c.target.iter().map(move |&t| (t, c.source[0]))),
        );
        for c in &chains {
            if c.target.is_empty() || c.source.is_empty() {
                return Err(MapError::EmptyChain);
            }
        }
        for (t, s) in all {
            if t as usize >= target.len() {
                return Err(MapError::NoJoint(t));
            }
            if s as usize >= source.len() {
                return Err(MapError::NoJoint(s));
            }
            if std::mem::replace(&mut seen_target[t as usize], true) {
                return Err(MapError::TargetTwice(target.name(t).to_string()));
            }
        }
        let sources = pairs.iter().copied().chain(
            chains
                .iter()
                .flat_map(|c| c.source.iter().map(move |&s| (c.target[0], s))),
        );
        for (t, s) in sources {
            if s as usize >= source.len() {
                return Err(MapError::NoJoint(s));
            }
            match by_source[s as usize] {
                Some(first) if first != t => {
                    return Err(MapError::SourceTwice {
                        source_joint: source.name(s).to_string(),
                        first: target.name(first).to_string(),
                        second: target.name(t).to_string(),
                    })
                }
                Some(_) => {
                    return Err(MapError::SourceTwice {
                        source_joint: source.name(s).to_string(),
                        first: target.name(t).to_string(),
                        second: target.name(t).to_string(),
                    })
                }
                None => by_source[s as usize] = Some(t),
            }
        }
        for c in &chains {
            check_chain(target, &c.target)?;
            check_chain(source, &c.source)?;
        }
        Ok(JointMap { pairs, chains })
    }

    /// The source joint driving `target` one-to-one, if any.
    pub fn source_of(&self, target: JointIndex) -> Option<JointIndex> {
        self.pairs.iter().find(|p| p.0 == target).map(|p| p.1)
    }

    /// True when `target` is mapped (by a pair or a chain).
    pub fn maps(&self, target: JointIndex) -> bool {
        self.source_of(target).is_some() || self.chains.iter().any(|c| c.target.contains(&target))
    }

    /// Number of target joints mapped.
    pub fn len(&self) -> usize {
        self.pairs.len() + self.chains.iter().map(|c| c.target.len()).sum::<usize>()
    }

    /// True when nothing is mapped.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The map proposed between two skeletons: body part to body part (chains where the spine
    /// or neck differ in length), then the remaining joints whose names are equal once the
    /// naming scheme is set aside (fingers, say).
    pub fn auto(target: &Skeleton, source: &Skeleton) -> AutoMap {
        let (ht, hs) = (Humanoid::find(target), Humanoid::find(source));
        let mut pairs = Vec::new();
        let mut chains = Vec::new();
        fn pair(
            pairs: &mut Vec<(JointIndex, JointIndex)>,
            t: Option<JointIndex>,
            s: Option<JointIndex>,
        ) {
            if let (Some(t), Some(s)) = (t, s) {
                pairs.push((t, s));
            }
        }
        pair(&mut pairs, ht.root, hs.root);
        pair(&mut pairs, ht.hips, hs.hips);
        for (t, s) in [(&ht.spine, &hs.spine), (&ht.neck, &hs.neck)] {
            if t.is_empty() || s.is_empty() {
                continue;
            }
            if t.len() == s.len() {
                t.iter().zip(s).for_each(|(&a, &b)| pairs.push((a, b)));
            } else {
                chains.push(ChainMap {
                    target: t.clone(),
                    source: s.clone(),
                });
            }
        }
        pair(&mut pairs, ht.head, hs.head);
        let limb = |pairs: &mut Vec<_>, t: &Option<Limb>, s: &Option<Limb>| {
            if let (Some(t), Some(s)) = (t, s) {
                pair(pairs, t.shoulder, s.shoulder);
                pair(pairs, Some(t.upper), Some(s.upper));
                pair(pairs, Some(t.lower), Some(s.lower));
                pair(pairs, t.end, s.end);
                pair(pairs, t.toe, s.toe);
            }
        };
        for k in 0..2 {
            limb(&mut pairs, &ht.arms[k], &hs.arms[k]);
            limb(&mut pairs, &ht.legs[k], &hs.legs[k]);
        }
        // the rest by name: equal side, stem and numbers
        let key = |sk: &Skeleton, j: JointIndex| {
            let p = parts(sk.name(j));
            (!p.helper && !p.stem.is_empty()).then_some((p.side, p.stem, p.numbers))
        };
        let mut used_t: Vec<bool> = vec![false; target.len()];
        let mut used_s: Vec<bool> = vec![false; source.len()];
        for &(t, s) in &pairs {
            used_t[t as usize] = true;
            used_s[s as usize] = true;
        }
        for c in &chains {
            c.target.iter().for_each(|&t| used_t[t as usize] = true);
            c.source.iter().for_each(|&s| used_s[s as usize] = true);
        }
        let source_keys: Vec<_> = (0..source.len())
            .map(|s| key(source, s as JointIndex))
            .collect();
        // (`t` indexes the target's joints and `used_t` alike)
        #[allow(clippy::needless_range_loop)]
        for t in 0..target.len() {
            if used_t[t] {
                continue;
            }
            let Some(k) = key(target, t as JointIndex) else {
                continue;
            };
            let found = (0..source.len())
                .filter(|&s| !used_s[s] && source_keys[s].as_ref() == Some(&k))
                .collect::<Vec<_>>();
            if let [s] = found.as_slice() {
                used_t[t] = true;
                used_s[*s] = true;
                pairs.push((t as JointIndex, *s as JointIndex));
            }
        }
        pairs.sort_unstable();
        let unmapped = (0..target.len())
            .filter(|&t| !used_t[t])
            .map(|t| t as JointIndex)
            .collect();
        let mut notes: Vec<String> = ht
            .notes
            .iter()
            .map(|n| format!("target: {n}"))
            .chain(hs.notes.iter().map(|n| format!("source: {n}")))
            .collect();
        for (t, s) in [(&ht.legs, &hs.legs), (&ht.arms, &hs.arms)] {
            for k in 0..2 {
                if t[k].is_some() != s[k].is_some() {
                    let side = if k == 0 { Side::Left } else { Side::Right };
                    let which = if std::ptr::eq(t, &ht.legs) {
                        "leg"
                    } else {
                        "arm"
                    };
                    let (has, lacks) = if t[k].is_some() {
                        ("target", "source")
                    } else {
                        ("source", "target")
                    };
                    notes.push(format!(
                        "the {has} has a {} {which} the {lacks} lacks",
                        if side == Side::Left { "left" } else { "right" }
                    ));
                }
            }
        }
        // (built from one skeleton each and checked above: valid by construction)
        let map = JointMap { pairs, chains };
        AutoMap {
            map,
            unmapped,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mannequin_maps_onto_itself_entirely() {
        let m = crate::mannequin::build().skeleton;
        let auto = JointMap::auto(&m, &m);
        // every joint but the head's end joint, each onto itself
        for &(t, s) in &auto.map.pairs {
            assert_eq!(t, s, "{} -> {}", m.name(t), m.name(s));
        }
        let left: Vec<&str> = auto.unmapped.iter().map(|&j| m.name(j)).collect();
        assert_eq!(left, ["head_end"]);
        assert!(auto.map.chains.is_empty());
        assert!(JointMap::new(auto.map.pairs.clone(), vec![], &m, &m).is_ok());
    }

    #[test]
    fn mistakes_are_refused() {
        let m = crate::mannequin::build().skeleton;
        let j = |n: &str| m.find(n).unwrap();
        let twice = JointMap::new(
            vec![(j("L_thigh"), j("L_thigh")), (j("R_thigh"), j("L_thigh"))],
            vec![],
            &m,
            &m,
        );
        assert!(
            matches!(twice, Err(MapError::SourceTwice { .. })),
            "{twice:?}"
        );
        let chain = ChainMap {
            target: vec![j("chest"), j("spine_01")],
            source: vec![j("spine_01")],
        };
        let r = JointMap::new(vec![], vec![chain], &m, &m);
        assert!(matches!(r, Err(MapError::NotAChain { .. })), "{r:?}");
        let r = JointMap::new(vec![(j("pelvis"), 999)], vec![], &m, &m);
        assert_eq!(r, Err(MapError::NoJoint(999)));
    }
}
