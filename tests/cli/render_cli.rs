//! `marionette render` end to end: a frame, a contact sheet with overlays, and the clear error
//! for scripts (which need the graph feature).

use crate::render_common;

use crate::common::marionette;

/// A frame and a 3x2 sheet of the walk are written as PNGs of the requested size.
#[test]
fn renders_frame_and_sheet() {
    if render_common::gpu().is_none() {
        return;
    }
    let dir = render_common::output_dir();
    let frame = dir.join("cli_frame.png");
    let out = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--clip",
        "walk",
        "--time",
        "0.3",
        "--size",
        "96x64",
        "--overlay",
        "skeleton,axes",
        "--heatmap",
        "L_thigh",
        "--ghosts",
        "1",
        "-o",
        frame.to_str().expect("utf-8 path"),
        "--force", // the last run left it in the output folder
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        image::open(&frame).expect("png").to_rgba8().dimensions(),
        (96, 64)
    );
    let sheet = dir.join("cli_sheet.png");
    let out = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--clip",
        "run",
        "--sheet",
        "3x2",
        "--size",
        "192x128",
        "-o",
        sheet.to_str().expect("utf-8 path"),
        "--force", // the last run left it in the output folder
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::open(&sheet).expect("png").to_rgba8();
    assert_eq!(img.dimensions(), (192, 128));
    // Six different frames: the top-left and bottom-right cells differ.
    let a = image::imageops::crop_imm(&img, 0, 0, 64, 64).to_image();
    let b = image::imageops::crop_imm(&img, 128, 64, 64, 64).to_image();
    assert!(render_common::diff(&a, &b, 30).0 > 20);
}

/// Missing scripts, unknown takes, takes on a glTF, unknown clips and joints are clear
/// errors, not crashes.
#[test]
fn clear_errors() {
    let out = marionette(&["render", "walk.lua", "--time", "1", "-o", "x.png"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("walk.lua: cannot read"), "{err}");
    let out = marionette(&[
        "render",
        "scripts/locomotion.lua",
        "--take",
        "moonwalk",
        "--time",
        "1",
        "-o",
        "x.png",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("unknown take 'moonwalk'"), "{err}");
    let out = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--take",
        "walk_to_run",
        "--time",
        "1",
        "-o",
        "x.png",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes come from scripts"));
    let out = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--heatmap",
        "nose",
        "--time",
        "0",
        "-o",
        "x.png",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("no joint 'nose'"), "{err}");
    let out = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--clip",
        "fly",
        "--time",
        "0",
        "-o",
        "x.png",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("fly"));

    // MARIONETTE_ADAPTER forcing an adapter that does not exist names the variable.
    let out = crate::common::marionette_cmd()
        .args([
            "render",
            "assets/mannequin.glb",
            "--time",
            "0",
            "-o",
            "x.png",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("MARIONETTE_ADAPTER", "no-such-gpu-zzz")
        .output()
        .expect("cannot run marionette");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("MARIONETTE_ADAPTER=no-such-gpu-zzz matches none"),
        "{err}"
    );
}

/// `render SCRIPT --set` renders live parameters (not the first take): running at speed 4
/// gives a different picture from standing at speed 0; `--set` without `--time` and on a glTF
/// file are errors.
#[test]
fn renders_script_with_set() {
    if render_common::gpu().is_none() {
        return;
    }
    let dir = render_common::output_dir();
    let render = |speed: &str, name: &str| {
        let path = dir.join(name);
        let set = format!("speed={speed}");
        let out = marionette(&[
            "render",
            "scripts/locomotion.lua",
            "--set",
            &set,
            "--set",
            "look=0,1.6,2",
            "--time",
            "0.4",
            "--size",
            "64x64",
            "-o",
            path.to_str().expect("utf-8 path"),
            "--force", // the last run left it in the output folder
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("take (live)"));
        image::open(&path).expect("png").to_rgba8()
    };
    let still = render("0", "cli_set_still.png");
    let running = render("4", "cli_set_run.png");
    assert_ne!(still.as_raw(), running.as_raw());
    let out = marionette(&[
        "render",
        "scripts/locomotion.lua",
        "--set",
        "speed=1",
        "--sheet",
        "2x1",
        "-o",
        "x.png",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--set: give --time SECONDS"));
    let out = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--set",
        "speed=1",
        "--time",
        "0",
        "-o",
        "x.png",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--set speed=1: only scripts have parameters"));
}
