//! Joint hierarchy: names, parents (parent-first order), rest pose and the armature transform;
//! and the rig's morph targets ([`Morphs`]), whose weights are the rest of a pose.

use glam::Mat4;

use super::{JointIndex, Morphs, Transform};

/// Errors building a skeleton.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SkeletonError {
    /// Names, parents and rest pose have different lengths.
    #[error("skeleton arrays disagree: {names} names, {parents} parents, {rest} rest transforms")]
    LengthMismatch {
        /// Number of names.
        names: usize,
        /// Number of parents.
        parents: usize,
        /// Number of rest transforms.
        rest: usize,
    },
    /// A parent index points outside the skeleton.
    #[error("joint {joint} has parent {parent}, but the skeleton has {count} joints")]
    BadParent {
        /// Joint with the bad parent.
        joint: usize,
        /// The parent index found.
        parent: usize,
        /// Joint count.
        count: usize,
    },
    /// The parent links form a cycle.
    #[error("joint hierarchy has a cycle through joint {0}")]
    Cycle(usize),
    /// More joints than a [`JointIndex`] can address.
    #[error("{0} joints is more than the supported {max}", max = JointIndex::MAX)]
    TooManyJoints(usize),
}

/// A joint hierarchy ordered parent-first, so local-to-model is one forward pass.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Skeleton {
    names: Vec<String>,
    parents: Vec<Option<JointIndex>>,
    rest: Vec<Transform>,
    /// World transform of the joints' non-joint ancestors (e.g. a rotated or scaled armature).
    armature: Mat4,
    /// Warnings produced while building (renamed duplicate or empty names).
    warnings: Vec<String>,
    /// The rig's morph targets: the other half of a pose (see [`crate::morph`]).
    morphs: Morphs,
    /// The spring bones a file carries (`VRMC_springBone`), empty for most rigs.
    springs: crate::rigging::vrm::VrmSprings,
}

/// Result of [`Skeleton::new`]: the skeleton and, for each input index, its new joint index.
#[derive(Clone, Debug)]
pub struct BuiltSkeleton {
    /// The parent-first skeleton.
    pub skeleton: Skeleton,
    /// `remap[input_index]` is the joint index in `skeleton`.
    pub remap: Vec<JointIndex>,
}

impl Skeleton {
    /// Builds a skeleton from joints in any order; they are reordered parent-first (stable:
    /// joints already in a valid order keep it). Duplicate or empty names are replaced by stable
    /// unique names, each with a warning.
    // Returns the skeleton together with the index remap callers need to translate their own
    // joint references, hence not `Self`.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(
        names: Vec<String>,
        parents: Vec<Option<usize>>,
        rest: Vec<Transform>,
        armature: Mat4,
    ) -> Result<BuiltSkeleton, SkeletonError> {
        let n = names.len();
        if parents.len() != n || rest.len() != n {
            return Err(SkeletonError::LengthMismatch {
                names: n,
                parents: parents.len(),
                rest: rest.len(),
            });
        }
        if n > JointIndex::MAX as usize {
            return Err(SkeletonError::TooManyJoints(n));
        }
        for (joint, p) in parents.iter().enumerate() {
            if let Some(p) = *p {
                if p >= n {
                    return Err(SkeletonError::BadParent {
                        joint,
                        parent: p,
                        count: n,
                    });
                }
            }
        }
        // Depth of each joint (detects cycles), then a stable sort by depth is parent-first.
        // Each joint is walked once (`on_chain` marks the walk in progress), so any depth is
        // linear.
        let mut depth = vec![usize::MAX; n];
        let mut on_chain = vec![false; n];
        for start in 0..n {
            let mut chain = Vec::new();
            let mut j = start;
            loop {
                if depth[j] != usize::MAX {
                    break;
                }
                if on_chain[j] {
                    return Err(SkeletonError::Cycle(j));
                }
                on_chain[j] = true;
                chain.push(j);
                match parents[j] {
                    Some(p) => j = p,
                    None => {
                        depth[j] = 0;
                        chain.pop();
                        break;
                    }
                }
            }
            while let Some(c) = chain.pop() {
                let p = parents[c].unwrap_or(c);
                depth[c] = depth[p] + 1;
            }
        }
        let already_ordered = (0..n).all(|j| parents[j].is_none_or(|p| p < j));
        let order: Vec<usize> = if already_ordered {
            (0..n).collect()
        } else {
            let mut o: Vec<usize> = (0..n).collect();
            o.sort_by_key(|&j| depth[j]);
            o
        };
        let mut remap = vec![0 as JointIndex; n];
        for (new, &old) in order.iter().enumerate() {
            remap[old] = new as JointIndex;
        }
        let mut warnings = Vec::new();
        let mut out_names = Vec::with_capacity(n);
        let mut seen = std::collections::HashSet::new();
        for &old in &order {
            let mut name = names[old].trim().to_string();
            if name.is_empty() {
                let fresh = unique_name(&format!("joint_{old}"), &seen, &names);
                warnings.push(format!("joint {old} has no name; called it '{fresh}'"));
                name = fresh;
            } else if seen.contains(&name) {
                let fresh = unique_name(&format!("{name}_{old}"), &seen, &names);
                warnings.push(format!(
                    "joint name '{name}' is used more than once; joint {old} renamed '{fresh}'"
                ));
                name = fresh;
            }
            seen.insert(name.clone());
            out_names.push(name);
        }
        let out_parents = order
            .iter()
            .map(|&old| parents[old].map(|p| remap[p]))
            .collect();
        let out_rest = order.iter().map(|&old| rest[old]).collect();
        Ok(BuiltSkeleton {
            skeleton: Skeleton {
                names: out_names,
                parents: out_parents,
                rest: out_rest,
                armature,
                warnings,
                morphs: Morphs::default(),
                springs: Default::default(),
            },
            remap,
        })
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when the skeleton has no joints.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Joint names, parent-first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Name of one joint.
    pub fn name(&self, joint: JointIndex) -> &str {
        &self.names[joint as usize]
    }

    /// Parent of each joint (`None` for roots); always smaller than the joint's own index.
    pub fn parents(&self) -> &[Option<JointIndex>] {
        &self.parents
    }

    /// Parent of one joint.
    pub fn parent(&self, joint: JointIndex) -> Option<JointIndex> {
        self.parents[joint as usize]
    }

    /// Rest (bind-time node) pose, local TRS per joint.
    pub fn rest_pose(&self) -> &[Transform] {
        &self.rest
    }

    /// The armature transform: world matrix of the non-joint ancestors of the root joints.
    pub fn armature(&self) -> Mat4 {
        self.armature
    }

    /// The rig's morph targets: what the weights beside each pose mean (empty for a rig
    /// without any).
    pub fn morphs(&self) -> &Morphs {
        &self.morphs
    }

    /// The skeleton with `morphs` as its morph targets.
    pub fn with_morphs(mut self, morphs: Morphs) -> Self {
        self.morphs = morphs;
        self
    }

    /// The spring bones the file carried (`VRMC_springBone`; empty when none).
    pub fn springs(&self) -> &crate::rigging::vrm::VrmSprings {
        &self.springs
    }

    /// The skeleton with `springs` as its file's spring bones.
    pub fn with_springs(mut self, springs: crate::rigging::vrm::VrmSprings) -> Self {
        self.springs = springs;
        self
    }

    /// Warnings produced while building.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Finds a joint by exact name.
    pub fn find(&self, name: &str) -> Option<JointIndex> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as JointIndex)
    }

    /// Children of a joint, in index order.
    pub fn children(&self, joint: JointIndex) -> impl Iterator<Item = JointIndex> + '_ {
        self.parents
            .iter()
            .enumerate()
            .filter(move |(_, p)| **p == Some(joint))
            .map(|(i, _)| i as JointIndex)
    }

    /// True when `joint` is `ancestor` or lies below it.
    pub fn is_descendant_of(&self, joint: JointIndex, ancestor: JointIndex) -> bool {
        let mut j = Some(joint);
        while let Some(c) = j {
            if c == ancestor {
                return true;
            }
            j = self.parents[c as usize];
        }
        false
    }
}

fn unique_name(base: &str, seen: &std::collections::HashSet<String>, all: &[String]) -> String {
    let mut candidate = base.to_string();
    let mut k = 1;
    while seen.contains(&candidate) || all.iter().any(|n| n == &candidate) {
        candidate = format!("{base}_{k}");
        k += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// Joints given child-first are reordered parent-first and parents remapped.
    #[test]
    fn reorders_parent_first() {
        // input: 0 = hand (parent 1), 1 = arm (parent 2), 2 = root
        let built = Skeleton::new(
            names(&["hand", "arm", "root"]),
            vec![Some(1), Some(2), None],
            vec![Transform::IDENTITY; 3],
            Mat4::IDENTITY,
        )
        .unwrap();
        let s = &built.skeleton;
        assert_eq!(s.names(), &names(&["root", "arm", "hand"])[..]);
        assert_eq!(s.parents(), &[None, Some(0), Some(1)]);
        assert_eq!(built.remap, vec![2, 1, 0]);
        assert_eq!(s.find("arm"), Some(1));
        assert!(s.is_descendant_of(2, 0));
        assert!(!s.is_descendant_of(0, 2));
    }

    /// Duplicate and empty names become unique, with one warning each.
    #[test]
    fn duplicate_and_empty_names_are_renamed() {
        let built = Skeleton::new(
            names(&["a", "a", ""]),
            vec![None, Some(0), Some(0)],
            vec![Transform::IDENTITY; 3],
            Mat4::IDENTITY,
        )
        .unwrap();
        let s = &built.skeleton;
        assert_eq!(s.names(), &names(&["a", "a_1", "joint_2"])[..]);
        assert_eq!(s.warnings().len(), 2);
    }

    /// A parent cycle is an error, not a hang.
    #[test]
    fn cycle_is_an_error() {
        let err = Skeleton::new(
            names(&["a", "b"]),
            vec![Some(1), Some(0)],
            vec![Transform::IDENTITY; 2],
            Mat4::IDENTITY,
        )
        .unwrap_err();
        assert!(matches!(err, SkeletonError::Cycle(_)));
    }
}
