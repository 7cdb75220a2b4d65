//! VRM spring bones in a real client: three-vrm's own loader plugin
//! (@pixiv/three-vrm-springbone) reads the creature's `VRMC_springBone` as Marionette writes
//! it (the generated file, and a bake of `scripts/creature.lua`, which keeps the file's springs
//! in its copy): the same moving joints with the same children, settings and colliders.

use std::path::Path;

use crate::bake_support::*;

/// What three-vrm read: `(node, child, stiffness, dragForce, hitRadius, colliders)` per joint.
fn three_vrm(file: &Path) -> Vec<(u64, u64, f64, f64, f64, u64)> {
    let text = node("vrm_springs.mjs", &[file]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    v["joints"]
        .as_array()
        .expect("joints")
        .iter()
        .map(|j| {
            let f = |k: &str| j[k].as_f64().expect(k);
            (
                j["node"].as_u64().expect("node"),
                j["child"].as_u64().expect("child"),
                f("stiffness"),
                f("dragForce"),
                f("hitRadius"),
                j["colliders"].as_u64().expect("colliders"),
            )
        })
        .collect()
}

/// Marionette's reading of the same file, in three-vrm's terms: each spring joint but the last
/// (the tail) with the next as its child.
fn ours(file: &Path) -> Vec<(u64, u64, f64, f64, f64, u64)> {
    let model = marionette_io::import(file).expect("imports");
    let springs = model.skeleton.springs();
    let node = |j: u16| model.joint_nodes[j as usize] as u64;
    let mut out = Vec::new();
    for (k, s) in springs.springs.iter().enumerate() {
        let colliders = springs.colliders_of(k).len() as u64;
        for pair in s.joints.windows(2) {
            let j = &pair[0];
            out.push((
                node(j.joint),
                node(pair[1].joint),
                f64::from(j.stiffness),
                f64::from(j.drag),
                f64::from(j.hit_radius),
                colliders,
            ));
        }
    }
    out.sort_by_key(|j| j.0);
    out
}

#[test]
fn three_vrm_reads_the_springs_marionette_writes() {
    let Some(()) = node_ready("three_vrm_reads_the_springs_marionette_writes") else {
        return;
    };
    let creature = root().join("scripts/creature.glb");
    let theirs = three_vrm(&creature);
    assert_eq!(theirs.len(), 4, "two ears of two moving joints: {theirs:?}");
    assert_eq!(theirs, ours(&creature));
    // a bake of the creature's script keeps the file's springs
    let dir = TempDir::new("vrm-bake");
    let out = dir.join("creature_baked.glb");
    let status = crate::common::marionette_cmd()
        .current_dir(root())
        .args(["bake", "scripts/creature.lua", "--quiet", "-o"])
        .arg(&out)
        .status()
        .expect("run marionette bake");
    assert!(status.success(), "bake failed");
    assert_eq!(three_vrm(&out), theirs, "the bake's springs");
}
