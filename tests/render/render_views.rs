//! Debug views beyond the goldens: onion-skin ghosts are translucent extra poses, joint axes
//! draw red/green/blue, the selected joint is highlighted, and each view changes the image.

use crate::render_common;

use crate::render_common::{diff, gpu, mannequin};
use marionette_render::{lines, render_model, RenderRequest, ViewOptions};

fn walk_request(view: ViewOptions) -> RenderRequest {
    RenderRequest {
        clip: Some(1),
        time: 0.5,
        view: ViewOptions {
            grid: false,
            ..view
        },
        ..Default::default()
    }
}

fn count(img: &image::RgbaImage, f: impl Fn([u8; 4]) -> bool) -> usize {
    img.pixels().filter(|p| f(p.0)).count()
}

/// Ghosts add translucent figures: more foreground, and blended (tinted, darker than the lit
/// character) pixels appear, bluish for the past and orange for the future.
#[test]
fn onion_skin_ghosts() {
    let Some(ctx) = gpu() else { return };
    let model = mannequin();
    assert_eq!(model.clips[1].name, "walk");
    let plain = render_model(&ctx, &model, &walk_request(ViewOptions::default())).expect("render");
    let ghosts = render_model(
        &ctx,
        &model,
        &walk_request(ViewOptions {
            ghosts: 2,
            ghost_step: 0.15,
            ..Default::default()
        }),
    )
    .expect("render");
    ghosts
        .save(render_common::output_dir().join("ghosts.png"))
        .expect("write");
    let fg = |img: &image::RgbaImage| render_common::foreground_pixels(img);
    assert!(
        fg(&ghosts) > fg(&plain) + 500,
        "{} vs {}",
        fg(&ghosts),
        fg(&plain)
    );
    let bluish = count(&ghosts, |p| p[2] as i32 > p[0] as i32 + 25);
    let orange = count(&ghosts, |p| p[0] as i32 > p[2] as i32 + 25);
    assert!(
        bluish > 100 && orange > 100,
        "bluish {bluish}, orange {orange}"
    );
    // Translucent: the background still shows through (no ghost pixel is fully saturated).
    assert!(count(&ghosts, |p| p[0] == 255 && p[1] == 255 && p[2] == 255) == 0);
}

/// Axes add red-, green- and blue-dominated pixels; the skeleton highlights the selected joint.
#[test]
fn axes_and_selection() {
    let Some(ctx) = gpu() else { return };
    let model = mannequin();
    let base = render_model(&ctx, &model, &walk_request(ViewOptions::default())).expect("render");
    let axes = render_model(
        &ctx,
        &model,
        &walk_request(ViewOptions {
            axes: true,
            ..Default::default()
        }),
    )
    .expect("render");
    axes.save(render_common::output_dir().join("axes.png"))
        .expect("write");
    // One-pixel lines are resolved with the background under MSAA: test channel dominance.
    let dominant = |p: [u8; 4], c: usize| (0..3).all(|k| k == c || p[c] as i32 > p[k] as i32 + 50);
    let red = count(&axes, |p| dominant(p, 0));
    let green = count(&axes, |p| dominant(p, 1));
    let blue = count(&axes, |p| dominant(p, 2));
    assert!(
        red > 10 && green > 10 && blue > 10,
        "r {red} g {green} b {blue}"
    );
    assert!(diff(&base, &axes, 30).0 > 100);
    let selected = |joint| {
        render_model(
            &ctx,
            &model,
            &walk_request(ViewOptions {
                skeleton: true,
                selected_joint: joint,
                ..Default::default()
            }),
        )
        .expect("render")
    };
    // Pixels with the highlight's hue: its strong channels well above its weak ones.
    let sel = lines::SELECTED_COLOR;
    let magenta = |img: &image::RgbaImage| {
        count(img, |p| {
            (0..3).all(|hi| {
                sel[hi] < 0.5 || (0..3).all(|lo| sel[lo] >= 0.5 || p[hi] as i32 > p[lo] as i32 + 50)
            })
        })
    };
    let none = selected(None);
    let head = selected(model.skeleton.find("head"));
    assert_eq!(magenta(&none), 0);
    assert!(magenta(&head) > 5, "highlight missing");
    assert!(ctx.take_errors().is_empty());
}
