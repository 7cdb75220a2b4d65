//! A real window under Xvfb: `marionette edit --screenshot OUT.png --frames 5` opens the
//! editor (winit + egui + the renderer on lavapipe), saves the whole window and exits; the PNG
//! shows the character in the viewport and the panels around it. Without xvfb-run the test says
//! so and skips, unless `CI` is set (then it fails).

use std::path::PathBuf;
use std::process::Command;

/// True when `xvfb-run` is on the PATH.
fn have_xvfb() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// False (with a message) when xvfb-run is missing outside CI; fails under CI.
fn can_run() -> bool {
    if have_xvfb() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the window test: install xvfb"
    );
    eprintln!("skipped: xvfb-run is not installed (apt-get install xvfb)");
    false
}

/// The window's screenshot has the viewport (a lit character over the background) and the
/// panels (egui's panel colour on both sides and under the viewport).
#[test]
fn window_screenshot_shows_character_and_panels() {
    if can_run() {
        let (stdout, stderr) = shoot("editor_window", None);
        assert!(!stderr.contains("device lost"), "{stderr}");
        assert!(!stdout.is_empty());
    }
}

/// A GPU device lost at frame 2 is recreated: the run still ends with a full screenshot.
#[test]
fn window_survives_device_loss() {
    if can_run() {
        let (_, stderr) = shoot("editor_window_lost", Some(2));
        assert!(
            stderr.contains("GPU device lost"),
            "the loss happened:\n{stderr}"
        );
    }
}

/// Runs `marionette edit --screenshot` under Xvfb (losing the device at frame `lose_at`),
/// checks the image, returns stdout and stderr.
fn shoot(name: &str, lose_at: Option<u32>) -> (String, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("window.png");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/locomotion.lua");
    let mut cmd = Command::new("xvfb-run");
    if let Some(n) = lose_at {
        cmd.env(marionette_editor::LOSE_DEVICE_ENV, n.to_string());
    }
    let run = cmd
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_marionette"))
        .arg("edit")
        .arg(&script)
        .args(["--take", "walk_to_run", "--time", "1.5", "--frames", "5"])
        .arg("--screenshot")
        .arg(&out)
        .current_dir(&dir)
        .output()
        .expect("cannot run xvfb-run");
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{stdout}\n{stderr}");
    assert!(
        !stdout.contains("headless"),
        "the real window was used:\n{stdout}"
    );
    let img = image::open(&out)
        .expect("the screenshot decodes")
        .to_rgba8();
    assert_eq!(img.dimensions(), (1280, 720));
    // The viewport's centre column holds the character: light grey, unlike the blue-grey
    // background and the dark panels.
    let (w, h) = img.dimensions();
    let lit = (h / 8..h * 3 / 4)
        .flat_map(|y| (w * 2 / 5..w * 3 / 5).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = img.get_pixel(x, y);
            p[0] > 150 && p[1] > 150 && p[2] > 150
        })
        .count();
    assert!(
        lit > 2000,
        "no character in the viewport ({lit} light pixels)"
    );
    // Panels: the left and right strips are egui's dark panel fill, not the viewport's.
    let dark = |x: u32, y: u32| {
        let p = img.get_pixel(x, y);
        p[0] < 60 && p[1] < 60 && p[2] < 60
    };
    assert!(dark(5, h / 2), "no outliner panel on the left");
    assert!(dark(w - 5, h / 2), "no inspector panel on the right");
    assert!(dark(w / 2, h - 5), "no console/timeline at the bottom");
    // And there is text on them (many distinct colours, not a flat fill).
    let distinct: std::collections::HashSet<[u8; 4]> = img.pixels().map(|p| p.0).collect();
    assert!(distinct.len() > 500, "only {} colours", distinct.len());
    (stdout, stderr)
}
