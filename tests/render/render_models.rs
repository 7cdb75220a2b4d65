//! The public glTF sample models (Fox, RobotExpressive, SimpleSkin) import and render without
//! wgpu validation errors; the character is visible, framed (not cut off) and, for the Fox,
//! textured. Images are written to `<target>/render-tests/` for people to look at.

use crate::render_common::{gpu, output_dir, testdata_file};
use marionette_render::{render_model, RenderRequest, ViewOptions};

/// Bounding box (min x, min y, max x, max y) of pixels that differ from the background.
fn foreground_box(img: &image::RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let bg = img.get_pixel(0, 0).0;
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in img.enumerate_pixels() {
        if p.0.iter().zip(bg.iter()).any(|(a, c)| a.abs_diff(*c) > 12) {
            b = Some(match b {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    b
}

/// Renders a frame of clip `clip` (no grid, so only the character is foreground) and a
/// contact sheet with the skeleton overlay; returns the frame.
fn render(file: &str, clip: usize, time: f32) -> Option<image::RgbaImage> {
    let path = testdata_file(file)?;
    let ctx = gpu()?;
    let model = marionette_io::import(&path).expect("import");
    let stem = file.split('.').next().unwrap_or(file);
    let frame = render_model(
        &ctx,
        &model,
        &RenderRequest {
            clip: Some(clip),
            time,
            view: ViewOptions {
                grid: false,
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    frame
        .save(output_dir().join(format!("{stem}.png")))
        .expect("write");
    let sheet = render_model(
        &ctx,
        &model,
        &RenderRequest {
            width: 512,
            height: 256,
            clip: Some(clip),
            sheet: Some((4, 2)),
            view: ViewOptions {
                skeleton: true,
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{file} sheet: {e}"));
    sheet
        .save(output_dir().join(format!("{stem}_sheet.png")))
        .expect("write");
    assert!(ctx.take_errors().is_empty());
    // Visible and framed: a sizeable box that does not touch the image border.
    let (x0, y0, x1, y1) =
        foreground_box(&frame).unwrap_or_else(|| panic!("{file}: nothing drawn"));
    let (w, h) = (frame.width(), frame.height());
    assert!(
        x0 > 0 && y0 > 0 && x1 < w - 1 && y1 < h - 1,
        "{file}: cut off: {x0},{y0}..{x1},{y1}"
    );
    assert!(
        (x1 - x0).max(y1 - y0) > w / 3,
        "{file}: too small: {x0},{y0}..{x1},{y1}"
    );
    Some(frame)
}

/// Fox (textured, no normals): the fur texture's orange dominates the character.
#[test]
fn fox_renders_textured() {
    let Some(img) = render("Fox.glb", 1, 0.3) else {
        return;
    };
    let orange = img
        .pixels()
        .filter(|p| p.0[0] as i32 > p.0[1] as i32 + 40 && p.0[1] as i32 > p.0[2] as i32 + 20)
        .count();
    assert!(
        orange > 2000,
        "only {orange} orange pixels: texture missing?"
    );
}

/// RobotExpressive (several meshes and materials, 14 clips).
#[test]
fn robot_expressive_renders() {
    render("RobotExpressive.glb", 0, 1.0);
}

/// SimpleSkin (two joints, no normals, embedded buffers).
#[test]
fn simple_skin_renders() {
    render("SimpleSkin.gltf", 0, 1.0);
}
