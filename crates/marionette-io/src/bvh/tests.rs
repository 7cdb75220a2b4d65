//! The BVH reader on small files written here: channel orders, End Sites, units, position
//! channels on any joint, and each kind of bad file with its line.

use std::path::Path;

use glam::{Quat, Vec3};

use crate::units::{ImportOptions, Unit};
use crate::GltfError;
use marionette_anim::Model;

const WALK: &str = "HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT LeftUpLeg
  {
    OFFSET 10 -5 0
    CHANNELS 3 Xrotation Yrotation Zrotation
    JOINT LeftLeg
    {
      OFFSET 0 -45 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 0 -45 0
      }
    }
  }
  JOINT Spine {
    OFFSET 0 10 0
    CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation
    End Site { OFFSET 0 70 0 }
  }
}
MOTION
Frames: 2
Frame Time: 0.0333333
0 95 0  0 0 0  0 0 0  0 0 0  0 10 0  0 0 0
1 96 2  90 0 0  30 0 0  0 0 45  0 12 0  0 90 0
";

fn read(text: &str, unit: Option<Unit>) -> Result<Model, GltfError> {
    crate::import_bvh_slice(
        text.as_bytes(),
        Path::new("walk.bvh"),
        "walk.bvh",
        &ImportOptions { unit },
    )
}

/// The 1-based line of `text` holding `needle` first.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

fn err(text: &str) -> String {
    read(text, Some(Unit::Cm)).unwrap_err().to_string()
}

#[test]
fn a_bvh_is_a_skeleton_and_one_clip_named_after_the_file() {
    let m = read(WALK, Some(Unit::Cm)).unwrap();
    let names: Vec<&str> = m.skeleton.names().iter().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "Hips",
            "LeftUpLeg",
            "LeftLeg",
            "LeftLeg_End",
            "Spine",
            "Spine_End"
        ]
    );
    assert!((m.skeleton.rest_pose()[1].translation - Vec3::new(0.1, -0.05, 0.0)).length() < 1e-6);
    assert_eq!(m.clips.len(), 1);
    let clip = &m.clips[0];
    assert_eq!(clip.name, "walk");
    // 0.0333333 s is 30 fps written to 7 digits: read as 1/30 s
    assert_eq!(clip.end, (1.0f64 / 30.0) as f32);
    // the root's position channels replace its offset (metres)
    let hips = clip.tracks.iter().find(|t| t.joint == 0).unwrap();
    let t = hips.translation.as_ref().unwrap();
    assert!((t.values[1] - Vec3::new(0.01, 0.96, 0.02)).length() < 1e-6);
    // ZXY: Rz(90) first
    let r = hips.rotation.as_ref().unwrap();
    assert!(r.values[1].angle_between(Quat::from_rotation_z(90f32.to_radians())) < 1e-3);
    // XYZ on the thigh, ZXY on the knee, position channels on a spine
    let knee = clip.tracks.iter().find(|t| t.joint == 2).unwrap();
    let want = Quat::from_rotation_z(0.0)
        * Quat::from_rotation_x(0.0)
        * Quat::from_rotation_y(45f32.to_radians());
    assert!(knee.rotation.as_ref().unwrap().values[1].angle_between(want) < 1e-3);
    let spine = clip.tracks.iter().find(|t| t.joint == 4).unwrap();
    assert!(
        (spine.translation.as_ref().unwrap().values[1] - Vec3::new(0.0, 0.12, 0.0)).length() < 1e-6
    );
    assert_eq!(m.joint_nodes, (0..6).collect::<Vec<_>>());
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
}

#[test]
fn rotation_channels_compose_in_the_files_order() {
    let file = |order: &str| {
        format!(
            "HIERARCHY\nROOT A\n{{\nOFFSET 0 0 0\nCHANNELS 3 {order}\nEnd Site\n{{\nOFFSET 0 1 0\n}}\n}}\nMOTION\nFrames: 1\nFrame Time: 0.1\n10 20 30\n"
        )
    };
    let q = |order: &str| {
        let m = read(&file(order), Some(Unit::M)).unwrap();
        m.clips[0].tracks[0].rotation.as_ref().unwrap().values[0]
    };
    let (a, b, c) = (10f32.to_radians(), 20f32.to_radians(), 30f32.to_radians());
    let xyz = q("Xrotation Yrotation Zrotation");
    assert!(
        xyz.angle_between(
            Quat::from_rotation_x(a) * Quat::from_rotation_y(b) * Quat::from_rotation_z(c)
        ) < 1e-3
    );
    let zyx = q("Zrotation Yrotation Xrotation");
    assert!(
        zyx.angle_between(
            Quat::from_rotation_z(a) * Quat::from_rotation_y(b) * Quat::from_rotation_x(c)
        ) < 1e-3
    );
    assert!(xyz.angle_between(zyx) > 0.1);
}

#[test]
fn without_a_unit_the_body_height_chooses_one_and_says_so() {
    let m = read(WALK, None).unwrap();
    assert!(
        m.warnings.iter().any(|w| w.contains("read as centimetres")),
        "{:?}",
        m.warnings
    );
    assert!((m.skeleton.rest_pose()[1].translation.x - 0.1).abs() < 1e-6);
    // the same body read in metres is 1.7 hundred metres tall: a note names centimetres
    let m = read(WALK, Some(Unit::M)).unwrap();
    assert!(
        m.warnings.iter().any(|w| w.contains("--unit cm")),
        "{:?}",
        m.warnings
    );
}

#[test]
fn bad_files_name_the_line_and_what_to_do() {
    assert!(err("").contains("walk.bvh:1: the file ends"), "{}", err(""));
    assert!(err("{\"asset\":{}}").contains("starts with HIERARCHY"));
    let cut = WALK.replace(
        "    CHANNELS 3 Zrotation Xrotation Yrotation\n",
        "    CHANNELS 3 Zrotation Wrotation Yrotation\n",
    );
    let e = err(&cut);
    let at = format!("walk.bvh:{}:", line_of(&cut, "Wrotation"));
    assert!(
        e.starts_with(&at) && e.contains("'Wrotation' is not a BVH channel"),
        "{e}"
    );
    let e = err(&WALK.replace("Frame Time: 0.0333333", "Frame Time: 0"));
    let at = format!("walk.bvh:{}:", line_of(WALK, "Frame Time"));
    assert!(e.starts_with(&at) && e.contains("above 0"), "{e}");
    let e = err(&WALK.replace("1 96 2", "1 nan 2"));
    let at = format!("walk.bvh:{}:", line_of(WALK, "1 96 2"));
    assert!(e.starts_with(&at) && e.contains("frame 1"), "{e}");
    let e = err(&WALK.replace("  0 90 0\n", "\n"));
    assert!(e.contains("frame 1 has 15 of its 18 values"), "{e}");
    let e = err(&WALK.replacen("}\n", "", 1));
    assert!(e.contains("a '}' is missing"), "{e}");
    let e = err(&WALK.replace("      End Site\n", "      End Thing\n"));
    assert!(e.contains("expected 'End Site'"), "{e}");
    let e = err(&WALK.replace("CHANNELS 3 Xrotation", "CHANNELS 9 Xrotation"));
    assert!(e.contains("0 to 6"), "{e}");
    let e = err(&WALK.replace("Frame Time: 0.0333333", "Frame Time: 0.0333333 extra"));
    assert!(e.contains("'extra' after the frame time"), "{e}");
    let e = err(&WALK.replace("Frame Time: 0.0333333", "Frame Time: 1e30"));
    assert!(e.contains("at most 60 seconds"), "{e}");
    let e = err(&WALK.replace(
        "CHANNELS 3 Xrotation Yrotation Zrotation",
        "CHANNELS 2 Xrotation Yrotation Zrotation",
    ));
    assert!(
        e.contains("more channel names than the CHANNELS count"),
        "{e}"
    );
    let e = err("\u{1}\u{2}binary\u{0}junk");
    assert!(
        e.contains("looks like a binary file") && !e.contains('\u{0}'),
        "{e}"
    );
    // old Mac line ends count lines
    let cr = WALK.replace("1 96 2", "1 nan 2").replace('\n', "\r");
    let at = format!("walk.bvh:{}:", line_of(WALK, "1 96 2"));
    assert!(err(&cr).starts_with(&at), "{}", err(&cr));
    // fewer frames than declared: read what is there, with a note
    let m = read(&WALK.replace("Frames: 2", "Frames: 5"), Some(Unit::Cm)).unwrap();
    assert_eq!(
        m.clips[0].tracks[0].rotation.as_ref().unwrap().times.len(),
        2
    );
    assert!(
        m.warnings.iter().any(|w| w.contains("holds 2 frames")),
        "{:?}",
        m.warnings
    );
    // no motion: a skeleton
    let still = read(&WALK.replace("Frames: 2", "Frames: 0"), Some(Unit::Cm)).unwrap();
    assert!(still.clips.is_empty());
}

#[test]
fn deep_nesting_and_huge_declared_counts_neither_overflow_nor_allocate() {
    let mut text = String::from(
        "HIERARCHY\nROOT r\n{\nOFFSET 0 1 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n",
    );
    for i in 0..20_000 {
        text.push_str(&format!(
            "JOINT j{i}\n{{\nOFFSET 0 1 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n"
        ));
    }
    text.push_str(&"}\n".repeat(20_001));
    text.push_str("MOTION\nFrames: 18446744073709551615\nFrame Time: 0.01\n");
    let m = read(&text, Some(Unit::M)).unwrap();
    assert_eq!(m.skeleton.len(), 20_001);
    assert!(m.clips.is_empty());
}
