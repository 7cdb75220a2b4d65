//! Issue 12, left/right on any rig: `mask.side` and mirroring find the sides of the Fox
//! (`b_LeftLeg01_015`), the Robot (`UpperArmL`) and the mannequin (`L_thigh`); a script can give
//! its own pairing; a side mask or mirror that finds nothing warns.

use crate::common;
use crate::script_common;

use std::path::Path;

use crate::script_common::TempDir;
use marionette_script::{load, HostOptions, LoadedScript, ScriptedGraph};

/// Loads `body` over the rig file `rig`.
fn load_on(rig: &Path, body: &str) -> LoadedScript {
    let dir = TempDir::new("sides");
    let path = dir.write("anim.lua", body);
    let (loader, _) = marionette_script::rigs::rig_loader(
        &path,
        &marionette_script::rigs::RigChoice::fallback(rig),
    );
    load(&path, &HostOptions::new(loader)).expect("loads")
}

/// The joints `mask.side('left')` selects, by name, and the load's warnings.
fn left_joints(rig: &Path) -> (Vec<String>, Vec<String>) {
    let script = load_on(
        rig,
        "local rig = marionette.rig()\nlocal m = mask.side('left')\nlocal out = {}\nfor _, j in ipairs(rig.joints) do if m:weight(j) > 0 then out[#out + 1] = j end end\nprint(table.concat(out, ','))\nreturn graph { root = layer(rig[rig.clips[1]], { rig[rig.clips[1]]:mirror(), mask = m }) }\n",
    );
    let names = script
        .log()
        .join("")
        .split(',')
        .map(str::to_string)
        .collect();
    (names, script.warnings.clone())
}

/// Fox, Robot and mannequin: the left joints are found by their naming and nothing warns.
#[test]
fn sides_on_three_rigs() {
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let Some(robot) = common::testdata_file("RobotExpressive.glb") else {
        return;
    };
    let (fox_left, warnings) = left_joints(&fox);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        fox_left,
        [
            "b_LeftUpperArm_09",
            "b_LeftForeArm_010",
            "b_LeftHand_011",
            "b_LeftLeg01_015",
            "b_LeftLeg02_016",
            "b_LeftFoot01_017",
            "b_LeftFoot02_018"
        ]
    );
    let (robot_left, warnings) = left_joints(&robot);
    assert!(warnings.is_empty(), "{warnings:?}");
    for j in ["FootL", "UpperLegL", "UpperArmL", "Palm2L", "Ring2L"] {
        assert!(robot_left.contains(&j.to_string()), "{j}: {robot_left:?}");
    }
    assert!(
        robot_left.iter().all(|j| j.ends_with('L')),
        "{robot_left:?}"
    );
    let mannequin = common::repo_path("assets/mannequin.glb");
    let (man_left, warnings) = left_joints(&mannequin);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(man_left.len(), 8, "{man_left:?}");
    assert!(man_left.iter().all(|j| j.starts_with("L_")), "{man_left:?}");
}

/// Mirroring the Fox swaps its legs: the left leg of the mirrored pose is the right leg's
/// rotation reflected, although the two legs' node numbers differ (`_015` / `_019`).
#[test]
fn fox_mirror_swaps_legs() {
    let Some(fox) = common::testdata_file("Fox.glb") else {
        return;
    };
    let script = load_on(
        &fox,
        "local rig = marionette.rig()\nreturn graph { root = rig.Walk, takes = { t = { duration = 1 } } }\n",
    );
    let plain = ScriptedGraph::new(script)
        .expect("builds")
        .seek(0.3)
        .to_vec();
    let script = load_on(
        &fox,
        "local rig = marionette.rig()\nreturn graph { root = rig.Walk:mirror() }\n",
    );
    assert!(script.warnings.is_empty(), "{:?}", script.warnings);
    let sk = script.rig.skeleton.clone();
    let mirrored = ScriptedGraph::new(script)
        .expect("builds")
        .seek(0.3)
        .to_vec();
    let (l, r) = (
        sk.find("b_LeftLeg01_015").expect("left leg") as usize,
        sk.find("b_RightLeg01_019").expect("right leg") as usize,
    );
    let map = marionette_anim::mirror::MirrorMap::new(&sk);
    assert_eq!(map.partner(l as u16) as usize, r);
    assert!(map.paired() >= 14, "{}", map.paired());
    // the mirrored left leg is no longer the left leg's own motion
    assert!(mirrored[l].rotation.angle_between(plain[l].rotation) > 1e-3);
}

/// On a rig with no L/R naming a side mask and a mirror warn at their line; the script's own
/// pairing (pattern or explicit) makes them work.
#[test]
fn warnings_and_script_pairs() {
    let dir = TempDir::new("pairs");
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nlocal m = mask.side('left')\nlocal n = rig.walk:mirror()\nreturn graph { root = n }\n",
    );
    let rig = || {
        let mut rig = script_common::small_rig();
        let names: Vec<String> = rig
            .skeleton
            .names()
            .iter()
            .map(|n| n.replace("L_", "arm_a_").replace("R_", "arm_b_"))
            .collect();
        let s = &rig.skeleton;
        let sk = marionette_anim::Skeleton::new(
            names,
            s.parents().iter().map(|p| p.map(usize::from)).collect(),
            s.rest_pose().to_vec(),
            glam::Mat4::IDENTITY,
        )
        .expect("skeleton")
        .skeleton;
        rig.skeleton = std::sync::Arc::new(sk);
        rig
    };
    let file = path.display().to_string();
    let loaded = load(&path, &HostOptions::with_rig(rig())).expect("loads");
    assert_eq!(
        loaded.warnings,
        vec![
            format!("{file}:2: warning: mask.side(\"left\"): no joint of rig small test rig is on that side (no L/R naming found); pair them with marionette.sides {{ ... }}"),
            format!("{file}:3: warning: mirror: rig small test rig has no left/right joint pairs, so mirroring only reflects the pose; pair them with marionette.sides {{ ... }}"),
        ]
    );
    for pairing in [
        "marionette.sides { left = 'arm_a_', right = 'arm_b_' }",
        "marionette.sides { pairs = { arm_a_upperarm = 'arm_b_upperarm', arm_a_hand = 'arm_b_hand' } }",
    ] {
        let path = dir.write(
            "anim.lua",
            &format!("local rig = marionette.rig()\n{pairing}\nlocal m = mask.side('left')\nprint(m:weight('arm_a_hand'), m:weight('arm_b_hand'))\nreturn graph {{ root = rig.wave:mirror() }}\n"),
        );
        let loaded = load(&path, &HostOptions::with_rig(rig())).expect("loads");
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        assert_eq!(loaded.log(), vec!["1\t0".to_string()]);
        // the wave raises the left upper arm (joint 4); mirrored, the right one (joint 6) moves
        let pose = ScriptedGraph::new(loaded).expect("builds").seek(0.5).to_vec();
        assert!(pose[6].rotation.angle_between(glam::Quat::IDENTITY) > 0.1, "{pose:?}");
    }
    let path = dir.write(
        "anim.lua",
        "local rig = marionette.rig()\nmarionette.sides { left = 'Lf', right = 'Rt' }\nreturn graph { root = rig.idle }\n",
    );
    let e = load(&path, &HostOptions::with_rig(rig()))
        .err()
        .expect("fails");
    assert_eq!(
        e.headline(),
        format!("{file}:2: marionette.sides: no joint pairs in rig small test rig with left = 'Lf', right = 'Rt'")
    );
}
