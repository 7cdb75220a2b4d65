//! Several rigs in one script, and `retarget`, from the command line as a user meets them: a
//! project folder holding `RobotExpressive.glb` and `Fox.glb` (public test models, copied) and
//! scripts beside them.
//!
//! - the issue's repro: naming the Robot, then the Fox, keeps the Robot (`robot.Walking`
//!   works) and retargets both onto the character;
//! - `--rig` is the character whatever the script names, and a script naming another file hears
//!   about it; a clip of another rig played on the character directly is an error saying to
//!   retarget it, at its line; so is a node mixing rigs;
//! - a clip the default mannequin lacks that a file beside the script has suggests `--rig`;
//! - map mistakes are errors at the line: unknown joints (with the closest name), a source
//!   joint twice, a chain out of order, options of the wrong kind;
//! - `retarget-map` prints a map `bake --retarget-to --map` reads back.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::marionette_in as marionette;

use crate::script_common::TempDir;

/// A project folder with the Robot and the Fox in it, or `None` (after saying why) when the
/// test models are missing outside CI.
fn project(name: &str) -> Option<TempDir> {
    let dir = TempDir::new(name);
    for file in ["RobotExpressive.glb", "Fox.glb"] {
        let from = common::testdata_file(file)?;
        std::fs::copy(&from, dir.join(file)).expect("copy test model");
    }
    Some(dir)
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The mannequin as a file in the project (so scripts can name it).
fn with_mannequin(dir: &TempDir) -> PathBuf {
    let path = dir.join("mannequin.glb");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mannequin.glb"),
        &path,
    )
    .expect("copy the mannequin");
    path
}

#[test]
fn two_source_rigs_stay_two() {
    let Some(dir) = project("rt-two") else { return };
    dir.write(
        "both.lua",
        r#"local me = marionette.rig()
local robot = marionette.rig("RobotExpressive.glb")
local fox = marionette.rig("Fox.glb")
assert(robot.source ~= fox.source)
return graph {
  -- a retarget is a node of the character like any: layered, masked
  root = layer(blend {
    { retarget(robot.Walking, { from = robot }), 1 },
    { retarget(fox.Walk), 1 },
  }, { me.wave, mask = mask.subtree("R_clavicle") }),
  root_motion = "ground",
}
"#,
    );
    let o = marionette(&dir, &["run", "both.lua", "--time", "0.5", "--json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let joints = v["joints"].as_array().expect("joints");
    assert_eq!(joints.len(), 24, "the character is the mannequin");
    for j in joints {
        for k in ["translation", "rotation"] {
            for x in j[k].as_array().unwrap() {
                assert!(x.as_f64().unwrap().is_finite(), "{j}");
            }
        }
    }
    let kinds: Vec<&str> = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["kind"].as_str())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "retarget").count(),
        2,
        "{kinds:?}"
    );
}

#[test]
fn rig_flag_wins_and_misuse_is_named() {
    let Some(dir) = project("rt-flag") else {
        return;
    };
    // the issue's repro: `check robot.lua --rig Fox.glb` used to say ok, ignoring --rig
    dir.write(
        "robot.lua",
        "local robot = marionette.rig(\"RobotExpressive.glb\")\nreturn graph { root = robot.Walking }\n",
    );
    let o = marionette(&dir, &["check", "robot.lua", "--rig", "Fox.glb"]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains(
            "robot.lua:1: warning: --rig Fox.glb is the character, not RobotExpressive.glb"
        ),
        "{err}"
    );
    assert!(
        err.contains("robot.lua:2: graph: root plays RobotExpressive.glb's clips")
            && err.contains("retarget(node, { from = rig })"),
        "{err}"
    );
    // without --rig the script's rig is the character, as before
    let o = marionette(&dir, &["check", "robot.lua"]);
    assert!(o.status.success(), "{}", text(&o).1);

    // a blend of two rigs' poses, at its line
    dir.write(
        "mixed.lua",
        "local me = marionette.rig()\nlocal robot = marionette.rig(\"RobotExpressive.glb\")\n\
         local b = blend { { me.walk, 1 }, { robot.Walking, 1 } }\nreturn graph { root = b }\n",
    );
    let (_, err) = text(&marionette(&dir, &["check", "mixed.lua"]));
    assert!(
        err.contains("mixed.lua:3: blend mixes poses of the character (mannequin")
            && err.contains("and of RobotExpressive.glb"),
        "{err}"
    );

    // retarget of the character's own clip, and a source that is not what `from` says
    dir.write(
        "self.lua",
        "local me = marionette.rig()\nlocal fox = marionette.rig(\"Fox.glb\")\n\
         local a = retarget(me.walk)\nlocal robot = marionette.rig(\"RobotExpressive.glb\")\n\
         local b = retarget(fox.Walk, { from = robot })\nreturn graph { root = me.idle }\n",
    );
    let (_, err) = text(&marionette(&dir, &["check", "self.lua"]));
    assert!(
        err.contains("self.lua:3: retarget: the source already animates the character"),
        "{err}"
    );
    assert!(
        err.contains("self.lua:5: retarget: the source plays Fox.glb's clips, but from = RobotExpressive.glb"),
        "{err}"
    );
}

#[test]
fn a_clip_beside_the_script_suggests_the_rig() {
    let Some(dir) = project("rt-near") else {
        return;
    };
    dir.write(
        "walk.lua",
        "local rig = marionette.rig()\nreturn graph { root = rig.Walking }\n",
    );
    let (_, err) = text(&marionette(&dir, &["check", "walk.lua"]));
    assert!(
        err.contains("unknown clip 'Walking'")
            && err.contains("RobotExpressive.glb next to the script has a clip 'Walking'")
            && err.contains("--rig RobotExpressive.glb"),
        "{err}"
    );
}

#[test]
fn map_mistakes_are_errors_at_their_line() {
    let Some(dir) = project("rt-map") else { return };
    dir.write(
        "map.lua",
        r#"local me = marionette.rig()
local robot = marionette.rig("RobotExpressive.glb")
local a = retarget(robot.Walking, { map = { pelvs = "Hips" } })
local b = retarget(robot.Walking, { map = { pelvis = "Hip" } })
local c = retarget(robot.Walking, { map = { pelvis = "Hips", chest = "Hips" } })
local d = retarget(robot.Walking, { chains = { { "chest", "spine_01", from = { "Abdomen" } } } })
local e = retarget(robot.Walking, { rest = "apose" })
local f = retarget(robot.Walking, { scale = -1 })
local g = retarget(robot.Walking, { ik = "knees" })
local h = retarget(robot.Walking, { maps = "auto" })
local i = retarget(robot.Walking, { scale = { 1, 1 } })
return graph { root = me.idle }
"#,
    );
    let (_, err) = text(&marionette(&dir, &["check", "map.lua"]));
    for want in [
        "map.lua:3: retarget: unknown joint 'pelvs' (did you mean 'pelvis'?) in the character",
        "map.lua:4: retarget: unknown joint 'Hip' (did you mean 'Hips'?) in ",
        "map.lua:5: retarget: source joint 'Hips' is mapped twice",
        "map.lua:6: retarget: chain joint 'spine_01' does not hang from 'chest'",
        "map.lua:7: retarget: rest is \"auto\" (the default: a T-pose when the rests differ), \"rest\" (each rig's rest pose) or \"tpose\"",
        "map.lua:8: retarget: scale must be positive, got -1",
        "map.lua:9: retarget: ik is true, false, \"feet\" or \"hands\", got \"knees\"",
        "map.lua:10: retarget: unknown option 'maps' (did you mean 'map'?)",
        "map.lua:11: retarget: scale is a number or {x, y, z} (three numbers), got a table of 2",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
}

#[test]
fn the_printed_map_bakes() {
    let Some(dir) = project("rt-print") else {
        return;
    };
    let mannequin = with_mannequin(&dir);
    let o = marionette(
        &dir,
        &[
            "retarget-map",
            "RobotExpressive.glb",
            "mannequin.glb",
            "-o",
            "map.lua",
        ],
    );
    assert!(o.status.success(), "{}", text(&o).1);
    let map = std::fs::read_to_string(dir.join("map.lua")).unwrap();
    assert!(map.contains("pelvis = \"Hips\""), "{map}");
    assert!(!map.contains("upright"), "the Robot stands: {map}");
    // the Fox walks on four legs: its map says its front legs were taken for arms
    let o = marionette(&dir, &["retarget-map", "Fox.glb", "mannequin.glb"]);
    let fox = text(&o).0;
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(
        fox.contains("-- note: source: the body does not stand upright at rest (hips to b_Head_05"),
        "{fox}"
    );
    // written to a file, the map's notes are said on the terminal too
    let o = marionette(
        &dir,
        &["retarget-map", "Fox.glb", "mannequin.glb", "-o", "fox.lua"],
    );
    let err = text(&o).1;
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("note: source: the body does not stand upright at rest"),
        "{err}"
    );
    assert!(
        map.contains(
            "{ \"spine_01\", \"spine_02\", \"chest\", from = { \"Abdomen\", \"Torso_1\" } }"
        ),
        "{map}"
    );
    let o = marionette(
        &dir,
        &[
            "bake",
            "RobotExpressive.glb",
            "--retarget-to",
            mannequin.to_str().unwrap(),
            "--map",
            "map.lua",
            "--clip",
            "Walking",
            "-o",
            "walk.glb",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("Walking") && dir.join("walk.glb").is_file(),
        "{out}"
    );
    // a mistake in the map file names the file, the line and the closest name: a joint the
    // character lacks, a source joint the Robot lacks, a source joint given twice, an option,
    // a joint name without quotes
    let line_of = |text: &str, what: &str| 1 + text.lines().position(|l| l.contains(what)).unwrap();
    for (edit, (from, to), want) in [
        (
            "pelvs",
            ("pelvis = ", "pelvs = "),
            "unknown joint 'pelvs' (did you mean 'pelvis'?) in the character",
        ),
        (
            "UpperLegX",
            ("\"UpperLegL\"", "\"UpperLegX\""),
            "unknown joint 'UpperLegX' (did you mean 'UpperLegL'?) in RobotExpressive.glb",
        ),
        (
            "-- twice",
            (
                "pelvis = \"Hips\",",
                "pelvis = \"Hips\",\n    head_end = \"Hips\", -- twice",
            ),
            "source joint 'Hips' is mapped twice",
        ),
        (
            "rest = 1",
            ("  map = {", "  rest = 1,\n  map = {"),
            "rest is \"auto\", \"rest\"",
        ),
        // a name without its quotes would be nil in Lua: the entry silently lost
        (
            "= UpperLegL",
            ("\"UpperLegL\"", "UpperLegL"),
            "'UpperLegL' is not defined: joint names and options are strings in quotes",
        ),
    ] {
        let edited = map.replacen(from, to, 1);
        let line = line_of(&edited, edit);
        std::fs::write(dir.join("map.lua"), &edited).unwrap();
        let o = marionette(
            &dir,
            &[
                "bake",
                "RobotExpressive.glb",
                "--retarget-to",
                mannequin.to_str().unwrap(),
                "--map",
                "map.lua",
                "-o",
                "all.glb",
            ],
        );
        let (_, err) = text(&o);
        assert!(!o.status.success());
        let want = format!("error: map.lua:{line}: {want}");
        assert!(err.contains(&want), "missing {want:?} in {err}");
    }
}

/// What the cold read of the feature found, held: a map file may set `rest` (and refuses a key
/// it does not know), `bake --retarget-to` names the source's clips and prints the retarget's
/// notes, `mannequin` is the built-in rig as a source, a misspelt rig file gets the closest
/// name, and `retarget(clip, rig)` says the options are a table.
#[test]
fn map_files_bakes_and_names_from_a_cold_read() {
    let Some(dir) = project("rt-cold") else {
        return;
    };
    let mannequin = with_mannequin(&dir);
    let m = mannequin.to_str().unwrap();
    dir.write("bad.lua", "return { mapp = {} }\n");
    let (_, err) = text(&marionette(
        &dir,
        &[
            "bake",
            "RobotExpressive.glb",
            "--retarget-to",
            m,
            "--map",
            "bad.lua",
        ],
    ));
    assert!(
        err.contains("bad.lua:1: map file: unknown option 'mapp' (did you mean 'map'?)"),
        "{err}"
    );
    dir.write("apose.lua", "return { rest = \"apose\" }\n");
    let (_, err) = text(&marionette(
        &dir,
        &[
            "bake",
            "RobotExpressive.glb",
            "--retarget-to",
            m,
            "--map",
            "apose.lua",
        ],
    ));
    assert!(err.contains("rest is \"auto\""), "{err}");
    let (_, err) = text(&marionette(
        &dir,
        &[
            "bake",
            "RobotExpressive.glb",
            "--retarget-to",
            m,
            "--clip",
            "Walkin",
        ],
    ));
    assert!(
        err.contains("RobotExpressive.glb: unknown clip 'Walkin' (did you mean 'Walking'?)"),
        "{err}"
    );
    let o = marionette(
        &dir,
        &[
            "bake",
            "RobotExpressive.glb",
            "--retarget-to",
            m,
            "--clip",
            "Walking",
            "--rest",
            "tpose",
            "-o",
            "w.glb",
        ],
    );
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // hands are left to the rotations by default (no IK note for the arms); what the source
    // leaves unsure is still said; an explicit --rest is honoured (no "auto" note)
    assert!(
        err.contains("note: retarget from RobotExpressive.glb: source: several joints could be the left hand"),
        "{err}"
    );
    assert!(!err.contains("IK skipped for both arms"), "{err}");
    assert!(!err.contains("the rests differ"), "{err}");
    // the built-in mannequin as a source, in a script and in a bake
    dir.write(
        "builtin.lua",
        "local robot = marionette.rig(\"RobotExpressive.glb\")\nlocal m = marionette.rig(\"mannequin\")\n\
         return graph { root = retarget(m.walk, { from = m }) }\n",
    );
    let o = marionette(&dir, &["check", "builtin.lua"]);
    assert!(o.status.success(), "{}", text(&o).1);
    let o = marionette(
        &dir,
        &[
            "bake",
            "mannequin",
            "--retarget-to",
            "RobotExpressive.glb",
            "--clip",
            "walk",
            "-o",
            "mr.glb",
        ],
    );
    assert!(o.status.success(), "{}", text(&o).1);
    dir.write(
        "typo.lua",
        "local me = marionette.rig()\nlocal r = marionette.rig(\"RobotExpresive.glb\")\nreturn graph { root = me.idle }\n",
    );
    let (_, err) = text(&marionette(&dir, &["check", "typo.lua"]));
    assert!(err.contains("typo.lua:2: no rig file 'RobotExpresive.glb' beside the script (did you mean 'RobotExpressive.glb'?)"), "{err}");
    dir.write(
        "arg.lua",
        "local me = marionette.rig()\nlocal r = marionette.rig(\"RobotExpressive.glb\")\nreturn graph { root = retarget(r.Walking, r) }\n",
    );
    let (_, err) = text(&marionette(&dir, &["check", "arg.lua"]));
    assert!(
        err.contains("arg.lua:3: retarget: the second argument is an options table"),
        "{err}"
    );
}
