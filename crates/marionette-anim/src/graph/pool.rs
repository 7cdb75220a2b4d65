//! [`Pool`]: the pose stack of one rig, with each pose's morph weights, that the evaluation
//! pass pushes and pops (sized once; no allocation per frame afterwards).

use crate::Transform;

/// The pose stack of one rig.
pub(crate) struct Pool {
    /// Pose stack; `stack[..top]` are live.
    pub stack: Vec<Vec<Transform>>,
    /// The morph weights of each pose of the stack (empty vectors for a rig without morph
    /// targets); `morphs[k]` goes with `stack[k]`.
    pub morphs: Vec<Vec<f32>>,
    pub top: usize,
    pub temp: Vec<Transform>,
    pub temp_morphs: Vec<f32>,
    joints: usize,
    /// The rig's default morph weights (what a fresh stack slot holds).
    defaults: Vec<f32>,
}

impl Pool {
    pub fn new(rest: &[Transform], defaults: &[f32], depth: usize) -> Pool {
        Pool {
            stack: vec![rest.to_vec(); depth],
            morphs: vec![defaults.to_vec(); depth],
            top: 0,
            temp: vec![Transform::IDENTITY; rest.len()],
            temp_morphs: defaults.to_vec(),
            joints: rest.len(),
            defaults: defaults.to_vec(),
        }
    }

    /// Pushes a pose slot (and its morph weights) and returns its index.
    pub fn push(&mut self) -> usize {
        if self.top == self.stack.len() {
            self.stack.push(vec![Transform::IDENTITY; self.joints]);
        }
        if self.top == self.morphs.len() {
            self.morphs.push(self.defaults.clone());
        }
        self.top += 1;
        self.top - 1
    }
}
