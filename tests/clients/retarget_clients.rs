//! A retargeted bake in the real clients: `bake RobotExpressive.glb --retarget-to
//! assets/mannequin.glb` (the Robot's clips on the mannequin) validates with the Khronos
//! validator, and three.js plays it as `marionette run` shows the same retarget: every joint's
//! world matrix within 1e-4 + the 0.1 mm tolerance at every frame. (Blender: `tests/clients/blender.rs`,
//! `retargeted_robot_plays_in_blender`.)

use crate::common;

use crate::bake_support::{
    node_ready, retarget_bake_job, retarget_run_takes, root, take_worlds, three_poses, validate,
    TempDir,
};
use marionette_bake::{joint_error, run};
use marionette_io::import;

const CLIPS: [&str; 3] = ["Walking", "Wave", "Jump"];

#[test]
fn retargeted_bake_validates_and_plays_in_three() {
    let Some(()) = node_ready("retargeted_bake_validates_and_plays_in_three") else {
        return;
    };
    let Some(robot) = common::testdata_file("RobotExpressive.glb") else {
        return;
    };
    let character = root().join("assets/mannequin.glb");
    let dir = TempDir::new("retarget-three");
    let out = dir.join("robot_on_mannequin.glb");
    let job = retarget_bake_job(&robot, &character, &out, &CLIPS);
    let report = run(&job, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.takes.len(), CLIPS.len());
    let (errors, text) = validate(&out);
    assert_eq!(errors, 0, "{text}");

    let (skeleton, takes) = retarget_run_takes(&robot, &character, &CLIPS);
    let model = import(&out).unwrap();
    assert_eq!(model.skeleton.names(), skeleton.names());
    let spec: Vec<(String, Vec<f32>)> = takes
        .iter()
        .map(|t| (t.name.clone(), t.grid.times().to_vec()))
        .collect();
    let three = three_poses(&out, &model.joint_nodes, &spec);
    assert_eq!(three.len(), takes.len());
    let budget = 1e-4 + f64::from(job.tolerance_mm) * 1e-3;
    for (name, samples) in &three {
        let take = takes.iter().find(|t| &t.name == name).unwrap();
        let want = take_worlds(&skeleton, take);
        let mut worst = 0.0f64;
        for (si, (_, nodes)) in samples.iter().enumerate() {
            for &(node, m) in nodes {
                let j = model.joint_nodes.iter().position(|&n| n == node).unwrap();
                worst = worst.max(joint_error(&m, &want[si][j]));
            }
        }
        assert!(worst <= budget, "{name}: three.js is {worst} m from run");
        println!("{name}: three.js vs run {:.4} mm", worst * 1e3);
    }
}
