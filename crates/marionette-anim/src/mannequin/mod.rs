//! The bundled default character: a procedurally built, smooth-skinned humanoid with idle,
//! walk, run, jump and wave clips (`assets/mannequin.glb` is [`build`] written by
//! `marionette_io::to_glb`; `marionette mannequin` regenerates it).
//!
//! Conventions: Y up, metres, facing +Z, about 1.8 m tall, 24 joints named DCC-style with
//! `L_`/`R_` side prefixes (the character's left is +X). The bind pose is a T-pose with elbows
//! and knees bent a few degrees; each joint's +Y axis aims at its child. Walk and run share a
//! phase convention (left foot down at phase 0, right at 0.5) and carry forward root motion on
//! `root`. A small face (eyes and mouth, a second mesh skinned to `head`) has three morph
//! targets, `blink`, `smile` and `jaw_open`, made in code like everything else (`face.rs`).
//!
//! Its API is [`build`] (and the puppet's [`puppet::build`], the creature's [`creature::build`],
//! the production-size test rig's [`production::build`]); how it is made stays inside.
//! Everything is deterministic: the same code gives the same bytes.

mod clips;
pub mod creature;
mod face;
mod gait;
mod mesh;
mod pose;
pub mod production;
pub mod puppet;
mod rig;

use glam::Mat4;

use crate::Model;
use crate::{Morphs, Skeleton, Skin};

use rig::JOINT_COUNT;

/// Builds the mannequin: skeleton (with the face's morph targets), one skin over all joints,
/// the body and face meshes and the clips.
pub fn build() -> Model {
    let rig = rig::Rig::new();
    let built = Skeleton::new(
        rig.names.clone(),
        rig.parents.clone(),
        rig.rest_local.clone(),
        Mat4::IDENTITY,
    );
    // The joint table is parent-first with unique names, so this cannot fail or reorder.
    let (face, face_morphs) = face::build();
    let skeleton = match built {
        Ok(b) => b.skeleton.with_morphs(Morphs::new(vec![face_morphs])),
        Err(e) => unreachable!("mannequin rig is invalid: {e}"),
    };
    let skin = Skin {
        name: "mannequin".into(),
        joints: (0..JOINT_COUNT as u16).collect(),
        inverse_bind: rig
            .rest_model
            .iter()
            .map(|t| t.to_matrix().inverse())
            .collect(),
    };
    Model {
        source: Default::default(),
        skeleton,
        joint_nodes: (0..JOINT_COUNT).collect(),
        skins: vec![skin],
        meshes: vec![mesh::build(), face],
        clips: clips::build(&rig),
        images: Vec::new(),
        warnings: Vec::new(),
    }
}
