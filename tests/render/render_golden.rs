//! Golden images of the bundled mannequin rendered headlessly (lavapipe in CI): rest pose, a
//! walk frame, the skeleton overlay and a weight heatmap, compared with a per-pixel tolerance.
//! `MARIONETTE_BLESS=1 cargo test --test render_golden` rewrites the goldens.

use crate::render_common;

use crate::render_common::{assert_golden, gpu, mannequin};
use marionette_render::{render_model, RenderRequest, ViewOptions};

fn clip(model: &marionette_anim::Model, name: &str) -> usize {
    model
        .clips
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("mannequin has no clip {name}"))
}

fn render(name: &str, req: RenderRequest) {
    let Some(ctx) = gpu() else { return };
    let model = mannequin();
    let img = render_model(&ctx, &model, &req).expect("render failed");
    img.save(render_common::output_dir().join(format!("{name}.png")))
        .expect("cannot write output");
    assert_golden(name, &img);
}

/// The mannequin in its bind (rest) pose.
#[test]
fn mannequin_rest() {
    render("mannequin_rest", RenderRequest::default());
}

/// One frame of the walk cycle.
#[test]
fn mannequin_walk_frame() {
    let model = mannequin();
    render(
        "mannequin_walk",
        RenderRequest {
            clip: Some(clip(&model, "walk")),
            time: 0.3,
            ..Default::default()
        },
    );
}

/// The walk frame with the skeleton overlay and a selected joint.
#[test]
fn mannequin_skeleton_overlay() {
    let model = mannequin();
    render(
        "mannequin_skeleton",
        RenderRequest {
            clip: Some(clip(&model, "walk")),
            time: 0.3,
            view: ViewOptions {
                skeleton: true,
                selected_joint: model.skeleton.find("L_forearm"),
                ..Default::default()
            },
            ..Default::default()
        },
    );
}

/// The weight heatmap of the left upper arm (warm = 1) in the rest pose.
#[test]
fn mannequin_heatmap() {
    let model = mannequin();
    let joint = model.skeleton.find("L_upperarm").expect("joint L_upperarm");
    render(
        "mannequin_heatmap",
        RenderRequest {
            view: ViewOptions {
                heatmap_joint: Some(joint),
                ..Default::default()
            },
            ..Default::default()
        },
    );
}
