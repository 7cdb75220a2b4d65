//! The production-size test rig (issue 36): `marionette mannequin --production` writes a
//! 256-joint rig with twenty clips (never shipped: made on demand), and `check`, `run`, `bake`
//! and `render` work on it — a script's graph played on it (`--rig`), and its own clips baked and
//! read back. `--joints` outside what a production rig can be is refused by name.

use crate::common::{marionette, marionette_in, TempDir};

fn ok(out: &std::process::Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_production_rig_is_made_on_demand_and_every_command_takes_it() {
    let dir = TempDir::new("production-rig");
    let rig = dir.join("production.glb");
    let rig_arg = rig.display().to_string();
    let out = marionette(&["mannequin", "--production", "-o", &rig_arg]);
    ok(&out, "mannequin --production");
    let text = ok(&marionette(&["inspect", &rig_arg]), "inspect");
    assert!(text.contains("skeleton: 256 joints"), "{text}");
    // a script's graph on it: the locomotion example, its takes baked
    std::fs::copy(
        crate::common::repo_root().join("scripts/locomotion.lua"),
        dir.join("locomotion.lua"),
    )
    .expect("copy the script");
    let check = ok(
        &marionette_in(
            &dir,
            &["check", "locomotion.lua", "--rig", "production.glb"],
        ),
        "check",
    );
    assert!(check.contains("locomotion.lua: ok"), "{check}");
    let run = ok(
        &marionette_in(
            &dir,
            &[
                "run",
                "locomotion.lua",
                "--rig",
                "production.glb",
                "--take",
                "walk_to_run",
                "--time",
                "2",
                "--json",
            ],
        ),
        "run",
    );
    let json: serde_json::Value = serde_json::from_str(&run).expect("json");
    assert_eq!(json["joints"].as_array().map(Vec::len), Some(256));
    ok(
        &marionette_in(
            &dir,
            &[
                "bake",
                "locomotion.lua",
                "--rig",
                "production.glb",
                "--all",
                "--quiet",
                "-o",
                "baked.glb",
            ],
        ),
        "bake the script",
    );
    // its own twenty clips baked and read back
    ok(
        &marionette_in(
            &dir,
            &[
                "bake",
                "production.glb",
                "--all",
                "--quiet",
                "-o",
                "clips.glb",
            ],
        ),
        "bake the rig",
    );
    let back = marionette_io::import(&dir.join("clips.glb")).expect("the bake reads back");
    assert_eq!(back.skeleton.len(), 256);
    assert_eq!(back.clips.len(), 20);
    ok(
        &marionette_in(
            &dir,
            &[
                "render",
                "production.glb",
                "--clip",
                "walk_03",
                "--time",
                "0.5",
                "--size",
                "160x120",
                "-o",
                "frame.png",
            ],
        ),
        "render",
    );
    assert!(dir.join("frame.png").is_file());
    // --joints: the 1000-joint variant, and a count no production rig has
    ok(
        &marionette_in(
            &dir,
            &[
                "mannequin",
                "--production",
                "--joints",
                "1000",
                "-o",
                "big.glb",
            ],
        ),
        "mannequin --production --joints 1000",
    );
    let text = ok(&marionette_in(&dir, &["inspect", "big.glb"]), "inspect big");
    assert!(text.contains("skeleton: 1000 joints"), "{text}");
    let out = marionette_in(
        &dir,
        &[
            "mannequin",
            "--production",
            "--joints",
            "50",
            "-o",
            "tiny.glb",
        ],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("50 joints: a production rig has 94 to 10000"),
        "{err}"
    );
}
