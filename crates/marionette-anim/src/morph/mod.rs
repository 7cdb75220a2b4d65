//! Morph targets (blend shapes): what a rig's morph weights mean ([`Morphs`], one [`MorphSet`]
//! per mesh instance), their keys in clips ([`MorphTrack`]), how they blend
//! ([`blend`]) and how they move vertices ([`morph_vertices`]).
//!
//! A pose is the joints' local transforms **and** one weight per morph target of the rig: the
//! weights of every set, set after set, in [`Morphs`] order (a flat `&[f32]` beside the
//! `&[Transform]`). Everything that treats joints treats weights alike: sampling (a missing
//! channel holds the set's default weights, as a missing joint track holds the rest pose),
//! blends (linear), additive layers (the difference from the reference), masked layers,
//! transitions. A rig without morph targets has no weights, and every weight operation is a
//! loop over an empty slice.
//!
//! **Names.** A target is named by its own name (`Surprised`: every set's target of that name,
//! as three.js and Unreal apply a curve to every mesh that has it), or qualified by its set
//! (`Head_4.Surprised`: that mesh only). A set is named as its mesh is. Targets without a name
//! in the file are `target0`, `target1`, ... (qualified: `Head_4.target0`).
//!
//! **Which joint a set follows** ([`MorphSet::joint`]), the rule masks use: a mesh rigidly
//! attached to a joint follows that joint; a skinned mesh follows the joint with the most skin
//! weight over the vertices its targets move (each vertex counted by how far its targets move
//! it). `mask.subtree("Neck")` covers the sets whose joint is in the subtree, and a mask built
//! from joints alone masks each set as its joint.

pub mod blend;
mod deform;
mod track;

pub use deform::{morph_vertices, MorphTarget};
pub use track::{MorphCache, MorphTrack};

use std::ops::Range;

use crate::JointIndex;

/// The morph targets of one mesh instance (a glTF node's mesh): the names and default weights
/// of its targets, the joint it follows and the node that carries it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MorphSet {
    /// The mesh's name, as the model's meshes name it without a primitive suffix (`Head_4`).
    pub name: String,
    /// Target names, unique within the set (`extras.targetNames`, else `target<k>`).
    pub targets: Vec<String>,
    /// Default weights, one per target (the node's `weights`, else the mesh's, else zeros).
    pub defaults: Vec<f32>,
    /// The joint the mesh follows (see the module docs), if any.
    pub joint: Option<JointIndex>,
    /// The glTF node carrying the mesh in the file it came from (the target of its `weights`
    /// channels); `None` for meshes built in memory.
    pub node: Option<usize>,
}

/// Every morph target of a rig: its sets, and where each set's weights sit in a pose's flat
/// weight list. See the module docs.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Morphs {
    sets: Vec<MorphSet>,
    /// `offsets[s]..offsets[s + 1]` are set `s`'s weights.
    offsets: Vec<usize>,
    /// Every set's defaults, set after set.
    defaults: Vec<f32>,
}

impl Morphs {
    /// The layout of `sets` (their weights one after the other, in this order). Defaults are
    /// padded with zeros or cut to the target count, and made finite.
    pub fn new(mut sets: Vec<MorphSet>) -> Self {
        let mut offsets = Vec::with_capacity(sets.len() + 1);
        let mut defaults = Vec::new();
        offsets.push(0);
        for set in &mut sets {
            set.defaults.resize(set.targets.len(), 0.0);
            for d in &mut set.defaults {
                if !d.is_finite() {
                    *d = 0.0;
                }
            }
            defaults.extend_from_slice(&set.defaults);
            offsets.push(defaults.len());
        }
        Self {
            sets,
            offsets,
            defaults,
        }
    }

    /// Number of weights (targets over every set).
    pub fn len(&self) -> usize {
        self.defaults.len()
    }

    /// True when the rig has no morph target.
    pub fn is_empty(&self) -> bool {
        self.defaults.is_empty()
    }

    /// The sets, in weight order.
    pub fn sets(&self) -> &[MorphSet] {
        &self.sets
    }

    /// The weights of set `set` in a pose's weight list (empty for a set that does not exist).
    pub fn range(&self, set: usize) -> Range<usize> {
        match (self.offsets.get(set), self.offsets.get(set + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        }
    }

    /// Every default weight, set after set: the rest pose of the weights.
    pub fn defaults(&self) -> &[f32] {
        &self.defaults
    }

    /// The set and target of weight `k`.
    pub fn locate(&self, k: usize) -> Option<(usize, usize)> {
        if k >= self.len() {
            return None;
        }
        let set = self.offsets.partition_point(|&o| o <= k) - 1;
        Some((set, k - self.offsets[set]))
    }

    /// The qualified name of weight `k` (`Head_4.Surprised`).
    pub fn qualified_name(&self, k: usize) -> Option<String> {
        let (s, t) = self.locate(k)?;
        let set = &self.sets[s];
        Some(format!("{}.{}", set.name, set.targets[t]))
    }

    /// Distinct target names in weight order (`Angry`, `Surprised`, `Sad` for three face
    /// meshes with those targets): what `rig.morphs` lists.
    pub fn target_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for set in &self.sets {
            for t in &set.targets {
                if !out.contains(&t.as_str()) {
                    out.push(t);
                }
            }
        }
        out
    }

    /// Every name a target or set can be called by (target names, qualified names, set
    /// names), for did-you-mean messages.
    pub fn all_names(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .target_names()
            .into_iter()
            .map(str::to_string)
            .collect();
        for set in &self.sets {
            out.push(set.name.clone());
            out.extend(set.targets.iter().map(|t| format!("{}.{t}", set.name)));
        }
        out
    }

    /// The weights a name stands for: a target name (every set's target of that name), a
    /// qualified `set.target`, or a set's name (all its targets). Empty when nothing matches.
    pub fn find(&self, name: &str) -> Vec<usize> {
        let mut out = Vec::new();
        for (s, set) in self.sets.iter().enumerate() {
            let base = self.offsets[s];
            if set.name == name {
                out.extend(self.range(s));
                continue;
            }
            for (t, target) in set.targets.iter().enumerate() {
                let qualified = name.len() == set.name.len() + 1 + target.len()
                    && name.starts_with(set.name.as_str())
                    && name[set.name.len()..].starts_with('.')
                    && name.ends_with(target.as_str());
                if target == name || qualified {
                    out.push(base + t);
                }
            }
        }
        out
    }

    /// The weights a target name or a qualified name stands for (not a whole set), for
    /// operations on one target such as `morph.set`.
    pub fn find_target(&self, name: &str) -> Vec<usize> {
        if self.sets.iter().any(|s| s.name == name) && !self.target_names().contains(&name) {
            return Vec::new();
        }
        self.find(name)
    }

    /// The glTF node of each set in the file it came from (empty for a set built in memory):
    /// where the sets' `weights` channels go when a bake writes into that file.
    pub fn source_nodes(&self) -> Vec<Vec<usize>> {
        self.sets
            .iter()
            .map(|s| s.node.into_iter().collect())
            .collect()
    }

    /// The joint each weight's set follows.
    pub fn joints(&self) -> impl Iterator<Item = Option<JointIndex>> + '_ {
        self.sets
            .iter()
            .flat_map(|s| std::iter::repeat_n(s.joint, s.targets.len()))
    }
}

/// A weight a script sets, clamped to `[0, 1]` (the range Blender's and three.js's sliders show,
/// and how a script's other weights are clamped); the caller refuses NaN first. Weights that
/// clips hold are kept as they are (glTF does not bound them).
pub fn clamp_weight(w: f32) -> f32 {
    w.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face() -> Morphs {
        let set = |name: &str, joint| MorphSet {
            name: name.into(),
            targets: vec!["Angry".into(), "Surprised".into(), "Sad".into()],
            defaults: vec![0.0, 0.5],
            joint,
            node: None,
        };
        Morphs::new(vec![set("Head_2", Some(1)), set("Head_4", Some(2))])
    }

    /// Sets lay their weights out one after the other; defaults are padded with zeros.
    #[test]
    fn layout_and_defaults() {
        let m = face();
        assert_eq!(m.len(), 6);
        assert_eq!(m.range(1), 3..6);
        assert_eq!(m.range(7), 0..0);
        assert_eq!(m.defaults(), &[0.0, 0.5, 0.0, 0.0, 0.5, 0.0]);
        assert_eq!(m.locate(4), Some((1, 1)));
        assert_eq!(m.locate(6), None);
        assert_eq!(m.qualified_name(4).as_deref(), Some("Head_4.Surprised"));
        assert_eq!(m.target_names(), vec!["Angry", "Surprised", "Sad"]);
        let joints: Vec<_> = m.joints().collect();
        assert_eq!(
            joints,
            vec![Some(1), Some(1), Some(1), Some(2), Some(2), Some(2)]
        );
    }

    /// A target name finds every set's target; a qualified name one; a set name the set;
    /// `find_target` refuses a set name.
    #[test]
    fn names_resolve() {
        let m = face();
        assert_eq!(m.find("Surprised"), vec![1, 4]);
        assert_eq!(m.find("Head_4.Surprised"), vec![4]);
        assert_eq!(m.find("Head_2"), vec![0, 1, 2]);
        assert!(m.find("Head_2.Happy").is_empty());
        assert!(m.find("Head_2Surprised").is_empty());
        assert!(m.find_target("Head_2").is_empty());
        assert_eq!(m.find_target("Sad"), vec![2, 5]);
        assert!(m.all_names().contains(&"Head_2.Angry".to_string()));
    }
}
