//! `marionette render SCRIPT.lua`: a script's graph rendered through a
//! [`PoseSource`](marionette_render::PoseSource): one take frame against a golden PNG (same
//! tolerance and `MARIONETTE_BLESS=1` rule as `render_golden`), and a contact sheet over a take
//! whose cells differ.

use std::path::Path;

use crate::render_common::{assert_golden, diff, gpu, output_dir};
use marionette_render::{render_source, RenderRequest};
use marionette_script::preview::{load_preview, ScriptPoses};

fn locomotion(take: Option<&str>) -> (ScriptPoses, std::rc::Rc<marionette_anim::Model>) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomotion.lua");
    // The built-in mannequin (assets/mannequin.glb is the same model written to a file).
    let loaded = load_preview(&script, &Default::default()).expect("locomotion.lua loads");
    let poses = ScriptPoses::new(loaded.graph, take, None).expect("take plays");
    (poses, loaded.model)
}

/// A frame of the walk_to_run take (walking, root motion applied) matches its golden.
#[test]
fn locomotion_take_frame() {
    let Some(ctx) = gpu() else { return };
    let (mut poses, model) = locomotion(Some("walk_to_run"));
    let req = RenderRequest {
        time: 1.5,
        ..Default::default()
    };
    let img = render_source(&ctx, &model, &mut poses, &req).expect("render failed");
    assert!(poses.graph().runtime_error().is_none());
    img.save(output_dir().join("script_walk_to_run.png"))
        .expect("cannot write output");
    assert_golden("script_walk_to_run", &img);
}

/// A 3x2 contact sheet of the hello take (the script's first take): every cell differs from
/// the next, so the sheet really spreads over the take.
#[test]
fn locomotion_take_sheet_frames_differ() {
    let Some(ctx) = gpu() else { return };
    let (mut poses, model) = locomotion(None);
    assert_eq!(poses.take(), Some("hello"));
    let req = RenderRequest {
        width: 384,
        height: 256,
        sheet: Some((3, 2)),
        ..Default::default()
    };
    let img = render_source(&ctx, &model, &mut poses, &req).expect("render failed");
    img.save(output_dir().join("script_hello_sheet.png"))
        .expect("cannot write output");
    let cell =
        |i: u32| image::imageops::crop_imm(&img, (i % 3) * 128, (i / 3) * 128, 128, 128).to_image();
    for i in 0..5 {
        let (changed, _) = diff(&cell(i), &cell(i + 1), 8);
        assert!(
            changed > 50,
            "sheet cells {i} and {} look the same ({changed} px)",
            i + 1
        );
    }
}

/// A script without takes and without a time range is a clear error.
#[test]
fn no_take_no_range_is_an_error() {
    let dir = output_dir().join("still_script");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("still.lua");
    std::fs::write(
        &script,
        "local rig = marionette.rig()\nreturn graph { root = rig.idle }\n",
    )
    .expect("write script");
    let loaded = load_preview(&script, &Default::default()).expect("script loads");
    let err = ScriptPoses::new(loaded.graph, None, None)
        .err()
        .expect("no range must fail");
    assert!(err.to_string().contains("no takes"), "{err}");
}

/// `marionette render SCRIPT.lua --take T --time S --ghosts N --sheet CxR` succeeds and writes
/// an image of the asked size.
#[test]
fn cli_renders_a_script() {
    let Some(_ctx) = gpu() else { return };
    let png = output_dir().join("script_cli_sheet.png");
    let out = crate::common::marionette_cmd()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "render",
            "scripts/locomotion.lua",
            "--take",
            "walk_to_run",
            "--time",
            "2",
            "--ghosts",
            "1",
            "--overlay",
            "skeleton",
            "--sheet",
            "2x1",
            "--size",
            "256x128",
            "-o",
        ])
        .arg(&png)
        .arg("--force") // the last run left it in the output folder
        .output()
        .expect("cannot run marionette");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("take walk_to_run"), "{err}");
    let img = image::open(&png).expect("png decodes").to_rgba8();
    assert_eq!(img.dimensions(), (256, 128));
}

/// A contact sheet of a take that travels (walk_to_run, about 6 m): each cell follows the
/// character over the ground, so it fills every cell (over half its height, first cell to
/// last), and each cell has its time written under it (a dark box with white digits).
#[test]
fn a_sheet_follows_the_character_and_labels_its_cells() {
    let Some(ctx) = gpu() else { return };
    let (mut poses, model) = locomotion(Some("walk_to_run"));
    let req = RenderRequest {
        width: 800,
        height: 200,
        sheet: Some((4, 1)),
        ..Default::default()
    };
    let img = render_source(&ctx, &model, &mut poses, &req).expect("render failed");
    img.save(output_dir().join("script_walk_sheet.png"))
        .expect("cannot write output");
    for i in 0..4u32 {
        let cell = image::imageops::crop_imm(&img, i * 200, 0, 200, 200).to_image();
        // the mannequin is the only near-white surface above the label's rows
        let rows: Vec<u32> = (0..170)
            .filter(|&y| (0..200).any(|x| cell.get_pixel(x, y).0[..3].iter().all(|&c| c > 170)))
            .collect();
        let height = rows.last().zip(rows.first()).map_or(0, |(b, t)| b - t);
        assert!(
            height > 100,
            "cell {i}: the character is {height} px tall of 200"
        );
        // the label: a dark box at the bottom left with white pixels in it
        let dark = cell.get_pixel(5, 179).0;
        assert!(
            dark[..3].iter().all(|&c| c < 60),
            "cell {i}: no label box ({dark:?})"
        );
        let white = (4..80).any(|x| (178..196).any(|y| cell.get_pixel(x, y).0[0] == 255));
        assert!(white, "cell {i}: no label text");
    }
}
