//! Odd command lines (issue 11): every argument is checked up front with a message naming the
//! limit, no command replaces an existing file without `--force`, a `post` that throws gives a
//! non-zero exit, takes and bakes too large to hold are refused before anything is allocated,
//! and NaN/inf in a script are named. Messages are asserted verbatim.

use crate::render_common;

use crate::common::marionette;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::script_common::TempDir;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts a usage error: exit status 2 and clap's message for `value` of `arg`.
fn assert_invalid(o: &Output, value: &str, arg: &str, message: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    assert_eq!(
        stderr(o),
        format!(
            "error: invalid value '{value}' for '{arg}': {message}\n\nFor more information, \
             try '--help'.\n"
        )
    );
}

/// Asserts a failure (exit status 1) whose last stderr line is `error: {message}`.
fn assert_error(o: &Output, message: &str) {
    assert_eq!(o.status.code(), Some(1), "{}", stderr(o));
    let err = stderr(o);
    assert!(
        err.ends_with(&format!("error: {message}\n")),
        "expected 'error: {message}' at the end of:\n{err}"
    );
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Writes a script over the bundled mannequin.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("local rig = marionette.rig()\n{body}")).expect("write");
    path
}

/// `--time` is finite and at least 0 for every command that takes one; a negative number
/// reaches the check (not clap's "use '-- -1'").
#[test]
fn times_are_finite_and_not_negative() {
    let msg = |t: &str| format!("a time must be a finite number of seconds >= 0, got {t}");
    for (t, shown) in [
        ("NaN", "NaN"),
        ("-1", "-1"),
        ("inf", "inf"),
        ("1e39", "1e39"),
    ] {
        let o = marionette(&[
            "render",
            "assets/mannequin.glb",
            "--time",
            t,
            "-o",
            "never.png",
        ]);
        assert_invalid(&o, t, "--time <TIME>", &msg(shown));
        let o = marionette(&["run", "scripts/locomotion.lua", "--time", t]);
        assert_invalid(&o, t, "--time <TIME>", &msg(shown));
    }
    let o = marionette(&["sample", "assets/mannequin.glb", "--time", "-0.5"]);
    assert_invalid(&o, "-0.5", "--time <TIME>", &msg("-0.5"));
    let o = marionette(&["edit", "--time", "NaN", "--screenshot", "never.png"]);
    assert_invalid(&o, "NaN", "--time <TIME>", &msg("NaN"));
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("never.png")
        .exists());
}

/// `--fps` has a take's limit (1..1000, one constant); the tolerance must be at least 0.001 mm.
#[test]
fn rates_and_tolerances() {
    let dir = TempDir::new("cli-args-rates");
    let out = dir.join("out.glb");
    for fps in ["1001", "0", "1e9"] {
        let o = marionette(&["bake", "assets/mannequin.glb", "--fps", fps, "-o", s(&out)]);
        let shown = fps.parse::<f32>().expect("number");
        assert_invalid(
            &o,
            fps,
            "--fps <FPS>",
            &format!("fps {shown} is outside 1..1000"),
        );
    }
    let o = marionette(&[
        "bake",
        "assets/mannequin.glb",
        "--fps",
        "NaN",
        "-o",
        s(&out),
    ]);
    assert_invalid(&o, "NaN", "--fps <FPS>", "fps must be a number, got NaN");
    let take = script(
        &dir,
        "fast.lua",
        "return graph { root = rig.idle, takes = { t = { duration = 1, fps = 1001 } } }\n",
    );
    let o = marionette(&["check", s(&take)]);
    assert!(
        stderr(&o).starts_with(&format!(
            "error: {}:2: take 't': fps 1001 is outside 1..1000\n",
            take.display()
        )),
        "{}",
        stderr(&o)
    );
    for (mm, shown) in [("-1", "-1"), ("0", "0"), ("NaN", "NaN")] {
        let o = marionette(&[
            "bake",
            "assets/mannequin.glb",
            "--tolerance-mm",
            mm,
            "-o",
            s(&out),
        ]);
        assert_invalid(
            &o,
            mm,
            "--tolerance-mm <TOLERANCE_MM>",
            &format!("the tolerance must be a finite number of millimetres >= 0.001, got {shown}"),
        );
    }
    assert!(!out.exists());
}

/// Render and edit counts and sizes have limits, checked before any file is read or device
/// opened: ghosts 0..32, a positive ghost step, sheets of at most 1024 cells of 16x16 pixels,
/// sizes of at least 1x1, frames 1..100000, and an output that is a PNG or JPEG.
#[test]
fn render_and_edit_limits() {
    let render = |extra: &[&str]| {
        let mut args = vec!["render", "assets/mannequin.glb", "--time", "0.5"];
        args.extend(extra);
        marionette(&args)
    };
    let o = render(&["--ghosts", "1000000", "-o", "never.png"]);
    assert_invalid(
        &o,
        "1000000",
        "--ghosts <GHOSTS>",
        "ghosts must be 0 to 32, got 1000000",
    );
    let o = render(&["--ghosts", "-1", "-o", "never.png"]);
    assert_invalid(
        &o,
        "-1",
        "--ghosts <GHOSTS>",
        "'-1' is not a whole number >= 0",
    );
    let o = render(&["--ghost-step", "0", "-o", "never.png"]);
    assert_invalid(
        &o,
        "0",
        "--ghost-step <GHOST_STEP>",
        "the ghost step must be a finite number of seconds > 0, got 0",
    );
    let o = render(&["--size", "0x0", "-o", "never.png"]);
    assert_invalid(
        &o,
        "0x0",
        "--size <SIZE>",
        "'0x0': both numbers must be at least 1",
    );
    let o = render(&["-o", "never.gif"]);
    assert_invalid(
        &o,
        "never.gif",
        "--output <OUTPUT>",
        "'never.gif': give a .png or .jpg file",
    );
    let o = render(&["--sheet", "1000x1000", "-o", "never.png"]);
    assert_error(
        &o,
        "--sheet 1000x1000 is 1000000 cells; a contact sheet has at most 1024",
    );
    let o = render(&["--sheet", "40x10", "--size", "512x512", "-o", "never.png"]);
    assert_error(
        &o,
        "--sheet 40x10 at --size 512x512 gives cells of 12x51 pixels; cells need at least 16x16 \
         (at most 32x32 cells fit, or raise --size)",
    );
    let o = marionette(&["edit", "--frames", "0", "--screenshot", "never.png"]);
    assert_invalid(
        &o,
        "0",
        "--frames <FRAMES>",
        "frames must be 1 to 100000, got 0",
    );
    let o = marionette(&["edit", "--screenshot", "never.jpg"]);
    assert_invalid(
        &o,
        "never.jpg",
        "--screenshot <OUT.png>",
        "'never.jpg': give a .png file",
    );
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("never.png")
        .exists());
}

/// One overwrite rule: `render -o`, `edit --screenshot`, `mannequin -o` (a `.gltf`'s `.bin`
/// too) and `bake -o` refuse an existing file without `--force`, leave it as it was, and
/// replace it with `--force`; an input gets its own message.
#[test]
fn existing_files_need_force() {
    let dir = TempDir::new("cli-args-overwrite");
    let old = b"not mine to replace".to_vec();
    let existing = |name: &str| {
        let p = dir.join(name);
        std::fs::write(&p, &old).expect("write");
        p
    };
    let message = |p: &Path| format!("'{}' exists; pass --force to replace it", p.display());

    let png = existing("frame.png");
    let o = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--time",
        "0",
        "-o",
        s(&png),
    ]);
    assert_error(&o, &message(&png));
    let o = marionette(&["edit", "--screenshot", s(&png)]);
    assert_error(&o, &message(&png));
    assert_eq!(std::fs::read(&png).expect("read"), old);

    let glb = existing("fox.glb");
    let o = marionette(&["mannequin", "-o", s(&glb)]);
    assert_error(&o, &message(&glb));
    assert_eq!(std::fs::read(&glb).expect("read"), old);
    let bin = existing("pair.bin");
    let gltf = dir.join("pair.gltf");
    let o = marionette(&["mannequin", "-o", s(&gltf)]);
    assert_error(&o, &message(&bin));
    assert!(!gltf.exists());
    let o = marionette(&["mannequin", "-o", s(&glb), "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(std::fs::read(&glb).expect("read"), old);

    // bake: an existing output that is not an input, then the input itself
    let out = existing("baked.glb");
    let o = marionette(&[
        "bake",
        "assets/mannequin.glb",
        "--clip",
        "wave",
        "-o",
        s(&out),
    ]);
    assert_error(&o, &message(&out));
    assert_eq!(std::fs::read(&out).expect("read"), old);
    let o = marionette(&[
        "bake",
        "assets/mannequin.glb",
        "--clip",
        "wave",
        "-o",
        s(&out),
        "--force",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(std::fs::read(&out).expect("read"), old);
    let rig = dir.join("rig.glb");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mannequin.glb"),
        &rig,
    )
    .expect("copy");
    let o = marionette(&["bake", s(&rig), "-o", s(&rig)]);
    assert_error(
        &o,
        &format!(
            "'{}' is an input; refusing to overwrite it (use --force)",
            rig.display()
        ),
    );
}

/// A script whose `post` throws at 1.1 s: `run` prints the report (with the error) and exits 1,
/// `check` evaluates every frame of the take and names it and the time, and `render` writes
/// the image drawn without `post` and exits 1.
#[test]
fn post_errors_fail_run_check_and_render() {
    let dir = TempDir::new("cli-args-post");
    let path = script(
        &dir,
        "late.lua",
        "return graph {\n  root = rig.idle,\n  post = function(pose, ctx)\n    if ctx.time > 1 \
         then error(\"boom\") end\n  end,\n  takes = { late = { duration = 2, fps = 10 } },\n}\n",
    );
    let where_ = format!("{}:5", path.display());
    let o = marionette(&["run", s(&path), "--take", "late", "--time", "0.5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = marionette(&["run", s(&path), "--take", "late", "--time", "1.5", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the report is printed");
    assert!(v["runtime_error"]
        .as_str()
        .is_some_and(|e| e.starts_with(&format!("{where_}: boom"))));
    assert!(
        stderr(&o).starts_with(&format!(
            "error: {}: runtime error (the pose is shown without post): {where_}: boom\n",
            path.display()
        )),
        "{}",
        stderr(&o)
    );
    let o = marionette(&["check", s(&path)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(&format!("error: {where_}: take 'late' at 1.1 s: boom\n")),
        "{}",
        stderr(&o)
    );
    if render_common::gpu().is_some() {
        let png = dir.join("late.png");
        let o = marionette(&[
            "render",
            s(&path),
            "--take",
            "late",
            "--time",
            "1.5",
            "--size",
            "64x64",
            "-o",
            s(&png),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(png.is_file());
        assert!(
            stderr(&o).contains(&format!(
                "error: {}: runtime error (the image was drawn without post): {where_}: boom\n",
                path.display()
            )),
            "{}",
            stderr(&o)
        );
    }
}

/// Takes and bakes too large to hold are refused before anything is allocated, naming the
/// take: a duration × fps over 1,000,000 frames when the script loads, frames × joints over
/// 5,000,000 when it is baked; live parameters are simulated to at most 1,000,000 steps; a
/// time past a take's end shows its last frame with a note.
#[test]
fn huge_takes_and_times_are_refused() {
    let dir = TempDir::new("cli-args-huge");
    let long = script(
        &dir,
        "long.lua",
        "return graph { root = rig.idle, takes = { t = { duration = 1e7 } } }\n",
    );
    let o = marionette(&["check", s(&long)]);
    assert!(
        stderr(&o).starts_with(&format!(
            "error: {}:2: take 't': 10000000 s at 60 fps is 600000001 frames, over the limit \
             of 1000000; shorten it or lower its fps\n",
            long.display()
        )),
        "{}",
        stderr(&o)
    );
    // 13100 s at 60 fps is 786,001 frames: a valid take, but x 256 joints (the production
    // rig) too much to bake (a 4000 s take on the 24-joint mannequin bakes)
    let rig = dir.join("production.glb");
    let o = marionette(&["mannequin", "--production", "-o", s(&rig)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let wide = script(
        &dir,
        "wide.lua",
        "return graph { root = rig.idle, takes = { t = { duration = 13100 } } }\n",
    );
    let out = dir.join("wide.glb");
    let o = marionette(&["bake", s(&wide), "--rig", s(&rig), "-o", s(&out)]);
    assert_error(
        &o,
        "take 't': 786001 frames x 256 joints is 201216256 samples, over the limit of \
         200000000; shorten it or bake at a lower --fps",
    );
    assert!(!out.exists());
    let o = marionette(&["run", "scripts/locomotion.lua", "--time", "1e9"]);
    assert_error(
        &o,
        "--time 1000000000: live parameters are simulated step by step from 0 at 60 Hz, which \
         is 59999996185 steps, over the limit of 1000000 (16667 s); give a smaller --time or \
         play a --take",
    );
    let o = marionette(&[
        "run",
        "scripts/locomotion.lua",
        "--take",
        "walk_to_run",
        "--time",
        "1e9",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "note: --time 1000000000 is past the end of take 'walk_to_run' (4 s): showing its last \
         frame\n"
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["frame"], 240);
}

/// A take named but missing says which takes there are, the same way in `run`, `render`,
/// `bake` and `edit`.
#[test]
fn missing_takes_are_named() {
    let expected =
        "scripts/locomotion.lua: unknown take 'nope' (the script has: hello, walk_to_run)";
    let o = marionette(&[
        "run",
        "scripts/locomotion.lua",
        "--take",
        "nope",
        "--time",
        "1",
    ]);
    assert_error(&o, expected);
    let o = marionette(&[
        "render",
        "scripts/locomotion.lua",
        "--take",
        "nope",
        "--time",
        "1",
        "-o",
        "never.png",
    ]);
    assert_error(&o, expected);
    let o = marionette(&[
        "bake",
        "scripts/locomotion.lua",
        "--take",
        "nope",
        "-o",
        "never.glb",
    ]);
    assert_error(&o, expected);
    // the editor too (headless, so the same on any machine), and nothing is written
    let dir = TempDir::new("cli-args-missing-take");
    let shot = dir.join("never.png");
    let o = crate::common::marionette_cmd()
        .args(["edit", "scripts/locomotion.lua", "--take", "nope"])
        .args(["--screenshot", s(&shot)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("cannot run marionette");
    assert_error(&o, expected);
    assert!(!shot.exists());
}

/// `edit` on a script that does not load opens anyway (headless here): `--screenshot` writes
/// the window, the red error banner under its title bar, and exits 0.
#[test]
fn edit_screenshots_a_broken_script() {
    let dir = TempDir::new("cli-args-edit-broken");
    let shot = dir.join("broken.png");
    let o = crate::common::marionette_cmd()
        .args([
            "edit",
            "tests/fixtures/editor/long_error.lua",
            "--frames",
            "2",
        ])
        .args(["--screenshot", s(&shot)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("cannot run marionette");
    assert!(o.status.success(), "{}", stderr(&o));
    let img = image::open(&shot)
        .expect("the screenshot decodes")
        .to_rgba8();
    // the banner's dark red, right of its text, in the top sixth of the window
    let (w, h) = img.dimensions();
    let red = (0..h / 6)
        .filter(|&y| {
            let p = img.get_pixel(w - 12, y);
            p[0] > 90 && p[1] < 50 && p[2] < 50
        })
        .count();
    assert!(red > 30, "no error banner ({red} red rows)");
}

/// NaN, the infinities and numbers beyond 32-bit floats are named wherever a script passes a
/// number (not "expected a number, got number").
#[test]
fn lua_nan_and_inf_are_named() {
    let dir = TempDir::new("cli-args-nan");
    for (name, body, message) in [
        (
            "nan.lua",
            "params { speed = float(0/0, 0, 6) }\nreturn graph { root = rig.idle }\n",
            "float(default, min, max): expected a number, got NaN",
        ),
        (
            "inf.lua",
            "return graph { root = blend({ {rig.idle, math.huge} }) }\n",
            "blend weight: expected a finite number, got inf",
        ),
        (
            "big.lua",
            "return graph { root = rig.idle:speed(1e300) }\n",
            ":speed: 1e300 is too large (at most 3.4028235e38 in magnitude)",
        ),
        (
            "duration.lua",
            "return graph { root = rig.idle, takes = { t = { duration = 0/0 } } }\n",
            "take 't': duration: expected a number, got NaN",
        ),
        (
            "when.lua",
            "params { speed = float(0, 0, 6) } return graph { root = state_machine { start = \"a\", \
             states = { a = rig.idle, b = rig.walk }, transitions = { { \"a\", \"b\", \
             when = \"speed > nan\" } } } }\n",
            "transition 1: 'nan' is not a finite number in \"speed > nan\"",
        ),
        (
            "mask.lua",
            "return graph { root = layer(rig.idle, { rig.wave, mask = mask.all(0/0) }) }\n",
            "mask.all: expected a number, got NaN",
        ),
    ] {
        let path = script(&dir, name, body);
        let o = marionette(&["check", s(&path)]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(
            stderr(&o).starts_with(&format!("error: {}:2: {message}\n", path.display())),
            "{name}: {}",
            stderr(&o)
        );
    }
}

/// On the device: a size over its largest texture, or too large to read back, is one line
/// naming the limit (not wgpu's validation errors); `-o r.jpg` writes an RGB JPEG.
#[test]
fn device_sizes_and_jpeg() {
    let Some(gpu) = render_common::gpu() else {
        return;
    };
    let max = gpu.device.limits().max_texture_dimension_2d;
    let max_buffer = gpu.device.limits().max_buffer_size;
    let name = gpu.info.name.clone();
    drop(gpu);
    let dir = TempDir::new("cli-args-device");
    let png = dir.join("big.png");
    let side = (max + 1).to_string();
    let size = format!("{side}x64");
    let o = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--time",
        "0.5",
        "--size",
        &size,
        "-o",
        s(&png),
    ]);
    assert_error(
        &o,
        &format!(
            "--size {size}: image size {size} is not supported (1..={max} per side) on {name}"
        ),
    );
    assert_eq!(stderr(&o).lines().count(), 2, "{}", stderr(&o));
    assert!(!png.exists());
    if u64::from(max) * u64::from(max) * 4 > max_buffer {
        // each side fits, the read-back buffer does not (llvmpipe: 1024 MiB of 256 MiB)
        let size = format!("{max}x{max}");
        let o = marionette(&[
            "render",
            "assets/mannequin.glb",
            "--time",
            "0.5",
            "--size",
            &size,
            "-o",
            s(&png),
        ]);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        let want = format!(
            "error: --size {size}: image size {size} is too large for this device: reading it \
             back needs {} MiB, at most {} MiB (",
            (u64::from(max) * u64::from(max) * 4) >> 20,
            max_buffer >> 20
        );
        assert!(err.contains(&want), "{err}");
        assert_eq!(err.lines().count(), 2, "{err}");
    }
    let jpg = dir.join("r.jpg");
    let o = marionette(&[
        "render",
        "assets/mannequin.glb",
        "--time",
        "0.5",
        "--size",
        "96x64",
        "-o",
        s(&jpg),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let img = image::open(&jpg).expect("a JPEG");
    assert_eq!(img.color(), image::ColorType::Rgb8);
    assert_eq!((img.width(), img.height()), (96, 64));
}
