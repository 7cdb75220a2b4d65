//! [`SoaPose`]: a skeleton's local transforms in blocks of eight joints, each component of
//! each part in its own eight-lane array (ozz's `SoaTransform`, eight wide).

use glam::{Quat, Vec3};

use super::LANES;
use crate::Transform;

/// Eight joints' local transforms, component by component: `t[c][lane]`, `r[c][lane]` (x, y,
/// z, w) and `s[c][lane]`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct SoaBlock {
    /// Translation x, y, z.
    pub t: [[f32; LANES]; 3],
    /// Rotation x, y, z, w.
    pub r: [[f32; LANES]; 4],
    /// Scale x, y, z.
    pub s: [[f32; LANES]; 3],
}

impl SoaBlock {
    /// Eight identity transforms (also the padding after a skeleton's last joint).
    pub const IDENTITY: Self = Self {
        t: [[0.0; LANES]; 3],
        r: [[0.0; LANES], [0.0; LANES], [0.0; LANES], [1.0; LANES]],
        s: [[1.0; LANES]; 3],
    };

    /// Lane `lane` as a [`Transform`].
    #[inline(always)]
    pub fn get(&self, lane: usize) -> Transform {
        Transform {
            translation: Vec3::new(self.t[0][lane], self.t[1][lane], self.t[2][lane]),
            rotation: Quat::from_xyzw(
                self.r[0][lane],
                self.r[1][lane],
                self.r[2][lane],
                self.r[3][lane],
            ),
            scale: Vec3::new(self.s[0][lane], self.s[1][lane], self.s[2][lane]),
        }
    }

    /// Writes `x` into lane `lane`.
    #[inline(always)]
    pub fn set(&mut self, lane: usize, x: &Transform) {
        for c in 0..3 {
            self.t[c][lane] = x.translation[c];
            self.s[c][lane] = x.scale[c];
        }
        let r = x.rotation.to_array();
        for (c, v) in r.into_iter().enumerate() {
            self.r[c][lane] = v;
        }
    }

    /// The lanes of one part: `W` = 3 for translation and scale, 4 for rotation.
    #[inline(always)]
    pub(super) fn part(&self, part: Part) -> &[[f32; LANES]] {
        match part {
            Part::Translation => &self.t,
            Part::Rotation => &self.r,
            Part::Scale => &self.s,
        }
    }

    /// The lanes of one part, writable.
    #[inline(always)]
    pub(super) fn part_mut(&mut self, part: Part) -> &mut [[f32; LANES]] {
        match part {
            Part::Translation => &mut self.t,
            Part::Rotation => &mut self.r,
            Part::Scale => &mut self.s,
        }
    }
}

/// Which part of a transform a channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Part {
    Translation,
    Rotation,
    Scale,
}

impl Part {
    /// Components: 3 or 4.
    pub(super) fn width(self) -> usize {
        match self {
            Part::Rotation => 4,
            _ => 3,
        }
    }

    pub(super) const ALL: [Part; 3] = [Part::Translation, Part::Rotation, Part::Scale];
}

/// A pose of `len` joints in [`SoaBlock`]s (the last block padded with identities).
#[derive(Clone, Debug, PartialEq)]
pub struct SoaPose {
    len: usize,
    blocks: Vec<SoaBlock>,
}

impl SoaPose {
    /// `len` identity transforms.
    pub fn new(len: usize) -> Self {
        Self {
            len,
            blocks: vec![SoaBlock::IDENTITY; len.div_ceil(LANES)],
        }
    }

    /// The pose of `pose`, joint for joint.
    pub fn from_transforms(pose: &[Transform]) -> Self {
        let mut out = Self::new(pose.len());
        for (j, x) in pose.iter().enumerate() {
            out.blocks[j / LANES].set(j % LANES, x);
        }
        out
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a pose of no joints.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Joint `j`, if there is one.
    pub fn get(&self, j: usize) -> Option<Transform> {
        (j < self.len).then(|| self.blocks[j / LANES].get(j % LANES))
    }

    /// Writes joint `j` (ignored beyond the pose).
    pub fn set(&mut self, j: usize, x: &Transform) {
        if j < self.len {
            self.blocks[j / LANES].set(j % LANES, x);
        }
    }

    /// Copies the pose into `out`, joint for joint (`min` of both lengths).
    pub fn to_transforms(&self, out: &mut [Transform]) {
        for (j, o) in out.iter_mut().enumerate().take(self.len) {
            *o = self.blocks[j / LANES].get(j % LANES);
        }
    }

    /// The blocks (the last one padded).
    pub fn blocks(&self) -> &[SoaBlock] {
        &self.blocks
    }

    /// The blocks, writable.
    pub fn blocks_mut(&mut self) -> &mut [SoaBlock] {
        &mut self.blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_round_trip_through_blocks() {
        let pose: Vec<Transform> = (0..11)
            .map(|i| {
                let f = i as f32;
                Transform::new(
                    Vec3::new(f, -f, 0.5 * f),
                    Quat::from_rotation_y(0.1 * f),
                    Vec3::splat(1.0 + f),
                )
            })
            .collect();
        let soa = SoaPose::from_transforms(&pose);
        assert_eq!((soa.len(), soa.blocks().len()), (11, 2));
        let mut back = vec![Transform::IDENTITY; 11];
        soa.to_transforms(&mut back);
        assert_eq!(back, pose);
        assert_eq!(soa.get(10), Some(pose[10]));
        assert_eq!(soa.get(11), None);
        // padding lanes hold identities
        assert_eq!(soa.blocks()[1].get(7), Transform::IDENTITY);
    }
}
