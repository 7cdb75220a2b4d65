//! Root motion over a whole take: a joint's ground-plane travel and turning (relative to the
//! first frame, measured in world space) moved onto its root joint, replacing the root's own
//! (so travel already on the root is not counted twice), with the joint keeping where it is in
//! the world; then, if asked, the travel dropped from the root joints (the take
//! stays in place, as `bake --in-place` does).

use super::frames::Frames;
use crate::ik::model_transform;
use crate::root_motion::{keep_in_place, Reference, RootMotionMode, RootSpace};
use crate::{JointIndex, Skeleton};

pub(super) fn run(
    skeleton: &Skeleton,
    frames: &mut Frames,
    from: Option<JointIndex>,
    drop: bool,
) -> Vec<String> {
    let parents = skeleton.parents();
    let space = RootSpace::of(skeleton);
    let mut notes = Vec::new();
    if let Some(from) = from {
        let mut top = from;
        while let Some(p) = parents.get(top as usize).copied().flatten() {
            top = p;
        }
        let (f, top) = (from as usize, top as usize);
        if f != top && f < frames.joints() {
            let start = model_transform(parents, frames.frame(0), from);
            let from_ref = Reference::of(RootMotionMode::Ground, &space, &start);
            let root_ref = Reference::of(RootMotionMode::Ground, &space, &frames.frame(0)[top]);
            for pose in frames.frames_mut() {
                let whole = model_transform(parents, pose, from);
                let Some(parent) = parents[f].map(|p| model_transform(parents, pose, p)) else {
                    continue;
                };
                // the root's own ground motion is replaced by `from`'s (both from frame 0):
                // travel already on the root is not counted twice
                let carried = from_ref.motion(RootMotionMode::Ground, &space, &whole);
                let own = root_ref.motion(RootMotionMode::Ground, &space, &pose[top]);
                let change = carried.mul_transform(&own.inverse());
                let mut root = change.mul_transform(&pose[top]);
                if root.rotation.dot(pose[top].rotation) < 0.0 {
                    root.rotation = -root.rotation;
                }
                pose[top] = root;
                // `from` keeps its place in the world
                let moved_parent = change.mul_transform(&parent);
                let mut local = moved_parent.inverse().mul_transform(&whole);
                if local.rotation.dot(pose[f].rotation) < 0.0 {
                    local.rotation = -local.rotation;
                }
                pose[f] = local;
            }
            let names = skeleton.names();
            notes.push(format!(
                "root_extract: the travel of '{}' moved onto '{}'",
                names[f], names[top]
            ));
        }
    }
    if drop {
        keep_in_place(RootMotionMode::Ground, &space, parents, frames.frames_mut());
        notes.push("root_extract: ground travel and turning dropped (in place)".to_string());
    }
    notes
}
