//! The leverage of each joint ([`Leverage`]): what one unit of a channel's local error costs in
//! world space, measured on the joints' shells ([`super::shell`]) over reference frames.

use glam::{DMat4, DVec3};

use super::shell::Shells;
use super::world::EXACT_LEVELS;
use marionette_anim::{JointIndex, Skeleton};

/// The measured points of a joint with world matrix `m` and shell `radius` (local units): its
/// origin and a point `radius` out along each local axis.
fn shell_points(m: &DMat4, radius: f64) -> [DVec3; 4] {
    let o = m.w_axis.truncate();
    [
        o,
        o + m.x_axis.truncate() * radius,
        o + m.y_axis.truncate() * radius,
        o + m.z_axis.truncate() * radius,
    ]
}

/// Per joint, what one unit of local error costs in world space, measured over reference frames:
/// `parent_scale` (largest world scale of the parent, for translation errors) and `reach` (the
/// farthest shell point of the joint's subtree from its origin, for rotation and scale errors;
/// exact for points up to [`EXACT_LEVELS`] below the joint, an upper bound beyond).
#[derive(Clone, Debug, PartialEq)]
pub struct Leverage {
    /// Largest axis scale of each joint's parent world matrix over all frames.
    pub parent_scale: Vec<f64>,
    /// Largest distance from each joint's origin to a measured point of its subtree.
    pub reach: Vec<f64>,
}

impl Leverage {
    /// Measures leverage over reference world matrices (`worlds[frame][joint]`), each joint's
    /// points on its shell.
    pub fn measure(skeleton: &Skeleton, shells: &Shells, worlds: &[Vec<DMat4>]) -> Self {
        let mut out = Self::none(skeleton.len());
        let mut scratch = Vec::new();
        for frame in worlds {
            out.add_frame(skeleton, shells, frame, &mut scratch);
        }
        out
    }

    /// No frame measured yet: every leverage zero.
    pub fn none(joints: usize) -> Self {
        Self {
            parent_scale: vec![0.0; joints],
            reach: vec![0.0; joints],
        }
    }

    /// The larger of each figure of `self` and `other` (leverage over both sets of frames; the
    /// order frames are measured in does not change the result).
    pub fn merge(&mut self, other: &Self) {
        for (a, b) in self.parent_scale.iter_mut().zip(&other.parent_scale) {
            *a = a.max(*b);
        }
        for (a, b) in self.reach.iter_mut().zip(&other.reach) {
            *a = a.max(*b);
        }
    }

    /// Adds one frame's world matrices (`frame[joint]`); `frame_reach` is scratch.
    pub fn add_frame(
        &mut self,
        skeleton: &Skeleton,
        shells: &Shells,
        frame: &[DMat4],
        frame_reach: &mut Vec<[f64; 2]>,
    ) {
        let n = skeleton.len();
        let armature = skeleton.armature().as_dmat4();
        let max_scale = |m: &DMat4| {
            m.x_axis
                .truncate()
                .length()
                .max(m.y_axis.truncate().length())
                .max(m.z_axis.truncate().length())
        };
        for (ps, parent) in self.parent_scale.iter_mut().zip(skeleton.parents()) {
            let parent = match parent {
                Some(p) => frame[*p as usize],
                None => armature,
            };
            *ps = ps.max(max_scale(&parent));
        }
        // every measured point of joint c counts for c and its ancestors up to
        // EXACT_LEVELS above; farther ancestors a see c's whole subtree through c's reach
        // in this frame: |p - o_a| <= reach_c + |o_c - o_a| (children come after parents,
        // so walking backwards finishes c's reach before it is used). Per joint, the largest
        // squared distance of a point traced exactly and the largest bound through a far
        // descendant: the reach is the larger of the first's root and the second (the root of
        // the largest square is the largest root, to the bit, so no point needs its own root).
        frame_reach.clear();
        frame_reach.resize(n, [0.0; 2]);
        let reach_of = |r: [f64; 2]| r[0].sqrt().max(r[1]);
        for c in (0..n).rev() {
            let pts = shell_points(&frame[c], shells.radius(c));
            let oc = frame[c].w_axis.truncate();
            let mut a = Some(c as JointIndex);
            let mut level = 0;
            while let Some(j) = a {
                let j = j as usize;
                let o = frame[j].w_axis.truncate();
                if level == EXACT_LEVELS {
                    let d = reach_of(frame_reach[c]) + oc.distance(o);
                    frame_reach[j][1] = frame_reach[j][1].max(d);
                    break;
                }
                let d2 = pts
                    .iter()
                    .map(|p| p.distance_squared(o))
                    .fold(0.0, f64::max);
                frame_reach[j][0] = frame_reach[j][0].max(d2);
                a = skeleton.parents()[j];
                level += 1;
            }
        }
        for (r, f) in self.reach.iter_mut().zip(frame_reach.iter()) {
            *r = r.max(reach_of(*f));
        }
    }
}
