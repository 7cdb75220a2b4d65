//! `marionette` with no arguments: run from a folder without the bundled files (so it falls
//! back to the source tree), it writes a baked glb of every locomotion.lua take and one contact
//! sheet PNG per take into `./marionette-out`, and the outputs are valid.

use std::path::PathBuf;

/// Without a display the tour says so in one line and writes valid outputs: the glb imports with both takes as animations, and each
/// take's contact sheet decodes at 1024x512 (unless no wgpu adapter exists outside CI, which
/// the tour must say).
#[test]
fn tour_writes_valid_outputs() {
    let cwd = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("default_run");
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).expect("cannot create the temp cwd");
    // No display: `marionette` alone runs the tour instead of opening the editor.
    let out = crate::common::marionette_cmd()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .current_dir(&cwd)
        .output()
        .expect("cannot run marionette");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for needle in [
        "running the headless tour instead of the editor",
        "24 joints",
        "speed = 0 in [0, 6]",
        "walk_to_run: 4s",
        "next:",
    ] {
        assert!(stdout.contains(needle), "missing '{needle}' in:\n{stdout}");
    }
    let dir = cwd.join("marionette-out");
    let baked = marionette_io::import(&dir.join("locomotion.glb")).expect("baked glb imports");
    // The rig keeps its own clips; the takes are added beside them.
    let names: Vec<&str> = baked.clips.iter().map(|c| c.name.as_str()).collect();
    for take in ["hello", "walk_to_run"] {
        assert!(names.contains(&take), "no animation {take} in {names:?}");
    }
    assert_eq!(baked.skeleton.len(), 24);
    if stdout.contains("skipped the contact sheets") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must render the sheets:\n{stdout}"
        );
        assert!(stdout.contains("mesa-vulkan-drivers"));
        return;
    }
    for take in ["hello", "walk_to_run"] {
        let img = image::open(dir.join(format!("{take}.png")))
            .unwrap_or_else(|e| panic!("{take}.png: {e}"))
            .to_rgba8();
        assert_eq!(img.dimensions(), (1024, 512), "{take}.png");
        let first = img.get_pixel(0, 0);
        assert!(
            img.pixels().filter(|p| *p != first).count() > 10_000,
            "{take}.png looks empty"
        );
    }
}
